import type { Minimatch } from 'minimatch';
import { ToolError } from '../errors';
import { compileSearchGlob, normaliseGlob } from '../glob';
import { GITIGNORE, IgnoreRules } from '../ignore';
import { compareCodePoints, searchStarts } from '../listing';
import { basename, dirname, isWithin, relativeTo } from '../paths';
import type { ConfinedPath } from '../root';
import { compileQuery, type CompiledQuery } from '../search/query';
import { scanContent } from '../search/scan';
import type { ContentSearchRequest, LineMatch } from '../search/searcher';
import type { ToolContext } from '../context';
import type { InputOf, InputSchema } from '../schema';
import { reportProgress } from '../signals';
import { defineTool } from '../tool';
import { INCLUDE_IGNORED, pathParameter } from './parameters';

export const SEARCH_CONTENT_CAP = 200;

export const CONTEXT_LINES_CAP = 5;

/** Longer lines are shown as a window around the match, so one minified file cannot flood the reply. */
export const LINE_TEXT_MAX = 400;

const inputSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 1024, description: 'Text or regex.' },
    is_regex: { type: 'boolean', default: false, description: 'query is a regex.' },
    case_sensitive: { type: 'boolean', default: false, description: 'Match case.' },
    path: pathParameter('Directory (default: all).'),
    file_pattern: { type: 'string', minLength: 1, maxLength: 1024, description: 'Only matching files (glob).' },
    max_results: { type: 'integer', minimum: 1, default: 50, description: `At most ${SEARCH_CONTENT_CAP}.` },
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
  for (let directory = dirname(start.absolute); isWithin(start.root.path, directory) && start.absolute !== start.root.path; directory = dirname(directory)) {
    const candidate = directory === '/' ? `/${GITIGNORE}` : `${directory}/${GITIGNORE}`;
    if ((await context.workspace.fs.stat(candidate))?.kind === 'file') found.push(candidate);
    if (directory === start.root.path) break;
  }
  // A .gitignore between the root and start is relative to its own folder, which ripgrep cannot be told.
  if (found.some((file) => file !== `${start.root.path}/${GITIGNORE}`)) return undefined;
  return found;
}

function externalRequest(start: ConfinedPath, query: CompiledQuery, input: Input, rules: IgnoreRules, parents: readonly string[]): ContentSearchRequest | undefined {
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
    maxMatchesPerFile: input.max_results + 1,
  };
}

export const searchContent = defineTool({
  name: 'search_content',
  title: 'Search Content',
  userDescription: 'Search the text of workspace files.',
  modelDescription: 'Search file contents line by line for text or a JavaScript regex, sorted by path and line. Skips binary files; reads a .pdf via its .pdf.txt.',
  icon: 'search',
  tags: ['read', 'search'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'directory' },
  prepare(input) {
    return Promise.resolve({ invocationMessage: `Searching file contents for ${JSON.stringify(input.query)}` });
  },
  async run(input, context) {
    if (input.max_results > SEARCH_CONTENT_CAP) {
      throw new ToolError('LIMIT_EXCEEDED', `max_results ${input.max_results} is above the cap of ${SEARCH_CONTENT_CAP}. Ask for at most ${SEARCH_CONTENT_CAP}, or narrow the query, path or file_pattern.`, {
        field: 'max_results',
        cap: SEARCH_CONTENT_CAP,
      });
    }
    if (input.context_lines > CONTEXT_LINES_CAP) {
      throw new ToolError('LIMIT_EXCEEDED', `context_lines ${input.context_lines} is above the cap of ${CONTEXT_LINES_CAP}. Read the surrounding lines with agentfs_read_file and start_line/end_line.`, {
        field: 'context_lines',
        cap: CONTEXT_LINES_CAP,
      });
    }
    const query = compileQuery(input.query, input.is_regex, input.case_sensitive);
    const pattern = input.file_pattern === undefined ? undefined : compileSearchGlob(input.file_pattern, 'file_pattern');
    const starts = await searchStarts(context, input.path);

    // Enough to know whether there are more than max_results, with room for results the checks below drop.
    const wanted = input.max_results + 1;
    const accepted: Accepted[] = [];
    let engine = 'scan';
    let ignored: number | null = 0;
    for (const start of starts) {
      if (accepted.length >= wanted) break;
      const rules = new IgnoreRules(context, start.root, { includeIgnored: input.include_ignored, search: true });
      await rules.prepare(start.absolute);
      const files = new FileFilter(context, start, pattern);
      const onMatch = async (match: LineMatch): Promise<boolean> => {
        if (accepted.length >= wanted) return false;
        // Whatever the engine, a result must pass the core's own rules: containment, hidden paths, ignores, pattern.
        if (!isWithin(start.absolute, match.path) || (await rules.excludesPath(match.path, false))) return true;
        const file = await files.resolve(match.path);
        if (!file || accepted.length >= wanted) return accepted.length < wanted;
        accepted.push({ display: file.display, via: file.via, match });
        reportProgress(context, accepted.length, undefined, 'matching lines found');
        return accepted.length < wanted;
      };

      const parents = context.contentSearcher ? await parentIgnoreFiles(context, start) : undefined;
      const request = parents === undefined ? undefined : externalRequest(start, query, input, rules, parents);
      if (context.contentSearcher && request && (await context.contentSearcher.search(request, onMatch, context.isCancelled)) === 'done') {
        engine = context.contentSearcher.name;
        // ripgrep applies the ignore rules without counting what they skip: unknown, unless nothing was to be skipped.
        if (!input.include_ignored) ignored = null;
        continue;
      }
      const sidecarOrMatching = (absolute: string): boolean =>
        pattern === undefined || files.matches(absolute) || (PDF_TEXT.test(absolute) && files.matches(absolute.slice(0, -4)));
      const stats = await scanContent(
        context,
        { start, query, contextLines: input.context_lines, acceptsFile: sidecarOrMatching, includeIgnored: input.include_ignored, maxMatchesPerFile: wanted },
        onMatch,
      );
      if (ignored !== null) ignored += stats.rules.ignoredCount;
    }

    accepted.sort((a, b) => compareCodePoints(a.display, b.display) || a.match.line - b.match.line);
    const truncated = accepted.length > input.max_results;
    const shown = truncated ? accepted.slice(0, input.max_results) : accepted;
    const matches = shown.map(({ display, via, match }) => {
      const text = window(match.text, match.start);
      const entry: Record<string, unknown> = { path: display, line: match.line, column: codePoints(match.text.slice(0, match.start)) + 1, text: text.text };
      if (text.truncated) entry.text_truncated = true;
      if (via !== undefined) entry.via = via;
      if (input.context_lines > 0) {
        entry.before = match.before.map((line) => window(line, 0).text);
        entry.after = match.after.map((line) => window(line, 0).text);
      }
      return entry;
    });
    return {
      query: input.query,
      is_regex: input.is_regex,
      case_sensitive: input.case_sensitive,
      ...(input.path === undefined ? {} : { path: starts[0]?.display ?? null }),
      ...(input.file_pattern === undefined ? {} : { file_pattern: input.file_pattern }),
      count: matches.length,
      truncated,
      engine,
      ignored_count: ignored,
      matches,
    };
  },
});
