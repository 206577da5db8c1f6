/**
 * One search_content call's search over its starts, whichever engine answers each: ripgrep where it may run (told
 * what the core's walk skips), the core's scan otherwise; every result held to the core's own rules, and the first
 * `need` lines kept in the reply's order. The tool (tools/searchContent.ts) makes the page and its lines from it.
 */
import type { Minimatch } from 'minimatch';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { isWithin } from '../paths';
import type { LineMatch } from '../ports/searcher';
import { reportProgress } from '../signals';
import { IgnoreRules } from '../walk/ignore/rules';
import { compareCodePoints } from '../walk/listing';
import { isSearchedDocument, searchDocuments } from './documents';
import { encodedMatches, ripgrepMayRun } from './encodedMatches';
import { searchByScan, searchWithSearcher, type StartResult } from './engines';
import { FileFilter } from './fileFilter';
import { gramPlan } from './grams';
import type { CompiledQuery } from './query';
import { type Accepted, Smallest } from './replyOrder';
import { externalRequest, type RequestInput, skippedBelow } from './ripgrepRequest';

/** What of the call's input the search reads. */
export interface SearchInput extends RequestInput {
  readonly query: string;
  readonly is_regex: boolean;
  /** Search PDF and Word files in their text (documents.ts) rather than leave them to the engines. */
  readonly documents?: boolean | undefined;
}

/** One call's search over its starts: what it searches with, and what it has found so far. */
export class ContentSearch {
  /** The first `need` lines so far, in the reply's order. */
  readonly found: Smallest;
  /** The engine the reply names: ripgrep's name once it answered a start, else the scan. */
  engine = 'scan';
  /** The files the walks ignored; null once a walk of ripgrep's own answered, which does not count them. */
  ignored: number | null = 0;
  /** The number of matching lines in all, when every start could count them. */
  total: number | undefined = 0;
  private reported = 0;

  constructor(
    private readonly context: ToolContext,
    private readonly input: SearchInput,
    private readonly query: CompiledQuery,
    private readonly pattern: Minimatch | undefined,
    private readonly need: number,
  ) {
    this.found = new Smallest(need);
  }

  /** Searches every start, in the order of their blocks in the reply, passing over those that can add nothing. */
  async searchAll(starts: readonly ConfinedPath[]): Promise<void> {
    // Roots' results come in blocks ("name/…"), so a root whose block starts after the need-th line so far adds nothing.
    const order = starts.map((start, index) => ({ start, index, block: `${start.display}/` }));
    if (starts.length > 1) order.sort((a, b) => compareCodePoints(a.block, b.block) || a.index - b.index);
    for (const { start, index, block } of order) {
      const last = starts.length > 1 ? this.found.last() : undefined;
      if (last && compareCodePoints(last.display, block) < 0) {
        this.total = undefined;
        continue;
      }
      const result = await this.searchStart(start, index);
      for (const item of result.matches) this.found.add(item);
      this.total = this.total === undefined || result.total === undefined ? undefined : this.total + result.total;
    }
  }

  /** One start (the `index`-th): by ripgrep where it can answer, by the scan otherwise. */
  private async searchStart(start: ConfinedPath, index: number): Promise<StartResult> {
    const { context, input, query, need } = this;
    const rules = new IgnoreRules(context, start.root, { includeIgnored: input.include_ignored, search: true });
    await rules.prepare(start.absolute);
    const files = new FileFilter(context, start, this.pattern);
    const accept = this.acceptor(start, index, rules, files);
    // Where the content index can rule files out, the scan reads only the others: its answer, in a fraction of the time.
    const mayMatch = await this.narrowing(start);
    const searched = mayMatch ? undefined : await this.byRipgrep(start, rules, accept);
    const result =
      searched ??
      (await searchByScan(
        context,
        start,
        files,
        accept,
        need,
        (stats) => {
          if (this.ignored !== null) this.ignored += stats.rules.ignoredCount;
        },
        { query, contextLines: input.context_lines, includeIgnored: input.include_ignored, documents: input.documents === true, mayMatch },
      ));
    return input.documents === true ? this.withDocuments(start, index, files, result) : result;
  }

  /** The content index's test of the files under `start` that may hold a match; undefined where it cannot narrow. */
  private async narrowing(start: ConfinedPath): Promise<((absolute: string) => boolean) | undefined> {
    const { contentIndex } = this.context;
    if (!contentIndex) return undefined;
    const plan = gramPlan(this.input.query, this.input.is_regex);
    return plan ? contentIndex.narrow(start.root.path, plan, this.input.case_sensitive) : undefined;
  }

  /** `result` (the engine's, which left documents out) and the documents' matches, in the reply's order. */
  private async withDocuments(start: ConfinedPath, index: number, files: FileFilter, result: StartResult): Promise<StartResult> {
    const { context, input, query, need } = this;
    const best = new Smallest(need);
    for (const item of result.matches) best.add(item);
    const search = { start, root: index, files, query, contextLines: input.context_lines, includeIgnored: input.include_ignored, need };
    const documents = await searchDocuments(context, search, best);
    const total = result.total === undefined || documents.total === undefined ? undefined : result.total + documents.total;
    return { matches: best.result(), total };
  }

  /** The test every engine's results pass for one start: a match it keeps, as the reply shows it, or undefined. */
  private acceptor(
    start: ConfinedPath,
    index: number,
    rules: IgnoreRules,
    files: FileFilter,
  ): (found: LineMatch) => Promise<Accepted | undefined> {
    let lastPath: string | undefined;
    let lastFile: Promise<{ display: string; via?: string } | undefined> = Promise.resolve(undefined);
    const inEncoding = encodedMatches(this.context, this.query);
    // Whatever the engine, a result must pass the core's own rules: containment, hidden paths, ignores, pattern.
    return async (found) => {
      // Documents are searched in their text (documents.ts), never in their bytes.
      if (isSearchedDocument(this.input.documents === true, found.path)) return undefined;
      // Told in the file's own encoding, as read_file tells it, or not at all.
      const match = await inEncoding(found);
      if (!match) return undefined;
      if (match.path !== lastPath) {
        lastPath = match.path;
        lastFile = isWithin(start.absolute, match.path)
          ? rules.excludesPath(match.path, false).then((excluded) => (excluded ? undefined : files.resolve(match.path)))
          : Promise.resolve(undefined);
      }
      const file = await lastFile;
      if (!file) return undefined;
      reportProgress(this.context, ++this.reported, undefined, 'matching lines found');
      return { display: file.display, via: file.via, match, root: index };
    };
  }

  /** One start through ripgrep, its ignored files counted; undefined where ripgrep may not run or cannot answer. */
  private async byRipgrep(
    start: ConfinedPath,
    rules: IgnoreRules,
    accept: (found: LineMatch) => Promise<Accepted | undefined>,
  ): Promise<StartResult | undefined> {
    const { context, input, query, need } = this;
    const ripgrep =
      context.contentSearcher && query.external && (await ripgrepMayRun(context, start.absolute, input.query))
        ? context.contentSearcher
        : undefined;
    // Where ignore files count, ripgrep skips what the core's walk skips (ripgrepRequest.ts says why).
    const listed = ripgrep && rules.readsIgnoreFiles ? await skippedBelow(context, start) : undefined;
    const request = ripgrep ? externalRequest(start, query, input, rules, listed?.skipped, need) : undefined;
    const searched = ripgrep && request ? await searchWithSearcher(context, ripgrep, start, request, accept, need) : undefined;
    if (ripgrep && searched) {
      this.engine = ripgrep.name;
      // Counted by the core's walk; a walk of ripgrep's own skips what the exclude settings name without counting it.
      if (listed) {
        if (this.ignored !== null) this.ignored += listed.ignored;
      } else if (!input.include_ignored) this.ignored = null;
    }
    return searched;
  }
}
