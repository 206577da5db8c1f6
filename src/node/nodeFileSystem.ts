/** The FileSystem port over node:fs, for the runner, the unit tests and the benchmark. */
import { close, closeSync, constants, open, openSync, promises as fsp, read, readSync, type Dirent, type Stats } from 'node:fs';
import { type DirEntry, type EntryKind, type FileStat, type FileSystem, FsError, type FsErrorKind } from '../core/fs';

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

export class NodeFileSystem implements FileSystem {
  async stat(path: string): Promise<FileStat | undefined> {
    let link: Stats;
    try {
      link = await fsp.lstat(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw new FsError('other', String(error));
    }
    let target: Stats | undefined = link;
    if (link.isSymbolicLink()) target = await fsp.stat(path).catch(() => undefined);
    const stats = target ?? link;
    return {
      kind: target ? kindOf(target) : 'other',
      isSymlink: link.isSymbolicLink(),
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      ctimeMs: stats.birthtimeMs || stats.ctimeMs,
      readonly: (stats.mode & 0o222) === 0,
      mode: stats.mode & 0o7777,
    };
  }

  async readDirectory(path: string): Promise<DirEntry[]> {
    const entries = await translated(() => fsp.readdir(path, { withFileTypes: true }));
    // Only links need another system call; a promise per plain entry would triple the cost of a large walk.
    const result: DirEntry[] = [];
    const links: Promise<void>[] = [];
    for (const entry of entries) {
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
    return translated(() => fsp.readFile(path));
  }

  readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
    const fail = (error: NodeJS.ErrnoException): FsError => new FsError(ERRNO_KINDS[error.code ?? ''] ?? 'other', error.message);
    if (length <= SYNC_READ_BYTES) {
      // Small reads (search_content's scan makes one per file of the workspace) are done synchronously: the round trip
      // through the thread pool costs more than the read itself, and this adapter serves one-call processes (the
      // runner, tests, the benchmark), not an editor. O_NONBLOCK keeps a FIFO from hanging the open.
      let fd: number | undefined;
      try {
        fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
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
      open(path, 'r', (openError, fd) => {
        if (openError) return reject(fail(openError));
        if (openError) return fail(openError);
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

  writeFile(path: string, content: Uint8Array): Promise<void> {
    return translated(() => fsp.writeFile(path, content));
  }

  async createDirectory(path: string): Promise<void> {
    await translated(() => fsp.mkdir(path, { recursive: true }));
  }

  async delete(path: string, options: { recursive: boolean; useTrash: boolean }): Promise<void> {
    // Node has no trash; `rm` removes links as links and never follows them, even recursively.
    const stat = await translated(() => fsp.lstat(path));
    if (stat.isDirectory() && !options.recursive) await translated(() => fsp.rmdir(path));
    else await translated(() => fsp.rm(path, { recursive: options.recursive, force: false }));
  }

  async rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    if (!options.overwrite) {
      const occupied = await fsp.lstat(to).then(
        () => true,
        () => false,
      );
      if (occupied) throw new FsError('exists', `Destination exists: ${to}`);
    }
    await translated(() => fsp.rename(from, to));
  }

  copyFile(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    return translated(() => fsp.copyFile(from, to, options.overwrite ? 0 : constants.COPYFILE_EXCL));
  }

  setMode(path: string, mode: number): Promise<void> {
    return translated(() => fsp.chmod(path, mode));
  }

  async realPath(path: string): Promise<string | undefined> {
    try {
      return await fsp.realpath(path);
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ELOOP') return undefined;
      throw new FsError('other', String(error));
    }
  }
}
