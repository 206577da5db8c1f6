/**
 * The warm path index of a long-lived host (the MCP server; the editor on the local disk): the listing of every
 * directory below each indexed root, in memory after one background walk, kept current between calls and proven
 * current at each call. What an index promises the core is in src/core/pathIndex.ts: a listing handed out is the
 * directory's listing as of the call's start, and a directory it cannot vouch for is not handed out, so the walk
 * reads that one from the disk. Everything below is how this index keeps that promise.
 *
 * Each directory is a node: its raw entries, its identity (device and inode) and its times as they were just before
 * it was read, and one of two ways of proving, at a call, that the listing is still the directory's:
 *  - **Watched** (freshness 'events', the MCP server): an inotify watch (Node's fs.watch on that one directory) set
 *    up before each read of the listing (a new one at every read again: the old one may have gone with its
 *    directory), on the inode the read found (checked after the read). Every change to a listing — an entry
 *    created, deleted, renamed, moved in or out, the directory itself moved or deleted — queues an event in the
 *    kernel within the very system call that makes it, and any such event marks the node dirty. Before answering, a
 *    call lets the event loop poll twice (`drain`), so every event queued before the call began has been delivered:
 *    a watched node that is not dirty then is current. Writes to a file's content leave listings
 *    as they are ('change' events of entries are not marked).
 *  - **Verified** (freshness 'verify', the editor, whose watcher's events come late and through other processes;
 *    and any directory whose watch could not be set up): the directory is statted when a walk reaches it, and its
 *    listing is handed out only when device, inode, modification and change times are as recorded and were recorded
 *    more than RACY_MS after the directory last changed. A directory's times change with every entry added, removed
 *    or renamed; the last clause is git's "racy" rule, since a change in the same clock tick as the read would leave
 *    the times as they were.
 * A dirty or changed node is read again on the spot; one that is gone or is now another directory is not handed
 * out. Links: a link's target can change kind without any event in the link's directory, so the kinds of links are
 * resolved again whenever a listing holding links is handed out.
 *
 * Subtrees (watched nodes only): a node whose listing and every listing below it are watched, quiet and free of links
 * gets a token (IndexSnapshot.subtree) when a call first asks, and keeps it until something at or below it changes.
 * Invariant: a node holds a token only while every subdirectory in its listing is a node holding one, so a change
 * anywhere clears the tokens of the node and of its ancestors up to the first that holds none (invalidate, called by
 * every change to a node: marked dirty, read again, added, removed), and a walk can pass over a subtree whose token
 * it knows without listing anything in it.
 *
 * What can make events go missing, and what the index does about it:
 *  - The kernel's queue overflowing (more than max_queued_events unread, say a checkout while the process was busy).
 *    libuv drops the overflow notice, so the index counts instead: a queue that overflowed was full, and everything
 *    queued is delivered in one read, so a burst of at least half the queue's capacity between two turns of the event
 *    loop means events may have been lost, and every node is marked dirty.
 *  - A watch that cannot be set up (the per-user limit, MAX_WATCHES, permissions) or reports an error: that
 *    directory is verified instead.
 *  - A mount or unmount inside a root, which sends no event: /proc/self/mountinfo is compared at each call, and a
 *    change below a root marks all its nodes dirty; a root that is now another directory is indexed anew.
 *  - File systems that change without telling this machine, or cache times (NFS, SMB, FUSE, 9p, …): not indexed. Only
 *    the local Linux file system types of LOCAL_FILE_SYSTEMS are; elsewhere (other platforms) calls walk.
 * Bounds: at most `maxPaths` paths per root (beyond, the root is dropped and its calls walk) and `maxWatches` watches
 * per process (MAX_WATCHES, or the editor's share of the per-user limit: editorIndexOptions).
 * Background work (the first walk, catching up with changes, proving a loaded index) runs in slices of SLICE_MS and
 * only while no call is walking (nor running at all, given the host's Foreground), so it never slows a call down
 * beyond one slice.
 *
 * Over 300 lines: one index; every way it proves a listing current (watches, verification, mounts, overflow) guards the
 * same promise, which only reads as kept in one place.
 */
import * as fs from 'node:fs';
import { basename, dirname, isWithin } from '../../core/paths';
import type { IndexedEntry, IndexSnapshot, PathIndex, PathIndexReport } from '../../core/ports/pathIndex';
import { holdListing } from '../../core/walk/memo';
import type { CallSignals } from '../../core/signals';
import { linkTargetKind, readDirectorySync } from '../fs/nodeFileSystem';
import type { Foreground } from '../host/foreground';
import { encodeSavedIndex, readSavedIndex, type SavedRoot, savedIndexFile, writeSavedIndex } from './savedIndex';

/** How long after a directory's last change its times prove nothing (2 s covers FAT's and HFS+'s coarse clocks). */
const RACY_MS = 2000;
/** Background work holds the event loop this long at most, then lets calls in. */
const SLICE_MS = 8;
/** Paths a root may hold: about 10× the 100,000-file benchmark tree (docs/benchmarks.md has the memory per path). */
const DEFAULT_MAX_PATHS = 1_000_000;
/** Watches this process sets up at most, leaving most of the per-user inotify limit to the editor and others. */
export const MAX_WATCHES = 65_536;
/** The share of the per-user inotify limit the editor's own index may take: the rest is VS Code's file watcher's. */
const EDITOR_WATCH_SHARE = 8;
/** Below this many watches for the editor's index it verifies every directory instead (events for a few help little). */
const MIN_EDITOR_WATCHES = 8_192;
/** Roots indexed at once (an MCP server whose client changes its roots keeps the last few). */
const MAX_ROOTS = 4;
/** Directories a call reads again itself before it gives up on the snapshot and walks (the background catches up). */
const MAX_INLINE_READS = 20_000;
/** How long after a change the index is saved again (saveTo): changes come in bursts (a build), and a save writes it all. */
const SAVE_DELAY_MS = 30_000;

/**
 * What the report's memory estimate counts, in bytes (64-bit V8, no pointer compression): an entry object with its
 * slot in the listing and its absolute path (joined strings, about two cons cells), a directory record with its map
 * entry, and a watch (the JS FSWatcher and libuv's handle; the kernel's inotify memory is not the process's). The
 * bench measures the heap the index really takes per 100,000 paths (docs/benchmarks.md); these follow it.
 */
const ENTRY_BYTES = 64 + 8 + 64;
const DIRECTORY_BYTES = 160;
const WATCH_BYTES = 480;

/** A string's heap size: a 16-byte header and its characters, one byte each unless any needs two, to 8 bytes. */
function stringBytes(text: string): number {
  const wide = /[^\u0000-\u00ff]/.test(text);
  return (16 + text.length * (wide ? 2 : 1) + 7) & ~7;
}

/**
 * What a listing's entries take (ENTRY_BYTES and their names), remembered with the listing: a listing is the same array
 * for as long as its directory is unchanged, so a report walks the directories, not every name.
 */
const LISTING_BYTES = new WeakMap<readonly IndexedEntry[], number>();

function listingBytes(entries: readonly IndexedEntry[]): number {
  let bytes = LISTING_BYTES.get(entries);
  if (bytes === undefined) {
    bytes = 0;
    for (const entry of entries) bytes += ENTRY_BYTES + stringBytes(entry.name);
    LISTING_BYTES.set(entries, bytes);
  }
  return bytes;
}

/** statfs types (linux/magic.h) of file systems only this machine changes, whose inotify events are complete. */
const LOCAL_FILE_SYSTEMS: ReadonlySet<number> = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x858458f6, // ramfs
  0x794c7630, // overlayfs
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
  0xca451a4e, // bcachefs
  0x3153464a, // jfs
  0x52654973, // reiserfs
  0x4d44, // vfat, msdos
  0x7366746e, // ntfs3
  0x73717368, // squashfs
]);

/** A watch on one directory (fs.watch, or a test's stand-in). */
export interface DirectoryWatch {
  close(): void;
}

/**
 * Sets up a watch on `path`, calling `onEvent` for each event ('rename': an entry or the directory itself came,
 * went or moved; 'change': content or attributes) with the entry's name where the system gives it. Throws when the
 * watch cannot be set up.
 */
export type WatchFactory = (
  path: string,
  onEvent: (type: string, name: string | null) => void,
  onError: (error: Error) => void,
) => DirectoryWatch;

const fsWatch: WatchFactory = (path, onEvent, onError) => {
  // Not persistent: a watch must not keep a host alive that has nothing else to do.
  const watcher = fs.watch(path, { persistent: false }, (type, name) => onEvent(type, typeof name === 'string' ? name : null));
  watcher.on('error', onError);
  return watcher;
};

export interface NodePathIndexOptions {
  /** How nodes are proven current (see the header); default 'events' where inotify is (Linux). */
  readonly freshness?: 'events' | 'verify';
  readonly maxPaths?: number;
  /** Watches at most (default MAX_WATCHES); directories past it are verified. */
  readonly maxWatches?: number;
  /** Replaces fs.watch (tests drop, delay or fail events through it). */
  readonly watch?: WatchFactory;
  /** Events in one burst that mean the kernel's queue may have overflowed; default half of max_queued_events. */
  readonly burstLimit?: number;
  /** RACY_MS, lowered by tests so that a verified node can be trusted within a test's time. */
  readonly racyMs?: number;
  /**
   * The wall clock the racy rule compares directories' times with (Date.now): a test sets it to a directory's change
   * time plus what it needs, so that a read falls inside the window or past it whatever the machine's speed.
   */
  readonly clock?: () => number;
  /**
   * A folder to save each root's index in (savedIndex.ts) and to start from: a root's saved listings are loaded when
   * it is first asked for (or preloaded), and each is proven before it is handed out (see the header).
   */
  readonly saveTo?: string;
  /** SAVE_DELAY_MS, lowered by tests. */
  readonly saveDelayMs?: number;
  /** The host's calls in flight: background work and saves wait while any runs (foreground.ts). */
  readonly foreground?: Foreground;
}

interface DirNode {
  readonly path: string;
  entries: IndexedEntry[];
  /** How many entries are links (their kinds are resolved again whenever the listing is handed out). */
  links: number;
  dev: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Recorded within RACY_MS of its last change (or while it changed): its times cannot prove it unchanged. */
  racy: boolean;
  /** An event came since the listing was read. */
  dirty: boolean;
  watch: DirectoryWatch | undefined;
  /** This subtree's token (see the header), while it has one. */
  subtree: object | undefined;
  /** Read by this process, or loaded from a saved index and since proven by its status (stats.proven counts them). */
  proven: boolean;
  /**
   * The same object for as long as the directory has been watched without a gap (ChangeListener): kept when a read
   * sets up its new watch while the old one still hears, new whenever that cannot be shown; undefined unwatched.
   */
  since: object | undefined;
  /** An event about the directory itself, or events lost, since its watch was set up: the next read starts a new `since`. */
  broken: boolean;
}

/**
 * Hears every event of every watched directory (a content index: src/node/indexes/contentIndex.ts): `name` is the entry
 * changed (content or attributes too), null for the directory as a whole and whenever its `since` changed.
 */
export type ChangeListener = (directory: string, name: string | null) => void;

/** Counters the tests and the bench read: where listings came from. */
export interface PathIndexStats {
  /** Snapshots handed to calls. */
  snapshots: number;
  /** Listings handed out as held. */
  served: number;
  /** Listings read again during a call (dirty, changed or racy). */
  reread: number;
  /** Directories a snapshot did not vouch for (the walk read them from the disk). */
  declined: number;
  /** Bursts that may have overflowed the kernel's queue. */
  overflows: number;
  /** Subtree tokens handed out (each lets a walk pass over a whole subtree it has walked before). */
  subtrees: number;
  /** Directories loaded from a saved index, and of those, proven unchanged by their status (the rest were read again). */
  loaded: number;
  proven: number;
  /** Saves written. */
  saves: number;
}

class RootIndex {
  readonly nodes = new Map<string, DirNode>();
  /** 'loading': its saved index is being read (calls wait for it: it is read before any call could walk the tree). */
  state: 'pending' | 'loading' | 'building' | 'ready' | 'off' = 'pending';
  loading: Promise<void> | undefined;
  /** Something changed since the last save (or nothing was saved yet); the save timer, while one is set. */
  unsaved = true;
  saveTimer: NodeJS.Timeout | undefined;
  reason: string | undefined;
  paths = 0;
  dev = 0;
  ino = 0;
  /** The mounts below the root, as /proc/self/mountinfo last listed them. */
  mounts = '';
  /** Directories to add or bring up to date in the background, in order. */
  readonly queue = new Set<string>();
  readonly waiters: (() => void)[] = [];
  /** whenQuiet's callers: woken once the root is ready with nothing left to do in the background. */
  readonly quietWaiters: (() => void)[] = [];
  lastUsed = 0;

  constructor(readonly path: string) {}
}

function now(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function lstat(path: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function childPath(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}

function isDirectoryEntry(entry: IndexedEntry): boolean {
  return entry.kind === 'directory' && !entry.isSymlink;
}

/** Decodes mountinfo's octal escapes ("\040" for a space). */
function unescapeMount(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * How the editor's index proves its listings current. The extension host shares the per-user inotify limit with VS
 * Code's own file watcher, which a watch per directory must not starve: the index takes at most an eighth of the limit
 * (and MAX_WATCHES), directories past that are verified; where the limit is so low that its share would be small (old
 * kernels default to 8,192 watches in all), every directory is verified.
 */
export function editorIndexOptions(limit = userWatchLimit()): NodePathIndexOptions {
  const share = Number.isFinite(limit) ? Math.min(MAX_WATCHES, Math.floor(limit / EDITOR_WATCH_SHARE)) : 0;
  return share >= MIN_EDITOR_WATCHES ? { freshness: 'events', maxWatches: share } : { freshness: 'verify' };
}

/** The per-user inotify limit (max_user_watches); 0 where there is none to read (not Linux). */
function userWatchLimit(): number {
  try {
    return parseInt(fs.readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8'), 10);
  } catch {
    return 0;
  }
}

function queueCapacity(): number {
  try {
    const value = parseInt(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'), 10);
    return Number.isFinite(value) && value > 0 ? value : 16_384;
  } catch {
    return 16_384;
  }
}

export class NodePathIndex implements PathIndex {
  readonly freshness: 'events' | 'verify';
  readonly stats: PathIndexStats = {
    snapshots: 0,
    served: 0,
    reread: 0,
    declined: 0,
    overflows: 0,
    subtrees: 0,
    loaded: 0,
    proven: 0,
    saves: 0,
  };
  private readonly roots = new Map<string, RootIndex>();
  private readonly maxPaths: number;
  private readonly maxWatches: number;
  private readonly watchFactory: WatchFactory;
  private readonly burstLimit: number;
  private readonly racyMs: number;
  private readonly clock: () => number;
  private readonly saveTo: string | undefined;
  private readonly saveDelayMs: number;
  private readonly foreground: Foreground | undefined;
  private readonly supported: string | undefined;
  /** Calls between their snapshot and the end of their walk: background work waits while there are any. */
  private walking = 0;
  private watches = 0;
  private burst = 0;
  private scheduled = false;
  private closed = false;
  private readonly localDevices = new Map<number, boolean>();
  /** The call the last drain was made for (its signals object, one per call). */
  private drainedFor: CallSignals | undefined;
  private listener: ChangeListener | undefined;

  constructor(options: NodePathIndexOptions = {}) {
    this.freshness = options.freshness ?? 'events';
    this.maxPaths = options.maxPaths ?? DEFAULT_MAX_PATHS;
    this.maxWatches = options.maxWatches ?? MAX_WATCHES;
    this.watchFactory = options.watch ?? fsWatch;
    this.burstLimit = options.burstLimit ?? Math.floor(queueCapacity() / 2);
    this.racyMs = options.racyMs ?? RACY_MS;
    this.clock = options.clock ?? Date.now;
    this.saveTo = options.saveTo;
    this.saveDelayMs = options.saveDelayMs ?? SAVE_DELAY_MS;
    this.foreground = options.foreground;
    this.supported = process.platform === 'linux' ? undefined : `the index runs on Linux only; on ${process.platform} every call walks`;
  }

  async snapshot(rootPath: string, _directory: string, signals: CallSignals): Promise<IndexSnapshot | undefined> {
    this.walking++;
    const root = this.rootFor(rootPath);
    if (root?.loading) await root.loading;
    if (root?.state !== 'ready') return undefined;
    root.lastUsed = Date.now();
    // Every event queued before the call began was delivered by its first drain: a call's later walks (a search of
    // several roots) need none of their own.
    if (this.freshness === 'events' && this.drainedFor !== signals) {
      await this.drain();
      this.drainedFor = signals;
    }
    if (root.state !== 'ready' || !this.checkRoot(root)) return undefined;
    this.stats.snapshots++;
    let inline = 0;
    return {
      list: (path) => {
        const node = root.nodes.get(path);
        if (node && (this.isCurrent(node) || (inline++ < MAX_INLINE_READS && this.reread(root, node)))) {
          this.stats.served++;
          return node.links === 0
            ? node.entries
            : node.entries.map((entry) => (entry.isSymlink ? { ...entry, kind: linkTargetKind(entry.absolute) } : entry));
        }
        this.stats.declined++;
        // Not held (new, unreadable, or gone and back): the walk reads it; the background adds it for next time.
        root.queue.add(path);
        return undefined;
      },
      subtree: (path) => {
        const token = this.subtreeToken(root, path);
        if (token) this.stats.subtrees++;
        return token;
      },
    };
  }

  release(): void {
    this.walking = Math.max(0, this.walking - 1);
    this.schedule();
  }

  /**
   * A change the host heard of from elsewhere (the editor's file watcher): the directories concerned are brought up
   * to date in the background. Only a head start: every node is still proven current when a call lists it.
   */
  hint(path: string): void {
    for (const root of this.roots.values()) {
      if (root.state !== 'ready' || !isWithin(root.path, path)) continue;
      for (const each of [path, dirname(path)]) {
        const node = root.nodes.get(each);
        if (node) this.markDirty(root, node);
      }
    }
    this.schedule();
  }

  /**
   * Starts on `rootPath` now rather than at its first call: with saveTo, its saved index is read while the host
   * starts up, so that the first call can answer from it; without one the first walk starts in the background.
   */
  preload(rootPath: string): void {
    this.rootFor(rootPath);
    this.schedule();
  }

  /** Tells `listener` of every event from now on (one listener: the content index). */
  listen(listener: ChangeListener): void {
    this.listener = listener;
  }

  /**
   * The token of `directory`'s unbroken watch (DirNode.since): the same object while every change to its entries
   * since the token was made has reached the listener; undefined when there is none (not held, unwatched, a change
   * not yet taken in).
   */
  watchedSince(directory: string): object | undefined {
    for (const root of this.roots.values()) {
      const node = root.nodes.get(directory);
      if (node) return node.dirty || node.broken || root.state !== 'ready' ? undefined : node.since;
    }
    return undefined;
  }

  /**
   * The held listing of `directory` and its watch token (undefined: not watched); `settled` false while a change
   * waits to be read (the listing and the token may be about to change).
   */
  heldListing(directory: string): { entries: readonly IndexedEntry[]; since: object | undefined; settled: boolean } | undefined {
    for (const root of this.roots.values()) {
      const node = root.nodes.get(directory);
      if (node) return { entries: node.entries, since: node.since, settled: !node.dirty && !node.broken };
    }
    return undefined;
  }

  /** The directories held now, in every root. */
  *heldDirectories(): IterableIterator<string> {
    for (const root of this.roots.values()) yield* root.nodes.keys();
  }

  /** Whether the index answers for `rootPath` now. */
  isReady(rootPath: string): boolean {
    for (const root of this.roots.values()) if (root.state === 'ready' && isWithin(root.path, rootPath)) return true;
    return false;
  }

  /** Starts indexing `rootPath` (if it is not yet) and resolves once it answers, or is off. */
  whenReady(rootPath: string): Promise<void> {
    const root = this.rootFor(rootPath);
    this.schedule();
    if (!root || root.state === 'ready' || root.state === 'off') return Promise.resolve();
    return new Promise((resolve) => root.waiters.push(resolve));
  }

  /**
   * Resolves once the index of `rootPath` is ready with nothing left for the background to do (a loaded index's
   * watches set up and its listings proven, every change taken in), or is off: when a host may warm up what reads it.
   */
  whenQuiet(rootPath: string): Promise<void> {
    const root = this.rootFor(rootPath);
    this.schedule();
    if (!root || root.state === 'off' || this.isQuiet(root)) return Promise.resolve();
    return new Promise((resolve) => root.quietWaiters.push(resolve));
  }

  private isQuiet(root: RootIndex): boolean {
    return root.state === 'ready' && root.queue.size === 0;
  }

  /** Whether a save of the root holding `rootPath` is due (saveLater): what a host or a test waits out before it stops. */
  saveDue(rootPath: string): boolean {
    const root = this.rootFor(rootPath);
    return root?.saveTimer !== undefined;
  }

  /** Saves every root that changed since its last save now (saveTo), as close does; for tests and hosts that stop. */
  saveNow(): void {
    for (const root of this.roots.values()) this.save(root);
  }

  /** report().state === 'ready', without report's pass over every entry (the content index asks between slices). */
  anyReady(): boolean {
    return this.supported === undefined && [...this.roots.values()].some((root) => root.state === 'ready');
  }

  report(): PathIndexReport {
    const roots = [...this.roots.values()];
    const paths = roots.reduce((sum, root) => sum + root.paths, 0);
    const directories = roots.reduce((sum, root) => sum + root.nodes.size, 0);
    if (this.supported) return { state: 'off', reason: this.supported, paths: 0, directories: 0, bytes: 0, answered: 0 };
    const off = roots.find((root) => root.state === 'off');
    const state = roots.some((root) => root.state === 'ready') ? 'ready' : roots.length > 0 && !off ? 'building' : 'off';
    return {
      state,
      ...(state === 'off' ? { reason: off?.reason ?? 'no listing has been asked for yet' } : {}),
      paths,
      directories,
      bytes: this.estimatedBytes(roots),
      answered: this.stats.snapshots,
      freshness: this.freshness,
    };
  }

  /** The memory the listings hold, by ENTRY_BYTES and the rest (one pass over every entry: for reports, not calls). */
  private estimatedBytes(roots: readonly RootIndex[]): number {
    let bytes = 0;
    for (const root of roots) {
      for (const node of root.nodes.values()) {
        bytes += DIRECTORY_BYTES + (node.watch ? WATCH_BYTES : 0) + listingBytes(node.entries);
      }
    }
    return bytes;
  }

  /**
   * Watches open, and watches held by directory records: equal whenever no read is under way (a watch is never
   * left open without its record, so the per-process bound holds; the tests check it after churn).
   */
  watchCounts(): { open: number; held: number } {
    let held = 0;
    for (const root of this.roots.values()) for (const node of root.nodes.values()) if (node.watch) held++;
    return { open: this.watches, held };
  }

  /**
   * Stops every watch and forgets everything (a host shutting down, a test ending), saving first (saveTo) unless
   * `save` is false (a test's stand-in for a process killed before it could).
   */
  close(save = true): void {
    if (!this.closed && save) this.saveNow();
    this.closed = true;
    for (const root of this.roots.values()) this.drop(root);
    this.roots.clear();
  }

  /** The index for a call under `rootPath`: a ready one holding it, else its own (started when the call is over). */
  private rootFor(rootPath: string): RootIndex | undefined {
    if (this.supported || this.closed) return undefined;
    for (const root of this.roots.values()) if (root.state === 'ready' && isWithin(root.path, rootPath)) return root;
    let root = this.roots.get(rootPath);
    if (!root) {
      root = new RootIndex(rootPath);
      this.roots.set(rootPath, root);
      this.start(root);
      if (this.roots.size > MAX_ROOTS) {
        const oldest = [...this.roots.values()].filter((each) => each !== root).sort((a, b) => a.lastUsed - b.lastUsed)[0];
        if (oldest) {
          this.save(oldest);
          this.drop(oldest);
          this.roots.delete(oldest.path);
        }
      }
    }
    return root;
  }

  private start(root: RootIndex): void {
    const stat = lstat(root.path);
    if (!stat?.isDirectory()) return this.off(root, `${root.path} is not a directory`);
    if (!this.isLocal(stat.dev, root.path))
      return this.off(root, `${root.path} is on a file system that may change without this machine seeing it`);
    root.dev = stat.dev;
    root.ino = stat.ino;
    root.mounts = this.mountsBelow(root.path);
    if (this.saveTo === undefined) return this.build(root);
    root.state = 'loading';
    root.loading = this.load(root, savedIndexFile(this.saveTo, root.path));
  }

  private build(root: RootIndex): void {
    root.state = 'building';
    root.queue.add(root.path);
  }

  /**
   * Starts `root` from its saved index when there is one it can use (savedIndex.ts says which it cannot), else walks
   * it. Loaded directories are not proven: each is statted when a walk reaches it (isCurrent) until the background
   * has set up its watch and then proven it (adopt), and one that fails is read again. The saved times were recorded
   * before their listings were read; times within racyMs of that read, or of the save, prove nothing (git's rule).
   */
  private async load(root: RootIndex, file: string): Promise<void> {
    const saved = await readSavedIndex(file, root.path, { sliceMs: SLICE_MS });
    root.loading = undefined;
    if (this.closed || root.state !== 'loading') return;
    if (typeof saved === 'string' || saved.dev !== root.dev || saved.ino !== root.ino || !this.install(root, saved)) {
      this.build(root);
      this.schedule();
      return;
    }
    root.state = 'ready';
    root.unsaved = false;
    for (const wake of root.waiters.splice(0)) wake();
    // The background sets up each directory's watch and proves it, so that calls stop statting and subtrees vouch;
    // like all background work, only while no call runs (a call proves what it lists itself).
    for (const path of root.nodes.keys()) root.queue.add(path);
    this.schedule();
  }

  /** Holds the saved directories of `saved` as nodes not yet proven; false (nothing held) when too many paths. */
  private install(root: RootIndex, saved: SavedRoot): boolean {
    let paths = 0;
    for (const directory of saved.directories) paths += directory.entries.length;
    if (paths > this.maxPaths) return false;
    for (const directory of saved.directories) {
      if (!isWithin(root.path, directory.path)) continue;
      const entries = directory.entries as IndexedEntry[];
      let links = 0;
      for (const entry of entries) if (entry.isSymlink) links++;
      holdListing(entries);
      const racy = directory.racy || saved.savedAt - directory.mtimeMs < this.racyMs || saved.savedAt - directory.ctimeMs < this.racyMs;
      root.nodes.set(directory.path, {
        path: directory.path,
        entries,
        links,
        dev: directory.dev,
        ino: directory.ino,
        mtimeMs: directory.mtimeMs,
        ctimeMs: directory.ctimeMs,
        racy,
        dirty: false,
        watch: undefined,
        subtree: undefined,
        proven: false,
        since: undefined,
        broken: false,
      });
    }
    root.paths = paths;
    this.stats.loaded += root.nodes.size;
    return true;
  }

  /**
   * Writes `root`'s listings to its saved index (saveTo) if they changed since the last save. Every node goes as it is,
   * current or not: what is saved with a listing is the status recorded before it was read, which the next process
   * compares, so a listing that went stale since is read again there. A failed save is only a slower next start.
   */
  private save(root: RootIndex): void {
    if (root.saveTimer) clearTimeout(root.saveTimer);
    root.saveTimer = undefined;
    if (this.saveTo === undefined || this.closed || root.state !== 'ready' || !root.unsaved) return;
    const file = savedIndexFile(this.saveTo, root.path);
    const directories = [...root.nodes.values()].map((node) => ({
      path: node.path,
      entries: node.entries,
      dev: node.dev,
      ino: node.ino,
      mtimeMs: node.mtimeMs,
      ctimeMs: node.ctimeMs,
      racy: node.racy,
    }));
    const text = encodeSavedIndex({ root: root.path, dev: root.dev, ino: root.ino, savedAt: this.clock(), directories });
    try {
      if (text === undefined) fs.rmSync(file, { force: true });
      else writeSavedIndex(file, text);
      root.unsaved = false;
      this.stats.saves++;
    } catch {
      // The state folder is gone or full: the next process walks, as without a saved index.
    }
  }

  /** A save of `root` SAVE_DELAY_MS from now, unless one is due already; put off while calls walk or run. */
  private saveLater(root: RootIndex): void {
    root.unsaved = true;
    if (this.saveTo === undefined || root.saveTimer || this.closed) return;
    root.saveTimer = setTimeout(() => {
      root.saveTimer = undefined;
      if (this.walking > 0 || this.foreground?.busy) this.saveLater(root);
      else this.save(root);
    }, this.saveDelayMs);
    root.saveTimer.unref();
  }

  private off(root: RootIndex, reason: string): void {
    this.drop(root);
    root.state = 'off';
    root.reason = reason;
    for (const wake of root.waiters.splice(0)) wake();
  }

  private drop(root: RootIndex): void {
    if (root.saveTimer) clearTimeout(root.saveTimer);
    root.saveTimer = undefined;
    for (const node of root.nodes.values()) {
      this.unwatch(node);
      this.listener?.(node.path, null);
    }
    root.nodes.clear();
    root.queue.clear();
    root.paths = 0;
    for (const wake of root.quietWaiters.splice(0)) wake();
  }

  /** Two turns of the event loop, so every inotify event queued before now has been delivered; then the burst check. */
  private async drain(): Promise<void> {
    await now();
    await now();
    if (this.burst >= this.burstLimit) this.overflowed();
  }

  private countEvent(): void {
    if (this.burst++ === 0) {
      setImmediate(() => {
        if (this.burst >= this.burstLimit) this.overflowed();
        this.burst = 0;
      });
    }
  }

  /** Events may have been lost: nothing held can be trusted until it is read again. */
  private overflowed(): void {
    this.stats.overflows++;
    for (const root of this.roots.values()) for (const node of root.nodes.values()) this.breakWatch(root, node);
    this.burst = 0;
  }

  /** Events about `node` may have been lost: dirty, and its watch token renewed at its next read. */
  private breakWatch(root: RootIndex, node: DirNode): void {
    node.broken = true;
    this.markDirty(root, node);
  }

  private markDirty(root: RootIndex, node: DirNode): void {
    node.dirty = true;
    this.invalidate(root, node.path);
    root.queue.add(node.path);
  }

  /**
   * The token of the subtree at `path` (see the header), made now if it has none and every node below is fit to
   * vouch for. Depth first on a stack of its own (a tree may be deeper than the call stack): a node gets its token
   * once all its subdirectories have theirs; a subtree that cannot have one stops the search at its first unfit node,
   * keeping the tokens made below meanwhile (each vouches for its own subtree).
   */
  private subtreeToken(root: RootIndex, path: string): object | undefined {
    const top = root.nodes.get(path);
    if (!top || top.subtree) return top?.subtree;
    if (!this.mayVouch(top)) return undefined;
    const stack: { node: DirNode; next: number }[] = [{ node: top, next: 0 }];
    for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
      const { node } = frame;
      let below: DirNode | undefined;
      while (!below && frame.next < node.entries.length) {
        const entry = node.entries[frame.next++];
        if (!entry || !isDirectoryEntry(entry)) continue;
        const child = root.nodes.get(entry.absolute);
        if (!child || !this.mayVouch(child)) return undefined;
        if (!child.subtree) below = child;
      }
      if (below) stack.push({ node: below, next: 0 });
      else {
        node.subtree = {};
        stack.pop();
      }
    }
    return top.subtree;
  }

  /** A node whose listing is current with no look at the directory, and stays the same array: watched, quiet, no links. */
  private mayVouch(node: DirNode): boolean {
    return this.freshness === 'events' && node.watch !== undefined && !node.dirty && node.links === 0;
  }

  /** Something at `path` changed: its token and its ancestors' go, up to the first that has none (the header's invariant). */
  private invalidate(root: RootIndex, path: string): void {
    // A save changes its own folder, which a root may hold (the editor's storage in a home folder opened as one): that
    // change alone calls for no save, or each save would call for the next.
    if (this.saveTo === undefined || !isWithin(this.saveTo, path)) this.saveLater(root);
    for (let at = path; ; at = dirname(at)) {
      const node = root.nodes.get(at);
      if (node?.subtree) node.subtree = undefined;
      else if (at !== path) return;
      if (at === root.path || !isWithin(root.path, at)) return;
    }
  }

  /** The root is still the directory indexed, with the same mounts below it; false when it had to be reset. */
  private checkRoot(root: RootIndex): boolean {
    const stat = lstat(root.path);
    if (!stat?.isDirectory() || stat.ino !== root.ino || stat.dev !== root.dev) {
      this.drop(root);
      this.start(root);
      return false;
    }
    const mounts = this.mountsBelow(root.path);
    if (mounts !== root.mounts) {
      root.mounts = mounts;
      for (const node of root.nodes.values()) this.breakWatch(root, node);
    }
    return true;
  }

  private mountsBelow(path: string): string {
    try {
      return fs
        .readFileSync('/proc/self/mountinfo', 'utf8')
        .split('\n')
        .filter((line) => {
          const point = line.split(' ')[4];
          return point !== undefined && isWithin(path, unescapeMount(point)) && unescapeMount(point) !== path;
        })
        .join('\n');
    } catch {
      return '';
    }
  }

  private isLocal(dev: number, path: string): boolean {
    let known = this.localDevices.get(dev);
    if (known === undefined) {
      try {
        known = LOCAL_FILE_SYSTEMS.has(fs.statfsSync(path).type);
      } catch {
        known = false;
      }
      this.localDevices.set(dev, known);
    }
    return known;
  }

  private isCurrent(node: DirNode): boolean {
    if (node.dirty) return false;
    if (node.watch && this.freshness === 'events') return true;
    if (node.racy) return false;
    const stat = lstat(node.path);
    const same =
      stat !== undefined &&
      stat.isDirectory() &&
      stat.ino === node.ino &&
      stat.dev === node.dev &&
      stat.mtimeMs === node.mtimeMs &&
      stat.ctimeMs === node.ctimeMs;
    if (same && !node.proven) {
      node.proven = true;
      this.stats.proven++;
    }
    return same;
  }

  /**
   * Sets up the watch of a node that has none (loaded from a saved index), then proves it by its status: a change
   * after the watch was set up is an event, one before it shows in the times. A node that fails is read again.
   */
  private adopt(root: RootIndex, node: DirNode): void {
    const watch = this.openWatch(root, node.path);
    if (this.isCurrent(node)) {
      node.watch = watch;
      // A watch begins here: what was learnt of its files before it (the content index's) is not vouched for.
      node.since = watch ? {} : undefined;
      node.broken = false;
      this.listener?.(node.path, null);
      return;
    }
    this.closeWatch(watch);
    this.reread(root, node);
  }

  /** A new watch on `path` for `root` (events), or undefined: past maxWatches, or it could not be set up. */
  private openWatch(root: RootIndex, path: string): DirectoryWatch | undefined {
    if (this.freshness !== 'events' || this.watches >= this.maxWatches) return undefined;
    let own: DirectoryWatch | undefined;
    try {
      own = this.watchFactory(
        path,
        (type, name) => this.onEvent(root, path, own, type, name),
        () => this.onWatchError(root, path, own),
      );
      this.watches++;
    } catch {
      // Past the per-user limit, or not allowed: this directory is verified instead.
    }
    return own;
  }

  /**
   * Reads `path` into a node: the watch first (events), then the listing, then a check that the directory read is the
   * one watched. Undefined when it is not a readable directory on a local file system, or changed identity meanwhile.
   */
  private read(root: RootIndex, path: string): Omit<DirNode, 'path'> | undefined {
    const before = lstat(path);
    if (!before?.isDirectory() || !this.isLocal(before.dev, path)) return undefined;
    const own = this.openWatch(root, path);
    let listed;
    try {
      listed = readDirectorySync(path);
    } catch {
      this.closeWatch(own);
      return undefined;
    }
    const after = lstat(path);
    if (!after || after.ino !== before.ino || after.dev !== before.dev) {
      this.closeWatch(own);
      return undefined;
    }
    const readAt = this.clock();
    let links = 0;
    const entries = listed.map((entry) => {
      if (entry.isSymlink) links++;
      return { name: entry.name, kind: entry.kind, isSymlink: entry.isSymlink, absolute: childPath(path, entry.name), parent: path };
    });
    // Never changed from here on (a change is a new read), so the walks may remember what they derive from it; a
    // listing with links is handed out as a new array each time (their kinds resolved again), which is not held.
    holdListing(entries);
    const changedMeanwhile = after.mtimeMs !== before.mtimeMs || after.ctimeMs !== before.ctimeMs;
    return {
      entries,
      links,
      dev: before.dev,
      ino: before.ino,
      mtimeMs: before.mtimeMs,
      ctimeMs: before.ctimeMs,
      racy: changedMeanwhile || readAt - before.mtimeMs < this.racyMs || readAt - before.ctimeMs < this.racyMs,
      dirty: false,
      watch: own,
      subtree: undefined,
      proven: true,
      since: own ? {} : undefined,
      broken: false,
    };
  }

  private onEvent(root: RootIndex, path: string, watch: DirectoryWatch | undefined, type: string, name: string | null): void {
    this.countEvent();
    const node = root.nodes.get(path);
    // The directory itself moved, went or changed (its own name; an entry of the same name counts as it): the watch
    // may now hear another directory, or none.
    const self = name === null || name === basename(path);
    if (node && self) node.broken = true;
    this.listener?.(path, self ? null : name);
    // A file written to or touched: its directory's listing is the same. The directory's own attributes do count
    // (permissions decide whether it can be listed at all).
    if (type === 'change' && !self) return;
    if (node && node.watch === watch) {
      this.markDirty(root, node);
      this.schedule();
    }
  }

  private onWatchError(root: RootIndex, path: string, watch: DirectoryWatch | undefined): void {
    const node = root.nodes.get(path);
    this.closeWatch(watch);
    if (node && node.watch === watch) {
      // Verified from now on, and read again first: whatever the watch missed before it failed shows then.
      node.watch = undefined;
      node.since = undefined;
      this.breakWatch(root, node);
      this.listener?.(path, null);
      this.schedule();
    }
  }

  private closeWatch(watch: DirectoryWatch | undefined): void {
    if (!watch) return;
    this.watches--;
    try {
      watch.close();
    } catch {
      // Already gone with its directory.
    }
  }

  private unwatch(node: DirNode): void {
    this.closeWatch(node.watch);
    node.watch = undefined;
  }

  /** Brings a node up to date in place; false when its directory is gone or another now (the node is dropped). */
  private reread(root: RootIndex, node: DirNode): boolean {
    this.stats.reread++;
    this.invalidate(root, node.path);
    // Always a new watch, set up before the read: the old one may be on a directory that is gone, and the one now
    // at this path can have its inode number (ext4 hands a freed one to the next directory made), so identity alone
    // cannot tell a dead watch from a live one. On the same live directory the two share one inotify watch.
    const fresh = this.read(root, node.path);
    if (!fresh || fresh.ino !== node.ino || fresh.dev !== node.dev) {
      if (fresh) this.closeWatch(fresh.watch);
      this.remove(root, node.path);
      root.queue.add(node.path);
      return false;
    }
    const before = new Set(node.entries.filter(isDirectoryEntry).map((entry) => entry.name));
    root.paths += fresh.entries.length - node.entries.length;
    const oldWatch = node.watch;
    // The new watch was set up while the old one still heard this same directory: no change fell between them.
    const unbroken = oldWatch !== undefined && fresh.watch !== undefined && !node.broken && node.since !== undefined;
    const since = unbroken ? node.since : fresh.since;
    Object.assign(node, fresh, { since });
    if (oldWatch !== node.watch) this.closeWatch(oldWatch);
    if (!unbroken) this.listener?.(node.path, null);
    // Subdirectories that went: dropped; ones that came: added in the background (the walk reads them meanwhile).
    const after = new Set<string>();
    for (const entry of node.entries) {
      if (!isDirectoryEntry(entry)) continue;
      after.add(entry.name);
      if (!before.has(entry.name) || !root.nodes.has(entry.absolute)) root.queue.add(entry.absolute);
    }
    for (const name of before) if (!after.has(name)) this.remove(root, childPath(node.path, name));
    if (root.paths > this.maxPaths) this.tooLarge(root);
    return root.state === 'ready' || root.state === 'building';
  }

  /** Drops the node at `path` and every node below it. */
  private remove(root: RootIndex, path: string): void {
    const node = root.nodes.get(path);
    if (!node) return;
    this.invalidate(root, path);
    root.nodes.delete(path);
    root.paths -= node.entries.length;
    this.unwatch(node);
    this.listener?.(path, null);
    for (const entry of node.entries) if (isDirectoryEntry(entry)) this.remove(root, entry.absolute);
  }

  private tooLarge(root: RootIndex): void {
    this.off(root, `${root.path} holds more than ${this.maxPaths} paths; calls walk it`);
  }

  private schedule(): void {
    if (this.scheduled || this.walking > 0 || this.closed) return;
    if (![...this.roots.values()].some((root) => root.queue.size > 0)) return;
    this.scheduled = true;
    const next = (): void => {
      setImmediate(() => {
        this.scheduled = false;
        this.work();
      });
    };
    // Not while a host's call runs (foreground.ts): a slice between two of its steps would lengthen it.
    if (this.foreground) this.foreground.whenIdle(next);
    else next();
  }

  /** One slice of background work: the first walk of a root, then whatever changed, a directory at a time. */
  private work(): void {
    const until = performance.now() + SLICE_MS;
    for (const root of this.roots.values()) {
      while (this.walking === 0 && !this.foreground?.busy && !this.closed && performance.now() < until) {
        const path = root.queue.values().next().value;
        if (path === undefined) break;
        root.queue.delete(path);
        this.visit(root, path);
      }
      if (root.state === 'building' && root.queue.size === 0) {
        root.state = 'ready';
        for (const wake of root.waiters.splice(0)) wake();
        this.saveLater(root);
      }
      if (this.isQuiet(root)) for (const wake of root.quietWaiters.splice(0)) wake();
    }
    this.schedule();
  }

  /** Adds the directory at `path` (and queues its subdirectories), or brings it up to date if it is held and not current. */
  private visit(root: RootIndex, path: string): void {
    if (root.state !== 'building' && root.state !== 'ready') return;
    if (!isWithin(root.path, path)) return;
    const held = root.nodes.get(path);
    if (held) {
      if (held.watch === undefined && !held.dirty && this.freshness === 'events' && this.watches < this.maxWatches) this.adopt(root, held);
      else if (!this.isCurrent(held)) this.reread(root, held);
      return;
    }
    // A path queued for a directory that went since reads as nothing (read() wants a directory, not a link to one).
    const fresh = this.read(root, path);
    if (!fresh) return;
    root.nodes.set(path, { path, ...fresh });
    this.listener?.(path, null);
    this.invalidate(root, path);
    root.paths += fresh.entries.length;
    for (const entry of fresh.entries) if (isDirectoryEntry(entry) && !root.nodes.has(entry.absolute)) root.queue.add(entry.absolute);
    if (root.paths > this.maxPaths) this.tooLarge(root);
  }
}
