import { arrayOf, INTEGER, NUMBER, object, oneOf, STRING } from '../contract/results';
import { FILE_NAMES, IGNORED_COUNT, PAGE } from './fields';
import { toolRef } from '../naming';
import { ToolError } from '../errors';
import { FileNameSearch, nameCorpus, type NameCorpus } from '../walk/fuzzy';
import type { Root } from '../confinement';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { collect } from '../walk/heldWalk';
import { compareCodePoints, walkListings, type VisibleEntry } from '../walk/listing';
import { internKey, ListingMemo } from '../walk/memo';
import { INCLUDE_IGNORED, OFFSET } from './parameters';
import { pageFields, pageOf } from '../contract/paging';
import { mapBreathing } from '../signals';

export const FIND_FILE_CAP = 200;

const inputSchema = {
  type: 'object',
  properties: {
    file_name: { type: 'string', minLength: 1, maxLength: 1024, description: 'Name or part of it.' },
    max_results: { type: 'integer', minimum: 1, default: 20, description: `At most ${FIND_FILE_CAP}.` },
    offset: OFFSET,
    include_ignored: INCLUDE_IGNORED,
  },
  required: ['file_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

interface Match {
  readonly file_name: string;
  readonly relative_path: string;
  readonly score: number;
}

/** A file the walk found that may match; its display path is only made for the files that do. */
interface Candidate {
  readonly name: string;
  readonly absolute: string;
  readonly root: Root;
}

/**
 * The files of a listing the query may match, by query (FileNameSearch.mayMatch depends on nothing else); and of a
 * subtree passed over whole.
 */
const CANDIDATES = new ListingMemo<readonly VisibleEntry[]>();
const SUBTREE_CANDIDATES = new ListingMemo<readonly VisibleEntry[]>();
/** The files of a subtree passed over whole, their names ready for any query (a new query each call is the rule). */
const SUBTREE_NAMES = new ListingMemo<NameCorpus<VisibleEntry>>();

function isFile(entry: VisibleEntry): boolean {
  return entry.kind === 'file' && !entry.isSymlink;
}

function isCandidate(entry: VisibleEntry, search: FileNameSearch<Candidate>): boolean {
  // Links are neither followed nor offered: a match must be a file that is really inside the base.
  return entry.kind === 'file' && !entry.isSymlink && search.mayMatch(entry.name);
}

export const findFile = defineTool({
  name: 'find_file',
  title: 'Find File',
  userDescription: 'Find files by name anywhere in the workspace.',
  modelDescription: `Find files by name anywhere: exact (case-insensitive), else fuzzy, tolerating typos and partial words. Globs: ${toolRef('search_files')}.`,
  icon: 'search',
  tags: ['read', 'search'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {},
  outputSchema: object({
    query: STRING,
    match_type: oneOf('exact', 'lax', 'none'),
    count: INTEGER,
    matches: arrayOf(object({ ...FILE_NAMES, score: NUMBER })),
    ...PAGE,
    total: INTEGER,
    ignored_count: IGNORED_COUNT,
  }),
  errors: [],
  caps: { max_results: { cap: FIND_FILE_CAP, advice: `Ask for at most ${FIND_FILE_CAP}, or use a more specific name.` } },
  prepare(input, context) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Finding files named like "{0}"', input.file_name) });
  },
  async run(input, context) {
    const query = input.file_name.trim();
    if (query === '')
      throw new ToolError('INVALID_INPUT', 'Parameter "file_name" must contain more than whitespace.', { field: 'file_name' });

    const search = new FileNameSearch<Candidate>(query);
    const key = internKey(query);
    let ignored = 0;
    for (const root of context.paths.roots) {
      const start = { root, absolute: root.path, display: context.paths.display(root, root.path) };
      const candidates = (entries: readonly VisibleEntry[]): readonly VisibleEntry[] =>
        CANDIDATES.get(entries, key, (all) => all.filter((each) => isCandidate(each, search)));
      const add = (found: readonly VisibleEntry[]): void => {
        for (const entry of found) search.add({ name: entry.name, absolute: entry.absolute, root }, entry.name);
      };
      const rules = await walkListings(
        context,
        start,
        {
          includeIgnored: input.include_ignored,
          search: false,
          includeDotFiles: true,
          visitSubtree: (subtree) =>
            add(
              SUBTREE_CANDIDATES.get(subtree, key, (whole) =>
                search.matchingIn(
                  SUBTREE_NAMES.get(whole, '', (all) =>
                    nameCorpus(
                      collect(all, (entries) => entries.filter(isFile)),
                      (entry) => entry.name,
                    ),
                  ),
                ),
              ),
            ),
        },
        (_directory, entries) => add(candidates(entries)),
      );
      ignored += rules.ignoredCount;
    }

    const { matchType, ranked } = await search.results(context);
    const matches: Match[] = await mapBreathing(context, ranked, ({ item, score }) => ({
      file_name: item.name,
      relative_path: context.paths.display(item.root, item.absolute),
      score,
    }));
    // Equal scores: the shorter name is the closer match ("reprot" → report.md before report-final-2026.md).
    matches.sort(
      (a, b) => b.score - a.score || a.file_name.length - b.file_name.length || compareCodePoints(a.relative_path, b.relative_path),
    );
    const page = pageOf(matches, input.offset ?? 0, input.max_results);
    return {
      query: input.file_name,
      match_type: matchType,
      count: page.items.length,
      matches: page.items,
      ...pageFields(page),
      total: matches.length,
      ignored_count: ignored,
    };
  },
});
