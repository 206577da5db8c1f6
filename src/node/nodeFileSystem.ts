/** The FileSystem port over node:fs, for the runner, the unit tests and the benchmark. */
import { constants, promises as fsp, type Dirent, type Stats } from 'node:fs';
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

function kindOf(stats: Stats | Dirent): EntryKind {
  return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
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
    };
  }

  async readDirectory(path: string): Promise<DirEntry[]> {
    const entries = await translated(() => fsp.readdir(path, { withFileTypes: true }));
    return Promise.all(
      entries.map(async (entry): Promise<DirEntry> => {
        if (!entry.isSymbolicLink()) return { name: entry.name, kind: kindOf(entry), isSymlink: false };
        const target = await fsp.stat(`${path}/${entry.name}`).catch(() => undefined);
        return { name: entry.name, kind: target ? kindOf(target) : 'other', isSymlink: true };
      }),
    );
  }

  readFile(path: string): Promise<Uint8Array> {
    return translated(() => fsp.readFile(path));
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

  async realPath(path: string): Promise<string | undefined> {
    try {
      return await fsp.realpath(path);
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ELOOP') return undefined;
      throw new FsError('other', String(error));
    }
  }
}
