import { arrayOf, INTEGER, nullable, object, oneOf, optional, STRING } from '../contract/results';
import { IGNORED_COUNT, PAGE } from './fields';
import { toolRef } from '../naming';
import { compileSearchGlob, searchNameRegex } from '../policy/glob';
import { collect } from '../walk/heldWalk';
import { compareCodePoints, entryType, searchStarts, walkListings, type VisibleEntry } from '../walk/listing';
import { internKey, ListingMemo } from '../walk/memo';
import { relativeTo } from '../paths';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { INCLUDE_IGNORED, OFFSET, pathParameter } from './parameters';
import { firstOfRuns, pageFields, pageFrom } from '../contract/paging';

export const SEARCH_FILES_CAP = 200;

const inputSchema = {
  type: 'object',
  properties: {
    pattern: { type: 'string', minLength: 1, maxLength: 1024, description: 'Glob.' },
    path: pathParameter('Directory.'),
    max_results: { type: 'integer', minimum: 1, default: 100, description: `At most ${SEARCH_FILES_CAP}.` },
    offset: OFFSET,
    include_ignored: INCLUDE_IGNORED,
  },
  required: ['pattern'],
  additionalProperties: false,
} as const satisfies InputSchema;

interface Found {
  readonly display: string;
  readonly absolute: string;
  readonly type: ReturnType<typeof entryType>;
  readonly isSymlink: boolean;
}

/** What the pattern matches in a listing, as the answer shows it; and in a subtree passed over whole, sorted. */
const MATCHES = new ListingMemo<readonly Found[]>();
const SORTED_MATCHES = new ListingMemo<readonly Found[]>();

function byDisplay(a: Found, b: Found): number {
  return compareCodePoints(a.display, b.display);
}

export const searchFiles = defineTool({
  name: 'search_files',
  title: 'Search Files',
  userDescription: 'Find workspace paths matching a glob pattern.',
  modelDescription: `Find files and directories by glob (src/**/*.ts; one without "/" matches names at any depth). Case-insensitive unless the glob has a capital. Inside files: ${toolRef('search_content')}.`,
  icon: 'filter',
  tags: ['read', 'search'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'directory' },
  outputSchema: object({
    pattern: STRING,
    path: optional(nullable(STRING)),
    count: INTEGER,
    total: INTEGER,
    ...PAGE,
    ignored_count: IGNORED_COUNT,
    matches: arrayOf(object({ relative_path: STRING, type: oneOf('file', 'directory', 'symlink', 'other') })),
  }),
  errors: ['INVALID_PATTERN', 'DIRECTORY_NOT_FOUND', 'DIRECTORY_NOT_DIRECTORY', 'SENSITIVE_PATH_REFUSED'],
  caps: { max_results: { cap: SEARCH_FILES_CAP, advice: `Ask for at most ${SEARCH_FILES_CAP}, or use a narrower pattern or path.` } },
  checkInput(input) {
    compileSearchGlob(input.pattern, 'pattern');
  },
  prepare(input, context) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Searching for paths matching {0}', input.pattern) });
  },
  async run(input, context, paths) {
    const matcher = compileSearchGlob(input.pattern, 'pattern');
    // With a fixed leading part ("src/**/*.ts") whole directories can be passed over; a name-only pattern cannot.
    const canPrune = !matcher.options.matchBase && !matcher.pattern.startsWith('**');
    const byName = searchNameRegex(matcher);
    const found: Found[] = [];
    // Matches kept sorted with the subtrees a walk passed over whole: merged, not sorted again, at every call.
    const sortedRuns: (readonly Found[])[] = [];
    let ignored = 0;
    const starts = await searchStarts(context, paths.path);
    for (const start of starts) {
      const matches = (entry: VisibleEntry): boolean =>
        byName ? byName.test(entry.name) : matcher.match(relativeTo(start.root.path, entry.absolute));
      const item = (entry: VisibleEntry): Found => ({
        display: context.paths.display(start.root, entry.absolute),
        absolute: entry.absolute,
        type: entryType(entry),
        isSymlink: entry.isSymlink,
      });
      // All a listing's matches depend on: the pattern, and the root with what its paths are shown as.
      const key = internKey(`${input.pattern}\0${start.root.path}\0${start.root.name}\0${context.paths.roots.length}`);
      const links: Found[] = [];
      const matchesOf = (entries: readonly VisibleEntry[]): readonly Found[] =>
        MATCHES.get(entries, key, (all) => all.filter(matches).map(item));
      const rules = await walkListings(
        context,
        start,
        {
          includeIgnored: input.include_ignored,
          search: true,
          includeDotFiles: true,
          descend: canPrune ? (entry) => matcher.match(relativeTo(start.root.path, entry.absolute), true) : undefined,
          // A subtree passed over whole holds no links.
          visitSubtree: (subtree) => {
            const sorted = SORTED_MATCHES.get(subtree, key, (whole) => collect(whole, matchesOf).sort(byDisplay));
            if (sorted.length > 0) sortedRuns.push(sorted);
          },
        },
        (_directory, entries) => {
          for (const each of matchesOf(entries)) (each.isSymlink ? links : found).push(each);
        },
      );
      for (const link of links) if (await context.paths.allows(start.root, link.absolute)) found.push(link);
      ignored += rules.ignoredCount;
    }
    found.sort(byDisplay);
    const offset = input.offset ?? 0;
    const total = sortedRuns.reduce((sum, run) => sum + run.length, found.length);
    const first = sortedRuns.length === 0 ? found : firstOfRuns([found, ...sortedRuns], offset + input.max_results, byDisplay);
    const page = pageFrom(first.slice(offset, offset + input.max_results), offset, total);
    return {
      pattern: input.pattern,
      ...(input.path === undefined ? {} : { path: starts[0]?.display ?? null }),
      count: page.items.length,
      total,
      ...pageFields(page),
      ignored_count: ignored,
      matches: page.items.map((item) => ({ relative_path: item.display, type: item.type })),
    };
  },
});
