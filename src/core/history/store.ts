/**
 * The history store: one JSON file per operation and content-addressed blobs, in a state directory of its own.
 *
 *   <directory>/operations/<operation id>.json   immutable once written
 *   <directory>/blobs/<sha-256 hex>               file bytes, written before the record that refers to them
 *
 * Why it bypasses the PathResolver: the directory is chosen by the host (the editor's `storageUri`, the runner's
 * `--state` or its per-user default), never by a tool's input, and lies outside every workspace root on purpose
 * (history must not show up in, or be edited through, the workspace). Every name below it is built from an
 * operation id that matches OPERATION_ID_PATTERN or from a hex digest, so no string from a model can name a path
 * here. Workspace paths a record holds are re-confined through the PathResolver before an undo touches them.
 *
 * Records are immutable and one file each, so two processes sharing a directory (two runner calls at once) never
 * overwrite each other's records. Calls are serialised inside one process by `exclusive`; across processes the
 * before/after states of two overlapping calls can interleave, which an undo's conflict check then reports.
 */
import { describeError } from '../errors';
import type { FileSystem } from '../fs';
import { contentHash } from '../text';
import type { PathState } from './state';

export interface HistoryLimits {
  /** Operations kept; the oldest go first. */
  readonly maxOperations: number;
  /** Bytes of recorded content kept in all; an operation needing more than this is recorded without content. */
  readonly maxBytes: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxOperations: 200, maxBytes: 50 * 1024 * 1024 };

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
  /** For an undo: the operation it undid. */
  readonly undo_of?: string;
  /** Stored content this record refers to: sha-256 hex → size in bytes. */
  readonly blobs: Readonly<Record<string, number>>;
}

/** Operation ids: lower-case base-36 time, a counter and a random tail. Also the only names the store accepts. */
export const OPERATION_ID_PATTERN = /^[a-z0-9]{1,20}(-[a-z0-9]{1,20}){0,3}$/;

const RECORD_FILE = /^([a-z0-9-]+)\.json$/;
const BLOB_FILE = /^[0-9a-f]{64}$/;
const TEMPORARY_FILE = /\.tmp-[a-z0-9]+$/;
const STALE_BLOB_MS = 60 * 60 * 1000;

let idCounter = 0;

function hexOf(hash: string): string {
  return hash.replace(/^sha256:/, '');
}

export class HistoryStore {
  private readonly cache = new Map<string, OperationRecord>();
  private tail: Promise<unknown> = Promise.resolve();
  private collected = false;

  constructor(
    private readonly fs: FileSystem,
    /** Absolute path (in `fs`'s path space) of the state directory; created on first write. */
    readonly directory: string,
    private readonly readLimits: () => HistoryLimits = () => DEFAULT_HISTORY_LIMITS,
  ) {}

  limits(): HistoryLimits {
    const limits = this.readLimits();
    return { maxOperations: Math.max(1, Math.floor(limits.maxOperations)), maxBytes: Math.max(0, Math.floor(limits.maxBytes)) };
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

  newId(now = Date.now()): string {
    idCounter = (idCounter + 1) % 36 ** 4;
    const random = Math.floor(Math.random() * 36 ** 4);
    return `${now.toString(36).padStart(9, '0')}-${idCounter.toString(36).padStart(4, '0')}-${random.toString(36).padStart(4, '0')}`;
  }

  /** Every record, newest first. Unreadable record files are skipped. */
  async list(): Promise<OperationRecord[]> {
    const names = await this.readNames(this.operationsDirectory, RECORD_FILE);
    const ids = new Set(names.map((name) => name.slice(0, -'.json'.length)));
    for (const id of this.cache.keys()) if (!ids.has(id)) this.cache.delete(id);
    for (const id of ids) {
      if (this.cache.has(id) || !OPERATION_ID_PATTERN.test(id)) continue;
      const record = await this.readRecord(id);
      if (record) this.cache.set(id, record);
    }
    return [...this.cache.values()].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  async get(id: string): Promise<OperationRecord | undefined> {
    if (!OPERATION_ID_PATTERN.test(id)) return undefined;
    const cached = this.cache.get(id);
    if (cached) return cached;
    const record = await this.readRecord(id);
    if (record) this.cache.set(id, record);
    return record;
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
   * Writes the record's blobs (those not stored yet), then the record, then prunes to the limits. The newest
   * record is never pruned: an operation over `maxBytes` was recorded without content in the first place.
   */
  async add(record: OperationRecord, contents: ReadonlyMap<string, Uint8Array>): Promise<void> {
    await this.fs.createDirectory(this.operationsDirectory);
    await this.fs.createDirectory(this.blobsDirectory);
    if (!this.collected) await this.collectOrphans();
    for (const hex of Object.keys(record.blobs)) {
      const bytes = contents.get(`sha256:${hex}`);
      if (!bytes) throw new Error(`History content for sha256:${hex} was not read.`);
      const target = `${this.blobsDirectory}/${hex}`;
      if (await this.fs.stat(target)) continue;
      await this.writeAtomically(target, bytes);
    }
    await this.writeAtomically(`${this.operationsDirectory}/${record.id}.json`, new TextEncoder().encode(JSON.stringify(record)));
    this.cache.set(record.id, record);
    await this.prune(record.id);
  }

  /** Drops the oldest records beyond the limits and the blobs only they referred to. */
  async prune(keep?: string): Promise<void> {
    const { maxOperations, maxBytes } = this.limits();
    const newestFirst = await this.list();
    const kept = newestFirst.slice(0, maxOperations);
    const dropped = newestFirst.slice(maxOperations);
    const sizes = new Map<string, number>();
    for (const record of kept) for (const [hex, size] of Object.entries(record.blobs)) sizes.set(hex, size);
    let total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
    while (total > maxBytes && kept.length > 0) {
      const oldest = kept[kept.length - 1];
      if (!oldest || oldest.id === keep || kept.length === 1) break;
      kept.pop();
      dropped.push(oldest);
      const stillUsed = new Set(kept.flatMap((record) => Object.keys(record.blobs)));
      for (const hex of Object.keys(oldest.blobs)) {
        if (!stillUsed.has(hex) && sizes.has(hex)) {
          total -= sizes.get(hex) ?? 0;
          sizes.delete(hex);
        }
      }
    }
    if (dropped.length === 0) return;
    const used = new Set(kept.flatMap((record) => Object.keys(record.blobs)));
    for (const record of dropped) {
      await this.removeQuietly(`${this.operationsDirectory}/${record.id}.json`);
      this.cache.delete(record.id);
    }
    for (const hex of new Set(dropped.flatMap((record) => Object.keys(record.blobs)))) {
      if (!used.has(hex)) await this.removeQuietly(`${this.blobsDirectory}/${hex}`);
    }
  }

  /** Removes every record and blob (the person's "clear history"). */
  async clear(): Promise<void> {
    for (const record of await this.list()) await this.removeQuietly(`${this.operationsDirectory}/${record.id}.json`);
    this.cache.clear();
    for (const name of await this.readNames(this.blobsDirectory, BLOB_FILE)) await this.removeQuietly(`${this.blobsDirectory}/${name}`);
  }

  private get operationsDirectory(): string {
    return `${this.directory}/operations`;
  }

  private get blobsDirectory(): string {
    return `${this.directory}/blobs`;
  }

  private async readNames(directory: string, pattern: RegExp): Promise<string[]> {
    if (!(await this.fs.stat(directory))) return [];
    const entries = await this.fs.readDirectory(directory);
    return entries.filter((entry) => entry.kind === 'file' && pattern.test(entry.name)).map((entry) => entry.name);
  }

  private async readRecord(id: string): Promise<OperationRecord | undefined> {
    try {
      const parsed = JSON.parse(new TextDecoder().decode(await this.fs.readFile(`${this.operationsDirectory}/${id}.json`))) as unknown;
      if (typeof parsed !== 'object' || parsed === null || (parsed as { version?: unknown }).version !== 1 || (parsed as { id?: unknown }).id !== id) return undefined;
      return parsed as OperationRecord;
    } catch {
      return undefined;
    }
  }

  /**
   * Blobs no record refers to are left behind when a process dies between writing content and its record. They
   * are removed once per store, when old enough that no other process can still be about to write that record.
   */
  private async collectOrphans(): Promise<void> {
    this.collected = true;
    const used = new Set((await this.list()).flatMap((record) => Object.keys(record.blobs)));
    const now = Date.now();
    const stale = async (path: string): Promise<void> => {
      const stat = await this.fs.stat(path).catch(() => undefined);
      if (stat && now - stat.mtimeMs > STALE_BLOB_MS) await this.removeQuietly(path);
    };
    for (const name of await this.readNames(this.blobsDirectory, BLOB_FILE)) if (!used.has(name)) await stale(`${this.blobsDirectory}/${name}`);
    // Temporary files of writes that a dying process never finished.
    for (const directory of [this.blobsDirectory, this.operationsDirectory]) {
      for (const name of await this.readNames(directory, TEMPORARY_FILE)) await stale(`${directory}/${name}`);
    }
  }

  private async writeAtomically(target: string, bytes: Uint8Array): Promise<void> {
    const temporary = `${target}.tmp-${Math.random().toString(36).slice(2, 10)}`;
    try {
      await this.fs.writeFile(temporary, bytes);
      await this.fs.rename(temporary, target, { overwrite: true });
    } catch (error) {
      await this.removeQuietly(temporary);
      throw new Error(`Could not write history to ${target}: ${describeError(error)}`);
    }
  }

  private async removeQuietly(path: string): Promise<void> {
    try {
      if (await this.fs.stat(path)) await this.fs.delete(path, { recursive: false, useTrash: false });
    } catch {
      // A file another process already removed, or one that cannot be removed now, is tried again next prune.
    }
  }
}
