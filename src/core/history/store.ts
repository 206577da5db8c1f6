/**
 * The history store: one JSON file per operation, content-addressed blobs, and a journal that indexes them, in a
 * state directory of its own.
 *
 *   <directory>/operations/<operation id>.json   renamed into place once complete; never changed
 *   <directory>/blobs/<sha-256 hex>               file bytes, renamed into place once complete
 *   <directory>/journal                           "+<id> <hex>:<size> … @<session>" when an operation is reserved,
 *                                                 "*<id> …" for content added after it, "-<id>" when pruned or given up
 *   <directory>/trash/                            what pruning dropped, deleted in the background
 *   <directory>/sessions-cut.json                 sessions pruning had to cut short: session → operations dropped
 *
 * Why it bypasses the PathResolver: the directory is chosen by the host (the editor's `storageUri`, the runner's
 * `--state` or its per-user default), never by a tool's input, and lies outside every workspace root on purpose
 * (history must not show up in, or be edited through, the workspace). Every name below it is built from an
 * operation id that matches OPERATION_ID_PATTERN or from a hex digest, so no string from a model can name a path
 * here. Workspace paths a record holds are re-confined through the PathResolver before an undo touches them.
 *
 * The index (which records exist, which blobs each refers to, how many bytes they hold) lives in memory and is kept
 * current from the journal: a stat of it per call, and a read of only the lines other processes appended since. So
 * recording an operation costs its new blobs, its record and one appended line; deduplication needs no read (a blob
 * any live record refers to is on disk), and pruning touches only what it drops.
 *
 * Recording fails closed (record.ts): everything an operation's record needs that could fail for want of space is
 * written before the change is made. `reserve` stores the before content (the bytes an undo writes back), writes
 * the record's reservation (a staging file padded to more than the finished record will take) and appends the
 * operation's journal line; only then does the change happen. `commit` writes the finished record over the
 * reservation, in place, so it allocates nothing, and renames it to its final name. A store that cannot take the
 * reservation (a full disk, no permission) refuses the operation before anything changes. No record is ever written
 * under its final name: it is written beside it and renamed, so a reader never sees one torn. Nor is a blob a journal
 * line names: a blob is created under its name only while no line names it (so no reader looks for it), and its line
 * is appended once it is whole; one in the way is replaced by a rename.
 *
 * Large content (over LARGE_CONTENT_BYTES) is kept by reference where the store and the workspace share a disk: a
 * hard link to the old file, which the change replaces by a rename and so never writes into, else a copy made by
 * the file system; it is hashed streaming, never held in memory, and counts against maxBytes like any other.
 *
 * Several processes may share a directory (the editor, runners and MCP servers). Every change to it (reserve,
 * commit, prune, clear) happens while holding the port's cross-process lock over the directory (the call pipeline
 * takes it with the call's own paths, record.ts), and within a process under `exclusive`. Readers need no lock: a
 * journal line names only blobs that are complete, a record is read only once it is there under its final name,
 * and a line is used only once its newline is there. A process that dies mid-operation leaves at most blobs and a
 * reservation: the reservation is a staging file, which the next lock holder removes, and the journal line of an
 * operation without a record is ignored until pruning drops it.
 *
 * Over 300 lines: one class, each change to the directory making its writes in the same order under the same lock.
 */
import { DEFAULT_HISTORY_LIMITS, type HistoryLimits } from '../settings';
import { describeError } from '../errors';
import type { FileSystem } from '../ports/fs';
import { contentHash, hashFile } from '../files/hashing';
import { removeQuietly, replaceFile, siblingPath } from '../files/staging';
import { contentSize, type StoredContent } from './content';
import {
  addLine,
  BLOB_FILE,
  extendLine,
  GENERATION_LENGTH,
  HEADER_BYTES,
  JOURNAL_HEADER,
  journalHeader,
  OPERATION_ID_PATTERN,
  randomToken,
  StoreIndex,
} from './journal';
import type { Origin } from './origin';
import type { PathState } from './state';

/** An operation the store has made room for: what `commit` finishes or `cancel` gives up. */
export interface Reservation {
  readonly id: string;
  /** The staging file the finished record is written over, and how many bytes it holds. */
  readonly staging: string;
  readonly reserved: number;
  /** The blobs the journal line names: before content stored for this operation (or already kept). */
  readonly blobs: Readonly<Record<string, number>>;
}

/** What pruning drops: `ids`, of which `cut` belong to `session`, the one being recorded. */
interface PrunePlan {
  readonly ids: readonly string[];
  readonly cut: number;
  readonly session?: string;
}

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

const RECORD_FILE = /^([a-z0-9-]+)\.json$/;
/** Queued deletions (HistoryStore.sweep) start at once, without waiting for a pause between calls, at this many. */
const SWEEP_NOW = 256;
/** Files no journal line names (left by a process that died mid-add) are removed once they are this old. */
const ORPHAN_MS = 60 * 60 * 1000;

let idCounter = 0;

/** When an operation was recorded, from its id (newId: the time in base 36 comes first); NaN for another form. */
function timeOfId(id: string): number {
  const dash = id.indexOf('-');
  return dash < 0 ? Number.NaN : parseInt(id.slice(0, dash), 36);
}

function hexOf(hash: string): string {
  return hash.replace(/^sha256:/, '');
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A reservation's size: room for the record as estimated, and as much again (its after states are about as large). */
function reservationBytes(recordBytes: number): number {
  return 2 * recordBytes + 4096;
}

/** What a reservation holds until the record is written over it: spaces, which JSON.parse skips after a record. */
function reservationText(size: number): Uint8Array {
  return new Uint8Array(size).fill(0x20);
}

export class HistoryStore {
  private index: StoreIndex<OperationRecord> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private directoriesMade = false;
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
  ) {}

  limits(): Required<HistoryLimits> {
    const limits = this.readLimits();
    return {
      maxOperations: Math.max(1, Math.floor(limits.maxOperations)),
      maxBytes: Math.max(0, Math.floor(limits.maxBytes)),
      maxAgeDays: Math.max(0, limits.maxAgeDays ?? DEFAULT_HISTORY_LIMITS.maxAgeDays ?? 30),
    };
  }

  /**
   * Runs `task` after every task queued before it has finished: a mutating call's before state, run, after state
   * and record must not interleave with another call's in this process.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * A new operation id, later than every id the store holds: ids sort in the order operations were recorded, also
   * across processes sharing the store (each records while holding its lock, with the index current).
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

  /** Every record, newest first. Records whose file is unreadable are skipped. */
  async list(): Promise<OperationRecord[]> {
    const index = await this.current();
    const records: OperationRecord[] = [];
    for (let at = index.ids.length - 1; at >= 0; at--) {
      const record = await this.load(index, index.ids[at] ?? '');
      if (record) records.push(record);
    }
    return records;
  }

  async get(id: string): Promise<OperationRecord | undefined> {
    if (!OPERATION_ID_PATTERN.test(id)) return undefined;
    return this.load(await this.current(), id);
  }

  /** The stored bytes for a content hash, checked against it; `undefined` when absent or damaged. */
  async readBlob(hash: string): Promise<Uint8Array | undefined> {
    const hex = hexOf(hash);
    if (!BLOB_FILE.test(hex)) return undefined;
    let bytes: Uint8Array;
    try {
      bytes = await this.fs.readFile(`${this.blobsDirectory}/${hex}`);
    } catch {
      return undefined;
    }
    return contentHash(bytes) === `sha256:${hex}` ? bytes : undefined;
  }

  /**
   * Where the stored content for a hash is, checked against it by a streaming read (for restoring a large file by a
   * copy); `undefined` when absent or damaged.
   */
  async blobFile(hash: string): Promise<{ path: string; size: number } | undefined> {
    const hex = hexOf(hash);
    if (!BLOB_FILE.test(hex)) return undefined;
    const path = `${this.blobsDirectory}/${hex}`;
    const stat = await this.fs.stat(path).catch(() => undefined);
    if (!stat || stat.kind !== 'file') return undefined;
    const digest = await this.hashFile(path).catch(() => undefined);
    return digest === hex ? { path, size: stat.size } : undefined;
  }

  private async hashFile(path: string): Promise<string> {
    return (await hashFile(this.fs, path)).hex;
  }

  /**
   * Makes room for an operation before its change is made (see the header): stores `contents` (the before content
   * an undo needs) that the store does not hold yet, writes the reservation for a record of about `recordBytes`, and
   * appends the operation's journal line. Throws HistoryWriteError, having kept nothing, when any of it fails.
   */
  async reserve(id: string, contents: ReadonlyMap<string, StoredContent>, recordBytes: number, session?: string): Promise<Reservation> {
    const index = await this.current();
    const written: string[] = [];
    const blobs: Record<string, number> = {};
    const reserved = reservationBytes(recordBytes);
    const staging = siblingPath(`${this.operationsDirectory}/${id}.json`, 'write');
    try {
      await this.makeDirectories();
      for (const [hash, content] of contents) {
        const hex = hexOf(hash);
        if (!BLOB_FILE.test(hex)) continue;
        blobs[hex] = contentSize(content);
        if (index.refs.has(hex)) continue;
        await this.writeBlob(hex, content);
        written.push(hex);
      }
      await this.write(staging, reservationText(reserved));
      await this.appendJournal(index, addLine(id, blobs, session));
      index.insert(id, blobs, session === undefined ? {} : { session });
      return { id, staging, reserved, blobs };
    } catch (error) {
      await removeQuietly(this.fs, staging);
      for (const hex of written) if (!index.refs.has(hex)) await removeQuietly(this.fs, `${this.blobsDirectory}/${hex}`);
      throw new HistoryWriteError(describeError(error));
    }
  }

  /**
   * Finishes a reserved operation once its change is made: its after content (kept only for diffs, so only where
   * there is room) and its record, written over the reservation and renamed into place. Then prunes to the limits;
   * the newest record is never pruned (an operation over `maxBytes` was recorded without content).
   */
  async commit(reservation: Reservation, record: OperationRecord, contents: ReadonlyMap<string, StoredContent>): Promise<void> {
    const index = await this.current();
    const added: Record<string, number> = {};
    for (const hex of Object.keys(record.blobs)) {
      if (reservation.blobs[hex] !== undefined) continue;
      const content = contents.get(`sha256:${hex}`);
      // A large file's new content is the live file: linked into the store, a later write into it would change the
      // blob too, and no diff of it is shown anyway.
      if (!(content instanceof Uint8Array)) continue;
      try {
        if (!index.refs.has(hex)) await this.writeBlob(hex, content);
        added[hex] = contentSize(content);
      } catch {
        // Only a diff would have shown it: the record then says the content was not kept.
      }
    }
    const blobs = Object.fromEntries(
      Object.entries(record.blobs).filter(([hex]) => reservation.blobs[hex] !== undefined || added[hex] !== undefined),
    );
    const kept: OperationRecord = { ...record, blobs };
    const text = encoder.encode(JSON.stringify(kept));
    try {
      if (text.length <= reservation.reserved && this.fs.overwrite) {
        // In place: the reservation's space is already allocated, so a full disk cannot stop the record now.
        const padded = new Uint8Array(reservation.reserved).fill(0x20);
        padded.set(text);
        await this.fs.overwrite(reservation.staging, padded);
      } else await this.fs.writeFile(reservation.staging, text);
      await this.fs.rename(reservation.staging, `${this.operationsDirectory}/${record.id}.json`, { overwrite: true });
    } catch (error) {
      await removeQuietly(this.fs, reservation.staging);
      throw new Error(`Could not write history to ${this.operationsDirectory}: ${describeError(error)}`);
    }
    const entry = index.entries.get(record.id);
    if (entry) entry.record = kept;
    // One journal line for the after content and the prune it may bring: what the record holds counts towards the
    // limits before the oldest records are chosen to go.
    const extension = Object.keys(added).length > 0 ? extendLine(record.id, added) : '';
    if (extension !== '') index.extend(record.id, added);
    try {
      const plan = await this.beyondLimits(index, record.id);
      await this.drop(index, plan.ids, extension);
      await this.noteCut(plan).catch(() => undefined);
    } catch {
      // Nothing of it is in the journal: the after content stays unreferenced (compaction removes it, the record still
      // undoes) and the next commit prunes. The index read anew says so.
      this.index = undefined;
    }
  }

  /** Gives up a reserved operation whose call failed or changed nothing: its journal line and reservation go. */
  async cancel(reservation: Reservation): Promise<void> {
    await removeQuietly(this.fs, reservation.staging);
    const index = await this.current();
    const freed = index.remove(reservation.id);
    try {
      await this.appendJournal(index, `-${reservation.id}\n`);
    } catch {
      // A journal line without a record is ignored, and pruning drops it in time.
      return;
    }
    for (const hex of freed) await removeQuietly(this.fs, `${this.blobsDirectory}/${hex}`);
  }

  /** Reserves and commits at once: for a record whose change is already made. */
  async add(record: OperationRecord, contents: ReadonlyMap<string, StoredContent>): Promise<void> {
    const needed = new Map([...contents].filter(([hash]) => record.blobs[hexOf(hash)] !== undefined));
    const reservation = await this.reserve(record.id, needed, JSON.stringify(record).length, record.origin?.session);
    await this.commit(reservation, record, contents);
  }

  /**
   * Drops what is beyond the limits, a whole session at a time, oldest first, with the blobs only its records referred
   * to: over maxOperations or maxBytes, the session of the oldest record goes (every record of it, newer ones too);
   * a session whose last change is older than maxAgeDays goes too. The newest record (`keep`) is never dropped: when
   * the session to drop is its own, that session loses only its oldest records and is noted as cut (`cutSessions`),
   * so it is never cut without saying so. Records without a session (written before sessions were kept) go alone.
   */
  async prune(keep?: string): Promise<void> {
    const index = await this.current();
    const plan = await this.beyondLimits(index, keep);
    await this.drop(index, plan.ids);
    await this.noteCut(plan).catch(() => undefined);
  }

  /**
   * What to drop for the index to be within the limits (see `prune`), never `keep`; `cut`, how many of `keep`'s own
   * session go. Changes nothing. Finding a session's records loads them (once per process: records never change).
   */
  private async beyondLimits(index: StoreIndex<OperationRecord>, keep: string | undefined): Promise<PrunePlan> {
    const { maxOperations, maxBytes, maxAgeDays } = this.limits();
    const cutoff = Date.now() - maxAgeDays * 24 * 60 * 60 * 1000;
    let count = index.ids.length;
    let bytes = index.bytes;
    // A blob is freed once every record referring to it is dropped.
    const remaining = new Map<string, number>();
    const dropped = new Set<string>();
    const take = (id: string): void => {
      for (const hex of Object.keys(index.entries.get(id)?.blobs ?? {})) {
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
    // The journal line names the session; only records from before it did are read for it.
    const sessionOf = async (id: string): Promise<string | undefined> =>
      index.entries.get(id)?.session ?? (await this.load(index, id))?.origin?.session;
    const keepSession = keep === undefined ? undefined : await sessionOf(keep);
    let cut = 0;
    for (const oldest of index.ids) {
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
      for (const id of index.ids)
        if (!dropped.has(id) && (id === oldest || (session !== undefined && id !== keep && (await sessionOf(id)) === session)))
          members.push(id);
      // By age, a session goes only once its last change is old.
      if (byAge && !aged(members[members.length - 1])) break;
      for (const id of members) take(id);
    }
    return { ids: index.ids.filter((id) => dropped.has(id)), cut, ...(keepSession === undefined ? {} : { session: keepSession }) };
  }

  /**
   * Appends `lines` and the lines that drop `dropped` to the journal in one write, then takes the dropped records'
   * files and the blobs only they held out of the store. The journal first: from then on no process uses what is
   * about to go. Throws, having changed neither the journal nor the index, when the append fails.
   */
  private async drop(index: StoreIndex<OperationRecord>, dropped: readonly string[], lines = ''): Promise<void> {
    const text = lines + dropped.map((id) => `-${id}\n`).join('');
    if (text === '') return;
    await this.appendJournal(index, text);
    if (dropped.length === 0) return;
    const freed = dropped.flatMap((id) => index.remove(id));
    index.lines += dropped.length;
    // A record's id is never used again, so its file can go whenever: no rename now, a deletion between calls.
    for (const id of dropped) this.doom(`${this.operationsDirectory}/${id}.json`);
    // A blob's name comes back with its content: it is renamed out now, under the lock, so that a deletion later
    // cannot take a blob stored anew meanwhile.
    for (const hex of freed) await this.discard(`${this.blobsDirectory}/${hex}`);
    if (index.lines > 2 * index.ids.length + 256) await this.compact(index);
  }

  /** Sessions pruning cut (their oldest changes gone, later ones kept): session → how many changes went. */
  async cutSessions(): Promise<Record<string, number>> {
    try {
      const parsed = JSON.parse(decoder.decode(await this.fs.readFile(this.cutPath))) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
    } catch {
      return {};
    }
  }

  /** What the history holds now, for workspace_info. */
  async report(): Promise<{ operations: number; bytes: number; sessionsCut: number }> {
    const index = await this.current();
    return { operations: index.ids.length, bytes: index.bytes, sessionsCut: Object.keys(await this.cutSessions()).length };
  }

  /** Notes a session pruning cut short (a plan's `cut`), for history_list and workspace_info to say so. */
  private async noteCut(plan: PrunePlan): Promise<void> {
    if (plan.cut === 0 || plan.session === undefined) return;
    const cut = await this.cutSessions();
    cut[plan.session] = (cut[plan.session] ?? 0) + plan.cut;
    // Only sessions still in the history are worth saying so about; a few hundred at most.
    const kept = Object.entries(cut).slice(-256);
    await replaceFile(this.fs, this.cutPath, encoder.encode(JSON.stringify(Object.fromEntries(kept))));
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

  /** Queues a file no journal line names any more for deletion after the current call (see `sweep`). */
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

  /** Resolves once every file this store took out of the history is deleted: for a host about to exit, and tests. */
  async settled(): Promise<void> {
    if (this.sweepTimer !== undefined) clearTimeout(this.sweepTimer);
    this.sweepTimer = undefined;
    while (this.doomed.size > 0 || this.sweeping) await this.sweep();
  }

  /** Queues for deletion whatever is in the trash: what `discard` set aside here or in a process that ended first. */
  private async emptyTrash(): Promise<void> {
    for (const name of await this.readNames(this.trashDirectory)) this.doom(`${this.trashDirectory}/${name}`);
  }

  /** Removes every record and blob (the person's "clear history"). */
  clear(): Promise<void> {
    return this.exclusive(async () => {
      const held = await this.fs.lock?.([this.directory]);
      try {
        await this.makeDirectories();
        await this.rewriteJournal(new StoreIndex<OperationRecord>(randomToken(GENERATION_LENGTH), 0, Number.NaN));
        this.index = undefined;
        for (const name of await this.readNames(this.operationsDirectory)) await this.discard(`${this.operationsDirectory}/${name}`);
        for (const name of await this.readNames(this.blobsDirectory)) await this.discard(`${this.blobsDirectory}/${name}`);
        await this.emptyTrash();
      } finally {
        await held?.release();
      }
    });
  }

  private get operationsDirectory(): string {
    return `${this.directory}/operations`;
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

  private get journalPath(): string {
    return `${this.directory}/journal`;
  }

  /**
   * The index, brought up to date with the journal: one stat when nothing changed; the lines appended since
   * otherwise; a full read when the journal was rewritten (compacted, cleared) or is read for the first time.
   */
  private async current(): Promise<StoreIndex<OperationRecord>> {
    const stat = await this.fs.stat(this.journalPath);
    let index = this.index;
    if (!stat) {
      // No journal: a new store, or one written before there was a journal. Its records are the index.
      this.index = index = await this.fromRecordFiles();
      return index;
    }
    if (index && index.generation !== '' && stat.size === index.offset && stat.ctimeMs === index.stamp) return index;
    if (index && index.generation !== '' && stat.size >= index.offset) {
      const header = decoder.decode(await this.readJournal(0, HEADER_BYTES));
      if (header === journalHeader(index.generation)) {
        const text = decoder.decode(await this.readJournal(index.offset, stat.size - index.offset));
        index.offset += index.apply(text);
        index.stamp = stat.ctimeMs;
        return index;
      }
    }
    const text = decoder.decode(await this.fs.readFile(this.journalPath).catch(() => new Uint8Array()));
    const match = JOURNAL_HEADER.exec(text.slice(0, HEADER_BYTES - 1));
    if (!match?.[1]) {
      this.index = index = await this.fromRecordFiles();
      return index;
    }
    const fresh = new StoreIndex<OperationRecord>(match[1], HEADER_BYTES, stat.ctimeMs);
    fresh.offset += fresh.apply(text.slice(HEADER_BYTES));
    // Records already loaded stay loaded: they never change.
    if (index) for (const [id, entry] of fresh.entries) entry.record ??= index.entries.get(id)?.record;
    this.index = fresh;
    return fresh;
  }

  private async readJournal(offset: number, length: number): Promise<Uint8Array> {
    if (length <= 0) return new Uint8Array();
    if (this.fs.readRange) return this.fs.readRange(this.journalPath, offset, length);
    return (await this.fs.readFile(this.journalPath)).subarray(offset, offset + length);
  }

  /** The index of a store without a journal, from its record files. */
  private async fromRecordFiles(): Promise<StoreIndex<OperationRecord>> {
    const index = new StoreIndex<OperationRecord>('', 0, Number.NaN);
    for (const name of await this.readNames(this.operationsDirectory)) {
      const id = RECORD_FILE.exec(name)?.[1];
      if (id === undefined || !OPERATION_ID_PATTERN.test(id)) continue;
      const record = this.index?.entries.get(id)?.record ?? (await this.readRecord(id));
      if (record) index.insert(id, record.blobs, { record, ...(record.origin ? { session: record.origin.session } : {}) });
    }
    return index;
  }

  private async load(index: StoreIndex<OperationRecord>, id: string): Promise<OperationRecord | undefined> {
    const entry = index.entries.get(id);
    if (!entry) return undefined;
    entry.record ??= await this.readRecord(id);
    return entry.record;
  }

  private async appendJournal(index: StoreIndex<OperationRecord>, text: string): Promise<void> {
    if (index.generation === '') {
      // The first line this store's journal gets: the journal is written whole, with every record there is.
      await this.makeDirectories();
      index.generation = randomToken(GENERATION_LENGTH);
      await this.rewriteJournal(index, text);
      return;
    }
    const bytes = encoder.encode(text);
    if (this.fs.appendFile) await this.fs.appendFile(this.journalPath, bytes);
    else {
      const old = await this.fs.readFile(this.journalPath);
      const joined = new Uint8Array(old.length + bytes.length);
      joined.set(old);
      joined.set(bytes, old.length);
      await this.replaceJournal(joined);
    }
    index.offset += bytes.length;
    index.stamp = (await this.fs.stat(this.journalPath))?.ctimeMs ?? Number.NaN;
  }

  /** Writes a journal listing `index`'s records (plus `extra` lines) under its generation. */
  private async rewriteJournal(index: StoreIndex<OperationRecord>, extra = ''): Promise<void> {
    const lines = index.ids
      .map((id) => {
        const entry = index.entries.get(id);
        return addLine(id, entry?.blobs ?? {}, entry?.session);
      })
      .join('');
    const bytes = encoder.encode(journalHeader(index.generation) + lines + extra);
    await this.replaceJournal(bytes);
    index.lines = index.ids.length;
    index.offset = bytes.length;
    index.stamp = (await this.fs.stat(this.journalPath))?.ctimeMs ?? Number.NaN;
  }
  /**
   * Swaps in a whole new journal: readers, which hold no lock, see the old one or the new one, never half of it. Its
   * staging sibling is one the port's listings leave out and a dead holder's lock recovery removes (staging.ts).
   */
  private async replaceJournal(bytes: Uint8Array): Promise<void> {
    try {
      await replaceFile(this.fs, this.journalPath, bytes);
    } catch (error) {
      throw new Error(`Could not write history to ${this.journalPath}: ${describeError(error)}`);
    }
  }

  /**
   * Rewrites the journal with only the live records, and removes files no record names that are old enough that no
   * other process can still be about to name them (a record or blob of a process that died mid-add).
   */
  private async compact(index: StoreIndex<OperationRecord>): Promise<void> {
    const fresh = new StoreIndex<OperationRecord>(randomToken(GENERATION_LENGTH), 0, Number.NaN);
    for (const id of index.ids) {
      const entry = index.entries.get(id);
      if (entry) fresh.insert(id, entry.blobs, entry);
    }
    await this.rewriteJournal(fresh);
    this.index = fresh;
    const now = Date.now();
    const old = async (path: string): Promise<void> => {
      // Already on its way out (a record this process pruned): no need to look at it.
      if (this.doomed.has(path)) return;
      const stat = await this.fs.stat(path).catch(() => undefined);
      if (stat && now - stat.mtimeMs > ORPHAN_MS) await removeQuietly(this.fs, path);
    };
    for (const name of await this.readNames(this.operationsDirectory)) {
      const id = RECORD_FILE.exec(name)?.[1];
      if (id === undefined || !fresh.entries.has(id)) await old(`${this.operationsDirectory}/${name}`);
    }
    for (const name of await this.readNames(this.blobsDirectory)) if (!fresh.refs.has(name)) await old(`${this.blobsDirectory}/${name}`);
    await this.emptyTrash();
  }

  /**
   * Writes a blob beside its final name and renames it there, so no reader ever sees part of one. Large content is
   * linked (or copied by the file system) instead of read.
   */
  private async writeBlob(hex: string, content: StoredContent): Promise<void> {
    await this.makeDirectories();
    const path = `${this.blobsDirectory}/${hex}`;
    if (content instanceof Uint8Array && this.fs.createFile) {
      // Written under its name at once, into a file of its own: no journal line names the blob yet (it is stored
      // because none does), so no reader looks for it, and a process that dies midway leaves a file no line ever
      // names, which the next store of that content replaces (below) and compaction removes. Anything in the way
      // (that file, a folder another process removed) takes the way below.
      try {
        await this.fs.createFile(path, content);
        return;
      } catch {
        // Written beside it and renamed.
      }
    }
    const staging = siblingPath(path, 'write');
    try {
      if (content instanceof Uint8Array) await this.write(staging, content);
      else {
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
        // a copy is hashed again.
        const stat = await this.fs.stat(staging);
        const same = linked && stat?.size === content.size && content.mtimeMs !== undefined && stat.mtimeMs === content.mtimeMs;
        if (!same && (await this.hashFile(staging)) !== hex) throw new Error(`the file changed while it was being kept (${content.file})`);
      }
      await this.fs.rename(staging, path, { overwrite: true });
    } catch (error) {
      await removeQuietly(this.fs, staging);
      throw error;
    }
  }

  private async makeDirectories(): Promise<void> {
    if (this.directoriesMade) return;
    await this.fs.createDirectory(this.operationsDirectory);
    await this.fs.createDirectory(this.blobsDirectory);
    this.directoriesMade = true;
  }

  private async write(path: string, bytes: Uint8Array): Promise<void> {
    try {
      await this.fs.writeFile(path, bytes);
    } catch (error) {
      // Another process cleared the store meanwhile (its folders are gone): make them again, once.
      this.directoriesMade = false;
      try {
        await this.makeDirectories();
        await this.fs.writeFile(path, bytes);
      } catch {
        throw new Error(`Could not write history to ${path}: ${describeError(error)}`);
      }
    }
  }

  private async readNames(directory: string): Promise<string[]> {
    if (!(await this.fs.stat(directory))) return [];
    const entries = await this.fs.readDirectory(directory);
    return entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name);
  }

  private async readRecord(id: string): Promise<OperationRecord | undefined> {
    try {
      const parsed = JSON.parse(decoder.decode(await this.fs.readFile(`${this.operationsDirectory}/${id}.json`))) as unknown;
      if (
        typeof parsed !== 'object' ||
        parsed === null ||
        (parsed as { version?: unknown }).version !== 1 ||
        (parsed as { id?: unknown }).id !== id
      )
        return undefined;
      return parsed as OperationRecord;
    } catch {
      return undefined;
    }
  }
}
