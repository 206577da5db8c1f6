import { arrayOf, BOOLEAN, INTEGER, nullable, object, oneOf, optional, STRING } from '../contract/results';
import { IGNORED_COUNT, PAGE } from './fields';
import { toolRef } from '../naming';
import { compareCodePoints, entryType, checkDirectory, type VisibleEntry, walkVisible } from '../walk/listing';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { INCLUDE_HIDDEN, INCLUDE_IGNORED, OFFSET, pathParameter } from './parameters';
import { DEFAULT_PAGE_BYTES, pageFields, pageFrom } from '../contract/paging';

/** More entries than this in one reply floods a model's context; narrower paths or depths serve better. */
export const LIST_DIRECTORY_CAP = 1000;
/** Entries returned when max_entries is not given (and no more than DEFAULT_PAGE_BYTES of them). */
const LIST_DIRECTORY_DEFAULT = 200;

const inputSchema = {
  type: 'object',
  properties: {
    path: { ...pathParameter('Directory.'), default: '.' },
    recursive: { type: 'boolean', default: false, description: 'Subfolders too.' },
    max_depth: { type: 'integer', minimum: 1, description: 'Deepest level, with recursive.' },
    include_hidden: INCLUDE_HIDDEN,
    include_ignored: INCLUDE_IGNORED,
    max_entries: {
      type: 'integer',
      minimum: 1,
      description: `Default ${LIST_DIRECTORY_DEFAULT} (fewer if long), at most ${LIST_DIRECTORY_CAP}.`,
    },
    offset: OFFSET,
  },
  additionalProperties: false,
} as const satisfies InputSchema;

interface Listed {
  readonly entry: VisibleEntry;
  readonly parent: string;
}

/** Shallow levels first, then by directory, directories before files, then by name: a cut keeps the overview. */
function compareListed(a: Listed, b: Listed): number {
  if (a.parent !== b.parent) return compareCodePoints(a.parent, b.parent);
  const aDirectory = a.entry.kind === 'directory' && !a.entry.isSymlink;
  const bDirectory = b.entry.kind === 'directory' && !b.entry.isSymlink;
  if (aDirectory !== bDirectory) return aDirectory ? -1 : 1;
  return compareCodePoints(a.entry.name, b.entry.name);
}

/**
 * The entries of a walk by depth, keeping only the shallowest levels that hold `wanted` entries between them: every
 * level below those is counted, not kept, so a listing of a huge tree holds a few thousand entries, not all of them.
 * Links are kept at any depth (whether they count depends on a check made after the walk) and do not count towards
 * `wanted`, so the kept levels fill a reply even when every link among them is left out.
 */
class ShallowLevels {
  private readonly levels: (VisibleEntry[] | undefined)[] = [];
  /** Non-link entries per depth, kept or not. */
  private readonly plain: number[] = [];
  /** Deepest depth still kept; entries below it are only counted. */
  private cutoff = Number.POSITIVE_INFINITY;
  private sinceCutoff = 0;
  readonly links: VisibleEntry[] = [];
  count = 0;

  constructor(private readonly wanted: number) {}

  add(entry: VisibleEntry, depth: number): void {
    this.count++;
    if (entry.isSymlink) this.links.push(entry);
    else this.plain[depth] = (this.plain[depth] ?? 0) + 1;
    if (depth <= this.cutoff) (this.levels[depth] ??= []).push(entry);
    // Recomputed now and then: levels fill in any order, and the cutoff only ever gets shallower.
    if (++this.sinceCutoff >= 1024) this.lowerCutoff();
  }

  /** The kept levels, shallowest first (after the walk: cut to the levels that fill `wanted`). */
  kept(): VisibleEntry[][] {
    this.lowerCutoff();
    return this.levels
      .slice(0, Number.isFinite(this.cutoff) ? this.cutoff + 1 : undefined)
      .filter((level): level is VisibleEntry[] => level !== undefined);
  }

  private lowerCutoff(): void {
    this.sinceCutoff = 0;
    let sum = 0;
    for (let depth = 1; depth < Math.min(this.plain.length, this.cutoff + 1); depth++) {
      sum += this.plain[depth] ?? 0;
      if (sum >= this.wanted) {
        this.cutoff = depth;
        // Links below the cutoff stay in `links` for the count; the levels themselves are dropped.
        this.levels.length = depth + 1;
        return;
      }
    }
  }
}

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List Directory',
  userDescription: 'List a workspace directory with types and sizes.',
  modelDescription: `List a directory's entries with type and size, directories first; recursive lists level by level, so a cut list still gives an overview. Drawn: ${toolRef('directory_tree')}.`,
  icon: 'folder-opened',
  tags: ['read'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'directory' },
  outputSchema: object({
    path: STRING,
    recursive: BOOLEAN,
    count: INTEGER,
    total: INTEGER,
    ...PAGE,
    depth_limited: BOOLEAN,
    ignored_count: IGNORED_COUNT,
    entries: arrayOf(
      object({
        relative_path: STRING,
        type: oneOf('file', 'directory', 'symlink', 'other'),
        size: optional(nullable(INTEGER)),
        target_type: optional(oneOf('file', 'directory', 'other')),
      }),
    ),
  }),
  errors: ['DIRECTORY_NOT_FOUND', 'DIRECTORY_NOT_DIRECTORY', 'SENSITIVE_PATH_REFUSED'],
  caps: {
    max_entries: {
      cap: LIST_DIRECTORY_CAP,
      advice: `Ask for at most ${LIST_DIRECTORY_CAP}, or list a narrower path or a smaller max_depth.`,
    },
  },
  prepare(input, context, { path }) {
    return Promise.resolve({
      invocationMessage: input.recursive
        ? context.l10n.t('Listing {0} recursively', path.display)
        : context.l10n.t('Listing {0}', path.display),
    });
  },
  async run(input, context, { path }) {
    const directory = await checkDirectory(context, path);
    const maxDepth = input.recursive ? (input.max_depth ?? Number.POSITIVE_INFINITY) : 1;
    // Grouped by depth: the order puts shallow levels first, so only the levels that fill the page (offset + max_entries) are kept and
    // sorted; deeper ones are only counted (links apart, which count only once checked).
    const offset = input.offset ?? 0;
    const limit = input.max_entries ?? LIST_DIRECTORY_DEFAULT;
    const levels = new ShallowLevels(offset + limit);
    let depthLimited = false;
    const rules = await walkVisible(
      context,
      directory,
      { includeIgnored: input.include_ignored, search: false, includeDotFiles: input.include_hidden, maxDepth },
      (entry, depth) => {
        levels.add(entry, depth);
        if (depth >= maxDepth && entry.kind === 'directory' && !entry.isSymlink) depthLimited = true;
      },
    );
    // A link is shown only when it stays inside the base: a listing never points outside it.
    const outside = new Set<VisibleEntry>();
    for (const link of levels.links) if (!(await context.paths.allows(directory.root, link.absolute))) outside.add(link);
    const total = levels.count - outside.size;
    // The entries up to the end of the page, in listing order; levels past it are counted, not sorted.
    const ordered: VisibleEntry[] = [];
    for (const level of levels.kept()) {
      if (ordered.length >= offset + limit) break;
      const sorted = level
        .filter((entry) => !outside.has(entry))
        .map((entry) => ({ entry, parent: entry.parent }))
        .sort(compareListed);
      for (const { entry } of sorted.slice(0, offset + limit - ordered.length)) ordered.push(entry);
    }
    const { fs } = context.workspace;
    const described = await Promise.all(
      ordered.slice(offset).map(async (entry) => {
        const type = entryType(entry);
        const relative_path = context.paths.display(directory.root, entry.absolute);
        if (type === 'file') return { relative_path, type, size: (await fs.stat(entry.absolute))?.size ?? null };
        if (type === 'symlink') return { relative_path, type, target_type: entry.kind };
        return { relative_path, type };
      }),
    );
    const page = pageFrom(described, offset, total, input.max_entries === undefined ? DEFAULT_PAGE_BYTES : undefined);
    const pageInfo = pageFields(page);
    const entries = page.items;
    return {
      path: directory.display,
      recursive: input.recursive,
      count: entries.length,
      total,
      ...pageInfo,
      depth_limited: input.recursive && depthLimited,
      ignored_count: rules.ignoredCount,
      entries,
    };
  },
});
