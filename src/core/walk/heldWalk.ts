/**
 * The walk over a path index snapshot (pathIndex.ts), for walkListings: the listings a walk of the disk would take,
 * each from the snapshot, and what the walk keeps of whole subtrees so that a later call passes over one that did
 * not change without listing anything in it.
 */
import type { ToolContext } from '../context';
import { holdsGitignore, type IgnoreRules, RULE_SETS_KEPT } from './ignore/rules';
import { type IndexedEntry, type IndexSnapshot, withPaths } from '../ports/pathIndex';
import { breathe, reportProgress, throwIfCancelled } from '../signals';
import { holdListing, ListingMemo } from './memo';

/** What walkListings' `take` made of one listing: the entries visited, and the directories to enter next. */
export interface Taken {
  readonly visible: readonly IndexedEntry[];
  readonly next: readonly string[];
}

export interface HeldWalk {
  readonly rules: IgnoreRules;
  readonly enterDirectory: IgnoreRules['enterDirectory'] | undefined;
  readonly includeDotFiles: boolean;
  /** Subtrees may be passed over whole (Subtree): the walk goes everywhere the rules let it. */
  readonly reuse: boolean;
  readonly take: (directory: string, entries: readonly IndexedEntry[], depth: number) => Taken;
  readonly visit: (directory: string, entries: readonly IndexedEntry[], depth: number) => void;
  /** Takes a kept subtree whole, its top at `depth`, instead of `visit` for each of its listings (walkListings). */
  readonly visitSubtree: ((subtree: HeldSubtree, depth: number) => void) | undefined;
}

/**
 * A subtree a walk passed over whole (walkListings' `visitSubtree`): the visible entries of its top directory, and
 * the subtrees of the directories the walk entered from there. It is the same object at every call for as long as
 * nothing in it changes, and is held (memo.ts), so a ListingMemo remembers what a tool derives from it. It holds no
 * links (the index vouches for no subtree that has any).
 */
export interface HeldSubtree {
  readonly directory: string;
  readonly entries: readonly IndexedEntry[];
  readonly below: readonly HeldSubtree[];
}

/** Calls `visit` for each listing of `subtree`, as a walk of it would (in no particular order). */
export function forEachListing(subtree: HeldSubtree, visit: (directory: string, entries: readonly IndexedEntry[]) => void): void {
  replay(subtree, 1, visit);
}

/** What `of` gives for each listing of `subtree`, in one array (in no particular order). */
export function collect<T>(subtree: HeldSubtree, of: (entries: readonly IndexedEntry[]) => readonly T[]): T[] {
  const all: T[] = [];
  forEachListing(subtree, (_directory, entries) => {
    for (const each of of(entries)) all.push(each);
  });
  return all;
}

/**
 * What a walk over the index keeps of a subtree it walked, by the subtree's token (IndexSnapshot.subtree) and the key
 * of the rules at its top (IgnoreRules.keyFor): the visible entries of each directory it entered. While the token
 * holds, none of the subtree's listings changed, so a walk of it would take the same listings; and the rules would
 * decide the same: those at its top are the key, and the .gitignore files below its top, whose text can change
 * while their directories' listings stay the same, are read again and compared. So the walk visits what is kept,
 * with what was counted as ignored, and lists nothing.
 */
interface Subtree extends HeldSubtree {
  readonly below: readonly Subtree[];
  /** Entries skipped as ignored, directories entered, and visible entries, in the whole subtree. */
  readonly ignored: number;
  readonly directories: number;
  readonly entryCount: number;
  /** The directory's own .gitignore as the rules read it (IgnoreRules.ownGitignore), when its listing holds one. */
  readonly gitignore: { readonly read: object | undefined } | undefined;
  /** The .gitignore files below its top: [directory, as read]. */
  readonly gitignores: readonly (readonly [string, object | undefined])[];
}

/** A Subtree being put together: done when the subtrees of all its `pending` directories have come. */
interface PartSubtree {
  readonly directory: string;
  readonly entries: readonly IndexedEntry[];
  readonly below: Subtree[];
  pending: number;
  ignored: number;
  directories: number;
  entryCount: number;
  readonly gitignore: Subtree['gitignore'];
  gitignores: (readonly [string, object | undefined])[];
  /** Where it is kept once done (undefined: only a part of its parent's). */
  readonly token: object | undefined;
  readonly key: string;
  readonly parent: PartSubtree | undefined;
}

/**
 * The most entries a kept subtree holds. What a tool derives from a kept subtree (visitSubtree) it derives in one go,
 * holding the event loop meanwhile; this bounds that to a few milliseconds. A larger subtree is walked a directory at
 * a time, its smaller subtrees kept and passed over whole.
 */
const KEPT_SUBTREE_ENTRIES = 4096;

/** Subtrees by token, then by rule key: a token keeps as many rule sets as IgnoreRules.visibleEntries keeps. */
const SUBTREES = new ListingMemo<Subtree>(RULE_SETS_KEPT);

/**
 * The walk over an index snapshot (pathIndex.ts): the same listings taken as walkDirectories would take, each from
 * the snapshot (from the disk where it has none), except that a subtree walked before under the same token and rules
 * is visited from what was kept of it (Subtree). Depth first on one stack: with the listings in memory there is
 * nothing to overlap, and a promise per directory would cost more than taking its listing.
 */
export async function walkHeld(context: ToolContext, snapshot: IndexSnapshot, start: string, walk: HeldWalk): Promise<void> {
  const { fs } = context.workspace;
  const { rules, enterDirectory } = walk;
  // The directories still to take, each with its depth, its parent (which spares enterDirectory a dirname) and the
  // subtree it is part of, when one is being put together.
  const paths: string[] = [start];
  const depths: number[] = [1];
  const parents: (string | undefined)[] = [undefined];
  const parts: (PartSubtree | undefined)[] = [undefined];
  let read = 0;
  while (paths.length > 0) {
    const path = paths.pop() ?? start;
    const depth = depths.pop() ?? 1;
    const parent = parents.pop();
    const part = parts.pop();
    throwIfCancelled(context);
    await breathe(context);
    const entries = snapshot.list(path) ?? withPaths(path, await fs.readDirectory(path));
    reportProgress(context, ++read, undefined, 'directories read');
    const entering = enterDirectory?.(path, entries, parent);
    if (entering) {
      await entering;
      throwIfCancelled(context);
    }
    const token = walk.reuse ? snapshot.subtree(path) : undefined;
    const key = token ? rules.keyFor(path, walk.includeDotFiles) : '';
    const kept = token ? SUBTREES.known(token, key) : undefined;
    if (kept && (await gitignoresUnchanged(rules, kept))) {
      if (walk.visitSubtree) walk.visitSubtree(kept, depth);
      else await replayBreathing(context, kept, depth, walk.visit);
      rules.ignoredCount += kept.ignored;
      read += kept.directories - 1;
      if (part && addPart(part, kept)) finishPart(part);
      continue;
    }
    const ignoredBefore = rules.ignoredCount;
    const { visible, next } = walk.take(path, entries, depth);
    // Put together while walking wherever it can be kept, or is part of one that can.
    const building: PartSubtree | undefined =
      token || part
        ? {
            directory: path,
            entries: visible,
            below: [],
            pending: next.length,
            ignored: rules.ignoredCount - ignoredBefore,
            directories: 1,
            entryCount: visible.length,
            gitignore: enterDirectory && holdsGitignore(entries) ? { read: rules.ownGitignore(path) } : undefined,
            gitignores: [],
            token,
            key,
            parent: part,
          }
        : undefined;
    if (building && next.length === 0) finishPart(building);
    for (const directory of next) {
      paths.push(directory);
      depths.push(depth + 1);
      parents.push(path);
      parts.push(building);
    }
  }
}

/** The listings of a kept subtree in the order a walk of it takes them, each with its depth (its top's is `depth`). */
function* listingsOf(top: HeldSubtree, depth: number): Generator<readonly [HeldSubtree, number]> {
  const subtrees: HeldSubtree[] = [top];
  const depths: number[] = [depth];
  for (let subtree = subtrees.pop(); subtree; subtree = subtrees.pop()) {
    const at = depths.pop() ?? depth;
    yield [subtree, at];
    for (const below of subtree.below) {
      subtrees.push(below);
      depths.push(at + 1);
    }
  }
}

/** Visits a kept subtree as a walk of it would, its top at `depth`. */
function replay(top: HeldSubtree, depth: number, visit: HeldWalk['visit']): void {
  for (const [subtree, at] of listingsOf(top, depth)) visit(subtree.directory, subtree.entries, at);
}

/** replay for a walk: a subtree may hold thousands of listings, so the walk breathes between them. */
async function replayBreathing(context: ToolContext, top: HeldSubtree, depth: number, visit: HeldWalk['visit']): Promise<void> {
  for (const [subtree, at] of listingsOf(top, depth)) {
    await breathe(context);
    visit(subtree.directory, subtree.entries, at);
  }
}

/** Whether every .gitignore below a kept subtree's top still reads as it did (the one at its top is in its key). */
async function gitignoresUnchanged(rules: IgnoreRules, subtree: Subtree): Promise<boolean> {
  for (const [directory, read] of subtree.gitignores) if ((await rules.readGitignore(directory)) !== read) return false;
  return true;
}

/** Keeps a complete part where it can be kept and adds it to its parent, and so on up while parents complete. */
function finishPart(part: PartSubtree): void {
  let done: PartSubtree | undefined = part;
  while (done) {
    const subtree: Subtree = {
      directory: done.directory,
      entries: done.entries,
      below: done.below,
      ignored: done.ignored,
      directories: done.directories,
      entryCount: done.entryCount,
      gitignore: done.gitignore,
      gitignores: done.gitignores,
    };
    if (done.token && done.entryCount <= KEPT_SUBTREE_ENTRIES) {
      holdListing(subtree);
      SUBTREES.keep(done.token, done.key, subtree);
    }
    const parent: PartSubtree | undefined = done.parent;
    done = parent && addPart(parent, subtree) ? parent : undefined;
  }
}

/** Adds a subtree of one of `part`'s directories to it; true when that was the last and `part` is complete. */
function addPart(part: PartSubtree, subtree: Subtree): boolean {
  part.below.push(subtree);
  part.ignored += subtree.ignored;
  part.directories += subtree.directories;
  part.entryCount += subtree.entryCount;
  if (subtree.gitignore) part.gitignores.push([subtree.directory, subtree.gitignore.read]);
  for (const each of subtree.gitignores) part.gitignores.push(each);
  return --part.pending === 0;
}
