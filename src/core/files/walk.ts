/**
 * Bounded, concurrent directory walks. Invariant: a walk never descends through a symbolic link, so a link
 * (inside or out of the base) can neither lead a recursive list, copy or delete outside the base nor loop.
 */
import type { DirEntry, FileSystem } from '../ports/fs';
import { breathe, type CallSignals, reportProgress, throwIfCancelled } from '../signals';

export interface WalkEntry extends DirEntry {
  readonly absolute: string;
  /** 1 for the start directory's own entries. */
  readonly depth: number;
  /** The directory the entry is in (the same string for all its entries). */
  readonly parent: string;
}

export interface WalkOptions {
  /** Deepest level whose entries are visited; the start directory's entries are level 1. */
  readonly maxDepth?: number;
  /** Directory reads in flight at once; the walk is I/O-bound, so a few overlap well. */
  readonly concurrency?: number;
  /** Called with a directory's entries before any is visited (e.g. to load the .gitignore among them). */
  readonly enterDirectory?: (path: string, entries: readonly DirEntry[]) => Promise<void> | undefined;
}

/**
 * Calls `visit` for every entry below `start` (order unspecified). `visit` returns false to skip a
 * directory's contents. Throws CancelledError between directory reads once the call is cancelled.
 */
export async function walkTree(
  fs: FileSystem,
  start: string,
  context: CallSignals,
  visit: (entry: WalkEntry) => boolean | void,
  options: WalkOptions = {},
): Promise<void> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  await walkDirectories(
    fs,
    start,
    context,
    (path, entries, depth) => {
      const entered: string[] = [];
      for (const entry of entries) {
        const absolute = path === '/' ? `/${entry.name}` : `${path}/${entry.name}`;
        const descend = visit({ name: entry.name, kind: entry.kind, isSymlink: entry.isSymlink, absolute, depth, parent: path }) !== false;
        if (descend && entry.kind === 'directory' && !entry.isSymlink && depth < maxDepth) entered.push(absolute);
      }
      return entered;
    },
    options,
  );
}

/**
 * The walk a listing at a time: `take` gets each directory's entries (after `enterDirectory`), with the directory's
 * depth (1 for `start`), and answers the directories to read next. Reads overlap (`concurrency`); `take` runs for one
 * listing at a time, in no particular order. Throws CancelledError between directory reads once the call is cancelled.
 */
export async function walkDirectories(
  fs: FileSystem,
  start: string,
  context: CallSignals,
  take: (path: string, entries: readonly DirEntry[], depth: number) => readonly string[],
  options: Pick<WalkOptions, 'concurrency' | 'enterDirectory'> = {},
): Promise<void> {
  const concurrency = options.concurrency ?? 16;
  const pending: { path: string; depth: number }[] = [{ path: start, depth: 1 }];
  let active = 0;
  let read = 0;
  let failure: Error | undefined;

  await new Promise<void>((resolve) => {
    const pump = (): void => {
      if (failure !== undefined && active === 0) return resolve();
      while (failure === undefined && active < concurrency && pending.length > 0) {
        const next = pending.pop();
        if (!next) break;
        active++;
        void readLevel(next.path, next.depth).then(
          () => {
            active--;
            pump();
          },
          (error: unknown) => {
            failure ??= error instanceof Error ? error : new Error(String(error));
            active--;
            pump();
          },
        );
      }
      if (active === 0 && (pending.length === 0 || failure !== undefined)) resolve();
    };
    const readLevel = async (path: string, depth: number): Promise<void> => {
      throwIfCancelled(context);
      // A port that lists synchronously (node:fs) resolves every read in a microtask: without a breath the whole walk
      // would be one turn of the event loop, and a ping or a cancellation would wait for its end.
      await breathe(context);
      const entries = await fs.readDirectory(path);
      reportProgress(context, ++read, undefined, 'directories read');
      const entering = options.enterDirectory?.(path, entries);
      if (entering) {
        await entering;
        throwIfCancelled(context);
      }
      for (const directory of take(path, entries, depth)) pending.push({ path: directory, depth: depth + 1 });
    };
    pump();
  });
  if (failure !== undefined) throw failure;
}

export interface TreeCounts {
  files: number;
  directories: number;
  symlinks: number;
  others: number;
}
