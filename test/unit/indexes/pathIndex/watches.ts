/**
 * Stand-ins for fs.watch that lose events the ways real watches do, for the path index's tests: a kernel queue that
 * overflows (the first `capacity` events of a turn of the event loop delivered, the rest dropped, as inotify keeps
 * what fits and drops the rest), watches that cannot be set up (the per-user limit), and watches that report an error
 * and go silent. Each wraps the real fs.watch, so what does arrive is what the kernel said.
 */
import * as fs from 'node:fs';
import type { WatchFactory } from '../../../../src/node/indexes/pathIndex';

/** The real watch, one directory at a time, as the index uses it. */
export const realWatch: WatchFactory = (path, onEvent, onError) => {
  const watcher = fs.watch(path, { persistent: false }, (type, name) => onEvent(type, typeof name === 'string' ? name : null));
  watcher.on('error', onError);
  return watcher;
};

/** Counts what a stand-in did, so a test can show that it really lost something. */
export interface Losses {
  dropped: number;
  failedWatches: number;
  erroredWatches: number;
}

/**
 * A queue of `capacity` events per turn of the event loop, shared by every watch (inotify has one queue per
 * process): events past it in the same turn are dropped, as the kernel drops them when its queue is full.
 */
export function overflowingWatch(capacity: number, losses: Losses): WatchFactory {
  let delivered = 0;
  let resetting = false;
  return (path, onEvent, onError) =>
    realWatch(
      path,
      (type, name) => {
        if (!resetting) {
          resetting = true;
          setImmediate(() => {
            delivered = 0;
            resetting = false;
          });
        }
        if (delivered >= capacity) {
          losses.dropped++;
          return;
        }
        delivered++;
        onEvent(type, name);
      },
      onError,
    );
}

/**
 * Every `failEvery`-th watch cannot be set up (ENOSPC, as past the per-user limit), and every `dieEvery`-th one
 * reports an error after its first event and delivers nothing more.
 */
export function failingWatch(failEvery: number, dieEvery: number, losses: Losses): WatchFactory {
  let made = 0;
  return (path, onEvent, onError) => {
    made++;
    if (made % failEvery === 0) {
      losses.failedWatches++;
      throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${path}'`), { code: 'ENOSPC' });
    }
    const dies = made % dieEvery === 0;
    let dead = false;
    return realWatch(
      path,
      (type, name) => {
        if (dead) {
          losses.dropped++;
          return;
        }
        if (dies) {
          dead = true;
          losses.erroredWatches++;
          onError(new Error('the watch went away'));
          losses.dropped++;
          return;
        }
        onEvent(type, name);
      },
      onError,
    );
  };
}
