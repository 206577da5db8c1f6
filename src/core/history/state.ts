/**
 * What history knows about one path at one moment, and how it finds out. A state is taken before a mutating call
 * (with the bytes needed to restore it), after it (hashes, and bytes for the diff), and again before an undo (hashes
 * only, to prove nothing changed since). Symbolic links are described, never followed, inside a tree (walk.ts).
 */
import type { FileSystem } from '../ports/fs';
import { contentHash, type HashMemo, hashFile } from '../files/hashing';
import { relativeTo } from '../paths';
import { LARGE_CONTENT_BYTES, type StoredContent } from './content';
import { type CallSignals, throwIfCancelled } from '../signals';
import { walkTree } from '../files/walk';

interface MissingState {
  readonly type: 'missing';
}

export interface FileState {
  readonly type: 'file';
  readonly size: number;
  /** Absent when the file was not read (the operation went over the history's byte cap). */
  readonly hash?: string;
  readonly mode?: number;
  /** The path is a symbolic link to this file; its content was read through the link. */
  readonly link?: true;
}

export interface TreeEntry {
  /** '/'-separated, relative to the directory the state describes. */
  readonly path: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size?: number;
  readonly hash?: string;
  readonly mode?: number;
}

export interface DirectoryState {
  readonly type: 'directory';
  readonly mode?: number;
  /** Sorted by path, parents before children. */
  readonly entries: readonly TreeEntry[];
  /** More than MAX_TREE_ENTRIES entries: the list is cut, so the state cannot be restored or compared. */
  readonly truncated?: true;
}

/** A symbolic link to a directory, a dangling link, or a special file: described, never recreated. */
type OpaqueState = { readonly type: 'symlink' } | { readonly type: 'other' };

export type PathState = MissingState | FileState | DirectoryState | OpaqueState;

/** Whether every file in the state was read and hashed. */
export function isComplete(state: PathState): boolean {
  if (state.type === 'file') return state.hash !== undefined;
  if (state.type === 'directory')
    return state.truncated !== true && state.entries.every((entry) => entry.type !== 'file' || entry.hash !== undefined);
  return true;
}

/**
 * Whether two states describe the same content. Modes and times are left out: a chmod or a touch since an operation
 * loses no data, so it must not block an undo. Incomplete states are never equal to anything.
 */
export function sameState(a: PathState, b: PathState): boolean {
  if (!isComplete(a) || !isComplete(b) || a.type !== b.type) return false;
  if (a.type === 'file' && b.type === 'file') return a.hash === b.hash && a.link === b.link;
  if (a.type === 'directory' && b.type === 'directory') {
    return (
      a.entries.length === b.entries.length &&
      a.entries.every((entry, index) => {
        const other = b.entries[index];
        return other !== undefined && other.path === entry.path && other.type === entry.type && other.hash === entry.hash;
      })
    );
  }
  return true;
}

/** The state of `relative` inside a directory state. */
export function subState(state: PathState, relative: string): PathState {
  if (state.type !== 'directory') return { type: 'missing' };
  const entry = state.entries.find((each) => each.path === relative);
  if (!entry) return { type: 'missing' };
  const mode = entry.mode === undefined ? {} : { mode: entry.mode };
  if (entry.type === 'file')
    return { type: 'file', size: entry.size ?? 0, ...(entry.hash === undefined ? {} : { hash: entry.hash }), ...mode };
  if (entry.type !== 'directory') return { type: entry.type };
  const prefix = `${relative}/`;
  const entries = state.entries
    .filter((each) => each.path.startsWith(prefix))
    .map((each) => ({ ...each, path: each.path.slice(prefix.length) }));
  return { type: 'directory', ...mode, entries };
}

/** Every file hash a state refers to, with its size. */
export function fileHashes(state: PathState): Map<string, number> {
  const hashes = new Map<string, number>();
  if (state.type === 'file' && state.hash !== undefined) hashes.set(state.hash, state.size);
  if (state.type === 'directory') for (const entry of state.entries) if (entry.hash !== undefined) hashes.set(entry.hash, entry.size ?? 0);
  return hashes;
}

/** One line a person can read: "file (12 bytes)", "directory (3 files, 1 directory)", "missing". */
export function describeState(state: PathState): string {
  switch (state.type) {
    case 'file':
      return `${state.link ? 'symbolic link to a file' : 'file'} (${state.size} bytes)`;
    case 'directory': {
      const files = state.entries.filter((entry) => entry.type === 'file').length;
      const directories = state.entries.filter((entry) => entry.type === 'directory').length;
      return `directory (${files} ${files === 1 ? 'file' : 'files'}, ${directories} ${directories === 1 ? 'directory' : 'directories'})`;
    }
    case 'symlink':
      return 'symbolic link';
    case 'other':
      return 'special file';
    default:
      return 'missing';
  }
}

/** Most entries one tree state lists: a record stays a readable size even for a huge directory. */
const MAX_TREE_ENTRIES = 20_000;

/**
 * Reads states within a byte budget shared by every path of one operation. Files past the budget are described by
 * size only, which makes the state incomplete (and the operation not undoable) but keeps the call fast.
 */
export class StateReader {
  private bytesRead = 0;
  /** Content read for the states, by hash (large files by reference); the caller decides which of it to keep. */
  readonly contents = new Map<string, StoredContent>();

  constructor(
    private readonly fs: FileSystem,
    private readonly context: Pick<CallSignals, 'isCancelled'> & { readonly hashes?: HashMemo },
    /** Bytes this reader may read in all; `Infinity` for an undo's check. */
    private readonly readBudget: number,
    /** Whether to keep read bytes in `contents`. */
    private readonly keepContent: boolean,
  ) {}

  async read(absolute: string): Promise<PathState> {
    const stat = await this.fs.stat(absolute);
    if (!stat) return { type: 'missing' };
    if (stat.kind === 'file') {
      const file = await this.readFile(absolute, stat.size, stat.mode);
      return stat.isSymlink ? { ...file, link: true } : file;
    }
    if (stat.kind !== 'directory') return { type: stat.isSymlink ? 'symlink' : 'other' };
    if (stat.isSymlink) return { type: 'symlink' };
    const { entries, truncated } = await this.readTree(absolute);
    return {
      type: 'directory',
      ...(stat.mode === undefined ? {} : { mode: stat.mode }),
      entries,
      ...(truncated ? { truncated: true } : {}),
    };
  }

  private async readFile(absolute: string, size: number, mode: number | undefined): Promise<FileState> {
    const modePart = mode === undefined ? {} : { mode };
    if (this.bytesRead + size > this.readBudget) {
      this.bytesRead = Number.POSITIVE_INFINITY;
      return { type: 'file', size, ...modePart };
    }
    throwIfCancelled(this.context);
    if (size > LARGE_CONTENT_BYTES && this.fs.readRange) {
      // Hashed in chunks, never held: the store keeps such a file by reference (history/store.ts).
      const stat = await this.fs.stat(absolute);
      let digest = this.context.hashes?.get(absolute, stat);
      let read = stat?.size ?? size;
      if (digest === undefined) {
        const hashed = await hashFile(this.fs, absolute, () => throwIfCancelled(this.context));
        digest = `sha256:${hashed.hex}`;
        read = hashed.size;
        if (read === stat?.size) this.context.hashes?.set(absolute, stat, digest);
      }
      this.bytesRead += read;
      if (this.keepContent) this.contents.set(digest, { file: absolute, size: read, ...(stat ? { mtimeMs: stat.mtimeMs } : {}) });
      return { type: 'file', size: read, hash: digest, ...modePart };
    }
    const bytes = await this.fs.readFile(absolute);
    this.bytesRead += bytes.length;
    const hash = contentHash(bytes);
    if (this.keepContent) this.contents.set(hash, bytes);
    return { type: 'file', size: bytes.length, hash, ...modePart };
  }

  private async readTree(directory: string): Promise<{ entries: TreeEntry[]; truncated: boolean }> {
    const found: { relative: string; absolute: string; type: TreeEntry['type'] }[] = [];
    await walkTree(this.fs, directory, this.context, (entry) => {
      const type = entry.isSymlink ? 'symlink' : entry.kind;
      found.push({ relative: relativeTo(directory, entry.absolute), absolute: entry.absolute, type });
      return found.length <= MAX_TREE_ENTRIES;
    });
    found.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
    const entries: TreeEntry[] = [];
    const truncated = found.length > MAX_TREE_ENTRIES;
    for (const each of found.slice(0, MAX_TREE_ENTRIES)) {
      const stat = each.type === 'symlink' ? undefined : await this.fs.stat(each.absolute);
      const modePart = stat?.mode === undefined ? {} : { mode: stat.mode };
      if (each.type === 'file' && stat) {
        const file = await this.readFile(each.absolute, stat.size, stat.mode);
        entries.push({
          path: each.relative,
          type: 'file',
          size: file.size,
          ...(file.hash === undefined ? {} : { hash: file.hash }),
          ...modePart,
        });
      } else entries.push({ path: each.relative, type: each.type === 'file' ? 'other' : each.type, ...modePart });
    }
    return { entries, truncated };
  }
}
