/**
 * The FileSystem port: everything the tools need from a file system, and nothing more. Two adapters exist:
 * src/node (node:fs, for the runner, tests and benchmarks) and src/vscode (vscode.workspace.fs).
 *
 * Paths are absolute POSIX paths ("/home/me/app/src/a.ts") in the adapter's one URI space; the core never
 * hands an adapter a path it has not confined first (see confinement.ts).
 */

/** Step of forward scans through the port: large enough that a 1 GiB scan is a thousand reads, small enough to stay out of the way. */
export const CHUNK_BYTES = 1024 * 1024;

export type EntryKind = 'file' | 'directory' | 'other';

export interface FileStat {
  /** What the path is after following symbolic links; 'other' for a dangling link or a special file. */
  readonly kind: EntryKind;
  /** Whether the path itself is a symbolic link. */
  readonly isSymlink: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly readonly: boolean;
  /** POSIX permission bits (`mode & 0o7777`) where the file system reports them; history restores them on undo. */
  readonly mode?: number;
}

export interface DirEntry {
  readonly name: string;
  /** As in FileStat: the kind of the link's target for a symbolic link. */
  readonly kind: EntryKind;
  readonly isSymlink: boolean;
}

/** Why a port call failed, in terms the tools can map to their contract codes. */
export type FsErrorKind =
  'not-found' | 'exists' | 'not-a-directory' | 'is-a-directory' | 'not-empty' | 'cross-device' | 'permission' | 'locked' | 'other';

export class FsError extends Error {
  constructor(
    readonly kind: FsErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'FsError';
  }
}

export function isFsError(error: unknown, kind: FsErrorKind): boolean {
  return error instanceof FsError && error.kind === kind;
}

/** A lock taken with FileSystem.lock; releasing it twice is harmless. */
export interface HeldLock {
  release(): Promise<void>;
}

export interface FileSystem {
  /** Follows symbolic links (see FileStat); `undefined` when nothing exists at the path. */
  stat(path: string): Promise<FileStat | undefined>;
  /**
   * Entries in no particular order, without Agent FS's own staging files (staging.ts `isStagingName`): no listing,
   * search or recorded state ever shows a half-written temporary of this or another process.
   */
  readDirectory(path: string): Promise<DirEntry[]>;
  readFile(path: string): Promise<Uint8Array>;
  /** Creates or replaces a file; the parent must exist. */
  writeFile(path: string, content: Uint8Array): Promise<void>;
  /**
   * Creates a new file holding `content`, never replacing one (FsError 'exists'); the parent must exist. A write that
   * fails after the file was made removes it again, so only a process that dies midway can leave part of it. Optional:
   * the history store writes a blob beside its name and renames it without it.
   */
  createFile?(path: string, content: Uint8Array): Promise<void>;
  /** Creates the directory and any missing parents; an existing directory is not an error. */
  createDirectory(path: string): Promise<void>;
  /**
   * Removes a file, a symbolic link (never its target), or a directory (`recursive` for a non-empty one).
   * `useTrash` moves it to the trash where the file system has one; adapters fall back to a plain delete.
   */
  delete(path: string, options: { recursive: boolean; useTrash: boolean }): Promise<void>;
  /**
   * Whether a `delete` with `useTrash` puts things in a trash here: what confirmations tell the person. Optional;
   * `undefined` while not known (an adapter may only learn it from its first delete).
   */
  trashAvailable?(): boolean | undefined;
  /** Renames a file or directory; with `overwrite`, replaces an existing destination. */
  rename(from: string, to: string, options: { overwrite: boolean }): Promise<void>;
  /** Copies one file's bytes; with `overwrite`, replaces an existing destination file. */
  copyFile(from: string, to: string, options: { overwrite: boolean }): Promise<void>;
  /**
   * The canonical path with every symbolic link resolved, or `undefined` when the path does not exist (a dangling
   * link included). Only file systems that have real paths (`file:`) provide it; containment then checks real
   * paths, and without it any path component that is a symbolic link is refused (confinement.ts).
   */
  realPath?(path: string): Promise<string | undefined>;
  /** Sets POSIX permission bits. Optional: only file systems that report `mode` provide it (undo restores modes). */
  setMode?(path: string, mode: number): Promise<void>;
  /**
   * Up to `length` bytes starting at byte `offset` (fewer at the end of the file, none past it). Optional: adapters
   * over a local disk provide it so that a line range or the tail of a huge file costs only the bytes around it;
   * without it the read tools read files whole and refuse those above a size cap (readText.ts).
   */
  readRange?(path: string, offset: number, length: number): Promise<Uint8Array>;
  /**
   * readRange into a buffer the caller owns (and will reuse): a pass over a large file then allocates nothing per
   * chunk. Resolves to the number of bytes read. Optional: readRange serves where it is absent.
   */
  readInto?(path: string, offset: number, buffer: Uint8Array): Promise<number>;
  /**
   * Excludes other processes from `paths` and everything below them until released: while another process holds
   * an overlapping path this waits, up to a bound, then fails with FsError 'locked' (its message names the holder).
   * A holder that died is detected and its lock taken over, after its staging files are cleaned up.
   * Within one process it excludes nothing (a lock this process already holds over the paths is granted at once):
   * callers in one process order themselves (locks.ts, HistoryStore.exclusive). `wait: false` fails at once instead
   * of waiting when another process holds an overlapping path. Optional: without it, Agent FS's calls exclude each
   * other only within one process.
   */
  lock?(paths: readonly string[], options?: { readonly wait?: boolean }): Promise<HeldLock>;
  /** Appends bytes to a file, creating it. Optional: the history store rewrites its pack whole without it. */
  appendFile?(path: string, content: Uint8Array): Promise<void>;
  /** Cuts a file to its first `size` bytes. Optional: the history store rewrites its pack whole without it. */
  truncate?(path: string, size: number): Promise<void>;
  /**
   * Makes durable what has been written at `path`: a file's bytes and metadata (`file`), or a folder's entries — the
   * names added to it, removed from it or renamed in it (`directory`). Resolves once the storage holds them (fsync),
   * and several may run at once. A path that is gone is not an error (there is nothing of it left to keep). Optional:
   * a file system that cannot (vscode.workspace.fs away from the local disk) leaves it out, and a change there is as
   * durable as that file system makes it (docs/design.md, "Durability").
   */
  sync?(path: string, kind: 'file' | 'directory'): Promise<void>;
  /**
   * Creates a new file (never replacing one: FsError 'exists') and returns a writer that adds to it piece by piece,
   * for content too large to hold in memory (edits of large files, edit/stream.ts). Optional: without it, files above
   * the edit tools' in-memory limit are not edited.
   */
  openWriter?(path: string): Promise<FileWriter>;
  /**
   * Gives the file at `from` a second name `to` (a hard link; `to` must not exist). FsError where the file system
   * cannot (another device, no hard links). Optional: the history keeps a large file's old bytes by reference with it,
   * else as a copy.
   */
  link?(from: string, to: string): Promise<void>;
  /**
   * Writes `content` into an existing file at byte `offset` (default 0) without truncating it, so a file at least that
   * long needs no new space (the room the history reserves for a record, history/store.ts). Optional: without it the
   * file is rewritten whole, which can fail on a full disk.
   */
  overwrite?(path: string, content: Uint8Array, offset?: number): Promise<void>;
  /** An incremental SHA-256 faster than the core's pure one (node:crypto). Optional: hashing.ts falls back to it. */
  createHash?(): IncrementalHash;
}

/** Writes a new file in pieces (FileSystem.openWriter). `close` must be called once, also after a failed write. */
export interface FileWriter {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** SHA-256 over bytes given piece by piece; `digest` is the lower-case hex digest, called once. */
export interface IncrementalHash {
  update(bytes: Uint8Array): void;
  digest(): string;
  /** A hash that goes on from this one's state (where the port can: a streamed edit hashes a shared prefix once). */
  copy?(): IncrementalHash;
}
