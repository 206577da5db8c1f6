import { arrayOf, BOOLEAN, described, INTEGER, nullable, object, optional, STRING } from '../results';
import { IGNORED_COUNT, PAGE } from './fields';
import { toolRef } from '../naming';
import type { Minimatch } from 'minimatch';
import { ToolError } from '../errors';
import { compileSearchGlob, normaliseGlob } from '../glob';
import { GITIGNORE, IgnoreRules } from '../ignore';
import { compareCodePoints, searchStarts } from '../listing';
import { basename, dirname, isWithin, relativeTo } from '../paths';
import type { ConfinedPath } from '../root';
import { compileQuery, type CompiledQuery } from '../search/query';
import { scanContent, type ScanStats } from '../search/scan';
import { encodedMatches, ripgrepMayRun } from '../search/encodedMatches';
import type { ContentSearcher, ContentSearchRequest, LineMatch } from '../search/searcher';
import type { DirEntry } from '../fs';
import { pageFields, pageFrom } from '../paging';
import type { ToolContext } from '../context';
import type { InputOf, InputSchema } from '../schema';
import { reportProgress } from '../signals';
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

type Input = InputOf<typeof inputSchema>;

/** How much of that window comes before the match. */
const LINE_TEXT_BEFORE = 120;

const PDF_TEXT = /\.pdf\.txt$/i;
const PDF = /\.pdf$/i;

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

interface Accepted {
  readonly display: string;
  readonly via?: string;
  readonly match: LineMatch;
  /** The index of the start that found it. */
  readonly root: number;
}

/** The file set rule both engines share, and the sidecar rule: a .pdf is searched through its .pdf.txt. */
class FileFilter {
  private readonly existence = new Map<string, Promise<boolean>>();

  constructor(
    private readonly context: ToolContext,
    private readonly start: ConfinedPath,
    private readonly pattern: Minimatch | undefined,
  ) {}

  /** Whether a root-relative path passes file_pattern. */
  matches(absolute: string): boolean {
    return this.pattern === undefined || this.pattern.match(relativeTo(this.start.root.path, absolute));
  }

  exists(absolute: string): Promise<boolean> {
    let known = this.existence.get(absolute);
    if (!known) {
      known = this.context.workspace.fs.stat(absolute).then(
        (stat) => stat?.kind === 'file' && !stat.isSymlink,
        () => false,
      );
      this.existence.set(absolute, known);
    }
    return known;
  }

  /**
   * What a file found by an engine stands for: itself, a .pdf (for its sidecar), or nothing (a .pdf whose sidecar is
   * searched instead, or a file file_pattern rejects).
   */
  async resolve(absolute: string): Promise<{ display: string; via?: string } | undefined> {
    const display = this.context.paths.display(this.start.root, absolute);
    if (PDF_TEXT.test(absolute)) {
      const pdf = absolute.slice(0, -4);
      if (await this.exists(pdf)) {
        if (!this.matches(pdf) && !this.matches(absolute)) return undefined;
        return { display: this.context.paths.display(this.start.root, pdf), via: basename(absolute) };
      }
    } else if (PDF.test(absolute) && (await this.exists(`${absolute}.txt`))) return undefined;
    return this.matches(absolute) ? { display } : undefined;
  }
}

/** The .gitignore files from the root down to `start`'s parent: ripgrep reads only the root's itself (cwd-relative). */
async function parentIgnoreFiles(context: ToolContext, start: ConfinedPath): Promise<string[] | undefined> {
  const found: string[] = [];
  for (
    let directory = dirname(start.absolute);
    isWithin(start.root.path, directory) && start.absolute !== start.root.path;
    directory = dirname(directory)
  ) {
    const candidate = directory === '/' ? `/${GITIGNORE}` : `${directory}/${GITIGNORE}`;
    if ((await context.workspace.fs.stat(candidate))?.kind === 'file') found.push(candidate);
    if (directory === start.root.path) break;
  }
  // A .gitignore between the root and start is relative to its own folder, which ripgrep cannot be told.
  if (found.some((file) => file !== `${start.root.path}/${GITIGNORE}`)) return undefined;
  return found;
}

function externalRequest(
  start: ConfinedPath,
  query: CompiledQuery,
  input: Input,
  rules: IgnoreRules,
  parents: readonly string[],
  need: number,
): ContentSearchRequest | undefined {
  if (!query.external) return undefined;
  // The clean-up compileSearchGlob gives the pattern (ripgrep would read a '\\' as an escape); a leading '/' stays, as
  // ripgrep anchors it at the root too.
  const glob = input.file_pattern === undefined ? undefined : normaliseGlob(input.file_pattern);
  const includeGlobs = glob === undefined ? [] : [glob, `${glob}.txt`];
  return {
    root: start.root.path,
    start: start.absolute,
    query: query.external,
    caseSensitive: input.case_sensitive,
    contextLines: input.context_lines,
    includeGlobs,
    includeCaseInsensitive: input.file_pattern !== undefined && input.file_pattern === input.file_pattern.toLowerCase(),
    excludeGlobs: [...rules.hiddenGlobs, ...rules.excludeGlobs],
    respectIgnoreFiles: !input.include_ignored,
    parentIgnoreFiles: parents,
    maxMatchesPerFile: need,
  };
}

/** The reply's order: display path (code units, as every listing), then line; between roots of one name, the first. */
function inReplyOrder(a: Accepted, b: Accepted): number {
  return compareCodePoints(a.display, b.display) || a.match.line - b.match.line || a.root - b.root;
}

/** The `need` first, in the reply's order, of the matches it is given in any order; it sorts only now and then. */
class Smallest {
  private items: Accepted[] = [];
  private sorted = true;

  constructor(private readonly need: number) {}

  add(item: Accepted): void {
    this.items.push(item);
    this.sorted = false;
    if (this.items.length >= 2 * this.need) this.trim();
  }

  /** The need-th so far, which only smaller ones can push out; undefined while there are fewer. */
  last(): Accepted | undefined {
    this.trim();
    return this.items[this.need - 1];
  }

  result(): Accepted[] {
    this.trim();
    return this.items;
  }

  private trim(): void {
    if (this.sorted) return;
    this.items.sort(inReplyOrder);
    if (this.items.length > this.need) this.items.length = this.need;
    this.sorted = true;
  }
}

/** What one start gave: its first `need` matches in the reply's order, and how many it has when that is known. */
interface StartResult {
  readonly matches: readonly Accepted[];
  readonly total: number | undefined;
}

/** Code point order, which is UTF-8's byte order (ripgrep's); code units differ only where a surrogate meets U+E000–U+FFFF. */
function compareUtf8(a: string, b: string): number {
  if (!/[\uD800-\uDFFF]/.test(a) && !/[\uD800-\uDFFF]/.test(b)) return compareCodePoints(a, b);
  const x = Array.from(a, (character) => character.codePointAt(0) ?? 0);
  const y = Array.from(b, (character) => character.codePointAt(0) ?? 0);
  for (let index = 0; index < Math.min(x.length, y.length); index++) {
    const difference = (x[index] ?? 0) - (y[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return x.length - y.length;
}

function childOf(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}

/**
 * How far ripgrep's sorted walk (`--sort=path`) has got, in the reply's order. It takes each directory's entries by
 * their names' bytes, depth first: the reply's order, except that a directory comes before a sibling whose name
 * goes on from the directory's with a character below '/' ("a/" before "a-b", "a.ts"; in the reply "a.ts" <
 * "a/x"), and where byte and code unit order part. So the least display path a later file can have is read from the
 * listings of the directories the walk is in: the least of their entries that come later in the walk.
 */
class SortedWalk {
  private readonly listings = new Map<string, Promise<readonly DirEntry[] | undefined>>();
  private readonly later = new Map<string, string | null>();
  private previous: readonly string[] | undefined;
  /** False once the walk did something this class does not expect (a file out of order, an unreadable listing). */
  holds = true;

  constructor(
    private readonly context: ToolContext,
    private readonly start: ConfinedPath,
  ) {}

  /** Notes the next file the walk reports, checking that it comes after the one before. */
  meet(path: string): void {
    const parts = relativeTo(this.start.absolute, path).split('/');
    const previous = this.previous;
    if (previous) {
      let order = 0;
      for (let index = 0; order === 0 && index < Math.min(previous.length, parts.length); index++)
        order = compareUtf8(previous[index] ?? '', parts[index] ?? '');
      if (order >= 0) this.holds = false;
    }
    this.previous = parts;
  }

  /** The least display path of any file the walk can report after `path`; undefined when none can follow. */
  async after(path: string): Promise<string | undefined> {
    let least: string | undefined;
    let directory = this.start.absolute;
    for (const name of relativeTo(this.start.absolute, path).split('/')) {
      const entry = await this.laterEntry(directory, name);
      if (entry !== undefined) {
        const display = this.context.paths.display(this.start.root, childOf(directory, entry));
        if (least === undefined || compareCodePoints(display, least) < 0) least = display;
      }
      directory = childOf(directory, name);
    }
    return least;
  }

  /** The least, as it sorts in the reply, of the entries of `directory` the walk meets after `name`. */
  private async laterEntry(directory: string, name: string): Promise<string | undefined> {
    const key = `${directory}\0${name}`;
    const known = this.later.get(key);
    if (known !== undefined) return known ?? undefined;
    let listing = this.listings.get(directory);
    if (!listing) {
      listing = this.context.workspace.fs.readDirectory(directory).catch(() => undefined);
      this.listings.set(directory, listing);
    }
    const entries = await listing;
    if (!entries) this.holds = false;
    let least: string | undefined;
    for (const entry of entries ?? []) {
      if (compareUtf8(entry.name, name) <= 0) continue;
      // A directory sorts as its files do, with '/' after its name; a sidecar as the .pdf it stands for.
      const sortsAs =
        entry.kind === 'directory' && !entry.isSymlink
          ? `${entry.name}/`
          : PDF_TEXT.test(entry.name)
            ? entry.name.slice(0, -4)
            : entry.name;
      if (least === undefined || compareCodePoints(sortsAs, least) < 0) least = sortsAs;
    }
    this.later.set(key, least ?? null);
    return least;
  }
}

/**
 * One start through the external searcher; undefined when it cannot run the request. First in any order, on all
 * threads: most searches find fewer than `need` lines and are done. Otherwise again along the sorted walk, which
 * stops once no later file can come before the need-th line found.
 */
async function searchWithSearcher(
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
async function searchByScan(
  context: ToolContext,
  start: ConfinedPath,
  files: FileFilter,
  accept: (match: LineMatch) => Promise<Accepted | undefined>,
  need: number,
  counted: (stats: ScanStats) => void,
  options: { query: CompiledQuery; contextLines: number; includeIgnored: boolean; pattern: Minimatch | undefined },
): Promise<StartResult> {
  const sidecarOrMatching = (absolute: string): boolean =>
    options.pattern === undefined || files.matches(absolute) || (PDF_TEXT.test(absolute) && files.matches(absolute.slice(0, -4)));
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
      acceptsFile: sidecarOrMatching,
      includeIgnored: options.includeIgnored,
      maxMatchesPerFile: need,
      sortKey,
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
    const found = new Smallest(need);
    let engine = 'scan';
    let ignored: number | null = 0;
    // The number of matching lines in all, when every start could count them.
    let total: number | undefined = 0;
    let reported = 0;
    // Roots' results come in blocks ("name/…"), so a root whose block starts after the need-th line so far adds nothing.
    const order = starts.map((start, index) => ({ start, index, block: `${start.display}/` }));
    if (starts.length > 1) order.sort((a, b) => compareCodePoints(a.block, b.block) || a.index - b.index);
    for (const { start, index, block } of order) {
      const last = starts.length > 1 ? found.last() : undefined;
      if (last && compareCodePoints(last.display, block) < 0) {
        total = undefined;
        continue;
      }
      const rules = new IgnoreRules(context, start.root, { includeIgnored: input.include_ignored, search: true });
      await rules.prepare(start.absolute);
      const files = new FileFilter(context, start, pattern);
      let lastPath: string | undefined;
      let lastFile: Promise<{ display: string; via?: string } | undefined> = Promise.resolve(undefined);
      const inEncoding = encodedMatches(context, query);
      // Whatever the engine, a result must pass the core's own rules: containment, hidden paths, ignores, pattern.
      const accept = async (found: LineMatch): Promise<Accepted | undefined> => {
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
        reportProgress(context, ++reported, undefined, 'matching lines found');
        return { display: file.display, via: file.via, match, root: index };
      };

      const ripgrep =
        context.contentSearcher && (await ripgrepMayRun(context, start.absolute, input.query)) ? context.contentSearcher : undefined;
      const parents = ripgrep ? await parentIgnoreFiles(context, start) : undefined;
      const request = parents === undefined ? undefined : externalRequest(start, query, input, rules, parents, need);
      const searched = ripgrep && request ? await searchWithSearcher(context, ripgrep, start, request, accept, need) : undefined;
      if (ripgrep && searched) {
        engine = ripgrep.name;
        // ripgrep applies the ignore rules without counting what they skip: unknown, unless nothing was to be skipped.
        if (!input.include_ignored) ignored = null;
      }
      const result =
        searched ??
        (await searchByScan(
          context,
          start,
          files,
          accept,
          need,
          (stats) => {
            if (ignored !== null) ignored += stats.rules.ignoredCount;
          },
          { query, contextLines: input.context_lines, includeIgnored: input.include_ignored, pattern },
        ));
      for (const item of result.matches) found.add(item);
      total = total === undefined || result.total === undefined ? undefined : total + result.total;
    }

    const all = found.result();
    const page = pageFrom(all.slice(offset, offset + input.max_results), offset, all.length);
    const matches = page.items.map(({ display, via, match }) => {
      const text = window(match.text, match.start);
      return {
        path: display,
        line: match.line,
        column: codePoints(match.text.slice(0, match.start)) + 1,
        text: text.text,
        ...(text.truncated ? { text_truncated: true } : {}),
        ...(via === undefined ? {} : { via }),
        ...(input.context_lines > 0
          ? { before: match.before.map((line) => window(line, 0).text), after: match.after.map((line) => window(line, 0).text) }
          : {}),
      };
    });
    return {
      query: input.query,
      is_regex: input.is_regex,
      case_sensitive: input.case_sensitive,
      ...(input.path === undefined ? {} : { path: starts[0]?.display ?? null }),
      ...(input.file_pattern === undefined ? {} : { file_pattern: input.file_pattern }),
      count: matches.length,
      ...pageFields(page),
      // Known once every file was searched to the end; a search that stops after the page cannot know it.
      ...(total === undefined ? {} : { total }),
      engine,
      ignored_count: ignored,
      matches,
    };
  },
});
