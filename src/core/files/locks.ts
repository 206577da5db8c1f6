/**
 * Mutual exclusion for read → check → write sequences. A guarded write (expected_hash) reads, compares and writes in
 * several awaits; without a lock two calls holding the same hash could both pass the check and the second would
 * silently overwrite the first. Two layers:
 *
 *  - Within one process, `withTreeLocks`: a mutating call holds its paths and everything below them, so calls on
 *    overlapping trees run one after another and others side by side; `withPathLocks` orders a tool's own steps on
 *    one path.
 *  - Across processes (the editor, runners and MCP servers on one workspace), `withProcessLocks`: the call pipeline
 *    holds the port's lock (FileSystem.lock) over every path a mutating call may change, and its history store,
 *    from before it reads anything until it has recorded what it did. Where the port has no lock (a virtual file
 *    system in the editor), only the first layer holds.
 *
 * Limits: programs other than Agent FS (the user's editor, another extension) are not held back; the hash check
 * narrows that window to the time between reading and renaming, and the atomic rename means a racing writer's bytes
 * are either wholly kept or wholly replaced, never interleaved.
 */
import { type ErrorCode, ToolError } from '../errors';
import { type FileSystem, type HeldLock, isFsError } from '../ports/fs';
import { isWithin } from '../paths';

const tails = new Map<string, Promise<void>>();

function acquire(key: string): Promise<() => void> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => held);
  tails.set(key, tail);
  return previous.then(() => () => {
    release();
    // The last holder cleans up, so the map does not grow with every path ever written.
    if (tails.get(key) === tail) tails.delete(key);
  });
}

/**
 * Runs `task` while holding the locks of every path in `paths`. Locks are taken in sorted order, so two calls over
 * overlapping sets of paths (multi-file patches) cannot deadlock.
 */
export async function withPathLocks<T>(paths: readonly string[], task: () => Promise<T>): Promise<T> {
  const keys = [...new Set(paths)].sort();
  const releases: (() => void)[] = [];
  try {
    for (const key of keys) releases.push(await acquire(key));
    return await task();
  } finally {
    for (const release of releases.reverse()) release();
  }
}

/** One holder (or waiter) of tree locks: its paths, and how it is let in. */
interface TreeHolder {
  readonly paths: readonly string[];
  enter: () => void;
}

const treeHolders: TreeHolder[] = [];
const treeWaiters: TreeHolder[] = [];

function treesOverlap(a: readonly string[], b: readonly string[]): boolean {
  return a.some((one) => b.some((other) => isWithin(one, other) || isWithin(other, one)));
}

/** Lets in, in the order they came, every waiter that overlaps no holder and no one waiting before it. */
function admitTreeWaiters(): void {
  for (let at = 0; at < treeWaiters.length; at++) {
    const waiter = treeWaiters[at];
    if (!waiter) continue;
    const blocked =
      treeHolders.some((holder) => treesOverlap(holder.paths, waiter.paths)) ||
      treeWaiters.slice(0, at).some((before) => treesOverlap(before.paths, waiter.paths));
    if (blocked) continue;
    treeWaiters.splice(at--, 1);
    treeHolders.push(waiter);
    waiter.enter();
  }
}

/**
 * Runs `task` while no other call of this process holds a path at, above or below any of `paths` (a path covers its
 * tree, as the cross-process lock does): the in-process side of a mutating call's lock. Calls over separate trees
 * run side by side; overlapping ones in the order they came. The cross-process lock cannot do this within a process,
 * since it grants a process what it already holds.
 */
export async function withTreeLocks<T>(paths: readonly string[], task: () => Promise<T>): Promise<T> {
  const holder: TreeHolder = { paths: [...new Set(paths)], enter: () => undefined };
  const entered = new Promise<void>((resolve) => {
    holder.enter = resolve;
  });
  treeWaiters.push(holder);
  admitTreeWaiters();
  await entered;
  try {
    return await task();
  } finally {
    treeHolders.splice(treeHolders.indexOf(holder), 1);
    admitTreeWaiters();
  }
}

/** Paths to lock through one port. */
export interface LockRequest {
  readonly fs: FileSystem;
  readonly paths: readonly string[];
}

/**
 * Runs `task` while holding the cross-process locks of every request (in order; requests whose ports share one
 * `lock` are taken as one, so one call makes one claim). A lock that cannot be had in time is refused with `code` (the
 * tool's failure code: nothing was changed) and the port's message naming the holder.
 */
export async function withProcessLocks<T>(requests: readonly LockRequest[], code: ErrorCode, task: () => Promise<T>): Promise<T> {
  const merged: LockRequest[] = [];
  for (const request of requests) {
    if (!request.fs.lock || request.paths.length === 0) continue;
    const same = merged.find((each) => each.fs.lock === request.fs.lock);
    if (same) merged[merged.indexOf(same)] = { fs: same.fs, paths: [...same.paths, ...request.paths] };
    else merged.push(request);
  }
  const held: HeldLock[] = [];
  try {
    for (const request of merged) {
      try {
        const lock = await request.fs.lock?.(request.paths);
        if (lock) held.push(lock);
      } catch (error) {
        if (isFsError(error, 'locked')) throw new ToolError(code, error instanceof Error ? error.message : String(error));
        throw error;
      }
    }
    return await task();
  } finally {
    for (const lock of held.reverse()) await lock.release();
  }
}
