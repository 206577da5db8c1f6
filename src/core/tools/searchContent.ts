/**
 * search_content: the definition, the order of a call (starts, engines, the page) and the reply's lines. The machinery
 * is in ../search/: the engines (engines.ts), ripgrep's request (ripgrepRequest.ts), the reply's order and its first N
 * (replyOrder.ts), ripgrep's sorted walk (sortedWalk.ts) and the file set rule (fileFilter.ts).
 */
import type { Minimatch } from 'minimatch';
import { arrayOf, BOOLEAN, described, INTEGER, nullable, object, optional, STRING } from '../contract/results';
import { IGNORED_COUNT, PAGE } from './fields';
import { toolRef } from '../naming';
import { ToolError } from '../errors';
import { compileSearchGlob } from '../policy/glob';
import { IgnoreRules } from '../walk/ignore/rules';
import { compareCodePoints, searchStarts } from '../walk/listing';
import { isWithin } from '../paths';
import type { ConfinedPath } from '../confinement';
import { type CompiledQuery, compileQuery } from '../search/query';
import { encodedMatches, ripgrepMayRun } from '../search/encodedMatches';
import { searchByScan, searchWithSearcher, type StartResult } from '../search/engines';
import { FileFilter } from '../search/fileFilter';
import { type Accepted, Smallest } from '../search/replyOrder';
import { externalRequest, skippedBelow } from '../search/ripgrepRequest';
import type { LineMatch } from '../ports/searcher';
import { pageFields, pageFrom } from '../contract/paging';
import type { InputOf, InputSchema } from '../contract/schema';
import { reportProgress } from '../signals';
import type { ToolContext } from '../context';
import { defineTool } from '../tool';
import { INCLUDE_IGNORED, OFFSET, pathParameter } from './parameters';

export const SEARCH_CONTENT_CAP = 200;

export const CONTEXT_LINES_CAP = 5;

/** The longest query and file_pattern, checked in run() rather than in the schema to keep the definition short. */
export const SEARCH_TEXT_MAX = 1024;

/** Longer lines are shown as a window around the match, so one minified file cannot flood the reply. */
export const LINE_TEXT_MAX = 400;

const inputSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, description: 'Text or regex.' },
    is_regex: { type: 'boolean', default: false, description: 'Regex query.' },
    case_sensitive: { type: 'boolean', default: false, description: 'Match case.' },
    path: pathParameter('Directory.'),
    file_pattern: { type: 'string', minLength: 1, description: 'Glob of files.' },
    max_results: { type: 'integer', minimum: 1, default: 50, description: `At most ${SEARCH_CONTENT_CAP}.` },
    offset: OFFSET,
    context_lines: { type: 'integer', minimum: 0, default: 0, description: `At most ${CONTEXT_LINES_CAP}.` },
    include_ignored: INCLUDE_IGNORED,
  },
  required: ['query'],
  additionalProperties: false,
} as const satisfies InputSchema;

/** How much of that window comes before the match. */
const LINE_TEXT_BEFORE = 120;

/** Cuts a long line to a window around [start, end), never splitting a surrogate pair. */
function window(text: string, start: number): { text: string; truncated: boolean } {
  if (text.length <= LINE_TEXT_MAX) return { text, truncated: false };
  let from = Math.max(0, Math.min(start - LINE_TEXT_BEFORE, text.length - LINE_TEXT_MAX));
  if (from > 0 && /[\uDC00-\uDFFF]/.test(text.charAt(from))) from--;
  let to = Math.min(text.length, from + LINE_TEXT_MAX);
  if (to < text.length && /[\uD800-\uDBFF]/.test(text.charAt(to - 1))) to--;
  return { text: `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`, truncated: true };
}

function codePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdbff || index + 1 >= text.length) count++;
    else {
      const low = text.charCodeAt(index + 1);
      count++;
      if (low >= 0xdc00 && low <= 0xdfff) index++;
    }
  }
  return count;
}

type Input = InputOf<typeof inputSchema>;

/** One call's search over its starts: what it searches with, and what it has found so far. */
class ContentSearch {
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
    private readonly input: Input,
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
    const searched = await this.byRipgrep(start, rules, accept);
    return (
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
        { query, contextLines: input.context_lines, includeIgnored: input.include_ignored },
      ))
    );
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

/** A match as a line of the reply: its column in code points, long lines cut to a window around the match. */
function replyLine({ display, via, match }: Accepted, contextLines: number) {
  const text = window(match.text, match.start);
  return {
    path: display,
    line: match.line,
    column: codePoints(match.text.slice(0, match.start)) + 1,
    text: text.text,
    ...(text.truncated ? { text_truncated: true } : {}),
    ...(via === undefined ? {} : { via }),
    ...(contextLines > 0
      ? { before: match.before.map((line) => window(line, 0).text), after: match.after.map((line) => window(line, 0).text) }
      : {}),
  };
}

export const searchContent = defineTool({
  name: 'search_content',
  title: 'Search Content',
  userDescription: 'Search the text of workspace files.',
  modelDescription: 'Search file lines for text or a JS regex; a cut list gives next_offset. Skips binaries; reads x.pdf via x.pdf.txt.',
  icon: 'search',
  tags: ['read', 'search'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'directory' },
  outputSchema: object({
    query: STRING,
    is_regex: BOOLEAN,
    case_sensitive: BOOLEAN,
    path: optional(nullable(STRING)),
    file_pattern: optional(STRING),
    count: INTEGER,
    ...PAGE,
    total: optional(described('Given when every file was searched.', INTEGER)),
    engine: STRING,
    ignored_count: IGNORED_COUNT,
    matches: arrayOf(
      object({
        path: STRING,
        line: INTEGER,
        column: described('In characters (code points), 1-based.', INTEGER),
        text: STRING,
        text_truncated: optional(BOOLEAN),
        via: optional(described('The .pdf.txt the match was found in, for a .pdf.', STRING)),
        before: optional(arrayOf(STRING)),
        after: optional(arrayOf(STRING)),
      }),
    ),
  }),
  errors: ['INVALID_PATTERN', 'DIRECTORY_NOT_FOUND', 'DIRECTORY_NOT_DIRECTORY', 'SENSITIVE_PATH_REFUSED'],
  caps: {
    max_results: {
      cap: SEARCH_CONTENT_CAP,
      advice: `Ask for at most ${SEARCH_CONTENT_CAP}, or narrow the query, path or file_pattern.`,
    },
    context_lines: {
      cap: CONTEXT_LINES_CAP,
      advice: `Read the surrounding lines with ${toolRef('read_file')} and start_line/end_line.`,
    },
  },
  checkInput(input) {
    for (const field of ['query', 'file_pattern'] as const) {
      const value = input[field];
      if (value !== undefined && value.length > SEARCH_TEXT_MAX) {
        throw new ToolError('INVALID_INPUT', `${field} is ${value.length} characters long; it may have at most ${SEARCH_TEXT_MAX}.`, {
          field,
        });
      }
    }
    compileQuery(input.query, input.is_regex, input.case_sensitive);
    if (input.file_pattern !== undefined) compileSearchGlob(input.file_pattern, 'file_pattern');
  },
  prepare(input) {
    return Promise.resolve({ invocationMessage: `Searching file contents for ${JSON.stringify(input.query)}` });
  },
  async run(input, context, paths) {
    const query = compileQuery(input.query, input.is_regex, input.case_sensitive);
    const pattern = input.file_pattern === undefined ? undefined : compileSearchGlob(input.file_pattern, 'file_pattern');
    const starts = await searchStarts(context, paths.path);
    const offset = input.offset ?? 0;

    // The first `need` lines in the reply's order: the page, and one more to know whether there is a next.
    const need = offset + input.max_results + 1;
    const search = new ContentSearch(context, input, query, pattern, need);
    await search.searchAll(starts);

    const all = search.found.result();
    const page = pageFrom(all.slice(offset, offset + input.max_results), offset, all.length);
    const matches = page.items.map((item) => replyLine(item, input.context_lines));
    return {
      query: input.query,
      is_regex: input.is_regex,
      case_sensitive: input.case_sensitive,
      ...(input.path === undefined ? {} : { path: starts[0]?.display ?? null }),
      ...(input.file_pattern === undefined ? {} : { file_pattern: input.file_pattern }),
      count: matches.length,
      ...pageFields(page),
      // Known once every file was searched to the end; a search that stops after the page cannot know it.
      ...(search.total === undefined ? {} : { total: search.total }),
      engine: search.engine,
      ignored_count: search.ignored,
      matches,
    };
  },
});
