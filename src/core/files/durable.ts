/**
 * The durable sequence, for every change a call makes through the FileSystem port: what a reply calls done is on the
 * disk, and a crash at any moment before that leaves each file old or new, never empty or torn.
 *
 *  1. A file's bytes are synced before the name that makes them visible points at them: a staging file before it is
 *     renamed into place, every file and folder of a staged tree before the tree is renamed into place.
 *  2. Before the first change another process could see (a rename to or from a visible name, a creation, a deletion),
 *     `beforeVisible` is awaited: where the call is recorded, the history's intent must be on the disk first, so that
 *     no change outlives a crash that the history could not undo (recording/record.ts).
 *  3. Every folder that gained, lost or renamed an entry is synced before the call replies (`settle`): both folders of
 *     a move, the parents of folders made on the way.
 *
 * Why by tracking the port rather than by calls in each tool: every change path — tools written since, undo, the
 * restores of a failed patch — goes through these few methods, so none can forget a sync, and what is synced is
 * exactly what changed. A name is visible unless some part of its path is a staging name (staging.ts): nothing under
 * a staging name is ever shown, and a crash leaves such names to the lock recovery, not to a reader.
 *
 * With `durability: "fast"`, or a port without `sync` (vscode.workspace.fs away from the local disk), this is not used:
 * changes stay atomic (staging.ts) but a power cut may take what was not yet written back.
 */
import type { FileSystem, FileWriter } from '../ports/fs';
import { basename, dirname, isWithin } from '../paths';
import { isStagingName, stagingNameInfo } from './staging';

/** Whether a path can be seen by a listing: no part of it is a staging name. */
function visible(path: string): boolean {
  return !path.split('/').some((part) => part.includes('.agentfs-') && isStagingName(part));
}

/** The folders from `path` up that `createDirectory(path)` would make: the missing ones, deepest first. */
async function missingFolders(fs: FileSystem, path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let folder = path; folder !== dirname(folder) && !(await fs.stat(folder)); folder = dirname(folder)) missing.push(folder);
  return missing;
}

/** A path to sync, and what it is. */
type Entry = readonly [path: string, kind: 'file' | 'directory'];

/** How many syncs run at once (syncEach). */
const SYNCS_AT_ONCE = 16;

export interface DurableOptions {
  /** Awaited once, before the first change another process could see (2. above). */
  readonly beforeVisible?: () => Promise<void>;
}

/**
 * One call's changes made durable: `fs` is the port to make them through, `settle` is awaited before the call replies.
 * Syncs run side by side (the port's `sync` is asynchronous), so a change pays about two rounds of the disk: its files
 * (with the history's intent), then its folders.
 */
export class DurableChanges {
  readonly fs: FileSystem;
  /** Files written (or made) and not yet synced. */
  private readonly files = new Set<string>();
  /** Folders whose entries changed and are not yet synced. */
  private readonly folders = new Set<string>();
  private visibleStarted: Promise<void> | undefined;
  /**
   * Whether an entry under a staging name may wait in `files` or `folders`: syncStaged runs before every staged file
   * is renamed into place, and looking through both sets each time cost a call staging a thousand files (replace_in_files)
   * a million tests of names.
   */
  private stagedWaiting = false;

  private constructor(
    private readonly inner: FileSystem,
    private readonly sync: (path: string, kind: 'file' | 'directory') => Promise<void>,
    private readonly options: DurableOptions,
  ) {
    this.fs = this.tracking();
  }

  /**
   * The changes of one call through `inner`: durable as the header says when `durable` and the port can sync; else
   * `inner` itself, and nothing to settle.
   */
  static over(inner: FileSystem, durable: boolean, options: DurableOptions = {}): { fs: FileSystem; settle: () => Promise<void> } {
    if (!durable || !inner.sync) return { fs: inner, settle: () => Promise.resolve() };
    const changes = new DurableChanges(inner, (path, kind) => inner.sync?.(path, kind) ?? Promise.resolve(), options);
    return { fs: changes.fs, settle: () => changes.settle() };
  }

  /**
   * Syncs what is left: the files written in place (their bytes first), then every folder whose entries changed. Once
   * it resolves, every change the call made is on the disk.
   */
  async settle(): Promise<void> {
    await this.visibleStarted;
    // A folder whose mode was set is synced once, as a folder (its sync keeps its own metadata too).
    const files = [...this.files].filter((file) => !this.folders.has(file));
    this.files.clear();
    await this.syncEach(files.map((file) => [file, 'file']));
    const folders = [...this.folders];
    this.folders.clear();
    await this.syncEach(folders.map((folder) => [folder, 'directory']));
  }

  /** Awaits `beforeVisible` once, before the first change to a visible path. */
  private beforeVisible(...paths: string[]): Promise<void> {
    if (!this.options.beforeVisible || !paths.some(visible)) return Promise.resolve();
    this.visibleStarted ??= this.options.beforeVisible();
    return this.visibleStarted;
  }

  /** Syncs every file and folder written at or below `path` (a staged file or tree about to be renamed into place). */
  private async syncBelow(path: string): Promise<void> {
    const folders = [...this.folders].filter((folder) => isWithin(path, folder));
    const files = [...this.files].filter((file) => isWithin(path, file) && !this.folders.has(file));
    for (const file of [...this.files]) if (isWithin(path, file)) this.files.delete(file);
    for (const folder of folders) this.folders.delete(folder);
    // All of it is under a name no one sees until the rename, so the order among them does not matter.
    await this.syncEach([...files.map((file): Entry => [file, 'file']), ...folders.map((folder): Entry => [folder, 'directory'])]);
  }

  /** Syncs every file and folder written under a staging name: what is staged, before an original is parked. */
  private async syncStaged(): Promise<void> {
    if (!this.stagedWaiting) return;
    this.stagedWaiting = false;
    // Everything below a staging name is itself invisible, so this is every staged tree's syncBelow at once.
    const folders = [...this.folders].filter((folder) => !visible(folder));
    const files = [...this.files].filter((file) => !visible(file) && !this.folders.has(file));
    for (const file of [...this.files]) if (!visible(file)) this.files.delete(file);
    for (const folder of folders) this.folders.delete(folder);
    await this.syncEach([...files.map((file): Entry => [file, 'file']), ...folders.map((folder): Entry => [folder, 'directory'])]);
  }

  /** Syncs the folders at or below `path` whose entries changed (not their files: they are about to go). */
  private async syncFoldersBelow(path: string): Promise<void> {
    const folders = [...this.folders].filter((folder) => isWithin(path, folder));
    for (const folder of folders) this.folders.delete(folder);
    await this.syncEach(folders.map((folder) => [folder, 'directory']));
  }

  /**
   * Syncs each entry, SYNCS_AT_ONCE at a time: each holds a descriptor open while it waits for the disk, and a staged
   * tree of thousands of files synced all at once ran out of them (EMFILE). The thread pool runs four at a time anyway.
   */
  private async syncEach(entries: readonly Entry[]): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < entries.length) {
        const [path, kind] = entries[next++] ?? [];
        if (path !== undefined && kind !== undefined) await this.sync(path, kind);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SYNCS_AT_ONCE, entries.length) }, worker));
  }

  private addFile(path: string): void {
    this.files.add(path);
    if (!visible(path)) this.stagedWaiting = true;
  }

  private addFolder(path: string): void {
    this.folders.add(path);
    if (!visible(path)) this.stagedWaiting = true;
  }

  /** Forgets what was at or below a path that is gone (deleted, or renamed away after its sync). */
  private forget(path: string): void {
    for (const file of this.files) if (isWithin(path, file)) this.files.delete(file);
    for (const folder of this.folders) if (isWithin(path, folder)) this.folders.delete(folder);
  }

  /** A new entry at `path` with bytes of its own: the bytes are to be synced, and (when visible) its folder. */
  private wrote(path: string): void {
    this.addFile(path);
    if (visible(path) || !visible(dirname(path))) this.addFolder(dirname(path));
  }

  /** The port the call changes files through: the inner port, its changing methods tracked (see the header). */
  private tracking(): FileSystem {
    const methods = { ...this.required(), ...this.optional() } as Record<PropertyKey, unknown>;
    // Everything else (reads, stats, locks, hashing) is the inner port's own, the lock by identity (locks.ts merges
    // requests by it); an optional method the inner port lacks stays absent.
    return new Proxy(this.inner, {
      get(target, property, receiver): unknown {
        return methods[property] ?? (Reflect.get(target, property, receiver) as unknown);
      },
    });
  }

  /** The changing methods every port has, tracked. */
  private required(): Partial<FileSystem> {
    const inner = this.inner;
    return {
      writeFile: async (path: string, content: Uint8Array) => {
        await this.beforeVisible(path);
        await inner.writeFile(path, content);
        this.wrote(path);
      },
      createDirectory: async (path: string) => {
        await this.beforeVisible(path);
        const made = await missingFolders(inner, path);
        await inner.createDirectory(path);
        for (const folder of made) this.addFolder(dirname(folder));
      },
      delete: async (path: string, options: { recursive: boolean; useTrash: boolean }) => {
        // A folder about to go whose entries changed (a file moved into it, say) is synced first: a rename is on the
        // disk only once both its folders are, and this one cannot be synced once it is gone.
        await Promise.all([this.beforeVisible(path), this.syncFoldersBelow(path)]);
        await inner.delete(path, options);
        this.forget(path);
        this.addFolder(dirname(path));
      },
      rename: async (from: string, to: string, options: { overwrite: boolean }) => {
        // Parking an original (a swap: staging.ts swapParked) leaves its name empty until the replacement is renamed
        // in: what is staged is synced first, so that the name is empty only for the two renames. A staged file
        // renamed into place takes everything staged with it: a call that stages several files (apply_patch,
        // replace_in_files) renames them in turn, so they are synced side by side once, not one round of the disk each.
        const parking = stagingNameInfo(basename(to))?.purpose === 'replaced';
        const staged = parking || (!visible(from) && visible(to));
        await Promise.all([staged ? this.syncStaged() : this.syncBelow(from), this.beforeVisible(from, to)]);
        await inner.rename(from, to, options);
        this.forget(from);
        this.addFolder(dirname(from));
        this.addFolder(dirname(to));
      },
      copyFile: async (from: string, to: string, options: { overwrite: boolean }) => {
        await this.beforeVisible(to);
        await inner.copyFile(from, to, options);
        this.wrote(to);
      },
    };
  }

  /** The changing methods a port may have, tracked where it has them (undefined, and so absent, where not). */
  private optional(): Partial<FileSystem> {
    const inner = this.inner;
    return {
      createFile: inner.createFile
        ? async (path: string, content: Uint8Array) => {
            await this.beforeVisible(path);
            await inner.createFile?.(path, content);
            this.wrote(path);
          }
        : undefined,
      openWriter: inner.openWriter
        ? async (path: string): Promise<FileWriter> => {
            await this.beforeVisible(path);
            const writer = await (inner.openWriter?.(path) as Promise<FileWriter>);
            this.wrote(path);
            return writer;
          }
        : undefined,
      link: inner.link
        ? async (from: string, to: string) => {
            await this.beforeVisible(to);
            await inner.link?.(from, to);
            if (visible(to)) this.addFolder(dirname(to));
          }
        : undefined,
      setMode: inner.setMode
        ? async (path: string, mode: number) => {
            await this.beforeVisible(path);
            await inner.setMode?.(path, mode);
            this.addFile(path);
          }
        : undefined,
      overwrite: inner.overwrite
        ? async (path: string, content: Uint8Array, offset?: number) => {
            await this.beforeVisible(path);
            await inner.overwrite?.(path, content, offset);
            this.addFile(path);
          }
        : undefined,
      appendFile: inner.appendFile
        ? async (path: string, content: Uint8Array) => {
            await this.beforeVisible(path);
            await inner.appendFile?.(path, content);
            this.wrote(path);
          }
        : undefined,
      truncate: inner.truncate
        ? async (path: string, size: number) => {
            await this.beforeVisible(path);
            await inner.truncate?.(path, size);
            this.addFile(path);
          }
        : undefined,
    };
  }
}
