/**
 * search_content's documents (`documents: true`): the PDF and Word files under a start, searched in the text the
 * core extracts from them (../documents/), since no external searcher reads them. The engines leave these files to
 * this pass; its matches join theirs in the reply's order, a PDF's with their page (`line` counts within the page).
 */
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { documentKind } from '../documents/document';
import { documentPages, type PagesEnd } from '../documents/pages';
import { CancelledError } from '../errors';
import type { LineMatch } from '../ports/searcher';
import { throwIfCancelled } from '../signals';
import { compareCodePoints, walkVisible } from '../walk/listing';
import type { FileFilter } from './fileFilter';
import type { CompiledQuery } from './query';
import type { Accepted, Smallest } from './replyOrder';

/** Whether search_content leaves `absolute` to this pass rather than to an engine. */
export function isSearchedDocument(documents: boolean, absolute: string): boolean {
  return documents && documentKind(absolute) !== undefined;
}

export interface DocumentSearch {
  readonly start: ConfinedPath;
  /** The index of the start, as Accepted.root. */
  readonly root: number;
  readonly files: FileFilter;
  readonly query: CompiledQuery;
  readonly contextLines: number;
  readonly includeIgnored: boolean;
  readonly need: number;
}

/** The documents under the start the rules and file_pattern let through, in the reply's order, with their display. */
async function documentsIn(context: ToolContext, search: DocumentSearch): Promise<{ absolute: string; display: string }[]> {
  const found: string[] = [];
  await walkVisible(context, search.start, { includeIgnored: search.includeIgnored, search: true, includeDotFiles: true }, (entry) => {
    if (entry.kind === 'file' && !entry.isSymlink && documentKind(entry.absolute) && search.files.searches(entry.absolute))
      found.push(entry.absolute);
  });
  const shown: { absolute: string; display: string }[] = [];
  for (const absolute of found) {
    // Undefined for a .pdf with a .pdf.txt beside it: the engines search that instead.
    const file = await search.files.resolve(absolute);
    if (file) shown.push({ absolute, display: file.display });
  }
  return shown.sort((a, b) => compareCodePoints(a.display, b.display));
}

/** One page's matching lines, at most `room` of them, with context from the same page. */
function pageMatches(absolute: string, lines: readonly string[], search: DocumentSearch, room: number): LineMatch[] {
  const matches: LineMatch[] = [];
  const { contextLines } = search;
  for (let index = 0; index < lines.length && matches.length < room; index++) {
    const text = lines[index] ?? '';
    const hit = search.query.find(text);
    if (!hit) continue;
    matches.push({
      path: absolute,
      line: index + 1,
      text,
      start: hit.start,
      end: hit.end,
      before: lines.slice(Math.max(0, index - contextLines), index),
      after: lines.slice(index + 1, index + 1 + contextLines),
    });
  }
  return matches;
}

/**
 * Searches the documents under the start into `best` (the call's first `need` lines), passing over those that sort
 * after its need-th line; gives how many lines matched when every document was searched to its end.
 */
export async function searchDocuments(
  context: ToolContext,
  search: DocumentSearch,
  best: Smallest,
): Promise<{ total: number | undefined }> {
  let total: number | undefined = 0;
  for (const { absolute, display } of await documentsIn(context, search)) {
    throwIfCancelled(context);
    const last = best.last();
    if (last && compareCodePoints(last.display, display) < 0) return { total: undefined };
    let inFile = 0;
    const end: PagesEnd = { complete: true };
    try {
      for await (const { page, lines } of documentPages(context.workspace.fs, absolute, display, end)) {
        if (!search.query.mayMatch(lines.join('\n'))) continue;
        for (const match of pageMatches(absolute, lines, search, search.need - inFile)) {
          best.add({ display, match, root: search.root, ...(page === undefined ? {} : { page }) } satisfies Accepted);
          inFile++;
        }
        if (inFile >= search.need) break;
      }
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      // A document that cannot be read is passed over, as the engines pass over a binary file.
    }
    if (!end.complete || inFile >= search.need) total = undefined;
    else if (total !== undefined) total += inFile;
  }
  return { total };
}
