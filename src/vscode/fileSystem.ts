/**
 * The FileSystem port over vscode.workspace.fs, so the tools work on every file system VS Code has (local,
 * remote, virtual). Core paths are the `path` of a URI; the scheme and authority come from the workspace folder
 * that contains the path.
 *
 * On the local disk (every folder a `file:` URI) the desktop extension lends this port what only the disk has
 * (`useLocalDisk`, src/vscode/node/disk.ts): reads — stat, readDirectory, readFile, ranged reads and real paths —
 * through node:fs, cross-process locks, streamed writes and hard links. Measured in the VS Code 1.139 test host (`npm
 * run bench:host`), every workspace.fs call costs a few milliseconds of round trip, so a walk of a 5,000-directory
 * tree took seconds and a tiny call several milliseconds of stats; through node:fs they cost what the runner's do. The
 * answers are the same: both follow links for a stat's kind and size and report the link bit, both list the kind of
 * a link's target, both leave out staging files. Containment is not the port's business: every path still passes the
 * same resolver and real-path checks (confinement.ts) before it gets here, and the Node port is the one the path-case
 * table runs against. Writes, deletes, renames and copies stay on workspace.fs, so VS Code sees every change as it
 * happens (open editors, file events, the trash). In the browser (vscode.dev) nothing is lent: every call goes
 * through workspace.fs.
 */
import * as vscode from 'vscode';
import { isStagingName } from '../core/files/staging';
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
} from '../core/ports/fs';
import { basename, isWithin } from '../core/paths';

/**
 * What the local disk adds to the port for folders on it, keyed by core path like the port itself: the optional
 * members of FileSystem the disk has, the disk's own reads, and a way to note a staging file before it exists.
 */
export type LocalDiskAccess = Pick<
  FileSystem,
  | 'realPath'
  | 'readRange'
  | 'readInto'
  | 'lock'
  | 'appendFile'
  | 'setMode'
  | 'openWriter'
  | 'link'
  | 'overwrite'
  | 'truncate'
  | 'sync'
  | 'createFile'
  | 'createHash'
> & {
  /** The reads' fast path; absent when the caller asked for every read on workspace.fs. */
  readonly reads?: Pick<FileSystem, 'stat' | 'readDirectory' | 'readFile'>;
  /** Notes a staging file in this process's lock claims before it is created, so a crash leaves it recoverable. */
  announceStaging(path: string): void;
  /** Renames a file over an existing one in one step (rename(2)), where workspace.fs deletes the target first. */
  readonly replace?: (from: string, to: string) => Promise<void>;
};

/** Lends the local disk to a port: `uriOf` maps a core path to its `file:` URI. */
export type LocalDisk = (uriOf: (path: string) => vscode.Uri, options: { readonly diskReads: boolean }) => LocalDiskAccess;

let localDisk: LocalDisk | undefined;

/** The desktop extension lends the local disk to every port made from now on (extension.ts); the browser's does not. */
export function useLocalDisk(disk: LocalDisk | undefined): void {
  localDisk = disk;
}

const CODE_KINDS: Readonly<Record<string, FsErrorKind>> = {
  FileNotFound: 'not-found',
  FileExists: 'exists',
  FileNotADirectory: 'not-a-directory',
  FileIsADirectory: 'is-a-directory',
  NoPermissions: 'permission',
};

function translate(error: unknown): FsError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof vscode.FileSystemError && CODE_KINDS[error.code]) return new FsError(CODE_KINDS[error.code] ?? 'other', message);
  // Node errors from the disk provider arrive wrapped; their errno is only in the message.
  if (/\bEXDEV\b/.test(message)) return new FsError('cross-device', message);
  if (/\bENOTEMPTY\b/.test(message)) return new FsError('not-empty', message);
  return new FsError('other', message);
}

async function translated<T>(call: () => Thenable<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translate(error);
  }
}

function kindOf(type: vscode.FileType): EntryKind {
  if (type & vscode.FileType.Directory) return 'directory';
  if (type & vscode.FileType.File) return 'file';
  return 'other';
}

/**
 * What deleting with `useTrash` did on each file system (scheme and authority): VS Code offers no way to ask
 * beforehand, and the ports are built per call, so the answer is kept for the window's lifetime.
 */
const trashSeen = new Map<string, boolean>();

function fileSystemKey(uri: vscode.Uri): string {
  return `${uri.scheme}://${uri.authority}`;
}

export class VscodeFileSystem implements FileSystem {
  readonly realPath?: (path: string) => Promise<string | undefined>;
  readonly readRange?: (path: string, offset: number, length: number) => Promise<Uint8Array>;
  readonly readInto?: (path: string, offset: number, buffer: Uint8Array) => Promise<number>;
  /**
   * On the local disk, the same cross-process locks as the runner and the MCP server (src/node/fs/locks.ts, in the
   * same per-user directory), so the editor's calls and theirs exclude each other on a shared workspace. Elsewhere
   * (remote-only or virtual file systems, the browser) there is no lock other processes could see: exclusion is per
   * process.
   */
  readonly lock?: (paths: readonly string[], options?: { readonly wait?: boolean }) => Promise<HeldLock>;
  readonly appendFile?: (path: string, content: Uint8Array) => Promise<void>;
  readonly truncate?: (path: string, size: number) => Promise<void>;
  /**
   * On the local disk, through node:fs: workspace.fs cannot fsync, but what it wrote is in the same files, so an fsync
   * of them (and of their folders) after it made them keeps them. VS Code's own disk provider already flushes a file's
   * bytes when it closes one it wrote (fdatasync); it syncs no folder, so no rename, creation or deletion would
   * outlive a power cut without these. Elsewhere (remote-only or virtual file systems) there is nothing to call.
   */
  readonly sync?: (path: string, kind: 'file' | 'directory') => Promise<void>;
  /** Permission bits, on the local disk: a replaced file keeps its mode without a copy of it, and undo restores modes. */
  readonly setMode?: (path: string, mode: number) => Promise<void>;
  /**
   * On the local disk, what large files need (edits streamed, history kept by a hard link, native hashing):
   * workspace.fs can neither write a file in pieces nor link one.
   */
  readonly openWriter?: (path: string) => Promise<FileWriter>;
  readonly link?: (from: string, to: string) => Promise<void>;
  readonly overwrite?: (path: string, content: Uint8Array, offset?: number) => Promise<void>;
  readonly createFile?: (path: string, content: Uint8Array) => Promise<void>;
  readonly createHash?: () => IncrementalHash;
  /** What the local disk lent this port; undefined elsewhere. */
  private readonly disk: LocalDiskAccess | undefined;

  /**
   * `spaces`: the URIs of the workspace folders (or base directories); a path maps into the one containing it.
   * `diskReads: false` keeps every read on workspace.fs even on the local disk (the host bench compares the two).
   */
  constructor(
    private readonly spaces: readonly vscode.Uri[],
    options: { readonly diskReads?: boolean } = {},
  ) {
    // Real paths exist only on the local disk; elsewhere the resolver refuses every symbolic link instead.
    const local = spaces.length > 0 && spaces.every((space) => space.scheme === 'file');
    const disk = local ? localDisk?.((path) => this.uri(path), { diskReads: options.diskReads !== false }) : undefined;
    this.disk = disk;
    if (disk) {
      this.lock = disk.lock;
      this.appendFile = disk.appendFile;
      this.setMode = disk.setMode;
      this.openWriter = disk.openWriter;
      this.link = disk.link;
      this.overwrite = disk.overwrite;
      this.truncate = disk.truncate;
      this.sync = disk.sync;
      this.createFile = disk.createFile;
      this.createHash = disk.createHash;
      this.realPath = disk.realPath;
      // vscode.workspace.fs reads whole files only; on the local disk the bytes asked for are read alone, so a line
      // range or tail of a huge log never loads the file (readText.ts).
      this.readRange = disk.readRange;
      this.readInto = disk.readInto;
    }
  }

  uri(path: string): vscode.Uri {
    const space = this.spaces.find((candidate) => isWithin(candidate.path, path)) ?? this.spaces[0];
    return space ? space.with({ path }) : vscode.Uri.file(path);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    if (this.disk?.reads) return this.disk.reads.stat(path);
    let stat: vscode.FileStat;
    try {
      stat = await vscode.workspace.fs.stat(this.uri(path));
    } catch (error) {
      if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
      // A file where a parent directory should be (`a.txt/b`): missing, as on the Node port. The disk provider
      // reports it with code Unknown and the errno only in the message.
      if (error instanceof Error && /\bENOTDIR\b/.test(error.message)) return undefined;
      throw translate(error);
    }
    return {
      kind: kindOf(stat.type),
      isSymlink: (stat.type & vscode.FileType.SymbolicLink) !== 0,
      size: stat.size,
      mtimeMs: stat.mtime,
      ctimeMs: stat.ctime,
      readonly: ((stat.permissions ?? 0) & vscode.FilePermission.Readonly) !== 0,
    };
  }

  async readDirectory(path: string): Promise<DirEntry[]> {
    if (this.disk?.reads) return this.disk.reads.readDirectory(path);
    const entries = await translated(() => vscode.workspace.fs.readDirectory(this.uri(path)));
    // Staging files of writes in flight, or of a process that died mid-write: never part of the workspace.
    return entries
      .filter(([name]) => !isStagingName(name))
      .map(([name, type]) => ({ name, kind: kindOf(type), isSymlink: (type & vscode.FileType.SymbolicLink) !== 0 }));
  }

  readFile(path: string): Promise<Uint8Array> {
    if (this.disk?.reads) return this.disk.reads.readFile(path);
    return translated(() => vscode.workspace.fs.readFile(this.uri(path)));
  }

  /** Notes a staging file in this process's lock claims before it is created, so a crash leaves it recoverable. */
  private announce(path: string): void {
    if (this.disk && isStagingName(basename(path))) this.disk.announceStaging(path);
  }

  writeFile(path: string, content: Uint8Array): Promise<void> {
    this.announce(path);
    return translated(() => vscode.workspace.fs.writeFile(this.uri(path), content));
  }

  createDirectory(path: string): Promise<void> {
    this.announce(path);
    return translated(() => vscode.workspace.fs.createDirectory(this.uri(path)));
  }

  trashAvailable(): boolean | undefined {
    const first = this.spaces[0];
    return first ? trashSeen.get(fileSystemKey(first)) : undefined;
  }

  async delete(path: string, options: { recursive: boolean; useTrash: boolean }): Promise<void> {
    const uri = this.uri(path);
    if (options.useTrash) {
      try {
        await vscode.workspace.fs.delete(uri, { recursive: options.recursive, useTrash: true });
        // Seen under load in a remote host: the trash call returned while the path was still there. A tool
        // must not report `deleted: true` for something that exists, so check, and delete plainly if needed.
        if ((await this.stat(path)) === undefined) {
          trashSeen.set(fileSystemKey(uri), true);
          return;
        }
      } catch {
        // No trash here (remote, virtual, or a server without one): fall back to a plain delete below, which
        // reports the real error if the path itself is the problem.
        trashSeen.set(fileSystemKey(uri), false);
      }
    }
    await translated(() => vscode.workspace.fs.delete(uri, { recursive: options.recursive, useTrash: false }));
  }

  /**
   * VS Code's disk provider replaces a target by deleting it, then moving the source in: in between the name holds
   * nothing (another process finds no file; a crash loses it). On the local disk a file is replaced by rename(2) in
   * one step, and VS Code learns of it from its watcher. Everything else (a new name, a folder, a remote host or
   * virtual file system, where nothing else can be done) stays on workspace.fs.
   */
  async rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    this.announce(to);
    const replace = this.disk?.replace;
    // A change of case only names the same file on a case-insensitive disk: nothing is in the way.
    if (options.overwrite && replace && from.toLowerCase() !== to.toLowerCase() && (await this.stat(to))?.kind === 'file') {
      return replace(from, to);
    }
    return translated(() => vscode.workspace.fs.rename(this.uri(from), this.uri(to), options));
  }

  copyFile(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    this.announce(to);
    return translated(() => vscode.workspace.fs.copy(this.uri(from), this.uri(to), options));
  }
}

/**
 * Watches the files in `folder` that match `pattern`, creating the folder first: a watcher on a folder that does
 * not exist yet may fire only many seconds after it appears, or never. A folder that cannot be created (a
 * read-only storage) is watched all the same, so that `onEvent` still runs if it appears later.
 */
export function watchFolder(folder: vscode.Uri, pattern: string, onEvent: () => void): vscode.Disposable {
  const disposables: vscode.Disposable[] = [];
  let disposed = false;
  const watch = (): void => {
    if (disposed) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, pattern));
    disposables.push(watcher, watcher.onDidCreate(onEvent), watcher.onDidDelete(onEvent), watcher.onDidChange(onEvent));
  };
  Promise.resolve(vscode.workspace.fs.createDirectory(folder)).then(watch, watch);
  return {
    dispose() {
      disposed = true;
      for (const disposable of disposables.splice(0)) disposable.dispose();
    },
  };
}
