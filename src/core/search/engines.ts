/**
 * search_content's two engines for one start, each giving its first `need` matches in the reply's order: the external
 * searcher (ripgrep), which reports files in any order, and the core's own scan, which reports them in order.
 */
import type { ToolContext } from '../context';
import { compareCodePoints } from '../walk/listing';
import type { ConfinedPath } from '../confinement';
import { isSearchedDocument } from './documents';
import { type FileFilter, PDF_TEXT } from './fileFilter';
import type { CompiledQuery } from './query';
import { type Accepted, Smallest } from './replyOrder';
import { scanContent, type ScanStats } from './scan';
import type { ContentSearcher, ContentSearchRequest, LineMatch } from '../ports/searcher';
import { SortedWalk } from './sortedWalk';

/** What one start gave: its first `need` matches in the reply's order, and how many it has when that is known. */
export interface StartResult {
  readonly matches: readonly Accepted[];
  readonly total: number | undefined;
}

/**
 * One start through the external searcher; undefined when it cannot run the request. First in any order, on all
 * threads: most searches find fewer than `need` lines and are done. Otherwise again along the sorted walk, which
 * stops once no later file can come before the need-th line found.
 */
export async function searchWithSearcher(
  context: ToolContext,
  searcher: ContentSearcher,
  start: ConfinedPath,
  request: ContentSearchRequest,
  accept: (match: LineMatch) => Promise<Accepted | undefined>,
  need: number,
): Promise<StartResult | undefined> {
  const first: Accepted[] = [];
  const quick = await searcher.search(
    request,
    async (match) => {
      const item = await accept(match);
      if (item) first.push(item);
      return first.length < need;
    },
    context.isCancelled,
  );
  if (quick === 'unavailable') return undefined;
  if (first.length < need) return { matches: first, total: first.length };

  const best = new Smallest(need);
  const walk = new SortedWalk(context, start);
  let current: string | undefined;
  let inFile = 0;
  let seen = 0;
  let capped = false;
  let stopped = false;
  const outcome = await searcher.search(
    { ...request, sorted: true },
    async (match) => {
      if (match.path !== current) {
        const last = current === undefined ? undefined : best.last();
        if (current !== undefined && last && walk.holds) {
          const next = await walk.after(current);
          if (walk.holds && (next === undefined || compareCodePoints(last.display, next) < 0)) {
            stopped = true;
            return false;
          }
        }
        walk.meet(match.path);
        current = match.path;
        inFile = 0;
      }
      const item = await accept(match);
      if (item) {
        best.add(item);
        seen++;
        // A file cut at the per-file limit may hold more lines: the total is then unknown.
        if (++inFile >= need) capped = true;
      }
      return true;
    },
    context.isCancelled,
  );
  if (outcome === 'unavailable') return undefined;
  return { matches: best.result(), total: stopped || capped ? undefined : seen };
}

/** One start through the core's own scan, which hands out matches in the reply's order and so stops at `need`. */
export async function searchByScan(
  context: ToolContext,
  start: ConfinedPath,
  files: FileFilter,
  accept: (match: LineMatch) => Promise<Accepted | undefined>,
  need: number,
  counted: (stats: ScanStats) => void,
  options: {
    query: CompiledQuery;
    contextLines: number;
    includeIgnored: boolean;
    documents: boolean;
    mayMatch?: ((absolute: string) => boolean) | undefined;
  },
): Promise<StartResult> {
  // Within one start the display paths share a prefix: they sort as the absolute paths do, a sidecar as its .pdf.
  const sortKey = (absolute: string): string | Promise<string> =>
    PDF_TEXT.test(absolute) ? files.exists(absolute.slice(0, -4)).then((exists) => (exists ? absolute.slice(0, -4) : absolute)) : absolute;
  const found: Accepted[] = [];
  const stats = await scanContent(
    context,
    {
      start,
      query: options.query,
      contextLines: options.contextLines,
      acceptsFile: (absolute) => files.searches(absolute) && !isSearchedDocument(options.documents, absolute),
      includeIgnored: options.includeIgnored,
      maxMatchesPerFile: need,
      sortKey,
      ...(options.mayMatch ? { mayMatch: options.mayMatch } : {}),
    },
    async (match) => {
      const item = await accept(match);
      if (item) found.push(item);
      return found.length < need;
    },
  );
  counted(stats);
  return { matches: found, total: found.length < need ? found.length : undefined };
}
