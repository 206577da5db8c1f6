/**
 * search_content: the definition, the page and the reply's lines. The search itself is ../search/'s: a call's search
 * over its starts (contentSearch.ts), the engines (engines.ts), ripgrep's request (ripgrepRequest.ts), the reply's
 * order and its first N (replyOrder.ts), ripgrep's sorted walk (sortedWalk.ts) and the file set rule (fileFilter.ts).
 */
import { arrayOf, BOOLEAN, described, INTEGER, nullable, object, optional, STRING } from '../contract/results';
import { IGNORED_COUNT, PAGE } from './fields';
import { toolRef } from '../naming';
import { ToolError } from '../errors';
import { compileSearchGlob } from '../policy/glob';
import { searchStarts } from '../walk/listing';
import { compileQuery } from '../search/query';
import { ContentSearch } from '../search/contentSearch';
import type { Accepted } from '../search/replyOrder';
import { pageFields, pageFrom } from '../contract/paging';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { INCLUDE_IGNORED, OFFSET, pathParameter } from './parameters';

export const SEARCH_CONTENT_CAP = 200;

export const CONTEXT_LINES_CAP = 5;

/** The longest query and file_pattern, checked in run() rather than in the schema to keep the definition short. */
const SEARCH_TEXT_MAX = 1024;

/** Longer lines are shown as a window around the match, so one minified file cannot flood the reply. */
export const LINE_TEXT_MAX = 400;

const inputSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, description: 'Text/regex.' },
    is_regex: { type: 'boolean', default: false, description: 'Regex query.' },
    case_sensitive: { type: 'boolean', default: false, description: 'Match case.' },
    path: pathParameter('Directory.'),
    file_pattern: { type: 'string', minLength: 1, description: 'File glob.' },
    max_results: { type: 'integer', minimum: 1, default: 50, description: `At most ${SEARCH_CONTENT_CAP}.` },
    offset: OFFSET,
    context_lines: { type: 'integer', minimum: 0, default: 0, description: `At most ${CONTEXT_LINES_CAP}.` },
    include_ignored: INCLUDE_IGNORED,
    documents: { type: 'boolean', description: 'Also PDF/DOCX.' },
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

/** A match as a line of the reply: its column in code points, long lines cut to a window around the match. */
function replyLine({ display, via, match, page }: Accepted, contextLines: number) {
  const text = window(match.text, match.start);
  return {
    path: display,
    ...(page === undefined ? {} : { page }),
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
  modelDescription: 'Search lines for text or a JS regex; a cut list gives next_offset. Skips binaries.',
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
        page: optional(described('The PDF page (documents: true); line counts within it.', INTEGER)),
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
  prepare(input, context) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Searching file contents for {0}', JSON.stringify(input.query)) });
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
