/**
 * find_references' two ways: the editor's language service (ports/references.ts: exact, what the name refers to),
 * and everywhere else the lines where the name occurs as a whole word, through search_content's own search (the
 * content index where the host keeps one, ripgrep or the scan otherwise), which the reply marks approximate: the same
 * name in a comment, a string or another scope is found too, and a reference under another name is not.
 *
 * Either way a reference is shown only where the tools may read: inside the base directory and not hidden, and the
 * reply is one page in path, line and column order.
 */
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import { assertMayRead } from '../policy/policy';
import type { ReferenceLocation } from '../ports/references';
import { ContentSearch } from '../search/contentSearch';
import { compileQuery, escapeRegExp } from '../search/query';
import { compareCodePoints, searchStarts } from '../walk/listing';
import { readSourceText } from './symbols';
import type { CodeSymbol } from './outline';

/** One reference as the reply shows it: the line's text cut to a window around the name. */
interface Reference {
  readonly path: string;
  readonly line: number;
  /** 1-based, in characters (code points), as search_content counts. */
  readonly column: number;
  readonly text: string;
}

export interface ReferencePage {
  readonly approximate: boolean;
  /** References found, as far as the search went: every one when `complete`. */
  readonly references: readonly Reference[];
  readonly complete: boolean;
}

/** Lines longer than this are shown as a window around the reference. */
const TEXT_MAX = 200;

function windowed(text: string, column: number): string {
  if (text.length <= TEXT_MAX) return text;
  const chars = Array.from(text);
  const from = Math.max(0, Math.min(column - 1 - 60, chars.length - TEXT_MAX));
  const to = Math.min(chars.length, from + TEXT_MAX);
  return `${from > 0 ? '…' : ''}${chars.slice(from, to).join('')}${to < chars.length ? '…' : ''}`;
}

/** The identifier a symbol is referred to by: the last word of its name (`listen` of `app.listen`, `Start` of `(*S).Start`). */
function referenceName(symbol: CodeSymbol): string {
  const name = symbol.kind === 'impl' ? symbol.name.replace(/^impl\s+(?:.*\s+for\s+)?/, '') : symbol.name;
  const bare = name.replace(/<.*>$/s, '');
  return /[\p{L}\p{N}_$]+$/u.exec(bare)?.[0] ?? bare;
}

/**
 * A character that continues an identifier in the languages outlined: a letter or digit of any script, `_`, and `$`
 * (JavaScript's and PHP's). `\b` knows only ASCII letters, so `größe` would be found inside `größer` and `parse`
 * inside `$parse`.
 */
const IDENTIFIER_CHAR = '[\\p{L}\\p{N}_$]';

/** Whole-word matches of `name` in every root, the first `need` in path and line order. */
async function matchesOfName(context: ToolContext, name: string, need: number): Promise<{ references: Reference[]; complete: boolean }> {
  const query = `(?<!${IDENTIFIER_CHAR})${escapeRegExp(name)}(?!${IDENTIFIER_CHAR})`;
  const input = { query, is_regex: true, case_sensitive: true, context_lines: 0, include_ignored: false };
  const search = new ContentSearch(context, input, compileQuery(query, true, true), undefined, need);
  await search.searchAll(await searchStarts(context, undefined));
  const references = search.found.result().map(({ display, match }) => {
    const column = Array.from(match.text.slice(0, match.start)).length + 1;
    return { path: display, line: match.line, column, text: windowed(match.text, column) };
  });
  return { references, complete: search.total !== undefined };
}

/** The editor's references, those the tools may read, each with its line's text. */
async function editorReferences(context: ToolContext, locations: readonly ReferenceLocation[]): Promise<Reference[]> {
  const byFile = new Map<string, ReferenceLocation[]>();
  for (const location of locations) byFile.set(location.absolute, [...(byFile.get(location.absolute) ?? []), location]);
  const references: Reference[] = [];
  for (const [absolute, here] of byFile) {
    let path: ConfinedPath;
    let lines: string[];
    try {
      path = await context.paths.resolve(absolute, 'path');
      await assertMayRead(context, path, 'file');
      const stat = await context.workspace.fs.stat(path.absolute);
      if (stat?.kind !== 'file') continue;
      lines = (await readSourceText(context, path, stat.size)).text.split('\n');
    } catch (error) {
      // Outside the base, hidden, unreadable or not text: not shown, as no tool would show it.
      if (error instanceof ToolError) continue;
      throw error;
    }
    for (const location of here) {
      const text = (lines[location.line - 1] ?? '').replace(/\r$/, '');
      const column = Array.from(text.slice(0, location.column - 1)).length + 1;
      references.push({ path: path.display, line: location.line, column, text: windowed(text, column) });
    }
  }
  return references.sort((a, b) => compareCodePoints(a.path, b.path) || a.line - b.line || a.column - b.column);
}

/** The references to `symbol` of the file at `path`, at least the first `need` of them. */
export async function referencesOf(context: ToolContext, path: ConfinedPath, symbol: CodeSymbol, need: number): Promise<ReferencePage> {
  const locations = await context.references?.references(path.absolute, symbol.nameLine, symbol.nameColumn);
  if (locations !== undefined) return { approximate: false, references: await editorReferences(context, locations), complete: true };
  const { references, complete } = await matchesOfName(context, referenceName(symbol), need);
  return { approximate: true, references, complete };
}
