/** The walk the listing and search tools share: walkTree plus the ignore rules (ignore.ts) and dot-file hiding. */
import { toolRef } from './naming';
import { ToolError } from './errors';
import type { DirEntry, EntryKind } from './fs';
import { IgnoreRules } from './ignore';
import { assertMayRead } from './policy';
import type { ConfinedPath } from './confinement';
import type { ToolContext } from './context';
import type { IndexedEntry, IndexSnapshot } from './pathIndex';
import { reportProgress, throwIfCancelled } from './signals';
import { walkTree, type WalkEntry } from './walk';

export interface VisibleEntry {
  readonly absolute: string;
  readonly name: string;
  /** The directory the entry is in. */
  readonly parent: string;
  /** Of the link's target for a symbolic link (as in the port). */
  readonly kind: EntryKind;
  readonly isSymlink: boolean;
}

export interface VisibleWalkOptions {
  readonly includeIgnored: boolean;
  /** Apply search.exclude too. */
  readonly search: boolean;
  /** Show names starting with '.' (they are neither ignored nor counted when hidden this way). */
  readonly includeDotFiles: boolean;
  readonly maxDepth?: number;
  /** Return false to not descend into a directory the walk would otherwise enter. */
  readonly descend?: (entry: VisibleEntry) => boolean;
}

/**
 * Walks `start` calling `visit` for every entry the rules let through (links are reported, never descended), with its
 * depth (1 for the start directory's own entries). Returns the rules, whose `ignoredCount` says how much was skipped.
 * The entries may be the path index's own objects, shared between calls: they are read, never changed.
 */
export async function walkVisible(
  context: ToolContext,
  start: ConfinedPath,
  options: VisibleWalkOptions,
  visit: (entry: VisibleEntry, depth: number) => void,
): Promise<IgnoreRules> {
  const rules = new IgnoreRules(context, start.root, { includeIgnored: options.includeIgnored, search: options.search });
  await rules.prepare(start.absolute);
  // A folder that is itself ignored (listing "node_modules" by name) shows nothing unless include_ignored: the same
  // answer whichever way its .gitignore rule is written, and the one ripgrep's results are held to.
  if (start.absolute !== start.root.path && (await rules.excludesPath(start.absolute, true))) {
    rules.ignoredCount++;
    return rules;
  }
  const check = (entry: WalkEntry): boolean => {
    if (!options.includeDotFiles && entry.name.startsWith('.')) return false;
    const isDirectory = entry.kind === 'directory' && !entry.isSymlink;
    if (rules.skips(entry.absolute, entry.name, isDirectory, entry.parent)) return false;
    visit(entry, entry.depth);
    return isDirectory && (options.descend?.(entry) ?? true);
  };
  const walkOptions = { maxDepth: options.maxDepth, enterDirectory: options.includeIgnored ? undefined : rules.enterDirectory };
  // The same check over the index's listings where it has them: only where the names come from differs.
  const { index } = context;
  if (!index) {
    await walkTree(context.workspace.fs, start.absolute, context, check, walkOptions);
    return rules;
  }
  try {
    const snapshot = await index.snapshot(start.root.path, start.absolute, context);
    if (snapshot) await walkHeld(context, snapshot, start, options, rules, visit);
    else await walkTree(context.workspace.fs, start.absolute, context, check, walkOptions);
  } finally {
    index.release();
  }
  return rules;
}

/**
 * walkVisible over an index snapshot (pathIndex.ts): the same entries visited and the same directories entered as
 * walkTree with `check` would, each listing taken from the snapshot (from the disk where it has none), and each
 * listing's rule decisions taken from IgnoreRules.visibleEntries, which makes them once per listing and rule set.
 * Depth first on one stack: with the listings in memory there is nothing to overlap, and a promise per directory
 * would cost more than visiting its entries.
 */
async function walkHeld(
  context: ToolContext,
  snapshot: IndexSnapshot,
  start: ConfinedPath,
  options: VisibleWalkOptions,
  rules: IgnoreRules,
  visit: (entry: VisibleEntry, depth: number) => void,
): Promise<void> {
  const { fs } = context.workspace;
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const paths: string[] = [start.absolute];
  const depths: number[] = [1];
  let read = 0;
  for (let path = paths.pop(), depth = depths.pop(); path !== undefined && depth !== undefined; path = paths.pop(), depth = depths.pop()) {
    throwIfCancelled(context);
    const entries = snapshot.list(path) ?? withPaths(path, await fs.readDirectory(path));
    reportProgress(context, ++read, undefined, 'directories read');
    const entering = options.includeIgnored ? undefined : rules.enterDirectory(path, entries);
    if (entering) {
      await entering;
      throwIfCancelled(context);
    }
    for (const entry of rules.visibleEntries(path, entries, options.includeDotFiles)) {
      visit(entry, depth);
      if (entry.kind === 'directory' && !entry.isSymlink && depth < maxDepth && (options.descend?.(entry) ?? true)) {
        paths.push(entry.absolute);
        depths.push(depth + 1);
      }
    }
  }
}

function withPaths(directory: string, entries: readonly DirEntry[]): IndexedEntry[] {
  return entries.map((entry) => ({
    name: entry.name,
    kind: entry.kind,
    isSymlink: entry.isSymlink,
    absolute: directory === '/' ? `/${entry.name}` : `${directory}/${entry.name}`,
    parent: directory,
  }));
}

/** Checks that a resolved directory parameter is a directory the tools may show (the listing and search tools). */
export async function checkDirectory(context: ToolContext, directory: ConfinedPath): Promise<ConfinedPath> {
  const stat = await context.workspace.fs.stat(directory.absolute);
  if (!stat) throw new ToolError('DIRECTORY_NOT_FOUND', `Directory does not exist: ${directory.display}.`);
  if (stat.kind !== 'directory') {
    throw new ToolError(
      'DIRECTORY_NOT_DIRECTORY',
      `Not a directory: ${directory.display} is a ${stat.kind}. Use ${toolRef('file_info')} or ${toolRef('read_file')} for a file.`,
    );
  }
  await assertMayRead(context, directory, 'directory');
  return directory;
}

/** The directories to search: the named one, or every root when none is named. */
export async function searchStarts(context: ToolContext, named: ConfinedPath | undefined): Promise<ConfinedPath[]> {
  if (named !== undefined) return [await checkDirectory(context, named)];
  return Promise.all(context.paths.roots.map(async (root) => checkDirectory(context, await context.paths.resolve(root.path, 'directory'))));
}

/**
 * The files of a walk grouped by directory, so that the first `count` paths in code-unit order come out without
 * building or sorting every path. A depth-first walk that takes each directory's children in the order of their
 * names — a directory's name with '/' after it, as it appears inside its descendants' paths — meets the paths in
 * exactly their code-unit order: two paths first differ inside the names of two siblings (or one ends where the other
 * goes on with '/'), and those names, with the '/', compare the same way. So only the directories met before `count`
 * files are sorted, each by its own few names.
 */
export class FileTree {
  private readonly directories = new Map<string, { files: string[]; subdirectories: string[] }>();
  /** Files added. */
  size = 0;

  addFile(parent: string, name: string): void {
    this.children(parent).files.push(name);
    this.size++;
  }

  addDirectory(parent: string, name: string): void {
    this.children(parent).subdirectories.push(name);
  }

  /** The absolute paths of the first `count` files below `start`, in code-unit order (compareCodePoints'). */
  first(start: string, count: number): string[] {
    const found: string[] = [];
    const visit = (directory: string): void => {
      const children = this.directories.get(directory);
      if (!children) return;
      const keyed = [
        ...children.files.map((name) => ({ key: name, name, isDirectory: false })),
        ...children.subdirectories.map((name) => ({ key: `${name}/`, name, isDirectory: true })),
      ];
      keyed.sort((a, b) => compareCodePoints(a.key, b.key));
      for (const { name, isDirectory } of keyed) {
        if (found.length >= count) return;
        const path = directory === '/' ? `/${name}` : `${directory}/${name}`;
        if (isDirectory) visit(path);
        else found.push(path);
      }
    };
    visit(start);
    return found;
  }

  private children(parent: string): { files: string[]; subdirectories: string[] } {
    let children = this.directories.get(parent);
    if (!children) {
      children = { files: [], subdirectories: [] };
      this.directories.set(parent, children);
    }
    return children;
  }
}

export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The type a listing shows: a link is a link, whatever it points at. */
export function entryType(entry: Pick<VisibleEntry, 'kind' | 'isSymlink'>): 'file' | 'directory' | 'symlink' | 'other' {
  return entry.isSymlink ? 'symlink' : entry.kind;
}
