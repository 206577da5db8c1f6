/** The walk the listing and search tools share: walkDirectories plus the ignore rules (ignore.ts) and dot-file hiding. */
import { toolRef } from '../naming';
import { ToolError } from '../errors';
import type { EntryKind } from '../ports/fs';
import { IgnoreRules } from './ignore/rules';
import { assertMayRead } from '../policy/policy';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { type IndexedEntry, withPaths } from '../ports/pathIndex';
import { ListingMemo } from './memo';
import { walkDirectories } from '../files/walk';
import { forEachListing, type HeldSubtree, type Taken, walkHeld } from './heldWalk';

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
  /**
   * walkListings only: takes at once, with its top's depth, a subtree the walk passes over whole — one walked before
   * under the same rules, in which the path index vouches nothing changed since — instead of its every listing through
   * `visit` (forEachListing gives them). What a tool derives from it, a ListingMemo keeps.
   */
  readonly visitSubtree?: (subtree: HeldSubtree, depth: number) => void;
  /** Told every entry the rules skip (ignored, excluded or hidden; not a dot file left out), the walk going everywhere. */
  readonly skipped?: (absolute: string) => void;
}

/**
 * Walks `start` calling `visit` for every entry the rules let through (links are reported, never descended), with its
 * depth (1 for the start directory's own entries). Returns the rules, whose `ignoredCount` says how much was skipped.
 * The entries may be the path index's own objects, shared between calls: they are read, never changed.
 */
export async function walkVisible(
  context: ToolContext,
  start: ConfinedPath,
  options: Omit<VisibleWalkOptions, 'visitSubtree'>,
  visit: (entry: VisibleEntry, depth: number) => void,
): Promise<IgnoreRules> {
  return walkListings(context, start, options, (_directory, entries, depth) => {
    for (const entry of entries) visit(entry, depth);
  });
}

/**
 * walkVisible a listing at a time: `visit` gets each directory's visible entries together (in no particular order),
 * as one array that must not be changed. Over the path index that array is the same object at every call for as long
 * as the directory and the rules are unchanged, so a tool that keeps what it derives from a listing in a ListingMemo
 * does its per-entry work once per listing, not once per call.
 */
export async function walkListings(
  context: ToolContext,
  start: ConfinedPath,
  options: VisibleWalkOptions,
  visit: (directory: string, entries: readonly VisibleEntry[], depth: number) => void,
): Promise<IgnoreRules> {
  const rules = new IgnoreRules(context, start.root, { includeIgnored: options.includeIgnored, search: options.search });
  await rules.prepare(start.absolute);
  // A folder that is itself ignored (listing "node_modules" by name) shows nothing unless include_ignored: the same
  // answer whichever way its .gitignore rule is written, and the one ripgrep's results are held to.
  if (start.absolute !== start.root.path && (await rules.excludesPath(start.absolute, true))) {
    rules.ignoredCount++;
    return rules;
  }
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  // One listing, wherever it came from: its visible entries visited, its visible directories answered for entering.
  const take = (directory: string, entries: readonly IndexedEntry[], depth: number): Taken => {
    const visible = rules.visibleEntries(directory, entries, options.includeDotFiles);
    visit(directory, visible, depth);
    const { skipped } = options;
    if (skipped && visible.length < entries.length) {
      const shown = new Set(visible);
      for (const entry of entries)
        if (!shown.has(entry) && (options.includeDotFiles || !entry.name.startsWith('.'))) skipped(entry.absolute);
    }
    if (depth >= maxDepth) return { visible, next: [] };
    const { descend } = options;
    if (!descend)
      return { visible, next: SUBDIRECTORY_PATHS.get(visible, '', (all) => all.filter(isWalkedDirectory).map((entry) => entry.absolute)) };
    return { visible, next: visible.filter((entry) => isWalkedDirectory(entry) && descend(entry)).map((entry) => entry.absolute) };
  };
  const enterDirectory = options.includeIgnored ? undefined : rules.enterDirectory;
  const walkDisk = (): Promise<void> =>
    walkDirectories(
      context.workspace.fs,
      start.absolute,
      context,
      (path, entries, depth) => take(path, withPaths(path, entries), depth).next,
      {
        enterDirectory,
      },
    );
  const { index } = context;
  if (!index) {
    await walkDisk();
    return rules;
  }
  try {
    const snapshot = await index.snapshot(start.root.path, start.absolute, context);
    if (snapshot) {
      // A whole subtree is walked the same way again only where nothing limits the walk but the rules.
      const reuse = maxDepth === Number.POSITIVE_INFINITY && options.descend === undefined && options.skipped === undefined;
      await walkHeld(context, snapshot, start.absolute, {
        rules,
        enterDirectory,
        includeDotFiles: options.includeDotFiles,
        reuse,
        take,
        visit,
        visitSubtree: options.visitSubtree,
      });
    } else await walkDisk();
  } finally {
    index.release();
  }
  return rules;
}

/** The directories of a listing a walk enters (a link is never entered). */
function isWalkedDirectory(entry: VisibleEntry): boolean {
  return entry.kind === 'directory' && !entry.isSymlink;
}

const SUBDIRECTORY_PATHS = new ListingMemo<readonly string[]>();

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
  private readonly directories = new Map<string, Children>();
  /** Subtrees added whole (addSubtree), by their top directory. */
  private readonly subtrees = new Map<string, HeldSubtree>();
  /** Files added. */
  size = 0;

  addFile(parent: string, name: string): void {
    this.added(parent).files.push(name);
    this.size++;
  }

  addDirectory(parent: string, name: string): void {
    this.added(parent).subdirectories.push(name);
  }

  /**
   * A whole listing of walkListings at once: its files and directories (links are the caller's), in their order
   * remembered with the listing. A directory is added either this way or entry by entry, not both.
   */
  addListing(directory: string, entries: readonly VisibleEntry[]): void {
    const listing = ORDERED_LISTINGS.get(entries, '', orderListing);
    this.directories.set(directory, listing);
    this.size += listing.files;
  }

  /**
   * A subtree walkListings passed over whole (visitSubtree), with everything below it: its files and directories in
   * the order remembered with each of its listings. Its directories are added no other way.
   */
  addSubtree(subtree: HeldSubtree): void {
    this.subtrees.set(subtree.directory, subtree);
    this.size += SUBTREE_FILES.get(subtree, '', countFiles);
  }

  /** The absolute paths of the first `count` files below `start`, in code-unit order (compareCodePoints'). */
  first(start: string, count: number): string[] {
    const found: string[] = [];
    for (const path of this.files(start)) {
      if (found.length >= count) break;
      found.push(path);
    }
    return found;
  }

  /**
   * The absolute paths of the files below `start`, in code-unit order, one at a time: a caller that takes them all can
   * breathe between them. Only the directories reached are looked into: inside an added subtree, through its own.
   */
  *files(start: string, within?: HeldSubtree): Generator<string, void, undefined> {
    const subtree = within ?? this.subtrees.get(start);
    const children = subtree ? ORDERED_LISTINGS.get(subtree.entries, '', orderListing) : this.directories.get(start);
    if (!children) return;
    const below = subtree && SUBTREES_BELOW.get(subtree, '', (each) => new Map(each.below.map((one) => [one.directory, one])));
    for (const { name, isDirectory } of 'ordered' in children ? children.ordered : order(children.files, children.subdirectories)) {
      const path = start === '/' ? `/${name}` : `${start}/${name}`;
      if (isDirectory) yield* this.files(path, below?.get(path));
      else yield path;
    }
  }

  private added(parent: string): AddedChildren {
    let children = this.directories.get(parent);
    if (children && 'ordered' in children) throw new Error(`FileTree: ${parent} was added as a listing`);
    if (!children) {
      children = { files: [], subdirectories: [] };
      this.directories.set(parent, children);
    }
    return children;
  }
}

interface AddedChildren {
  readonly files: string[];
  readonly subdirectories: string[];
}
interface OrderedChildren {
  readonly ordered: readonly { readonly name: string; readonly isDirectory: boolean }[];
  /** How many of them are files. */
  readonly files: number;
}
type Children = AddedChildren | OrderedChildren;

const ORDERED_LISTINGS = new ListingMemo<OrderedChildren>();
/** Per subtree added whole: its files, and the subtrees of its top's directories by their paths. */
const SUBTREE_FILES = new ListingMemo<number>();
const SUBTREES_BELOW = new ListingMemo<ReadonlyMap<string, HeldSubtree>>();

function countFiles(subtree: HeldSubtree): number {
  let files = 0;
  forEachListing(subtree, (_directory, entries) => {
    files += ORDERED_LISTINGS.get(entries, '', orderListing).files;
  });
  return files;
}

function orderListing(entries: readonly VisibleEntry[]): OrderedChildren {
  const files = entries.filter((entry) => entry.kind === 'file' && !entry.isSymlink).map((entry) => entry.name);
  const subdirectories = entries.filter(isWalkedDirectory).map((entry) => entry.name);
  return { ordered: order(files, subdirectories), files: files.length };
}

/** A directory's files and subdirectories in the order of the paths below it (FileTree's header). */
function order(files: readonly string[], subdirectories: readonly string[]): { name: string; isDirectory: boolean }[] {
  const keyed = [
    ...files.map((name) => ({ key: name, name, isDirectory: false })),
    ...subdirectories.map((name) => ({ key: `${name}/`, name, isDirectory: true })),
  ];
  keyed.sort((a, b) => compareCodePoints(a.key, b.key));
  return keyed.map(({ name, isDirectory }) => ({ name, isDirectory }));
}

export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The type a listing shows: a link is a link, whatever it points at. */
export function entryType(entry: Pick<VisibleEntry, 'kind' | 'isSymlink'>): 'file' | 'directory' | 'symlink' | 'other' {
  return entry.isSymlink ? 'symlink' : entry.kind;
}
