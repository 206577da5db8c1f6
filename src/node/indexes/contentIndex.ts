/**
 * The warm content index of a long-lived host (the MCP server; the editor on the local disk): the trigrams of the text
 * of every file below the path index's roots (contentGrams.ts), read in the background once the path index holds the
 * listings, kept current by the path index's inotify events. What it promises the core is in
 * src/core/ports/contentIndex.ts: a file it rules out holds no match as of the call's start.
 *
 * How it keeps that promise: a file's trigrams are trusted only while
 *  - no event has named the file since it was read (every write, truncation, rename or attribute change queues an
 *    event in the kernel within the system call that makes it; `narrow` first lets the event loop deliver them), and
 *  - its directory has been watched without a gap since then: the path index's watch token (`watchedSince`) is the
 *    one recorded when the file was read. A directory only verified (past the watch limit, the editor's 'verify'
 *    freshness), one whose watch failed or was replaced across a gap, and every directory after events may have been
 *    lost (the kernel's queue overflowing) has another token or none, and its files are candidates until read again.
 * Everything else — files not read yet, larger than MAX_FILE_BYTES, with more than one hard link (a write through
 * another link is heard in that link's directory only; a link made inside the roots names the inode, and the file's
 * other names turn stale), unreadable — is a candidate, and binary files (a NUL in the
 * first 64 KiB and no UTF-16 BOM, which the scan passes over) are never. Writes through a shared memory mapping send
 * no event; tools, editors and git write with write(2).
 *
 * Bounds: its memory is kept under the text it indexes (it turns itself off past that, or past MAX_BYTES); its
 * background work runs in slices of SLICE_MS, and reads files without holding the event loop.
 *
 * Over 300 lines: one index; every way it decides whether a file's trigrams still hold (events, watch tokens, links,
 * renumbering, bounds) guards the same promise, which only reads as kept in one place.
 */
import * as fs from 'node:fs';
import { bomEncoding } from '../../core/encoding/codec';
import type { ContentIndex, ContentIndexReport, GramPlan } from '../../core/ports/contentIndex';
import type { IndexedEntry } from '../../core/ports/pathIndex';
import { ALL, GramCollector, Postings, type TextKind } from './contentGrams';
import type { Foreground } from '../host/foreground';
import type { NodePathIndex } from './pathIndex';

/** Larger files are not indexed (every search that reaches them reads them). */
const MAX_FILE_BYTES = 1024 * 1024;
/** The index turns itself off past this much memory, whatever the text. */
const MAX_BYTES = 1024 * 1024 * 1024;
/** The scan's binary test, ripgrep's: a NUL byte in its first 64 KiB (core/search/scan.ts, RipgrepFills). */
const BINARY_HEAD = 64 * 1024;
/**
 * Background work between calls: a call that arrives while a slice runs waits for it. 8 ms slices put half the time of
 * a warm find_file into that wait while the index was being built; 2 ms slices build 100,000 files as fast. A slice
 * ends after the file that passes it: files are read without holding the event loop (a cold disk can take many
 * milliseconds a file), and only their trigrams are taken on it, at most MAX_FILE_BYTES' worth.
 */
const SLICE_MS = 2;
/** Files read at once: the reads wait on the disk (and on the thread pool), not on this thread. */
const READS_AT_ONCE = 4;
/**
 * Once built, how long a change waits before its file is read again: an agent writes file after file, often the same
 * ones, and one read after a burst serves where a read after every write cost as much as the write (half a
 * millisecond of the server's thread a call). A changed file is a candidate of every search meanwhile, so waiting
 * costs a search at most the read of it.
 */
const SETTLE_MS = 50;
/** How long the trigram collector is kept after its last slice (see `collector`). */
const COLLECTOR_IDLE_MS = 5_000;
/** Below this many files common trigrams are kept: they cost little memory there. */
const MIN_FILES_TO_DROP = 10_000;
/**
 * With more than this share of the directories waiting to be read again (a checkout, a formatter over the tree), a
 * search is not narrowed: most files would be candidates anyway. Below it a search narrows: a file not read since its
 * change is a candidate, so a call that changed a thousand files in a large tree (replace_in_files) leaves the next
 * search narrowed to those and its matches, not reading every file while the index catches up.
 */
const MAX_BEHIND_SHARE = 0.25;
/** Below this many directories waiting the share is not asked: a small tree's few changes never stop narrowing. */
const MIN_BEHIND = 256;
/** Estimated bytes of a file's record and its map entry, and of a directory's. */
const FILE_BYTES = 120;
const DIRECTORY_BYTES = 160;

type Kind = TextKind | 'binary' | 'unindexed';

interface FileRecord {
  /** Its absolute path (the path index's string). */
  readonly path: string;
  /** Its id in the postings (text and legacy files), else -1. */
  id: number;
  kind: Kind;
  /** The bytes of text it holds in the index (text and legacy files). */
  length: number;
  /** Its inode number when read (a hard link made to it later is found by it). */
  ino: number;
  stale: boolean;
  readonly directory: DirectoryRecord;
}

/** A file `reconcile` found to read (again), in its directory's record: `old` is its record when it had one. */
interface FileRead {
  readonly directory: DirectoryRecord;
  readonly entry: IndexedEntry;
  readonly old: FileRecord | undefined;
}

interface DirectoryRecord {
  readonly path: string;
  /** The path index's watch token when its files were read. */
  since: object | undefined;
  /** Its files' records (an array: a map per directory cost more than the records). */
  files: FileRecord[];
  /** The search that last checked the token, and what it found. */
  checkedBy: number;
  trusted: boolean;
}

export interface NodeContentIndexOptions {
  readonly maxFileBytes?: number;
  /** The host's calls in flight: reading waits while any runs (foreground.ts). */
  readonly foreground?: Foreground;
}

export class NodeContentIndex implements ContentIndex {
  private readonly directories = new Map<string, DirectoryRecord>();
  private readonly byPath = new Map<string, FileRecord>();
  private readonly queue = new Set<string>();
  /** Inodes of files that events showed to have more than one link, not yet looked for among the records. */
  private readonly linked = new Set<number>();
  private readonly postings = new Postings();
  /**
   * Its 8 MiB of stamps outlive a slice: an agent writes file after file, and making one per change cost more than
   * reading the file. Let go once no change came for COLLECTOR_IDLE_MS.
   */
  private collector: GramCollector | undefined;
  private collectorUsed = 0;
  private collectorTimer: NodeJS.Timeout | undefined;
  /** One buffer per read at once (READS_AT_ONCE), each MAX_FILE_BYTES + 1 so that a larger file is seen to be one. */
  private readonly buffers: Buffer[] = [];
  private readonly maxFileBytes: number;
  /** The rest of dropCommon, once the first pass is done (finishBuild): spread over slices like the reading. */
  private dropping: Generator<void, void, void> | undefined;
  /** Whether a run of `work` is under way (it awaits reads): another is not started beside it. */
  private running = false;
  /** Whether each id is live (its file's current text). */
  private live = new Uint8Array(1024);
  private nextId = 0;
  private liveIds = 0;
  /** Bumped by each compaction, which renumbers ids: a search's candidates are only good within one generation. */
  private generation = 0;
  private searches = 0;
  private answered = 0;
  private textBytes = 0;
  private files = 0;
  private built = false;
  private scheduled = false;
  /** The timer of changes settling (SETTLE_MS), while one is set. */
  private settling: NodeJS.Timeout | undefined;
  private readonly foreground: Foreground | undefined;
  private closed = false;
  private offReason: string | undefined;

  constructor(
    private readonly paths: NodePathIndex,
    options: NodeContentIndexOptions = {},
  ) {
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
    this.foreground = options.foreground;
    if (paths.freshness !== 'events') this.offReason = 'the path index verifies directories rather than watching them';
    else {
      paths.listen((directory, name) => this.onChange(directory, name));
      // What the path index holds already; the rest comes as it reads it.
      for (const directory of paths.heldDirectories()) this.queue.add(directory);
      this.schedule();
    }
  }

  async narrow(root: string, plan: GramPlan, caseSensitive: boolean): Promise<((absolute: string) => boolean) | undefined> {
    if (this.offReason !== undefined || !this.built || this.behind() || !this.paths.isReady(root)) return undefined;
    // Every event queued before the call began is delivered (and marks its file) before anything is trusted.
    await turn();
    await turn();
    if (this.linked.size > 0) {
      for (const file of this.byPath.values()) {
        if (!this.linked.has(file.ino)) continue;
        file.stale = true;
        this.queue.add(file.directory.path);
      }
      this.linked.clear();
      this.schedule();
    }
    const ids = this.postings.evaluate(plan);
    if (ids === ALL) return undefined;
    const candidates = new Uint8Array(this.nextId);
    for (const id of ids) candidates[id] = 1;
    const search = ++this.searches;
    const generation = this.generation;
    this.answered++;
    return (absolute) => {
      const file = this.byPath.get(absolute);
      if (!file || file.stale || generation !== this.generation || !this.trusted(file.directory, search)) return true;
      switch (file.kind) {
        case 'binary':
          return false;
        case 'unindexed':
          return true;
        case 'legacy':
          if (!caseSensitive) return true;
      }
      return file.id >= candidates.length || candidates[file.id] === 1;
    };
  }

  report(): ContentIndexReport {
    const state = this.offReason !== undefined ? 'off' : this.built ? 'ready' : 'building';
    return {
      state,
      ...(this.offReason === undefined ? {} : { reason: this.offReason }),
      files: this.files,
      textBytes: this.textBytes,
      bytes: this.estimatedBytes(),
      answered: this.answered,
    };
  }

  /** Resolves once the first pass is done (or the index is off). */
  async whenReady(): Promise<void> {
    this.schedule();
    while (!this.built && this.offReason === undefined && !this.closed) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.settling);
    this.collector = undefined;
  }

  private estimatedBytes(): number {
    return this.postings.bytes + this.live.length + this.byPath.size * FILE_BYTES + this.directories.size * DIRECTORY_BYTES;
  }

  /** Whether too many directories wait to be read again for a search to gain by narrowing (MAX_BEHIND_SHARE). */
  private behind(): boolean {
    return this.queue.size > Math.max(MIN_BEHIND, this.directories.size * MAX_BEHIND_SHARE);
  }

  private trusted(directory: DirectoryRecord, search: number): boolean {
    if (directory.checkedBy !== search) {
      directory.checkedBy = search;
      directory.trusted = directory.since !== undefined && this.paths.watchedSince(directory.path) === directory.since;
    }
    return directory.trusted;
  }

  private onChange(directory: string, name: string | null): void {
    if (name !== null) {
      const file = this.byPath.get(childPath(directory, name));
      if (file) file.stale = true;
      // A second link to a file (made here, or this one's other name changing): the file's other names are stale too,
      // and heard of nowhere else. Found by inode at the next search.
      const stat = lstat(childPath(directory, name));
      if (stat?.isFile() && stat.nlink > 1) this.linked.add(stat.ino);
    }
    this.queue.add(directory);
    if (!this.built) return this.schedule();
    this.settling ??= setTimeout(() => {
      this.settling = undefined;
      this.schedule();
    }, SETTLE_MS).unref();
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.closed || this.offReason !== undefined) return;
    this.scheduled = true;
    setImmediate(() => this.resume());
  }

  /** Starts a run of `work`, or waits (still scheduled) until no call is in flight. */
  private resume(): void {
    if (this.foreground?.busy) return this.foreground.whenIdle(() => setImmediate(() => this.resume()));
    this.scheduled = false;
    this.running = true;
    void this.work().then(
      (ended) => {
        this.running = false;
        this.afterWork(ended);
      },
      () => {
        this.running = false;
      },
    );
  }

  /**
   * Directories brought up to date, in the order their changes came, until the queue is empty or a call comes (or
   * the index closes or turns off): each slice of SLICE_MS ends with a turn of the event loop, and reads wait without
   * holding it.
   */
  private async work(): Promise<'done' | 'waiting' | 'interrupted'> {
    let until = performance.now() + SLICE_MS;
    let waiting = 0;
    this.collector ??= new GramCollector();
    while (this.offReason === undefined && !this.closed && !this.foreground?.busy) {
      if (performance.now() >= until) {
        await turn();
        until = performance.now() + SLICE_MS;
        continue;
      }
      if (this.dropping) {
        if (this.dropping.next().done) {
          this.dropping = undefined;
          this.checkBound();
        }
        continue;
      }
      const path = this.queue.values().next().value;
      if (path === undefined) break;
      this.queue.delete(path);
      const reads = this.reconcile(path);
      if (reads === undefined) {
        // Its listing is being read again by the path index: tried once more after the rest.
        this.queue.add(path);
        if (++waiting >= this.queue.size) return 'waiting';
        continue;
      }
      if (!(await this.readAll(reads))) {
        // Stopped part way (a call came, or the index closed): what is left of the directory is read next time.
        this.queue.add(path);
        break;
      }
    }
    this.collectorUsed = performance.now();
    return this.queue.size === 0 && this.dropping === undefined ? 'done' : 'interrupted';
  }

  /** What follows a run: the first pass finished, or the next run scheduled (waiting on the path index: a while later). */
  private afterWork(ended: 'done' | 'waiting' | 'interrupted'): void {
    this.collectorUsed = performance.now();
    if (this.closed || this.offReason !== undefined) return;
    if (ended === 'done') {
      this.dropCollectorWhenIdle();
      if (!this.built && this.paths.anyReady()) this.finishBuild();
      // The path index's first walk is still under way: its listings come as events; look again in a while.
      else if (!this.built) setTimeout(() => this.schedule(), 50).unref();
      // A change that came during the run's last turn is in the queue already.
      if (this.queue.size > 0) this.schedule();
    } else if (ended === 'waiting') setTimeout(() => this.schedule(), 20);
    else this.schedule();
  }

  private dropCollectorWhenIdle(): void {
    if (this.collectorTimer !== undefined) return;
    this.collectorTimer = setTimeout(() => {
      this.collectorTimer = undefined;
      if (this.collector === undefined) return;
      if (this.queue.size === 0 && performance.now() - this.collectorUsed >= COLLECTOR_IDLE_MS) this.collector = undefined;
      else this.dropCollectorWhenIdle();
    }, COLLECTOR_IDLE_MS);
    this.collectorTimer.unref();
  }

  private finishBuild(): void {
    this.built = true;
    // Trigrams in more than half the files narrow little and hold most of the postings (of a large tree). Dropping
    // them runs in the slices; searches narrow meanwhile, a dropped trigram counting as present everywhere.
    this.dropping = this.postings.dropCommon(this.liveIds >= MIN_FILES_TO_DROP ? Math.floor(this.liveIds / 2) : Infinity);
    this.schedule();
  }

  /**
   * Brings the records of `path`'s files up to date with the path index's listing and gives the files to read again;
   * undefined when the listing is not current yet (it is read again soon, and the directory is tried again after).
   */
  private reconcile(path: string): FileRead[] | undefined {
    const held = this.paths.heldListing(path);
    let record = this.directories.get(path);
    if (held && !held.settled) return undefined;
    // Not held, or only verified: nothing here can be trusted, so nothing is kept.
    if (!held || held.since === undefined) {
      if (record) this.forget(record);
      return [];
    }
    if (!record) {
      record = { path, since: held.since, files: [], checkedBy: 0, trusted: false };
      this.directories.set(path, record);
    } else if (record.since !== held.since) {
      record.since = held.since;
      for (const file of record.files) file.stale = true;
    }
    const names = new Set<string>();
    const reads: FileRead[] = [];
    for (const entry of held.entries) {
      if (entry.kind !== 'file' || entry.isSymlink) continue;
      names.add(entry.absolute);
      const file = this.byPath.get(entry.absolute);
      if (!file || file.stale) reads.push({ directory: record, entry, old: file });
    }
    if (record.files.some((file) => !names.has(file.path))) {
      record.files = record.files.filter((file) => {
        if (names.has(file.path)) return true;
        this.drop(file);
        return false;
      });
    }
    return reads;
  }

  /**
   * Reads `reads` into the index, READS_AT_ONCE at a time, each file's trigrams taken as its bytes come; false when it
   * stopped before the last (a call came, the index closed or turned off).
   */
  private async readAll(reads: readonly FileRead[]): Promise<boolean> {
    let next = 0;
    const stopped = (): boolean => this.closed || this.offReason !== undefined || this.foreground?.busy === true;
    const reader = async (buffer: Buffer): Promise<void> => {
      for (let read = reads[next++]; read !== undefined && !stopped(); read = reads[next++]) await this.read(read, buffer);
    };
    while (this.buffers.length < Math.min(READS_AT_ONCE, reads.length)) this.buffers.push(Buffer.allocUnsafe(this.maxFileBytes + 1));
    await Promise.all(this.buffers.slice(0, Math.min(READS_AT_ONCE, reads.length)).map(reader));
    return next >= reads.length && !stopped();
  }

  private forget(record: DirectoryRecord): void {
    for (const file of record.files) this.drop(file);
    this.directories.delete(record.path);
  }

  private drop(file: FileRecord): void {
    this.retire(file);
    this.byPath.delete(file.path);
    this.files--;
  }

  private retire(file: FileRecord): void {
    if (file.id >= 0 && this.live[file.id] === 1) {
      this.live[file.id] = 0;
      this.liveIds--;
    }
    this.textBytes -= file.length;
    file.length = 0;
  }

  /**
   * Reads one file into the index (a new record, or `old` again). Its record is marked current before the read begins:
   * an event that names the file while the read is under way marks it stale again, so bytes older than the file's are
   * never trusted.
   */
  private async read({ directory, entry, old }: FileRead, buffer: Buffer): Promise<void> {
    const file: FileRecord = old ?? { path: entry.absolute, id: -1, kind: 'unindexed', length: 0, ino: -1, stale: false, directory };
    if (!old) {
      directory.files.push(file);
      this.byPath.set(entry.absolute, file);
      this.files++;
    }
    this.retire(file);
    file.stale = false;
    // A candidate of every search until its trigrams are in (the read yields to them).
    file.id = -1;
    file.kind = 'unindexed';
    const length = await this.readBytes(entry.absolute, file, buffer);
    // Gone from the index meanwhile (its directory's listing lost it, or the index closed): nothing to add.
    if (this.byPath.get(entry.absolute) !== file || this.closed || this.offReason !== undefined) return;
    if (length === undefined) return;
    const bytes = buffer.subarray(0, length);
    const bom = bomEncoding(bytes);
    const collector = (this.collector ??= new GramCollector());
    let kind: TextKind;
    if (bom === 'utf16le' || bom === 'utf16be') {
      collector.ofText(new TextDecoder(bom === 'utf16le' ? 'utf-16le' : 'utf-16be').decode(bytes.subarray(2)));
      kind = 'text';
    } else if (bytes.subarray(0, BINARY_HEAD).indexOf(0) !== -1) {
      file.kind = 'binary';
      return;
    } else kind = collector.ofBytes(bytes, length);
    file.kind = kind;
    file.id = this.nextId++;
    if (file.id >= this.live.length) {
      const grown = new Uint8Array(this.live.length * 2);
      grown.set(this.live);
      this.live = grown;
    }
    this.live[file.id] = 1;
    this.liveIds++;
    this.textBytes += length;
    file.length = length;
    this.postings.add(collector.keys, collector.count, file.id);
    if (this.nextId > 2 * this.liveIds + 1024) this.compact();
    if (this.built) this.checkBound();
  }

  /** The file's bytes in `buffer` and their length; undefined when it is not indexed (too large, linked, unreadable). */
  private async readBytes(path: string, file: FileRecord, buffer: Buffer): Promise<number | undefined> {
    let handle: fs.promises.FileHandle | undefined;
    try {
      handle = await fs.promises.open(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      const stat = await handle.stat();
      file.ino = stat.ino;
      if (!stat.isFile() || stat.nlink > 1 || stat.size > this.maxFileBytes) return undefined;
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > this.maxFileBytes) return undefined;
      }
      return length;
    } catch {
      return undefined;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  /** Renumbers the live ids from 0, dropping dead ones from the postings. */
  private compact(): void {
    const renumber = new Int32Array(this.nextId).fill(-1);
    let next = 0;
    for (let id = 0; id < this.nextId; id++) if (this.live[id] === 1) renumber[id] = next++;
    this.postings.compact(renumber);
    for (const file of this.byPath.values()) if (file.id >= 0) file.id = renumber[file.id] ?? -1;
    this.live = new Uint8Array(Math.max(1024, next * 2));
    this.live.fill(1, 0, next);
    this.nextId = next;
    this.liveIds = next;
    this.generation++;
  }

  private checkBound(): void {
    const bytes = this.estimatedBytes();
    if (bytes > MAX_BYTES || (this.textBytes > 16 * 1024 * 1024 && bytes > this.textBytes)) {
      this.offReason = `its memory (${bytes} bytes) would pass the text it indexes (${this.textBytes} bytes)`;
      this.directories.clear();
      this.byPath.clear();
      this.queue.clear();
    }
  }
}

function childPath(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}

function lstat(path: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
