import { arrayOf, BOOLEAN, described, INTEGER, object, optional, STRING } from '../contract/results';
import { PAGE } from './fields';
import { DEFAULT_PAGE_BYTES, pageFields, pageFrom } from '../contract/paging';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { OFFSET, pathParameter } from './parameters';
import { statReadableFile } from './readFile';
import { findSymbol, languageFor, outlinerFor, readSourceText } from '../symbols/symbols';
import { referencesOf } from '../symbols/references';

/** A page holds this many references at most (fewer where their lines are long): `offset` goes on. */
const PAGE_SIZE = 50;

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File.'),
    symbol: { type: 'string', description: 'name_path.' },
    offset: OFFSET,
  },
  required: ['path', 'symbol'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const findReferences = defineTool({
  name: 'find_references',
  title: 'Find References',
  userDescription: 'Find where a function, method or class is used.',
  modelDescription: "Where a symbol is used (declaration too): by the editor's language service, else as a whole word (approximate).",
  icon: 'references',
  tags: ['read', 'search', 'symbols'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema: object({
    path: STRING,
    symbol: described('The name path looked up.', STRING),
    approximate: described('Found as whole-word matches of the name, not by a language service.', BOOLEAN),
    count: INTEGER,
    ...PAGE,
    total: optional(described('Given when every reference was found.', INTEGER)),
    references: arrayOf(object({ path: STRING, line: INTEGER, column: described('In characters, 1-based.', INTEGER), text: STRING })),
  }),
  errors: [
    'FILE_NOT_FOUND',
    'FILE_NOT_FILE',
    'SENSITIVE_PATH_REFUSED',
    'BINARY_CONTENT_REFUSED',
    'ENCODING_MISMATCH',
    'LIMIT_EXCEEDED',
    'LANGUAGE_UNSUPPORTED',
    'SYMBOL_NOT_FOUND',
    'SYMBOL_AMBIGUOUS',
  ],
  async prepare(input, context, { path }) {
    await statReadableFile(context, path);
    return { invocationMessage: context.l10n.t('Finding references to {0} in {1}', input.symbol, path.display) };
  },
  async run(input, context, { path }) {
    const size = await statReadableFile(context, path);
    const outliner = await outlinerFor(context, path, languageFor(path));
    const symbol = findSymbol(outliner((await readSourceText(context, path, size)).text), input.symbol, path.display);
    const offset = input.offset ?? 0;
    const found = await referencesOf(context, path, symbol, offset + PAGE_SIZE + 1);
    const page = pageFrom(found.references.slice(offset, offset + PAGE_SIZE), offset, found.references.length, DEFAULT_PAGE_BYTES);
    return {
      path: path.display,
      symbol: symbol.namePath,
      approximate: found.approximate,
      count: page.items.length,
      ...pageFields(page),
      ...(found.complete ? { total: found.references.length } : {}),
      references: page.items,
    };
  },
});
