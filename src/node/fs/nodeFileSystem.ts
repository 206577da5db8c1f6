/**
 * The FileSystem port over node:fs, for the runner, the MCP server, the unit tests and the benchmark.
 *
 * Metadata calls and reads and writes of small files are synchronous: each is a few microseconds of system call,
 * while a round trip through libuv's thread pool costs tens of microseconds more (and far more on a busy machine),
 * and a recorded write makes a few dozen of them. Large reads, writes, copies and recursive deletes stay
 * asynchronous so that they never hold the event loop for long.
 *
 * Over 300 lines: one adapter, a method per operation of the port.
 */
import {
  close,
  closeSync,
  constants,
  fstatSync,
  fsync,
  open,
  openSync,
  promises as fsp,
  read,
  readSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import * as fs from 'node:fs';
import { isStagingName } from '../../core/files/staging';
import {
  type DirEntry,
  type EntryKind,
  type FileStat,
  type FileSystem,
  type FileWriter,
  FsError,
  type FsErrorKind,
  type HeldLock,
  type IncrementalHash,
} from '../../core/ports/fs';
import { basename } from '../../core/paths';
import { type NodeLocks, trackStaging } from './locks';
import { streamingHash } from './hashThread';

const ERRNO_KINDS: Readonly<Record<string, FsErrorKind>> = {
  ENOENT: 'not-found',
  EEXIST: 'exists',
  ENOTDIR: 'not-a-directory',
  EISDIR: 'is-a-directory',
  ENOTEMPTY: 'not-empty',
  EXDEV: 'cross-device',
  EACCES: 'permission',
  EPERM: 'permission',
};

/** Runs a node:fs call and turns its errno into an FsError the core understands. */
async function translated<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new FsError(ERRNO_KINDS[code] ?? 'other', error instanceof Error ? error.message : String(error));
  }
}

/** Runs a synchronous node:fs call as the port's promise, with its errno turned into an FsError. */
function now<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    if (error instanceof FsError) return Promise.reject(error);
    const code = (error as NodeJS.ErrnoException).code ?? '';
    return Promise.reject(new FsError(ERRNO_KINDS[code] ?? 'other', error instanceof Error ? error.message : String(error)));
  }
}

/**
 * Directory reads and small file reads are synchronous too, but in slices of this many milliseconds: once a slice is
 * used up, such calls go through the thread pool until the event loop has turned, which lets it read what came
 * meanwhile (a cancellation, another request); the first call after the turn starts a new slice. A walk makes
 * thousands of directory reads and a content scan thousands of small file reads, each far cheaper than its round trip
 * through the thread pool (on a warm page cache a 5,000-directory walk took 1.5× as long with callbacks and 1.8× with
 * promises), while a host that serves other work meanwhile (the editor's extension host, an MCP server) is never
 * blocked for much longer than one slice.
 *
 * A slice ends at a turn (setImmediate, after the poll phase), never when a call through the thread pool completes:
 * the pool's completions arrive together in one poll phase, and a fresh slice for each would run them back to back
 * with nothing read in between.
 */
const SLICE_MS = 8;
let sliceStarted: number | undefined;

function endSlice(): void {
  sliceStarted = undefined;
}

/** Whether a synchronous call still fits in the current slice (starting one, to end at the next turn, if none runs). */
function inSlice(): boolean {
  const now = performance.now();
  if (sliceStarted === undefined) {
    sliceStarted = now;
    setImmediate(endSlice);
  }
  return now - sliceStarted < SLICE_MS;
}

/** Whole-file reads and writes up to this size are synchronous. */
const SYNC_FILE_BYTES = 1024 * 1024;

/** Reads up to this size are synchronous (see readRange). */
const SYNC_READ_BYTES = 64 * 1024;
/** Where synchronous reads land before they are copied out; safe to share, as nothing interleaves with them. */
const scratch = Buffer.allocUnsafe(SYNC_READ_BYTES);

function kindOf(stats: Stats | Dirent): EntryKind {
  return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  // ELOOP: a link loop above the path means nothing can exist there. Reporting it as missing lets containment walk
  // up to the looping link and refuse it (SYMLINK_OUTSIDE_BASE) instead of failing with READ_FAILED/WRITE_FAILED.
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}

/** Announces a staging file to this process's cross-process claims before it is created (locks.ts). */
function announce(path: string): void {
  if (isStagingName(basename(path))) trackStaging(path);
}

/**
 * A directory's entries exactly as `NodeFileSystem.readDirectory` gives them (staging files left out, a link with its
 * target's kind), read synchronously: for the path index (pathIndex.ts), whose reads are each one small system call
 * and whose callers hold no lock across them.
 */
export function readDirectorySync(path: string): DirEntry[] {
  const result: DirEntry[] = [];
  for (const entry of fs.readdirSync(path, { withFileTypes: true })) {
    if (entry.name.includes('.agentfs-') && isStagingName(entry.name)) continue;
    result.push({
      name: entry.name,
      kind: entry.isSymbolicLink() ? linkTargetKind(`${path}/${entry.name}`) : kindOf(entry),
      isSymlink: entry.isSymbolicLink(),
    });
  }
  return result;
}

/** The kind of what a link at `path` leads to; 'other' when it dangles or cannot be followed (as readDirectory says). */
export function linkTargetKind(path: string): EntryKind {
  try {
    const target = fs.statSync(path, { throwIfNoEntry: false });
    return target ? kindOf(target) : 'other';
  } catch {
    return 'other';
  }
}

/**
 * How a file or folder is opened to be synced: read-only is enough for fsync on POSIX; Windows flushes only a handle
 * that may write.
 */
const SYNC_FLAGS = process.platform === 'win32' ? 'r+' : 'r';

export class NodeFileSystem implements FileSystem {
  readonly lock?: (paths: readonly string[], options?: { readonly wait?: boolean }) => Promise<HeldLock>;

  /** `locks`: the cross-process locks this port offers (absent: exclusion within this process only). */
  constructor(locks?: NodeLocks) {
    if (locks) this.lock = locks.lock;
  }

  stat(path: string): Promise<FileStat | undefined> {
    let link: Stats | undefined;
    try {
      link = fs.lstatSync(path, { throwIfNoEntry: false });
    } catch (error) {
      if (isMissing(error)) return Promise.resolve(undefined);
      return Promise.reject(new FsError('other', String(error)));
    }
    if (!link) return Promise.resolve(undefined);
    let target: Stats | undefined = link;
    if (link.isSymbolicLink()) {
      try {
        target = fs.statSync(path, { throwIfNoEntry: false });
      } catch {
        target = undefined;
      }
    }
    const stats = target ?? link;
    return Promise.resolve({
      kind: target ? kindOf(target) : 'other',
      isSymlink: link.isSymbolicLink(),
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.birthtimeMs || stats.ctimeMs,
      readonly: (stats.mode & 0o222) === 0,
      mode: stats.mode & 0o7777,
    });
  }

  async readDirectory(path: string): Promise<DirEntry[]> {
    const entries = await translated(() =>
      inSlice()
        ? Promise.resolve(fs.readdirSync(path, { withFileTypes: true }))
        : new Promise<Dirent[]>((resolve, reject) =>
            fs.readdir(path, { withFileTypes: true }, (error, found) => (error ? reject(error) : resolve(found))),
          ),
    );
    // Only links need another system call; a promise per plain entry would triple the cost of a large walk.
    const result: DirEntry[] = [];
    const links: Promise<void>[] = [];
    for (const entry of entries) {
      // Staging files of writes in flight, or of a process that died mid-write: never part of the workspace.
      if (entry.name.includes('.agentfs-') && isStagingName(entry.name)) continue;
      if (!entry.isSymbolicLink()) {
        result.push({ name: entry.name, kind: kindOf(entry), isSymlink: false });
        continue;
      }
      const index = result.push({ name: entry.name, kind: 'other', isSymlink: true }) - 1;
      links.push(
        fsp.stat(`${path}/${entry.name}`).then(
          (target) => {
            result[index] = { name: entry.name, kind: kindOf(target), isSymlink: true };
          },
          () => undefined,
        ),
      );
    }
    if (links.length > 0) await Promise.all(links);
    return result;
  }

  readFile(path: string): Promise<Uint8Array> {
    if (!inSlice()) return translated(() => fsp.readFile(path));
    let fd: number | undefined;
    try {
      fd = openSync(path, 'r');
      const size = fstatSync(fd).size;
      if (size <= SYNC_FILE_BYTES) {
        const buffer = Buffer.allocUnsafe(size);
        let filled = 0;
        while (filled < size) {
          const bytesRead = readSync(fd, buffer, filled, size - filled, filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return Promise.resolve(buffer.subarray(0, filled));
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      return Promise.reject(new FsError(ERRNO_KINDS[code] ?? 'other', error instanceof Error ? error.message : String(error)));
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    return translated(() => fsp.readFile(path));
  }

  readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    const fail = (error: NodeJS.ErrnoException): FsError => new FsError(ERRNO_KINDS[error.code ?? ''] ?? 'other', error.message);
    // O_NONBLOCK keeps a FIFO from hanging the open (and, on the thread pool, one of its threads).
    const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
    if (length <= SYNC_READ_BYTES && inSlice()) {
      // Small reads (search_content's scan makes one per file of the workspace) are synchronous within a slice: the
      // round trip through the thread pool costs more than the read itself.
      let fd: number | undefined;
      try {
        fd = openSync(path, flags);
        let filled = 0;
        while (filled < length) {
          const bytesRead = readSync(fd, scratch, filled, length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        // A copy of just the bytes read: small files then come from Node's buffer pool, not a fresh 64 KiB each.
        return Promise.resolve(Buffer.from(scratch.subarray(0, filled)));
      } catch (error) {
        return Promise.reject(fail(error as NodeJS.ErrnoException));
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    }
    // Callbacks, not fs.promises: a FileHandle costs far more than a read.
    return new Promise((resolve, reject) => {
      open(path, flags, (openError, fd) => {
        if (openError) return reject(fail(openError));
        const buffer = Buffer.allocUnsafe(length);
        let filled = 0;
        const finish = (error: NodeJS.ErrnoException | null): void =>
          close(fd, () => {
            if (error) reject(fail(error));
            else resolve(buffer.subarray(0, filled));
          });
        // A single read may return less than asked before the end of the file; only 0 bytes means the end.
        const next = (): void => {
          if (filled >= length) return finish(null);
          read(fd, buffer, filled, length - filled, offset + filled, (readError, bytesRead) => {
            if (readError) return finish(readError);
            if (bytesRead === 0) return finish(null);
            filled += bytesRead;
            next();
          });
        };
        next();
      });
    });
  }

  readInto(path: string, offset: number, buffer: Uint8Array): Promise<number> {
    const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
    return new Promise((resolve, reject) => {
      const fail = (error: NodeJS.ErrnoException): void => reject(new FsError(ERRNO_KINDS[error.code ?? ''] ?? 'other', error.message));
      open(path, flags, (openError, fd) => {
        if (openError) return fail(openError);
        let filled = 0;
        const finish = (error: NodeJS.ErrnoException | null): void =>
          close(fd, () => {
            if (error) fail(error);
            else resolve(filled);
          });
        const next = (): void => {
          if (filled >= buffer.length) return finish(null);
          read(fd, buffer, filled, buffer.length - filled, offset + filled, (readError, bytesRead) => {
            if (readError) return finish(readError);
            if (bytesRead === 0) return finish(null);
            filled += bytesRead;
            next();
          });
        };
        next();
      });
    });
  }

  writeFile(path: string, content: Uint8Array): Promise<void> {
    announce(path);
    if (content.length <= SYNC_FILE_BYTES) return now(() => fs.writeFileSync(path, content));
    return translated(() => fsp.writeFile(path, content));
  }

  createFile(path: string, content: Uint8Array): Promise<void> {
    announce(path);
    return now(() => {
      const fd = openSync(path, 'wx');
      let closing = false;
      try {
        let written = 0;
        while (written < content.length) written += fs.writeSync(fd, content, written, content.length - written);
        closing = true;
        closeSync(fd);
      } catch (error) {
        // A write (or a close that reports one) failed: what was made of the file goes.
        if (!closing) closeSync(fd);
        fs.rmSync(path, { force: true });
        throw error;
      }
    });
  }

  appendFile(path: string, content: Uint8Array): Promise<void> {
    return now(() => fs.appendFileSync(path, content));
  }

  async openWriter(path: string): Promise<FileWriter> {
    announce(path);
    const handle = await translated(() => fsp.open(path, 'wx'));
    let closed = false;
    return {
      write: async (bytes) => {
        let written = 0;
        while (written < bytes.length) {
          const { bytesWritten } = await translated(() => handle.write(bytes, written, bytes.length - written));
          written += bytesWritten;
        }
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await translated(() => handle.close());
      },
    };
  }

  overwrite(path: string, content: Uint8Array, offset = 0): Promise<void> {
    return now(() => {
      const fd = openSync(path, 'r+');
      try {
        let written = 0;
        while (written < content.length) written += fs.writeSync(fd, content, written, content.length - written, offset + written);
      } finally {
        closeSync(fd);
      }
    });
  }

  truncate(path: string, size: number): Promise<void> {
    return now(() => fs.truncateSync(path, size));
  }

  /**
   * fsync through the thread pool, so that the syncs a change needs (its new file, the history's pack, its folders)
   * run side by side and the event loop serves other calls while the disk works. Windows cannot open a folder to flush
   * it (NTFS journals its entries itself), so a folder's sync is a no-op there.
   */
  sync(path: string, kind: 'file' | 'directory'): Promise<void> {
    if (kind === 'directory' && process.platform === 'win32') return Promise.resolve();
    return new Promise((resolve, reject) => {
      open(path, SYNC_FLAGS, (openError, fd) => {
        // Gone since it changed: nothing of it is left to keep (its folder's own sync keeps that it went).
        if (openError)
          return openError.code === 'ENOENT'
            ? resolve()
            : reject(new FsError(ERRNO_KINDS[openError.code ?? ''] ?? 'other', openError.message));
        fsync(fd, (syncError) =>
          close(fd, () => (syncError ? reject(new FsError(ERRNO_KINDS[syncError.code ?? ''] ?? 'other', syncError.message)) : resolve())),
        );
      });
    });
  }

  link(from: string, to: string): Promise<void> {
    announce(to);
    return translated(() => fsp.link(from, to));
  }

  createHash(): IncrementalHash {
    return streamingHash();
  }

  createDirectory(path: string): Promise<void> {
    announce(path);
    return now(() => {
      fs.mkdirSync(path, { recursive: true });
    });
  }

  trashAvailable(): boolean {
    return false;
  }

  async delete(path: string, options: { recursive: boolean; useTrash: boolean }): Promise<void> {
    // Node has no trash; `rm` removes links as links and never follows them, even recursively.
    const stat = await now(() => fs.lstatSync(path));
    if (stat.isDirectory() && !options.recursive) await now(() => fs.rmdirSync(path));
    // Unlinking can take milliseconds on a busy disk (freeing blocks): done in the thread pool, not on the loop.
    else if (!stat.isDirectory()) await translated(() => fsp.unlink(path));
    else await translated(() => fsp.rm(path, { recursive: true, force: false }));
  }

  rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    return now(() => {
      if (!options.overwrite && fs.lstatSync(to, { throwIfNoEntry: false }) !== undefined)
        throw new FsError('exists', `Destination exists: ${to}`);
      announce(to);
      fs.renameSync(from, to);
    });
  }

  copyFile(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    announce(to);
    return translated(() => fsp.copyFile(from, to, options.overwrite ? 0 : constants.COPYFILE_EXCL));
  }

  setMode(path: string, mode: number): Promise<void> {
    return now(() => fs.chmodSync(path, mode));
  }

  realPath(path: string): Promise<string | undefined> {
    try {
      return Promise.resolve(fs.realpathSync.native(path));
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ELOOP') return Promise.resolve(undefined);
      return Promise.reject(new FsError('other', String(error)));
    }
  }
}
