/**
 * The warm path index as the core sees it: directory listings a long-lived host keeps in memory between calls
 * (src/node/indexes/pathIndex.ts), so that the listing and search tools walk memory instead of the disk.
 *
 * The index holds raw listings only — every name a directory has, exactly as `FileSystem.readDirectory` gives it —
 * and no rule: ignore files, the exclude settings, hidden and protected paths and dot-file hiding are applied by the
 * same walk (listing.ts) at every call, whichever source the listings come from. So an indexed answer can differ
 * from a fresh walk's only if a listing differs, and the one promise an index makes is about listings:
 *
 *   every listing a snapshot hands out is the directory's listing as of the moment the snapshot was taken
 *   (the call's start), and a directory it cannot vouch for it does not hand out at all — the walk reads that one
 *   from the disk itself.
 *
 * How the host keeps that promise (events drained before answering, directories verified by their status, what
 * happens when a watcher overflows) is in its header and in docs/design.md, "The path index".
 */
import type { DirEntry } from './fs';
import type { CallSignals } from '../signals';

/**
 * A directory entry as the index keeps it: the port's entry plus its absolute path and its directory's, built once
 * and handed to every walk as they are (a walk over 100,000 entries allocates nothing per entry).
 */
export interface IndexedEntry extends DirEntry {
  readonly absolute: string;
  /** The directory's absolute path (the same string for all its entries). */
  readonly parent: string;
}

/** The listings below one directory, current as of the moment `PathIndex.snapshot` answered. */
export interface IndexSnapshot {
  /**
   * The entries of `directory` (absolute, at or below the snapshot's start), in no particular order; undefined when
   * the index does not vouch for this directory (not indexed, unreadable, changing too fast to tell): read it then.
   * An array the index hands out again while its directory is unchanged is marked with holdListing (memo.ts) and
   * never changed: the walks remember what they derive from it.
   */
  list(directory: string): readonly IndexedEntry[] | undefined;
  /**
   * A token for `directory` and everything below it: the same object for as long as none of its listings changes,
   * given only when the index vouches for the whole subtree without looking at it (every directory in it held and
   * watched, no event since its listing was read, no links); undefined otherwise. A walk may reuse what it derived
   * from the subtree under the same token (listing.ts), as it reuses what it derived from one held listing.
   */
  subtree(directory: string): object | undefined;
}

/** What the index says about itself (workspace_info, the bench). */
export interface PathIndexReport {
  /** 'ready': answering; 'building': its first walk is under way (calls walk meanwhile); 'off': not indexing here. */
  readonly state: 'ready' | 'building' | 'off';
  /** Why it is off, when it is. */
  readonly reason?: string;
  /** Paths held (files, directories, links and others), over every root it indexes. */
  readonly paths: number;
  readonly directories: number;
  /**
   * The memory it holds, estimated from what it holds (entries, their strings, directory records, watches); the
   * bench measures the real figure per 100,000 paths (docs/benchmarks.md), which this estimate is kept close to.
   */
  readonly bytes: number;
  /** Walks answered from it so far (one per call, a few for a search with several starts); the rest read the disk. */
  readonly answered: number;
  /** How the host learns of changes: 'events' (drained before each answer) or 'verify' (each directory checked). */
  readonly freshness?: 'events' | 'verify';
}

/** A host's index (Session.index): one per host, shared by its calls, never changed by a call. */
export interface PathIndex {
  /**
   * The listings below `directory` (inside the workspace root `root`), current as of the start of the call `signals`
   * belongs to: change notifications pending then are taken in first (once per call, however many walks it makes),
   * and each listing is proven current before it is handed out. Undefined when the index cannot
   * answer for this root yet (its first walk is under way or not started, it is off, the root was replaced): the call
   * walks. Every call of `snapshot` is matched by one of `release`, when the walk is over.
   */
  snapshot(root: string, directory: string, signals: CallSignals): Promise<IndexSnapshot | undefined>;
  /** The walk that asked for a snapshot (given one or not) is over: the index does its own work between walks. */
  release(): void;
  report(): PathIndexReport;
}

/** A listing read from the disk as the index would hold it (a walk takes every listing in this form). */
export function withPaths(directory: string, entries: readonly DirEntry[]): IndexedEntry[] {
  return entries.map((entry) => ({
    name: entry.name,
    kind: entry.kind,
    isSymlink: entry.isSymlink,
    absolute: directory === '/' ? `/${entry.name}` : `${directory}/${entry.name}`,
    parent: directory,
  }));
}
