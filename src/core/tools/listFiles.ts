import { arrayOf, BOOLEAN, INTEGER, object, STRING } from '../contract/results';
import { IGNORED_COUNT, PAGE } from './fields';
import { toolRef } from '../naming';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { checkDirectory, compareCodePoints, FileTree, walkListings, type VisibleEntry } from '../walk/listing';
import { ListingMemo } from '../walk/memo';
import { INCLUDE_IGNORED, OFFSET, pathParameter } from './parameters';
import { DEFAULT_PAGE_BYTES, pageFields, pageFrom } from '../contract/paging';

/** Above this a single reply would flood a model's context; ask for a narrower path instead. */
export const LIST_FILES_CAP = 5000;
/** Paths returned when max_results is not given (and no more than DEFAULT_PAGE_BYTES of them). */
const LIST_FILES_DEFAULT = 1000;

const inputSchema = {
  type: 'object',
  properties: {
    path: { ...pathParameter('Directory.'), default: '.' },
    recursive: { type: 'boolean', default: true, description: 'Subfolders too.' },
    max_results: { type: 'integer', minimum: 1, description: `Default ${LIST_FILES_DEFAULT} (fewer if long), at most ${LIST_FILES_CAP}.` },
    offset: OFFSET,
    include_ignored: INCLUDE_IGNORED,
  },
  additionalProperties: false,
} as const satisfies InputSchema;

/** The links to files in a listing (listed when their targets are inside the base). */
const LINKED_FILES = new ListingMemo<readonly VisibleEntry[]>();

export const listFiles = defineTool({
  name: 'list_files',
  title: 'List Files',
  userDescription: 'List the files in a workspace directory.',
  modelDescription: `List the file paths under a directory, sorted, recursive by default. A cut list gives total and next_offset. By name: ${toolRef('find_file')}.`,
  icon: 'list-flat',
  tags: ['read', 'search'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'directory' },
  outputSchema: object({
    count: INTEGER,
    recursive: BOOLEAN,
    files: arrayOf(STRING),
    ...PAGE,
    total: INTEGER,
    ignored_count: IGNORED_COUNT,
  }),
  errors: ['DIRECTORY_NOT_FOUND', 'DIRECTORY_NOT_DIRECTORY', 'SENSITIVE_PATH_REFUSED'],
  caps: { max_results: { cap: LIST_FILES_CAP, advice: `Ask for at most ${LIST_FILES_CAP}, or list a narrower path.` } },
  prepare(_input, context, { path }) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Listing files in {0}', path.display) });
  },
  async run(input, context, paths) {
    const directory = await checkDirectory(context, paths.path);

    const files = new FileTree();
    const links: string[] = [];
    const rules = await walkListings(
      context,
      directory,
      {
        includeIgnored: input.include_ignored,
        search: false,
        includeDotFiles: true,
        maxDepth: input.recursive ? undefined : 1,
        // A subtree passed over whole holds no links.
        visitSubtree: (subtree) => files.addSubtree(subtree),
      },
      (parent, entries) => {
        files.addListing(parent, entries);
        for (const link of LINKED_FILES.get(entries, '', (all) => all.filter((entry) => entry.isSymlink && entry.kind === 'file')))
          links.push(link.absolute);
      },
    );
    // A link to a file is listed only when its target is inside the base; a link never widens what is seen.
    const allowed: string[] = [];
    for (const link of links) if (await context.paths.allows(directory.root, link)) allowed.push(link);
    const total = files.size + allowed.length;
    const offset = input.offset ?? 0;
    const limit = input.max_results ?? LIST_FILES_DEFAULT;
    // Ordering the absolute paths orders the displayed ones: they share the root's prefix.
    const head = files.first(directory.absolute, offset + limit);
    const first = allowed.length === 0 ? head : [...head, ...allowed].sort(compareCodePoints).slice(0, offset + limit);
    const ordered = first.slice(offset).map((absolute) => context.paths.display(directory.root, absolute));
    const page = pageFrom(ordered, offset, total, input.max_results === undefined ? DEFAULT_PAGE_BYTES : undefined);
    return {
      count: page.items.length,
      recursive: input.recursive,
      files: page.items,
      ...pageFields(page),
      total,
      ignored_count: rules.ignoredCount,
    };
  },
});
