/**
 * Per-path mutual exclusion inside one process. A guarded write (expected_hash) reads, compares and writes in
 * several awaits; without a lock two calls holding the same hash could both pass the check and the second would
 * silently overwrite the first. With it, calls on one path run one after another, so exactly one of them wins.
 *
 * Limits: it serialises Agent FS's own calls in this process (one extension host, or one runner). Another process,
 * another extension or the user's editor writing the same file is not held back; the hash check narrows that window
 * to the time between reading and renaming, and the atomic rename means a racing writer's bytes are either wholly
 * kept or wholly replaced, never interleaved.
 */

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
