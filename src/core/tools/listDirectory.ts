import { ToolError } from '../errors';
import { compareCodePoints, entryType, resolveDirectory, type VisibleEntry, walkVisible } from '../listing';
import { dirname } from '../paths';
import type { InputSchema } from '../schema';
import { defineTool } from '../tool';
import { INCLUDE_HIDDEN, INCLUDE_IGNORED, pathParameter } from './parameters';

/** More entries than this in one reply floods a model's context; narrower paths or depths serve better. */
export const LIST_DIRECTORY_CAP = 1000;

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('Directory (default: the base).'),
    recursive: { type: 'boolean', default: false, description: 'Include subdirectories.' },
    max_depth: { type: 'integer', minimum: 1, description: 'Deepest level, with recursive.' },
    include_hidden: INCLUDE_HIDDEN,
    include_ignored: INCLUDE_IGNORED,
    max_entries: { type: 'integer', minimum: 1, default: 200, description: `At most ${LIST_DIRECTORY_CAP}.` },
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

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'List Directory',
  userDescription: 'List a workspace directory with types and sizes.',
  modelDescription: 'List a directory\'s entries with type and size, directories first; recursive lists shallow levels first, so a cut list still gives the overview. For a picture use agentfs_directory_tree.',
  icon: 'folder-opened',
  tags: ['read'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'directory' },
  async prepare(input, context) {
    const path = await context.paths.resolve(input.path ?? '.', 'directory');
    return { invocationMessage: `Listing ${path.display}${input.recursive ? ' recursively' : ''}` };
  },
  async run(input, context) {
    if (input.max_entries > LIST_DIRECTORY_CAP) {
      throw new ToolError('LIMIT_EXCEEDED', `max_entries ${input.max_entries} is above the cap of ${LIST_DIRECTORY_CAP}. Ask for at most ${LIST_DIRECTORY_CAP}, or list a narrower path or a smaller max_depth.`, {
        field: 'max_entries',
        cap: LIST_DIRECTORY_CAP,
      });
    }
    const directory = await resolveDirectory(context, input.path);
    const maxDepth = input.recursive ? (input.max_depth ?? Number.POSITIVE_INFINITY) : 1;
    // Grouped by depth: the order puts shallow levels first, so only the levels that fill max_entries need sorting.
    const levels: VisibleEntry[][] = [];
    let depthLimited = false;
    const rules = await walkVisible(
      context,
      directory,
      { includeIgnored: input.include_ignored, search: false, includeDotFiles: input.include_hidden, maxDepth },
      (entry) => {
        (levels[entry.depth] ??= []).push(entry);
        if (entry.depth >= maxDepth && entry.kind === 'directory' && !entry.isSymlink) depthLimited = true;
      },
    );
    // A link is shown only when it stays inside the base: a listing never points outside it.
    let total = 0;
    const shown: VisibleEntry[] = [];
    for (const level of levels) {
      if (!level) continue;
      const visible: VisibleEntry[] = [];
      for (const entry of level) if (!entry.isSymlink || (await context.paths.allows(directory.root, entry.absolute))) visible.push(entry);
      total += visible.length;
      if (shown.length >= input.max_entries) continue;
      const sorted = visible.map((entry) => ({ entry, parent: dirname(entry.absolute) })).sort(compareListed);
      for (const { entry } of sorted.slice(0, input.max_entries - shown.length)) shown.push(entry);
    }
    const truncated = total > input.max_entries;
    const { fs } = context.workspace;
    const entries = await Promise.all(
      shown.map(async (entry) => {
        const type = entryType(entry);
        const relative_path = context.paths.display(directory.root, entry.absolute);
        if (type === 'file') return { name: entry.name, relative_path, type, size: (await fs.stat(entry.absolute))?.size ?? null };
        if (type === 'symlink') return { name: entry.name, relative_path, type, target_type: entry.kind };
        return { name: entry.name, relative_path, type };
      }),
    );
    return {
      path: directory.display,
      recursive: input.recursive,
      count: entries.length,
      total,
      truncated,
      depth_limited: input.recursive && depthLimited,
      ignored_count: rules.ignoredCount,
      entries,
    };
  },
});
