/**
 * The history store: an append-only pack (pack.ts, which gives the format) in a state directory of its own.
 *
 *   <directory>/pack                 every record, and every blob up to LARGE_CONTENT_BYTES
 *   <directory>/blobs/<sha-256 hex>  larger content, a file each: a hard link to the replaced file where the disk
 *                                    allows (a change replaces a file by a rename, never writing into it), else a copy
 *   <directory>/trash/               what pruning dropped, deleted in the background
 *   <directory>/sessions-cut.json    sessions pruning had to cut short: session → operations dropped
 *
 * Why it bypasses the PathResolver: the directory is chosen by the host (the editor's `storageUri`, the runner's
 * `--state` or its per-user default), never by a tool's input, and lies outside every workspace root on purpose
 * (history must not show up in, or be edited through, the workspace). Every name below it is fixed or a hex digest,
 * so no string from a model can name a path here. Workspace paths a record holds are re-confined through the
 * PathResolver before an undo touches them.
 *
 * Recording fails closed (record.ts): `reserve` appends the before content (the bytes an undo writes back), the
 * operation's intent (its paths and their states before) and the room its record will take, all in one append, and
 * the pack is synced before the change is made (`Reservation.durable`, which the change awaits: one fsync, shared by
 * every call of the process that appends meanwhile, a group commit). A store that cannot take it (a full disk, no
 * permission) refuses the operation before anything changes. `commit` writes the record into its room in place,
 * which allocates nothing, once the change itself is on the disk; it is synced with the next intent. A crash before
 * that leaves an intent without a record, which is no loss: the next call that records looks at the intent's paths
 * and records what is there (`recover`, record.ts), or gives the intent up if the change never landed. Only content
 * kept for diffs (a change's after content) is appended at commit, and only it can be lost to a full disk.
 *
 * The index (which operations exist, where their records and blobs are, what they hold) lives in memory, kept current
 * from the pack: a stat per call, and a read of what was appended since (and of rooms still empty). A process that
 * opens a store scans the pack once; a scan stops at the first entry that does not check out (pack.ts), and a process
 * holding the store's lock cuts the pack there, saying so in its log.
 *
 * Several processes share a directory (the editor, runners and MCP servers). Every append to the pack and every room
 * it fills happens under the port's cross-process lock over the directory, and within a process under `exclusive`.
 * The lock is held for those moments only, not over a call's change (the pipeline locks the call's paths), so calls
 * of several processes change files and sync side by side. Readers need no lock: they stop at an entry not yet whole
 * and take a room only once it checks out. Pruning (at commit) appends the ids it drops; compaction rewrites the pack
 * under a new generation when most of it is dead, keeping the intents and rooms of operations still under way.
 *
 * A store in the layout of earlier versions (legacy.ts) is read as it is, and migrated into a pack by the first
 * change made while holding the lock.
 *
 * Over 300 lines: one class, each change to the directory making its writes in the same order under the same lock.
 */
import { DEFAULT_HISTORY_LIMITS, type Durability, type HistoryLimits } from '../settings';
import { describeError } from '../errors';
import { isWithin } from '../paths';
import type { FileSystem } from '../ports/fs';
import { contentHash, hashFile, incrementalHash } from '../files/hashing';
import { DurableChanges } from '../files/durable';
import { removeQuietly, replaceFile, siblingPath } from '../files/staging';
import { contentSize, LARGE_CONTENT_BYTES, type StoredContent } from './content';
import { BLOB_FILE, hasLegacyStore, OPERATION_ID_PATTERN, readLegacyRecords } from './legacy';
import {
  decodeText,
  emptyRoom,
  encodeText,
  entryBytes,
  GENERATION_LENGTH,
  type Intent,
  type IntendedPath,
  LINE_BYTES,
  PACK_HEADER_BYTES,
  packHeader,
  PackIndex,
  type PackOperation,
  parseIntent,
  parseLine,
  parsePackHeader,
  parseRoom,
  randomToken,
  roomText,
  type Span,
} from './pack';
import type { Origin } from './origin';
import type { PathState } from './state';

/** What a call is about to do, as its intent records it (pack.ts Intent, less what the store adds). */
export interface IntentDraft {
  /** Given by a caller that records a change already made with an id of its own (`add`); otherwise made here. */
  readonly id?: string;
  readonly operation: string;
  readonly summary: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly origin?: Origin;
  readonly paths: readonly IntendedPath[];
}

/** An operation the store has made room for: what `commit` finishes or `cancel` gives up. */
export interface Reservation {
  readonly id: string;
  /** The blobs its intent names: before content stored for it (or already kept). */
  readonly blobs: Readonly<Record<string, number>>;
  /** Resolves once the intent is on the disk; the change must not be made visible before (files/durable.ts). */
  readonly durable: Promise<void>;
}

/** How a write to the store is made: synced or not, and whether the caller already holds the store (an undo does). */
export interface WriteOptions {
  readonly durability?: Durability;
  readonly held?: boolean;
}

/**
 * Puts right an operation whose record was never written (its process died, or the disk failed under it): the
 * record of what its paths hold now, `unchanged` when they hold what they held before (nothing happened), or
 * undefined to leave it for later (its paths are another process's now, or outside this call's roots).
 */
export type Recovery = (
  intent: Intent,
) => Promise<{ record: OperationRecord; contents: ReadonlyMap<string, StoredContent> } | 'unchanged' | undefined>;

/** The store could not make room for an operation: nothing of it was kept, and the change must not be made. */
export class HistoryWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HistoryWriteError';
  }
}

/** One path an operation changed. */
export interface PathRecord {
  /** Absolute path at the time of the operation (the adapter's path). */
  readonly absolute: string;
  /** The path as results showed it then. */
  readonly display: string;
  readonly before: PathState;
  readonly after: PathState;
}

export interface OperationRecord {
  readonly version: 1;
  readonly id: string;
  /** ISO 8601. */
  readonly time: string;
  /** The bare operation name ("write_file"). */
  readonly operation: string;
  /** One line for people: the operation and the paths it changed. */
  readonly summary: string;
  /** The call's parameters without file content: paths, flags and numbers; other text as its length. */
  readonly input: Readonly<Record<string, unknown>>;
  readonly paths: readonly PathRecord[];
  /** Whether everything an undo needs was recorded; `unavailable_reason` says why not. */
  readonly undo_available: boolean;
  readonly unavailable_reason?: string;
  /** For an undo: the operation it undid (for a session's undo, the newest of them). */
  readonly undo_of?: string;
  /** For the undo of a session: every operation it undid. */
  readonly undo_of_all?: readonly string[];
  /** Who made the change (origin.ts); absent in records written before it was kept. */
  readonly origin?: Origin;
  /** Stored content this record refers to: sha-256 hex → size in bytes. */
  readonly blobs: Readonly<Record<string, number>>;
}

/** What pruning drops: `ids`, of which `cut` belong to `session`, the one being recorded. */
interface PrunePlan {
  readonly ids: readonly string[];
  readonly cut: number;
  readonly session?: string;
}

type Index = PackIndex<OperationRecord>;

/** Queued deletions (HistoryStore.sweep) start at once, without waiting for a pause between calls, at this many. */
const SWEEP_NOW = 256;
/** Files no operation names (left by a process that died mid-add) are removed once they are this old. */
const ORPHAN_MS = 60 * 60 * 1000;
/** The window a scan reads the pack through: entries are parsed from memory, large blobs skipped without a read. */
const SCAN_WINDOW = 1024 * 1024;
/** The pack is rewritten once this much of it, and half of it, is dead (dropped records, freed blobs, room to spare). */
const COMPACT_DEAD_BYTES = 1024 * 1024;

/** How long an operation of another process must have gone without a record before a later pass asks after it. */
const RECOVER_AFTER_MS = 5_000;
/** Operations this process has reserved and not yet committed or given up: never another call's to recover. */
const inFlight = new Set<string>();
/** What each store directory's writes in this process wait for (HistoryStore.exclusive). */
const tails = new Map<string, Promise<unknown>>();

let idCounter = 0;

/** When an operation was recorded, from its id (newId: the time in base 36 comes first); NaN for another form. */
function timeOfId(id: string): number {
  const dash = id.indexOf('-');
  return dash < 0 ? Number.NaN : parseInt(id.slice(0, dash), 36);
}

function hexOf(hash: string): string {
  return hash.replace(/^sha256:/, '');
}

/** A room's size: room for the record as estimated, and as much again (its after states are about as large). */
function reservationBytes(recordBytes: number): number {
  return 2 * recordBytes + 4096;
}

/** What a room or a C entry holds: a line saying what it is (with the blobs a record names), then the record. */
function recordBody(record: OperationRecord): string {
  return `${JSON.stringify({ blobs: record.blobs })}\n${JSON.stringify(record)}`;
}

const CANCELLED_BODY = `${JSON.stringify({ cancelled: true })}\n`;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** A record as read back: version 1 and the id it is filed under; undefined otherwise. */
function acceptRecord(parsed: unknown, id: string): OperationRecord | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Partial<OperationRecord>;
  return record.version === 1 && record.id === id && typeof record.blobs === 'object' && record.blobs !== null
    ? (parsed as OperationRecord)
    : undefined;
}

/**
 * Syncs the pack for every caller that asks, one fsync for all who ask while one is under way: each is answered by
 * the first sync that starts after it asked, so what it appended before is covered.
 */
class GroupSync {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly once: () => Promise<void>) {}

  request(): Promise<void> {
    if (!this.running) return this.start();
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<void> {
    const run: Promise<void> = this.once().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}

/** Reads a pack through a window of SCAN_WINDOW bytes (or whole, where the port has no ranged reads). */
class PackReader {
  private start = 0;
  private window: Uint8Array = new Uint8Array();

  constructor(
    private readonly fs: FileSystem,
    private readonly path: string,
    private readonly size: number,
  ) {}

  async bytes(offset: number, length: number): Promise<Uint8Array> {
    if (offset >= this.start && offset + length <= this.start + this.window.length)
      return this.window.subarray(offset - this.start, offset - this.start + length);
    if (!this.fs.readRange) {
      this.start = 0;
      this.window = await this.fs.readFile(this.path);
    } else {
      this.start = offset;
      this.window = await this.fs.readRange(this.path, offset, Math.min(Math.max(length, SCAN_WINDOW), this.size - offset));
    }
    return this.window.subarray(offset - this.start, offset - this.start + length);
  }
}

export class HistoryStore {
  private index: Index | undefined;
  private readonly sync: GroupSync;
  /** The pack's size when the last sync of it started, by generation: what an intent says its writer synced. */
  private synced = { generation: '', size: 0 };
  private directoryMade = false;
  /** Operations without a record at this store's last recovery pass; undefined before the first (recoverIn). */
  private lookedAt: Set<string> | undefined;
  private blobsMade = false;
  /** Files out of the store (pruned records, trashed blobs) waiting for `sweep`. */
  private readonly doomed = new Set<string>();
  private sweeping: Promise<void> | undefined;
  private sweepTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** The port the store is written through (its `lock` guards the directory against other processes). */
    readonly fs: FileSystem,
    /** Absolute path (in `fs`'s path space) of the state directory; created on first write. */
    readonly directory: string,
    private readonly readLimits: () => HistoryLimits = () => DEFAULT_HISTORY_LIMITS,
    /** Where the store says what it repaired (a torn pack cut, an old layout migrated): the host's log. */
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.sync = new GroupSync(async () => {
      const generation = this.index?.generation ?? '';
      const size = (await this.fs.stat(this.packPath))?.size ?? 0;
      await this.fs.sync?.(this.packPath, 'file');
      if (generation !== this.synced.generation) this.synced = { generation, size };
      else this.synced.size = Math.max(this.synced.size, size);
    });
  }

  limits(): Required<HistoryLimits> {
    const limits = this.readLimits();
    return {
      maxOperations: Math.max(1, Math.floor(limits.maxOperations)),
      maxBytes: Math.max(0, Math.floor(limits.maxBytes)),
      maxAgeDays: Math.max(0, limits.maxAgeDays ?? DEFAULT_HISTORY_LIMITS.maxAgeDays ?? 30),
    };
  }

  /**
   * Runs `task` after every task queued before it has finished: the store's writes within this process, in order. By
   * directory, not by store: two stores of one process on one folder must not write at once either, and the port's
   * lock would let them (it grants a process what it holds already).
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = (tails.get(this.directory) ?? Promise.resolve()).then(task, task);
    const tail = result.catch(() => undefined);
    tails.set(this.directory, tail);
    void tail.then(() => {
      if (tails.get(this.directory) === tail) tails.delete(this.directory);
    });
    return result;
  }

  /**
   * A new operation id, later than every id the store holds: ids sort in the order operations were reserved, also
   * across processes sharing the store (each reserves while holding its lock, with the index current).
   */
  newId(now = Date.now()): string {
    idCounter = (idCounter + 1) % 36 ** 4;
    const random = Math.floor(Math.random() * 36 ** 4);
    const make = (time: number): string =>
      `${time.toString(36).padStart(9, '0')}-${idCounter.toString(36).padStart(4, '0')}-${random.toString(36).padStart(4, '0')}`;
    const id = make(now);
    const newest = this.index?.ids[this.index.ids.length - 1];
    if (newest === undefined || id > newest) return id;
    // Recorded in the same millisecond as (or, by another process's clock, before) the newest: just after it.
    return make(parseInt(newest.slice(0, newest.indexOf('-')), 36) + 1);
  }

  /** Every record, newest first. Operations whose record is not written (yet) are not listed. */
  async list(): Promise<OperationRecord[]> {
    const index = await this.current(false);
    const records: OperationRecord[] = [];
    for (let at = index.ids.length - 1; at >= 0; at--) {
      const record = await this.load(index, index.ids[at] ?? '');
      if (record) records.push(record);
    }
    return records;
  }

  async get(id: string): Promise<OperationRecord | undefined> {
    if (!OPERATION_ID_PATTERN.test(id)) return undefined;
    return this.load(await this.current(false), id);
  }

  /**
   * For each of `paths`, the newest record whose change touched it: the path itself or a directory holding it. A path
   * whose newest operation touched only something inside it, or has no record (under way, or left by a crash), is
   * left out: no one record says what it holds. Operations are passed over by the paths their intents name, so only
   * the records that touch a path are read.
   */
  async newestTouching(paths: readonly string[]): Promise<Map<string, OperationRecord>> {
    const index = await this.current(false);
    const found = new Map<string, OperationRecord>();
    const open = new Set(paths);
    for (let at = index.ids.length - 1; at >= 0 && open.size > 0; at--) {
      const operation = index.operations.get(index.ids[at] ?? '');
      if (!operation) continue;
      const touches = (named: readonly string[]): string[] =>
        [...open].filter((path) => named.some((each) => isWithin(each, path) || isWithin(path, each)));
      if (operation.paths && touches(operation.paths).length === 0) continue;
      const record = await this.load(index, operation.id);
      for (const path of touches(record ? record.paths.map((each) => each.absolute) : (operation.paths ?? []))) {
        open.delete(path);
        if (record?.paths.some((each) => isWithin(each.absolute, path))) found.set(path, record);
      }
    }
    return found;
  }

  /** The stored bytes for a content hash, checked against it; `undefined` when absent or damaged. */
  async readBlob(hash: string): Promise<Uint8Array | undefined> {
    const hex = hexOf(hash);
    if (!BLOB_FILE.test(hex)) return undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const index = await this.current(false);
      const span = index.located.get(hex);
      let bytes: Uint8Array | undefined;
      try {
        bytes = span ? await this.readPack(span) : await this.fs.readFile(`${this.blobsDirectory}/${hex}`);
      } catch {
        bytes = undefined;
      }
      if (bytes && contentHash(bytes) === `sha256:${hex}`) return bytes;
      // Compacted by another process meanwhile (the bytes moved): read the pack anew, once.
      if (!span) return undefined;
      this.index = undefined;
    }
    return undefined;
  }

  /**
   * Where the stored content for a large hash is, checked against it by a streaming read (for restoring a large file
   * by a copy); `undefined` when absent or damaged. Large content is always a file of its own.
   */
  async blobFile(hash: string): Promise<{ path: string; size: number } | undefined> {
    const hex = hexOf(hash);
    if (!BLOB_FILE.test(hex)) return undefined;
    const path = `${this.blobsDirectory}/${hex}`;
    const stat = await this.fs.stat(path).catch(() => undefined);
    if (!stat || stat.kind !== 'file') return undefined;
    const digest = await hashFile(this.fs, path).catch(() => undefined);
    return digest?.hex === hex ? { path, size: stat.size } : undefined;
  }

  /**
   * Makes room for an operation before its change is made (see the header): stores `contents` (the before content an
   * undo needs) that the store does not hold yet, and appends the intent and its room; `recover` is given every
   * operation left without a record first. Throws HistoryWriteError, having kept nothing, when any of it fails; a lock
   * that cannot be had in time is thrown as the port's FsError 'locked'.
   */
  async reserve(
    draft: IntentDraft,
    contents: ReadonlyMap<string, StoredContent>,
    recordBytes: number,
    options: WriteOptions & { readonly recover?: Recovery } = {},
  ): Promise<Reservation> {
    const full = options.durability !== 'fast';
    const made: string[] = [];
    return this.section(options.held, async (index) => {
      if (options.recover) await this.recoverIn(index, options.recover, options);
      try {
        const id = draft.id ?? this.newId();
        const blobs: Record<string, number> = {};
        const parts: Uint8Array[] = [];
        const appended: string[] = [];
        for (const [hash, content] of contents) {
          const hex = hexOf(hash);
          if (!BLOB_FILE.test(hex)) continue;
          blobs[hex] = contentSize(content);
          // Any operation still in the pack holds it: its bytes are there already.
          if (index.refs.has(hex)) continue;
          if (content instanceof Uint8Array) {
            parts.push(entryBytes('B', content, hex));
            appended.push(hex);
          } else {
            await this.keepLarge(hex, content, full);
            made.push(hex);
          }
        }
        const intent: Intent = {
          id,
          time: new Date().toISOString(),
          operation: draft.operation,
          summary: draft.summary,
          input: draft.input,
          ...(draft.origin ? { origin: draft.origin } : {}),
          paths: draft.paths,
          blobs,
          synced: this.synced.generation === index.generation ? this.synced.size : 0,
        };
        const intentBytes = entryBytes('I', encodeText(JSON.stringify(intent)));
        const room = reservationBytes(recordBytes);
        const created = await this.append(index, [...parts, intentBytes, entryBytes('R', emptyRoom(room))], full);
        const roomAt = index.offset - room;
        let at = roomAt - LINE_BYTES - intentBytes.length - parts.reduce((sum, part) => sum + part.length, 0);
        for (const [position, part] of parts.entries()) {
          index.located.set(appended[position] ?? '', { offset: at + LINE_BYTES, length: part.length - LINE_BYTES });
          at += part.length;
        }
        const operation: PackOperation<OperationRecord> = {
          id,
          ...(draft.origin ? { session: draft.origin.session } : {}),
          paths: draft.paths.map((path) => path.absolute),
          intent: { offset: roomAt - intentBytes.length, length: intentBytes.length - LINE_BYTES },
          room: { offset: roomAt, length: room },
          blobs,
          before: blobs,
        };
        index.insert(operation);
        inFlight.add(id);
        const waits: Promise<void>[] = [];
        if (full && this.fs.sync) {
          waits.push(this.sync.request());
          if (made.length > 0) waits.push(this.fs.sync(this.blobsDirectory, 'directory'));
          if (created) waits.push(this.fs.sync(this.directory, 'directory'));
        }
        const durable = Promise.all(waits).then(() => undefined);
        // Awaited by the change; a call that fails before making one must not leave the rejection unhandled.
        durable.catch(() => undefined);
        return { id, blobs, durable };
      } catch (error) {
        for (const hex of made) if (!index.refs.has(hex)) await removeQuietly(this.fs, `${this.blobsDirectory}/${hex}`);
        throw new HistoryWriteError(describeError(error));
      }
    });
  }

  /**
   * Finishes a reserved operation once its change is on the disk: its after content (kept only for diffs, so only
   * where there is room) appended, its record written into its room. Then prunes to the limits; the newest record is
   * never pruned (an operation over `maxBytes` was recorded without content).
   */
  async commit(
    reservation: Reservation,
    record: OperationRecord,
    contents: ReadonlyMap<string, StoredContent>,
    options: WriteOptions = {},
  ): Promise<void> {
    try {
      await this.section(options.held, async (index) => {
        const operation = index.operations.get(reservation.id);
        if (!operation) throw new Error(`its reservation ${reservation.id} is no longer in the history (cleared meanwhile?)`);
        await this.writeRecord(index, operation, record, contents, options.durability !== 'fast');
        try {
          const plan = await this.beyondLimits(index, record.id);
          await this.drop(index, plan.ids, options.durability !== 'fast');
          await this.noteCut(plan, options.durability !== 'fast').catch(() => undefined);
        } catch {
          // Nothing of it is in the pack: the next commit prunes. The index read anew says so.
          this.index = undefined;
        }
      });
    } catch (error) {
      throw new Error(`Could not write history to ${this.packPath}: ${describeError(error)}`);
    } finally {
      inFlight.delete(reservation.id);
    }
  }

  /** Gives up a reserved operation whose call failed or changed nothing: its room says so, its blobs are freed. */
  async cancel(reservation: Reservation, options: WriteOptions = {}): Promise<void> {
    try {
      await this.section(options.held, async (index) => {
        const operation = index.operations.get(reservation.id);
        if (operation) await this.giveUp(index, operation);
      });
    } finally {
      inFlight.delete(reservation.id);
    }
  }

  /**
   * Puts right every operation left without a record (see `Recovery`), holding the store: for a caller that holds it
   * for a whole call (an undo) and must know the history as it is before it decides what to undo. Returns how many
   * it recorded or gave up.
   */
  async recoverInterrupted(recover: Recovery, options: WriteOptions = {}): Promise<number> {
    return this.section(options.held, (index) => this.recoverIn(index, recover, options));
  }

  /** Reserves and commits at once: for a record whose change is already made. */
  async add(record: OperationRecord, contents: ReadonlyMap<string, StoredContent>): Promise<void> {
    const needed = new Map([...contents].filter(([hash]) => record.blobs[hexOf(hash)] !== undefined));
    const reservation = await this.reserve(
      {
        id: record.id,
        operation: record.operation,
        summary: record.summary,
        input: record.input,
        ...(record.origin ? { origin: record.origin } : {}),
        paths: record.paths.map(({ absolute, display, before }) => ({ absolute, display, before })),
      },
      needed,
      JSON.stringify(record).length,
    );
    await reservation.durable;
    await this.commit(reservation, record, contents);
  }

  /**
   * Drops what is beyond the limits, a whole session at a time, oldest first, with the blobs only its records referred
   * to: over maxOperations or maxBytes, the session of the oldest record goes (every record of it, newer ones too);
   * a session whose last change is older than maxAgeDays goes too. The newest record (`keep`) is never dropped: when
   * the session to drop is its own, that session loses only its oldest records and is noted as cut (`cutSessions`),
   * so it is never cut without saying so. Records without a session (written before sessions were kept) go alone.
   * Operations still without a record (under way in another process, or left by one that died) are not pruned.
   */
  async prune(keep?: string): Promise<void> {
    await this.section(false, async (index) => {
      const plan = await this.beyondLimits(index, keep);
      await this.drop(index, plan.ids, true);
      await this.noteCut(plan, true).catch(() => undefined);
    });
  }

  /** Sessions pruning cut (their oldest changes gone, later ones kept): session → how many changes went. */
  async cutSessions(): Promise<Record<string, number>> {
    try {
      const parsed = JSON.parse(decodeText(await this.fs.readFile(this.cutPath))) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
    } catch {
      return {};
    }
  }

  /** What the history holds now, for workspace_info. */
  async report(): Promise<{ operations: number; bytes: number; sessionsCut: number }> {
    const index = await this.current(false);
    const operations = index.ids.filter((id) => index.operations.get(id)?.record !== undefined).length;
    return { operations, bytes: index.bytes, sessionsCut: Object.keys(await this.cutSessions()).length };
  }

  /** Resolves once every file this store took out of the history is deleted: for a host about to exit, and tests. */
  async settled(): Promise<void> {
    if (this.sweepTimer !== undefined) clearTimeout(this.sweepTimer);
    this.sweepTimer = undefined;
    while (this.doomed.size > 0 || this.sweeping) await this.sweep();
  }

  /** Removes every record and blob (the person's "clear history"): an empty pack under a new generation. */
  clear(): Promise<void> {
    return this.section(false, async () => {
      await this.makeDirectory(true);
      await this.replaceDurably(this.packPath, packHeader(randomToken(GENERATION_LENGTH), PACK_HEADER_BYTES), true);
      this.index = undefined;
      for (const name of await this.readNames(this.blobsDirectory)) await this.discard(`${this.blobsDirectory}/${name}`);
      await this.removeLegacy();
      await this.emptyTrash();
    });
  }

  private get packPath(): string {
    return `${this.directory}/pack`;
  }

  private get blobsDirectory(): string {
    return `${this.directory}/blobs`;
  }

  private get trashDirectory(): string {
    return `${this.directory}/trash`;
  }

  private get cutPath(): string {
    return `${this.directory}/sessions-cut.json`;
  }

  /**
   * Runs `task` holding the store: this process's writes in order (`exclusive`) and other processes' kept out (the
   * port's lock over the directory), with the index current and the pack whole (a torn tail cut). `held`: the caller
   * holds both already.
   */
  private section<T>(held: boolean | undefined, task: (index: Index) => Promise<T>): Promise<T> {
    if (held) return this.current(true).then(task);
    return this.exclusive(async () => {
      const lock = await this.fs.lock?.([this.directory]);
      try {
        return await task(await this.current(true));
      } finally {
        await lock?.release();
      }
    });
  }

  /**
   * The index, brought up to date with the pack: one stat when nothing changed; what was appended since, and the rooms
   * still empty, otherwise; a full scan when the pack was rewritten or is read for the first time. `locked`: the
   * caller holds the store, so a pack in the old layout is migrated and a torn tail cut.
   */
  private async current(locked: boolean): Promise<Index> {
    let stat = await this.fs.stat(this.packPath);
    if (!stat) {
      if (await hasLegacyStore(this.fs, this.directory)) {
        if (!locked) return (this.index = await this.legacyIndex());
        await this.migrate();
        stat = await this.fs.stat(this.packPath);
      }
      if (!stat) return (this.index = new PackIndex<OperationRecord>('', 0, Number.NaN));
    }
    const index = this.index;
    if (index && index.generation !== '' && stat.size === index.offset && stat.ctimeMs === index.stamp) return index;
    const header = parsePackHeader(await this.readRange(0, PACK_HEADER_BYTES));
    if (!header) {
      // Not a pack (or its very first write torn): nothing in it can be read. A holder of the lock starts it anew.
      if (locked) {
        this.log(`history: ${this.packPath} does not start as a pack should; starting an empty one (the old file is kept beside it)`);
        await this.fs.rename(this.packPath, `${this.packPath}.damaged-${randomToken(6)}`, { overwrite: true });
      }
      return (this.index = new PackIndex<OperationRecord>('', 0, Number.NaN));
    }
    let target = index;
    if (!target || target.generation !== header.generation || stat.size < target.offset) {
      target = new PackIndex<OperationRecord>(header.generation, PACK_HEADER_BYTES, Number.NaN);
      target.trusted = header.trusted;
    } else await this.recheckRooms(target);
    const stopped = await this.scan(target, stat.size);
    target.stamp = stat.ctimeMs;
    this.index = target;
    if (stopped && locked) {
      // Nothing after the first entry that does not check out was ever synced (pack.ts): it goes.
      this.log(
        `history: cut a torn end of ${stat.size - target.offset} bytes from ${this.packPath} at ${target.offset} (a write a crash interrupted); the ${target.ids.length} operations before it are whole`,
      );
      await this.cut(target);
    }
    return target;
  }

  /** Cuts the pack at what the index has scanned (a torn end, or an append that failed midway). */
  private async cut(index: Index): Promise<void> {
    if (this.fs.truncate) await this.fs.truncate(this.packPath, index.offset);
    else await this.replaceDurably(this.packPath, (await this.fs.readFile(this.packPath)).subarray(0, index.offset), true);
    index.stamp = (await this.fs.stat(this.packPath))?.ctimeMs ?? Number.NaN;
  }

  /**
   * Reads entries from `index.offset` to `size` into the index; returns whether it stopped at one that does not
   * check out (its offset is then where the whole part ends).
   */
  private async scan(index: Index, size: number): Promise<boolean> {
    const reader = new PackReader(this.fs, this.packPath, size);
    let at = index.offset;
    let last: PackOperation<OperationRecord> | undefined;
    while (at < size) {
      if (at + LINE_BYTES > size) return true;
      const line = parseLine(await reader.bytes(at, LINE_BYTES));
      const start = at + LINE_BYTES;
      if (!line || start + line.length > size) return true;
      const span = { offset: start, length: line.length };
      if (line.kind === 'B') {
        if (start + line.length > index.trusted && !(await this.checks(reader, span, line.hash))) return true;
        if (line.hash !== undefined) index.located.set(line.hash, span);
        last = undefined;
      } else if (line.kind === 'R') {
        if (last && !last.room) {
          last.room = span;
          this.readRoom(index, last, await reader.bytes(start, line.length), start);
        }
        last = undefined;
      } else {
        const payload = await reader.bytes(start, line.length);
        if ((await this.hash(payload)) !== line.hash) return true;
        last = this.apply(index, line.kind, decodeText(payload), span);
      }
      at = start + line.length;
      index.offset = at;
    }
    return false;
  }

  /** An I, C or D entry into the index; returns the operation an I entry adds (its room comes next). */
  private apply(index: Index, kind: 'I' | 'C' | 'D', text: string, span: Span): PackOperation<OperationRecord> | undefined {
    if (kind === 'I') {
      const intent = parseIntent(text);
      if (!intent || !OPERATION_ID_PATTERN.test(intent.id)) return undefined;
      index.trusted = Math.max(index.trusted, intent.synced);
      const blobs = Object.fromEntries(Object.entries(intent.blobs).filter(([hex]) => BLOB_FILE.test(hex)));
      const operation: PackOperation<OperationRecord> = {
        id: intent.id,
        ...(intent.origin?.session === undefined ? {} : { session: intent.origin.session }),
        paths: intent.paths.map((path) => path.absolute),
        intent: span,
        blobs,
        before: blobs,
      };
      index.insert(operation);
      return operation;
    }
    if (kind === 'C') {
      let id = '';
      try {
        id = String((JSON.parse(text.slice(text.indexOf('\n') + 1)) as { id?: unknown }).id);
      } catch {
        return undefined;
      }
      const operation = index.operations.get(id);
      if (operation && !operation.record) this.committed(index, operation, text, span);
      return undefined;
    }
    try {
      const { drop } = JSON.parse(text) as { drop?: unknown };
      if (Array.isArray(drop)) for (const id of drop) if (typeof id === 'string') index.remove(id);
    } catch {
      // A checked payload that does not parse: a writer's bug, not a crash; nothing to take from it.
    }
    return undefined;
  }

  /** Takes what a room holds: a record (the operation is committed), a note that it changed nothing, or not yet. */
  private readRoom(index: Index, operation: PackOperation<OperationRecord>, bytes: Uint8Array, start: number): void {
    const room = parseRoom(bytes);
    if (typeof room === 'string') return;
    if (room.text === CANCELLED_BODY) {
      index.remove(operation.id);
      operation.cancelled = true;
      return;
    }
    this.committed(index, operation, room.text, { offset: start + room.offset, length: room.length });
  }

  /** An operation's record found at `span` (its body: a line of blobs, then the record). */
  private committed(index: Index, operation: PackOperation<OperationRecord>, body: string, span: Span): void {
    const newline = body.indexOf('\n');
    try {
      const { blobs } = JSON.parse(body.slice(0, newline)) as { blobs?: Record<string, number> };
      index.extend(operation.id, Object.fromEntries(Object.entries(blobs ?? {}).filter(([hex]) => BLOB_FILE.test(hex))));
    } catch {
      return;
    }
    const head = encodeText(body.slice(0, newline + 1)).length;
    operation.record = { offset: span.offset + head, length: span.length - head };
  }

  /** Reads the rooms still empty again: another process may have written them since. */
  private async recheckRooms(index: Index): Promise<void> {
    for (const id of index.ids) {
      const operation = index.operations.get(id);
      if (!operation?.room || operation.record || operation.cancelled) continue;
      this.readRoom(index, operation, await this.readPack(operation.room), operation.room.offset);
    }
  }

  private async checks(reader: PackReader, span: Span, hash: string | undefined): Promise<boolean> {
    return (await this.hash(await reader.bytes(span.offset, span.length))) === hash;
  }

  /** The SHA-256 hex of bytes, the port's native hash where it has one. */
  private hash(bytes: Uint8Array): Promise<string> {
    const hash = incrementalHash(this.fs);
    hash.update(bytes);
    return Promise.resolve(hash.digest());
  }

  private async readPack(span: Span): Promise<Uint8Array> {
    return this.readRange(span.offset, span.length);
  }

  private async readRange(offset: number, length: number): Promise<Uint8Array> {
    if (length <= 0) return new Uint8Array();
    if (this.fs.readRange) return this.fs.readRange(this.packPath, offset, length);
    return (await this.fs.readFile(this.packPath)).subarray(offset, offset + length);
  }

  private async load(index: Index, id: string): Promise<OperationRecord | undefined> {
    const operation = index.operations.get(id);
    if (!operation?.record) return operation?.loaded;
    if (operation.loaded) return operation.loaded;
    try {
      const record = acceptRecord(JSON.parse(decodeText(await this.readPack(operation.record))) as unknown, id);
      if (!record) return undefined;
      // A record hands out only the blobs that are there (pack.ts): after content appended later may not be.
      const blobs = Object.fromEntries(Object.entries(record.blobs).filter(([hex]) => index.has(operation, hex)));
      operation.loaded = { ...record, blobs };
      return operation.loaded;
    } catch {
      return undefined;
    }
  }

  /** An index of a store in the old layout, read as it is (legacy.ts): its records loaded, its blobs files of their own. */
  private async legacyIndex(): Promise<Index> {
    const index = new PackIndex<OperationRecord>('', 0, Number.NaN);
    for (const record of await readLegacyRecords(this.fs, this.directory, acceptRecord)) {
      const none = { offset: 0, length: 0 };
      index.insert({
        id: record.id,
        ...(record.origin ? { session: record.origin.session } : {}),
        intent: none,
        record: none,
        blobs: record.blobs,
        before: record.blobs,
        loaded: record,
      });
    }
    return index;
  }

  /**
   * Appends `parts` to the pack in one write, creating it (with its header) when there is none; returns whether it
   * did. A write that fails midway is cut back, so the pack ends whole.
   */
  private async append(index: Index, parts: readonly Uint8Array[], full: boolean): Promise<boolean> {
    if (parts.length === 0) return false;
    await this.makeDirectory(full);
    const created = index.generation === '';
    let bytes = concat(parts);
    if (created) {
      // No pack yet (an empty index: an old layout was migrated into one before): it starts with its header.
      index.generation = randomToken(GENERATION_LENGTH);
      index.offset = 0;
      bytes = concat([packHeader(index.generation, 0), bytes]);
    }
    const before = index.offset;
    try {
      if (this.fs.appendFile) await this.fs.appendFile(this.packPath, bytes);
      else {
        const old = created ? new Uint8Array() : await this.fs.readFile(this.packPath);
        await this.replaceDurably(this.packPath, concat([old, bytes]), full);
      }
    } catch (error) {
      if (!created && this.fs.truncate) await this.fs.truncate(this.packPath, before).catch(() => undefined);
      else if (created) await removeQuietly(this.fs, this.packPath);
      if (created) this.index = undefined;
      throw error;
    }
    index.offset = before + bytes.length;
    index.stamp = (await this.fs.stat(this.packPath))?.ctimeMs ?? Number.NaN;
    return created;
  }

  /** Writes a record (or the note that an operation changed nothing) into its room, else appends it as a C entry. */
  private async fill(index: Index, operation: PackOperation<OperationRecord>, body: string, full: boolean): Promise<Span> {
    const room = operation.room && roomText(body, operation.room.length);
    if (operation.room && room) {
      if (this.fs.overwrite) await this.fs.overwrite(this.packPath, room, operation.room.offset);
      else {
        const whole = await this.fs.readFile(this.packPath);
        const changed = new Uint8Array(whole);
        changed.set(room, operation.room.offset);
        await this.replaceDurably(this.packPath, changed, full);
      }
      index.stamp = (await this.fs.stat(this.packPath))?.ctimeMs ?? Number.NaN;
      const head = room.indexOf(0x0a) + 1;
      return { offset: operation.room.offset + head, length: encodeText(body).length };
    }
    const entry = entryBytes('C', encodeText(body));
    await this.append(index, [entry], full);
    return { offset: index.offset - entry.length + LINE_BYTES, length: entry.length - LINE_BYTES };
  }

  /** A record into the pack for `operation`, with its after content where there is room for it. */
  private async writeRecord(
    index: Index,
    operation: PackOperation<OperationRecord>,
    record: OperationRecord,
    contents: ReadonlyMap<string, StoredContent>,
    full: boolean,
  ): Promise<void> {
    const added: Record<string, number> = {};
    const parts: Uint8Array[] = [];
    const appended: string[] = [];
    for (const hex of Object.keys(record.blobs)) {
      if (operation.blobs[hex] !== undefined) continue;
      const content = contents.get(`sha256:${hex}`);
      // A large file's new content is the live file: linked into the store, a later write into it would change the
      // blob too, and no diff of it is shown anyway.
      if (!(content instanceof Uint8Array)) continue;
      added[hex] = content.length;
      if (index.refs.has(hex) || index.located.has(hex)) continue;
      parts.push(entryBytes('B', content, hex));
      appended.push(hex);
    }
    let kept = { ...added };
    if (parts.length > 0) {
      try {
        await this.append(index, parts, full);
        let at = index.offset - parts.reduce((sum, part) => sum + part.length, 0);
        for (const [position, part] of parts.entries()) {
          index.located.set(appended[position] ?? '', { offset: at + LINE_BYTES, length: part.length - LINE_BYTES });
          at += part.length;
        }
      } catch {
        // Only a diff would have shown it: the record then says the content was not kept.
        kept = Object.fromEntries(Object.entries(added).filter(([hex]) => index.refs.has(hex) || index.located.has(hex)));
      }
    }
    const blobs = Object.fromEntries(
      Object.entries(record.blobs).filter(([hex]) => operation.blobs[hex] !== undefined || kept[hex] !== undefined),
    );
    const finished: OperationRecord = { ...record, blobs };
    const body = recordBody(finished);
    const span = await this.fill(index, operation, body, full);
    index.extend(operation.id, kept);
    const head = encodeText(body.slice(0, body.indexOf('\n') + 1)).length;
    operation.record = { offset: span.offset + head, length: span.length - head };
    operation.loaded = finished;
  }

  /** Gives an operation up: its room notes it (or a D entry, where it has none), and its blobs are freed. */
  private async giveUp(index: Index, operation: PackOperation<OperationRecord>): Promise<void> {
    if (operation.room) await this.fill(index, operation, CANCELLED_BODY, false);
    else await this.append(index, [entryBytes('D', encodeText(JSON.stringify({ drop: [operation.id] })))], false);
    operation.cancelled = true;
    for (const hex of index.remove(operation.id)) if (!index.located.has(hex)) await this.discard(`${this.blobsDirectory}/${hex}`);
  }

  /** Puts right every operation without a record that is no call's of this process (see `Recovery`). */
  private async recoverIn(index: Index, recover: Recovery, options: WriteOptions): Promise<number> {
    let done = 0;
    const pending = index.ids.filter((id) => {
      const operation = index.operations.get(id);
      return operation !== undefined && !operation.record && !operation.cancelled && !inFlight.has(id) && operation.intent.length > 0;
    });
    // Another process's call under way leaves its intent without a record for a moment, and asking whether its process
    // still holds its paths costs a look at the lock folder, while the store is held: an intent is looked at when this
    // store first reads the pack (it may be a crash's), and later only once it has stayed without a record since this
    // store's last pass and for RECOVER_AFTER_MS (a crash's, or a call that slow). Putting one right late loses nothing.
    const looked = this.lookedAt;
    this.lookedAt = new Set(pending);
    const settledBefore = Date.now() - RECOVER_AFTER_MS;
    for (const id of pending) {
      const operation = index.operations.get(id);
      if (!operation || (looked !== undefined && (!looked.has(id) || !(timeOfId(id) < settledBefore)))) continue;
      const intent = parseIntent(decodeText(await this.readPack(operation.intent)));
      if (!intent) continue;
      const result = await recover(intent);
      if (result === undefined) continue;
      if (result === 'unchanged') await this.giveUp(index, operation);
      else await this.writeRecord(index, operation, result.record, result.contents, options.durability !== 'fast');
      done++;
    }
    if (done > 0) this.log(`history: put right ${done} ${done === 1 ? 'change' : 'changes'} whose record a crash had cut short`);
    return done;
  }

  /**
   * What to drop for the index to be within the limits (see `prune`), never `keep`; `cut`, how many of `keep`'s own
   * session go. Changes nothing. Finding a session's records loads them (once per process: records never change).
   */
  private async beyondLimits(index: Index, keep: string | undefined): Promise<PrunePlan> {
    const { maxOperations, maxBytes, maxAgeDays } = this.limits();
    const cutoff = Date.now() - maxAgeDays * 24 * 60 * 60 * 1000;
    const ids = index.ids.filter((id) => index.operations.get(id)?.record !== undefined);
    let count = ids.length;
    let bytes = index.bytes;
    // A blob is freed once every record referring to it is dropped.
    const remaining = new Map<string, number>();
    const dropped = new Set<string>();
    const take = (id: string): void => {
      for (const hex of Object.keys(index.operations.get(id)?.blobs ?? {})) {
        const ref = index.refs.get(hex);
        if (!ref) continue;
        const left = (remaining.get(hex) ?? ref.count) - 1;
        remaining.set(hex, left);
        if (left === 0) bytes -= ref.size;
      }
      dropped.add(id);
      count--;
    };
    const over = (): boolean => count > maxOperations || (bytes > maxBytes && count > 1);
    const aged = (id: string | undefined): boolean => id !== undefined && id !== keep && timeOfId(id) < cutoff;
    // The intent names the session; only records from before it did are read for it.
    const sessionOf = async (id: string): Promise<string | undefined> =>
      index.operations.get(id)?.session ?? (await this.load(index, id))?.origin?.session;
    const keepSession = keep === undefined ? undefined : await sessionOf(keep);
    let cut = 0;
    for (const oldest of ids) {
      if (dropped.has(oldest)) continue;
      if (oldest === keep || !(over() || aged(oldest))) break;
      const byAge = !over();
      const session = await sessionOf(oldest);
      if (session !== undefined && session === keepSession) {
        // The session being recorded: it is not old, and over the limits it can only be cut.
        if (byAge) break;
        take(oldest);
        cut++;
        continue;
      }
      const members: string[] = [];
      for (const id of ids)
        if (!dropped.has(id) && (id === oldest || (session !== undefined && id !== keep && (await sessionOf(id)) === session)))
          members.push(id);
      // By age, a session goes only once its last change is old.
      if (byAge && !aged(members[members.length - 1])) break;
      for (const id of members) take(id);
    }
    return { ids: ids.filter((id) => dropped.has(id)), cut, ...(keepSession === undefined ? {} : { session: keepSession }) };
  }

  /**
   * Appends a D entry for `dropped` (from then on no process uses them), then takes the blobs of their own files that
   * only they held out of the store, and compacts the pack once most of it is dead. Throws, having changed neither
   * the pack nor the index, when the append fails.
   */
  private async drop(index: Index, dropped: readonly string[], full: boolean): Promise<void> {
    if (dropped.length === 0) return;
    await this.append(index, [entryBytes('D', encodeText(JSON.stringify({ drop: dropped })))], full);
    const freed = dropped.flatMap((id) => index.remove(id));
    // A blob's name comes back with its content: it is renamed out now, under the lock, so that a deletion later
    // cannot take a blob stored anew meanwhile.
    for (const hex of freed) if (!index.located.has(hex)) await this.discard(`${this.blobsDirectory}/${hex}`);
    if (index.dead > COMPACT_DEAD_BYTES && index.dead * 2 > index.offset) await this.compact(index, full);
  }

  /**
   * Rewrites the pack with only what live operations need (their blobs, intents and records, rooms cut to their
   * records), under a new generation, synced before it takes the pack's name; operations still without a record keep
   * their intent and their room as they are. Then removes files no operation names that are old enough that no other
   * process can still be about to name them (a blob of a process that died mid-add).
   */
  private async compact(index: Index, full: boolean): Promise<void> {
    const parts: Uint8Array[] = [];
    const written = new Set<string>();
    for (const id of index.ids) {
      const operation = index.operations.get(id);
      if (!operation) continue;
      for (const hex of Object.keys(operation.blobs)) {
        const span = index.located.get(hex);
        if (!span || written.has(hex)) continue;
        parts.push(entryBytes('B', await this.readPack(span), hex));
        written.add(hex);
      }
      const intent = parseIntent(decodeText(await this.readPack(operation.intent)));
      if (!intent) continue;
      parts.push(entryBytes('I', encodeText(JSON.stringify({ ...intent, synced: 0 }))));
      if (operation.record) {
        const body = decodeText(await this.readPack({ offset: operation.record.offset, length: operation.record.length }));
        const record = recordBody({ ...(JSON.parse(body) as OperationRecord) });
        const room = roomText(record, encodeText(record).length + 100);
        if (room) parts.push(entryBytes('R', room));
      } else if (operation.room) parts.push(entryBytes('R', await this.readPack(operation.room)));
    }
    const body = concat(parts);
    const bytes = concat([packHeader(randomToken(GENERATION_LENGTH), PACK_HEADER_BYTES + body.length), body]);
    await this.replaceDurably(this.packPath, bytes, full);
    this.index = undefined;
    const now = Date.now();
    const fresh = await this.current(true);
    for (const name of await this.readNames(this.blobsDirectory)) {
      if (fresh.refs.has(name) || this.doomed.has(`${this.blobsDirectory}/${name}`)) continue;
      const stat = await this.fs.stat(`${this.blobsDirectory}/${name}`).catch(() => undefined);
      if (stat && now - stat.mtimeMs > ORPHAN_MS) await removeQuietly(this.fs, `${this.blobsDirectory}/${name}`);
    }
    await this.emptyTrash();
  }

  /**
   * Moves a store in the layout of earlier versions (legacy.ts) into a pack: every record, with its intent and its
   * small blobs; large blobs stay the files they are. The pack is synced before it takes its name; only then do the
   * old files go. Runs once, under the lock; a crash midway leaves the old layout, which the next holder migrates.
   */
  private async migrate(): Promise<void> {
    const records = await readLegacyRecords(this.fs, this.directory, acceptRecord);
    const parts: Uint8Array[] = [];
    const written = new Set<string>();
    for (const record of records) {
      const kept: Record<string, number> = {};
      for (const [hex, size] of Object.entries(record.blobs)) {
        if (!BLOB_FILE.test(hex)) continue;
        if (size > LARGE_CONTENT_BYTES) {
          kept[hex] = size;
          continue;
        }
        if (!written.has(hex)) {
          const bytes = await this.fs.readFile(`${this.blobsDirectory}/${hex}`).catch(() => undefined);
          // Missing or damaged in the old store: the record goes on without it, as it would have been read there.
          if (!bytes || contentHash(bytes) !== `sha256:${hex}`) continue;
          parts.push(entryBytes('B', bytes, hex));
          written.add(hex);
        }
        kept[hex] = size;
      }
      const migrated: OperationRecord = { ...record, blobs: kept };
      const intent: Intent = {
        id: record.id,
        time: record.time,
        operation: record.operation,
        summary: record.summary,
        input: record.input,
        ...(record.origin ? { origin: record.origin } : {}),
        paths: record.paths.map(({ absolute, display, before }) => ({ absolute, display, before })),
        blobs: Object.fromEntries(Object.entries(kept).filter(([, size]) => size > LARGE_CONTENT_BYTES)),
        synced: 0,
      };
      parts.push(entryBytes('I', encodeText(JSON.stringify(intent))));
      const body = recordBody(migrated);
      const room = roomText(body, encodeText(body).length + 100);
      if (room) parts.push(entryBytes('R', room));
    }
    const body = concat(parts);
    await this.replaceDurably(
      this.packPath,
      concat([packHeader(randomToken(GENERATION_LENGTH), PACK_HEADER_BYTES + body.length), body]),
      true,
    );
    this.log(`history: moved ${records.length} records of an earlier version's layout into ${this.packPath}`);
    for (const hex of written) await this.discard(`${this.blobsDirectory}/${hex}`);
    await this.removeLegacy();
  }

  /** Takes the old layout's journal and record files out of the store (migrated, or cleared). */
  private async removeLegacy(): Promise<void> {
    if (await this.fs.stat(`${this.directory}/journal`)) await this.discard(`${this.directory}/journal`);
    for (const name of await this.readNames(`${this.directory}/operations`)) await this.discard(`${this.directory}/operations/${name}`);
  }

  /** Replaces a file of the store whole, atomically and (full) durably: its bytes, then its name. */
  private async replaceDurably(path: string, bytes: Uint8Array, full: boolean): Promise<void> {
    const changes = DurableChanges.over(this.fs, full);
    await replaceFile(changes.fs, path, bytes);
    await changes.settle();
  }

  /**
   * Keeps a large file's content as a blob of its own: a hard link to it (the change replaces it by a rename, never
   * writing into it), else a copy made by the file system, put in place under its name by a rename.
   */
  private async keepLarge(
    hex: string,
    content: { readonly file: string; readonly size: number; readonly mtimeMs?: number },
    full: boolean,
  ): Promise<void> {
    await this.makeDirectory(full);
    if (!this.blobsMade) {
      await this.fs.createDirectory(this.blobsDirectory);
      this.blobsMade = true;
    }
    const path = `${this.blobsDirectory}/${hex}`;
    const staging = siblingPath(path, 'write');
    try {
      let linked = false;
      if (this.fs.link) {
        try {
          await this.fs.link(content.file, staging);
          linked = true;
        } catch {
          // Another device, or no hard links: a copy.
        }
      }
      if (!linked) await this.fs.copyFile(content.file, staging, { overwrite: false });
      // What is kept is what is there now: still the content the hash names. A link that shows the size and
      // modification time the file was hashed at is that file (a rename replaces it; nothing writes into it);
      // a copy is hashed again, and its bytes synced before it takes the blob's name.
      const stat = await this.fs.stat(staging);
      const same = linked && stat?.size === content.size && content.mtimeMs !== undefined && stat.mtimeMs === content.mtimeMs;
      if (!same && (await hashFile(this.fs, staging)).hex !== hex)
        throw new Error(`the file changed while it was being kept (${content.file})`);
      if (!linked && full) await this.fs.sync?.(staging, 'file');
      await this.fs.rename(staging, path, { overwrite: true });
    } catch (error) {
      await removeQuietly(this.fs, staging);
      throw error;
    }
  }

  /** Makes the store's folder (and, full, syncs the folders it was made in), once per process. */
  private async makeDirectory(full: boolean): Promise<void> {
    if (this.directoryMade && (await this.fs.stat(this.directory))) return;
    const changes = DurableChanges.over(this.fs, full);
    await changes.fs.createDirectory(this.directory);
    await changes.settle();
    this.directoryMade = true;
    this.blobsMade = (await this.fs.stat(this.blobsDirectory)) !== undefined;
  }

  /** Notes a session pruning cut short (a plan's `cut`), for history_list and workspace_info to say so. */
  private async noteCut(plan: PrunePlan, full: boolean): Promise<void> {
    if (plan.cut === 0 || plan.session === undefined) return;
    const cut = await this.cutSessions();
    cut[plan.session] = (cut[plan.session] ?? 0) + plan.cut;
    // Only sessions still in the history are worth saying so about; a few hundred at most.
    const kept = Object.entries(cut).slice(-256);
    await this.replaceDurably(this.cutPath, encodeText(JSON.stringify(Object.fromEntries(kept))), full);
  }

  /**
   * Takes a file out of the store at once (a rename), for deletion in the background: deleting costs far more than
   * renaming on a busy disk, and a call should not wait for it. The trash name is new (a random tail), so the rename
   * need not look first.
   */
  private async discard(path: string): Promise<void> {
    const target = `${this.trashDirectory}/${path.slice(path.lastIndexOf('/') + 1)}-${randomToken(8)}`;
    try {
      await this.fs.rename(path, target, { overwrite: true });
    } catch {
      try {
        await this.fs.createDirectory(this.trashDirectory);
        await this.fs.rename(path, target, { overwrite: true });
      } catch {
        await removeQuietly(this.fs, path);
        return;
      }
    }
    this.doom(target);
  }

  /** Queues a file no operation names any more for deletion after the current call (see `sweep`). */
  private doom(path: string): void {
    this.doomed.add(path);
    if (this.doomed.size >= SWEEP_NOW) {
      void this.sweep();
      return;
    }
    this.sweepTimer ??= setTimeout(() => {
      this.sweepTimer = undefined;
      void this.sweep();
    }, 0);
  }

  /**
   * Deletes the queued files, one at a time, in the background: from a timer, so between calls rather than within
   * one (a host that runs calls back to back without a pause deletes once SWEEP_NOW files are queued). One pass at
   * a time; files queued meanwhile join it. A file already gone is skipped.
   */
  private sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      for (const path of this.doomed) {
        this.doomed.delete(path);
        await this.fs.delete(path, { recursive: false, useTrash: false }).catch(() => undefined);
      }
    })().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  /** Queues for deletion whatever is in the trash: what `discard` set aside here or in a process that ended first. */
  private async emptyTrash(): Promise<void> {
    for (const name of await this.readNames(this.trashDirectory)) this.doom(`${this.trashDirectory}/${name}`);
  }

  private async readNames(directory: string): Promise<string[]> {
    if (!(await this.fs.stat(directory))) return [];
    const entries = await this.fs.readDirectory(directory);
    return entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name);
  }
}
