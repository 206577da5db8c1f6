/**
 * Agent FS's own staging files, and the one way a file is replaced whole: through a staging sibling renamed over
 * it. Built on the FileSystem port alone, so that the tools (writes.ts) and the history store (history/store.ts)
 * write the same way, and the ports (which leave staging names out of every listing) and the cross-process locks
 * (which clean up after a dead holder, src/node/fs/locks.ts) know every name it makes.
 */
import type { FileStat, FileSystem } from '../ports/fs';
import { basename, dirname } from '../paths';

/**
 * What a staging sibling is for. `replaced` parks an existing destination while its replacement is swapped in, so
 * it holds the only copy of the old bytes until the swap is done: a crash recovery puts it back if its original
 * name is empty (src/node/fs/locks.ts). The others hold new content not yet in place and are simply removed.
 */
export type StagingPurpose = 'write' | 'copy' | 'undo' | 'replaced';

const STAGING_NAME = /^\.(.+)\.agentfs-(write|copy|undo|replaced)-[0-9a-z]{1,16}$/;

/** A sibling path no one uses, for staging new content or parking a replaced destination. */
export function siblingPath(path: string, purpose: StagingPurpose): string {
  return `${dirname(path)}/.${basename(path)}.agentfs-${purpose}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Whether a file name is one siblingPath makes: Agent FS's own, never shown by listings or searches. */
export function isStagingName(name: string): boolean {
  return STAGING_NAME.test(name);
}

/** What a staging name is for and the name of the path it stands beside; `undefined` for any other name. */
export function stagingNameInfo(name: string): { purpose: StagingPurpose; original: string } | undefined {
  const match = STAGING_NAME.exec(name);
  if (!match) return undefined;
  return { original: match[1] ?? '', purpose: (match[2] ?? 'write') as StagingPurpose };
}

/**
 * Replaces or creates `target` so that a crash or failure at any step leaves either the old bytes or the new ones,
 * never a torn file: the new bytes (`content`, or a copy the file system makes of the file `copyOf` — a large blob
 * the history restores, never read into memory) go to a staging sibling, which is then renamed over the target. The sibling gets
 * the permission bits of `existing` (set directly where the port can, else by starting as a copy of the file); on
 * any failure (one `beforeSwap` throws included) it is removed. `exclusive` refuses (FsError 'exists') a target
 * that appeared meanwhile instead of replacing it.
 *
 * Limits: the port has no fsync, so after a power loss a file system that reorders metadata before data may show
 * an empty or old file (never a mix); a rename replaces the directory entry, so other hard links keep the old bytes;
 * on a file system without atomic rename (some network and FUSE mounts) the swap itself is only as atomic as it is.
 * A process killed between the two steps leaves the sibling behind: listings never show it (the port's
 * readDirectory leaves staging names out) and the next process to take a lock cleans it up (src/node/fs/locks.ts).
 */
export async function replaceFile(
  fs: FileSystem,
  target: string,
  content: Uint8Array | { readonly copyOf: string },
  options: { existing?: FileStat; exclusive?: boolean; beforeSwap?: () => void } = {},
): Promise<void> {
  const temporary = siblingPath(target, 'write');
  const existing = options.existing?.kind === 'file' ? options.existing : undefined;
  const fill = (): Promise<void> =>
    content instanceof Uint8Array ? fs.writeFile(temporary, content) : fs.copyFile(content.copyOf, temporary, { overwrite: false });
  try {
    if (existing?.mode !== undefined && fs.setMode) {
      await fill();
      await fs.setMode(temporary, existing.mode);
    } else {
      // No way to set modes: a copy of the old file carries its permissions (and costs a read of it).
      if (existing && content instanceof Uint8Array) await fs.copyFile(target, temporary, { overwrite: false });
      await fill();
    }
    options.beforeSwap?.();
    await fs.rename(temporary, target, { overwrite: !options.exclusive });
  } catch (error) {
    await removeQuietly(fs, temporary);
    throw error;
  }
}

/**
 * Puts `staged` (a finished file or tree) at `target`, which exists: the old entry is parked beside it first and only
 * thrown away once the new one is in place; if the swap fails, the old one is put back and the error rethrown.
 */
export async function swapParked(fs: FileSystem, staged: string, target: string): Promise<void> {
  const parked = siblingPath(target, 'replaced');
  await fs.rename(target, parked, { overwrite: false });
  try {
    await fs.rename(staged, target, { overwrite: false });
  } catch (error) {
    await fs.rename(parked, target, { overwrite: false });
    throw error;
  }
  await fs.delete(parked, { recursive: true, useTrash: true });
}

/** Deletes `path` if it exists, swallowing errors: for cleaning up after a failure already being reported. */
export async function removeQuietly(fs: FileSystem, path: string, recursive = false): Promise<void> {
  try {
    if (await fs.stat(path)) await fs.delete(path, { recursive, useTrash: false });
  } catch {
    // Best effort: the original error is the one worth reporting.
  }
}
