/**
 * What the symbol tools share: a file's outline from its text (read and decoded as read_file decodes it), and a name
 * path looked up in it, refused with what a model can act on (SYMBOL_NOT_FOUND with the nearest names,
 * SYMBOL_AMBIGUOUS with each candidate's lines, LANGUAGE_UNSUPPORTED naming the languages there are).
 */
import Fuse from 'fuse.js';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { limitExceeded } from '../contract/caps';
import { decodeFileText, fileRef, type DecodedText } from '../encoding/fileText';
import type { EncodingId } from '../encoding/names';
import { ToolError } from '../errors';
import { toolRef } from '../naming';
import type { GrammarSource } from '../ports/grammars';
import { humanSize } from '../read/bytes';
import type { Parser } from 'web-tree-sitter';
import { parserFor, withTree } from './engine';
import { languageOf, type OutlineLanguage, supportedLanguages } from './languages';
import { markdownOutliner } from './markdown';
import { allSymbols, type CodeSymbol, type Outline, outlineOf } from './outline';

/** A language ready to outline a text synchronously: its grammar already loaded. */
export type Outliner = (text: string) => Outline;

function unsupported(display: string): ToolError {
  return new ToolError(
    'LANGUAGE_UNSUPPORTED',
    `${display} is in no language Agent FS can outline (it goes by the file's extension). Outlines exist for: ${supportedLanguages()}. Read it with ${toolRef('read_file')} and its lines instead.`,
    { path: display },
  );
}

/** The language of a file, or LANGUAGE_UNSUPPORTED. */
export function languageFor(path: ConfinedPath): OutlineLanguage {
  const language = languageOf(path.display);
  if (!language) throw unsupported(path.display);
  return language;
}

/** An outliner for `language`, loading its grammar the first time (through the host's GrammarSource). */
export async function outlinerFor(
  context: Pick<ToolContext, 'grammars'>,
  path: ConfinedPath,
  language: OutlineLanguage,
): Promise<Outliner> {
  if (!('grammar' in language)) return markdownOutliner();
  const source: GrammarSource | undefined = context.grammars;
  if (!source) throw unsupported(path.display);
  const parser: Parser = await parserFor(source, language);
  return (text) => withTree(parser, text, (tree) => outlineOf(language, tree, text));
}

/** A file's whole text, decoded as read_file decodes it; files above the in-memory edit size are not outlined. */
export async function readSourceText(context: ToolContext, path: ConfinedPath, size: number, encoding?: EncodingId): Promise<DecodedText> {
  const cap = context.policy.editInMemoryBytes;
  if (size > cap) {
    throw limitExceeded(
      'size_bytes',
      cap,
      `${path.display} is ${humanSize(size)}; symbols are found in files of at most ${humanSize(cap)}. Read it by lines with ${toolRef('read_file')}.`,
      path.display,
    );
  }
  const bytes = await context.workspace.fs.readFile(path.absolute);
  return decodeFileText(fileRef(context, path), bytes, encoding);
}

/** One segment of a name path: a name, with `[i]` when it picks one of several. */
interface Segment {
  readonly name: string;
  readonly index?: number;
}

/** A name path's segments: split at each `/` not escaped as `\/`. */
function segmentsOf(namePath: string): Segment[] {
  return namePath
    .split(/(?<!\\)\//)
    .filter((part) => part !== '')
    .map((part) => {
      const indexed = /^(.*)\[(\d+)\]$/s.exec(part);
      const name = (indexed ? (indexed[1] ?? '') : part).replace(/\\\//g, '/');
      return indexed ? { name, index: Number(indexed[2]) } : { name };
    });
}

/** The symbols under `symbols` that `segments` name from there (several where a segment without [i] is repeated). */
function matchPath(symbols: readonly CodeSymbol[], segments: readonly Segment[]): CodeSymbol[] {
  const [first, ...rest] = segments;
  if (!first) return [];
  const same = symbols.filter((symbol) => symbol.name === first.name);
  const picked = first.index === undefined ? same : same.slice(first.index, first.index + 1);
  return rest.length === 0 ? picked : picked.flatMap((symbol) => matchPath(symbol.children, rest));
}

function lines(symbol: CodeSymbol): string {
  return `${symbol.namePath} (${symbol.kind}, lines ${symbol.startLine}-${symbol.endLine})`;
}

/**
 * The one symbol `namePath` names: from the top (`Class/method`), else ending any symbol's path (`method`), so a
 * model that knows only the name finds a symbol it names alone.
 */
export function findSymbol(outline: Outline, namePath: string, display: string): CodeSymbol {
  const segments = segmentsOf(namePath);
  let found = matchPath(outline.symbols, segments);
  if (found.length === 0 && segments.length > 0) {
    const all = allSymbols(outline.symbols);
    found = all.filter((symbol) => matchPath([symbol], segments.slice(0, 1)).length > 0).flatMap((symbol) => matchPath([symbol], segments));
  }
  const [only] = found;
  if (found.length === 1 && only) return only;
  if (found.length > 1) {
    const shown = found.slice(0, 20);
    throw new ToolError(
      'SYMBOL_AMBIGUOUS',
      `"${namePath}" names ${found.length} symbols in ${display}: ${shown.map(lines).join('; ')}${found.length > shown.length ? '; …' : ''}. Pass one name path exactly as listed.`,
      {
        path: display,
        symbol: namePath,
        candidates: shown.map((symbol) => ({
          name_path: symbol.namePath,
          kind: symbol.kind,
          start_line: symbol.startLine,
          end_line: symbol.endLine,
        })),
      },
    );
  }
  const all = allSymbols(outline.symbols);
  const nearest = new Fuse(all, { keys: ['namePath', 'name'], threshold: 0.5, ignoreLocation: true })
    .search(namePath)
    .slice(0, 5)
    .map(({ item }) => item);
  const advice =
    nearest.length > 0
      ? ` The nearest: ${nearest.map(lines).join('; ')}.`
      : all.length === 0
        ? ' The file has no symbols.'
        : ` See them all with ${toolRef('read_outline')}.`;
  throw new ToolError('SYMBOL_NOT_FOUND', `No symbol "${namePath}" in ${display}.${advice}`, {
    path: display,
    symbol: namePath,
    nearest: nearest.map((symbol) => symbol.namePath),
  });
}
