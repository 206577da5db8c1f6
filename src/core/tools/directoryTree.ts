import { INTEGER, object, STRING } from '../contract/results';
import { IGNORED_COUNT, PAGE } from './fields';
import { toolRef } from '../naming';
import { compareCodePoints, checkDirectory, type VisibleEntry, walkVisible } from '../walk/listing';
import { dirname } from '../paths';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { INCLUDE_HIDDEN, INCLUDE_IGNORED, OFFSET, pathParameter } from './parameters';
import { DEFAULT_PAGE_BYTES } from '../contract/paging';

/** Lines of tree in one reply; past this the tree is cut and says how much it left out. */
const encoder = new TextEncoder();

export const DIRECTORY_TREE_MAX_ENTRIES = 1000;

const inputSchema = {
  type: 'object',
  properties: {
    path: { ...pathParameter('Directory.'), default: '.' },
    max_depth: { type: 'integer', minimum: 1, default: 3, description: 'Levels to draw.' },
    offset: OFFSET,
    include_hidden: INCLUDE_HIDDEN,
    include_ignored: INCLUDE_IGNORED,
  },
  additionalProperties: false,
} as const satisfies InputSchema;

function isDirectory(entry: VisibleEntry): boolean {
  return entry.kind === 'directory' && !entry.isSymlink;
}

function byTreeOrder(a: VisibleEntry, b: VisibleEntry): number {
  if (isDirectory(a) !== isDirectory(b)) return isDirectory(a) ? -1 : 1;
  return compareCodePoints(a.name, b.name);
}

export const directoryTree = defineTool({
  name: 'directory_tree',
  title: 'Directory Tree',
  userDescription: 'Show the directory tree of a workspace folder.',
  modelDescription: `Draw a directory as a text tree, max_depth levels deep, at most ${DIRECTORY_TREE_MAX_ENTRIES} entries (a cut tree gives next_offset). Sizes: ${toolRef('list_directory')}.`,
  icon: 'list-tree',
  tags: ['read'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'directory' },
  outputSchema: object({
    path: STRING,
    max_depth: INTEGER,
    tree: STRING,
    directories: INTEGER,
    files: INTEGER,
    entries_shown: INTEGER,
    ...PAGE,
    ignored_count: IGNORED_COUNT,
  }),
  errors: ['DIRECTORY_NOT_FOUND', 'DIRECTORY_NOT_DIRECTORY', 'SENSITIVE_PATH_REFUSED'],
  prepare(_input, context, { path }) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Drawing the tree of {0}', path.display) });
  },
  async run(input, context, { path }) {
    const directory = await checkDirectory(context, path);
    const children = new Map<string, VisibleEntry[]>();
    const links: VisibleEntry[] = [];
    let directories = 0;
    let files = 0;
    const rules = await walkVisible(
      context,
      directory,
      { includeIgnored: input.include_ignored, search: false, includeDotFiles: input.include_hidden, maxDepth: input.max_depth },
      (entry) => {
        if (entry.isSymlink) {
          links.push(entry);
          return;
        }
        const parent = dirname(entry.absolute);
        const siblings = children.get(parent);
        if (siblings) siblings.push(entry);
        else children.set(parent, [entry]);
        if (isDirectory(entry)) directories++;
        else files++;
      },
    );
    // Links appear only when they stay inside the base; they are drawn, never descended.
    for (const link of links) {
      if (!(await context.paths.allows(directory.root, link.absolute))) continue;
      const parent = dirname(link.absolute);
      children.set(parent, [...(children.get(parent) ?? []), link]);
      files++;
    }

    // Entries are numbered in drawing order; this page draws those from `offset` on, each line as the whole tree
    // would have it, until DIRECTORY_TREE_MAX_ENTRIES or DEFAULT_PAGE_BYTES of lines.
    const offset = input.offset ?? 0;
    const lines = [directory.display === '.' ? './' : `${directory.display}/`];
    let drawn = 0;
    let shown = 0;
    let bytes = 0;
    let full = false;
    const draw = (path: string, prefix: string): void => {
      const entries = (children.get(path) ?? []).sort(byTreeOrder);
      entries.forEach((entry, index) => {
        if (full) return;
        const last = index === entries.length - 1;
        if (drawn >= offset) {
          const label = isDirectory(entry) ? `${entry.name}/` : entry.isSymlink ? `${entry.name} -> (link)` : entry.name;
          const line = `${prefix}${last ? '└── ' : '├── '}${label}`;
          // As the reply carries it: UTF-8, and the line break escaped as two characters.
          bytes += encoder.encode(line).length + 2;
          if (shown >= DIRECTORY_TREE_MAX_ENTRIES || (shown > 0 && bytes > DEFAULT_PAGE_BYTES)) {
            full = true;
            return;
          }
          lines.push(line);
          shown++;
        }
        drawn++;
        if (isDirectory(entry)) draw(entry.absolute, `${prefix}${last ? '    ' : '│   '}`);
      });
    };
    draw(directory.absolute, '');
    const total = directories + files;
    const end = Math.min(total, offset + shown);
    const truncated = end < total;
    if (truncated)
      lines.push(`… ${total - end} more entries not shown; continue with offset ${end}, or draw a subdirectory or a smaller max_depth.`);
    return {
      path: directory.display,
      max_depth: input.max_depth,
      tree: lines.join('\n'),
      directories,
      files,
      entries_shown: shown,
      truncated,
      ...(truncated ? { next_offset: end } : {}),
      ignored_count: rules.ignoredCount,
    };
  },
});
