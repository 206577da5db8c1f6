import { arrayOf, BOOLEAN, described, INTEGER, OPEN_OBJECT, object, optional, STRING } from '../contract/results';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { pathParameter } from './parameters';
import { statReadableFile } from './readFile';
import { languageFor, outlinerFor, readSourceText } from '../symbols/symbols';
import type { CodeSymbol } from '../symbols/outline';

/** A reply's symbols stay within this many bytes of JSON, so the whole reply stays under 32 KB. */
const OUTLINE_BYTES = 28 * 1024;

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File.'),
    depth: { type: 'integer', minimum: 0, default: 1, description: '0: top level; 1: and members.' },
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies InputSchema;

const SYMBOL = object({
  name_path: STRING,
  kind: STRING,
  start_line: INTEGER,
  end_line: INTEGER,
  children: optional(described('The symbols inside, in this shape, while depth lasts.', arrayOf(OPEN_OBJECT))),
});

// A type, not an interface: the result's open `children` objects take only what has no undeclared keys.
type ShownSymbol = {
  name_path: string;
  kind: string;
  start_line: number;
  end_line: number;
  children?: ShownSymbol[];
};

function shown(symbols: readonly CodeSymbol[], depth: number): ShownSymbol[] {
  return symbols.map((symbol) => ({
    name_path: symbol.namePath,
    kind: symbol.kind,
    start_line: symbol.startLine,
    end_line: symbol.endLine,
    ...(depth > 0 && symbol.children.length > 0 ? { children: shown(symbol.children, depth - 1) } : {}),
  }));
}

function count(symbols: readonly CodeSymbol[]): number {
  return symbols.reduce((sum, symbol) => sum + 1 + count(symbol.children), 0);
}

const encoder = new TextEncoder();

/** The bytes of a symbol's own entry as JSON (without its children), each measured once per call. */
function ownBytes(symbol: CodeSymbol, sizes: Map<CodeSymbol, number>): number {
  let size = sizes.get(symbol);
  if (size === undefined) {
    size = encoder.encode(
      JSON.stringify({ name_path: symbol.namePath, kind: symbol.kind, start_line: symbol.startLine, end_line: symbol.endLine }),
    ).length;
    sizes.set(symbol, size);
  }
  return size;
}

/** The bytes `shown(symbols, depth)` takes as JSON, summed from the entries' own sizes rather than serialised. */
function bytesAt(symbols: readonly CodeSymbol[], depth: number, sizes: Map<CodeSymbol, number>): number {
  let total = 2 + Math.max(0, symbols.length - 1);
  for (const symbol of symbols) {
    total += ownBytes(symbol, sizes);
    // ,"children":[…] inside the entry's braces.
    if (depth > 0 && symbol.children.length > 0) total += 12 + bytesAt(symbol.children, depth - 1, sizes);
  }
  return total;
}

/**
 * The symbols to depth `asked`, within OUTLINE_BYTES: a tree too large loses its deepest level first (the reply's
 * `depth` says how deep it goes); a top level too large is cut after the symbols that fit (`truncated`).
 */
function fitted(symbols: readonly CodeSymbol[], asked: number): { depth: number; symbols: ShownSymbol[]; truncated: boolean } {
  const sizes = new Map<CodeSymbol, number>();
  for (let depth = asked; depth >= 0; depth--) {
    if (bytesAt(symbols, depth, sizes) <= OUTLINE_BYTES) return { depth, symbols: shown(symbols, depth), truncated: depth < asked };
  }
  let bytes = 2;
  let kept = 0;
  for (const symbol of symbols) {
    bytes += ownBytes(symbol, sizes) + 1;
    if (bytes > OUTLINE_BYTES) break;
    kept++;
  }
  return { depth: 0, symbols: shown(symbols.slice(0, kept), 0), truncated: true };
}

export const readOutline = defineTool({
  name: 'read_outline',
  title: 'Read Outline',
  userDescription: "List a source file's classes, functions and methods (or a Markdown file's headings) with their lines.",
  modelDescription:
    "A code file's classes, functions and methods (Markdown: headings) as a tree of name_path, kind, lines; symbol parameters take a name_path.",
  icon: 'symbol-class',
  tags: ['read', 'symbols'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema: object({
    path: STRING,
    language: STRING,
    has_errors: described('The file has syntax errors: the outline holds what parsed.', BOOLEAN),
    depth: described('How deep the symbols go: less than asked when the whole tree would not fit.', INTEGER),
    total: described('Symbols in the file, at every depth.', INTEGER),
    truncated: BOOLEAN,
    symbols: arrayOf(SYMBOL),
  }),
  errors: [
    'FILE_NOT_FOUND',
    'FILE_NOT_FILE',
    'SENSITIVE_PATH_REFUSED',
    'BINARY_CONTENT_REFUSED',
    'ENCODING_MISMATCH',
    'LIMIT_EXCEEDED',
    'LANGUAGE_UNSUPPORTED',
  ],
  async prepare(_input, context, { path }) {
    await statReadableFile(context, path);
    return { invocationMessage: context.l10n.t('Outlining {0}', path.display) };
  },
  async run(input, context, { path }) {
    const size = await statReadableFile(context, path);
    const language = languageFor(path);
    const outline = (await outlinerFor(context, path, language))((await readSourceText(context, path, size)).text);
    const { depth, symbols, truncated } = fitted(outline.symbols, input.depth);
    return {
      path: path.display,
      language: outline.language,
      has_errors: outline.hasErrors,
      depth,
      total: count(outline.symbols),
      truncated,
      symbols,
    };
  },
});
