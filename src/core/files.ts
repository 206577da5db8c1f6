/** File operations the tools share, built from FileSystem port primitives. */
import { type ErrorCode, ToolError } from './errors';
import type { FileStat, FileSystem } from './fs';
import { basename, dirname, isWithin } from './paths';
import type { ConfinedPath } from './root';
import type { ToolContext } from './context';
import { throwIfCancelled } from './signals';

export const textEncoder = new TextEncoder();

/** The seed's naming pair: the basename and the path as results show it. */
export function namePair(path: ConfinedPath): { name: string; relative_path: string } {
  return { name: basename(path.absolute) || path.display, relative_path: path.display };
}

/**
 * Creates the missing parent directories of `path` (never above its root). A file in the way of a parent is
 * refused with `code` rather than crashing inside the file system.
 */
export async function ensureParentDirectory(context: ToolContext, path: ConfinedPath, code: ErrorCode): Promise<void> {
  const { fs } = context.workspace;
  const parent = dirname(path.absolute);
  for (let ancestor = parent; isWithin(path.root.path, ancestor); ancestor = dirname(ancestor)) {
    const stat = await fs.stat(ancestor);
    if (stat === undefined) {
      if (ancestor === path.root.path) break;
      continue;
    }
    if (stat.kind !== 'directory') {
      throw new ToolError(code, `Cannot create ${path.display}: ${context.paths.display(path.root, ancestor)} is a file, not a directory.`);
    }
    break;
  }
  await fs.createDirectory(parent);
}

/**
 * Replaces or creates a file so that a crash or failure at any step leaves either the old bytes or the new ones,
 * never a torn file: the new bytes go to a temporary sibling, which is then renamed over the target. The sibling
 * gets the existing file's permission bits (set directly where the port can, else by starting as a copy of the
 * file); on any failure (cancellation included) it is removed. Through a symbolic link (already checked to stay
 * inside the base) the link's target is replaced, not the link. `exclusive` refuses (FsError 'exists') a target
 * that appeared meanwhile instead of replacing it.
 *
 * Limits: the port has no fsync, so after a power loss a file system that reorders metadata before data may show
 * an empty or old file (never a mix); a rename replaces the directory entry, so other hard links keep the old bytes;
 * on a file system without atomic rename (some network and FUSE mounts) the swap itself is only as atomic as it is.
 * A process killed between the two steps leaves the sibling behind: listings never show it (the port's
 * readDirectory leaves staging names out) and the next process to take a lock cleans it up (src/node/locks.ts).
 */
export async function writeFileAtomic(
  context: ToolContext,
  path: string,
  content: Uint8Array,
  existing: FileStat | undefined,
  options: { exclusive?: boolean } = {},
): Promise<void> {
  const { fs } = context.workspace;
  const target = existing?.isSymlink && fs.realPath ? ((await fs.realPath(path)) ?? path) : path;
  const temporary = siblingPath(target, 'write');
  try {
    const mode = existing?.kind === 'file' ? existing.mode : undefined;
    if (mode !== undefined && fs.setMode) {
      await fs.writeFile(temporary, content);
      await fs.setMode(temporary, mode);
    } else {
      // No way to set modes: a copy of the old file carries its permissions (and costs a read of it).
      if (existing?.kind === 'file') await fs.copyFile(target, temporary, { overwrite: false });
      await fs.writeFile(temporary, content);
    }
    throwIfCancelled(context);
    await fs.rename(temporary, target, { overwrite: !options.exclusive });
  } catch (error) {
    await removeQuietly(fs, temporary);
    throw error;
  }
}

/**
 * What a staging sibling is for. `replaced` parks an existing destination while its replacement is swapped in, so
 * it holds the only copy of the old bytes until the swap is done: a crash recovery puts it back if its original
 * name is empty (src/node/locks.ts). The others hold new content not yet in place and are simply removed.
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
 * The directories from `directory` up to (not including) `root` that do not exist yet, deepest first: what a call
 * that creates `directory` must remove again, while they are still empty, to leave no trace when it fails.
 */
export async function missingDirectories(fs: FileSystem, directory: string, root: string): Promise<string[]> {
  const missing: string[] = [];
  for (let path = directory; path !== root && isWithin(root, path) && !(await fs.stat(path)); path = dirname(path)) missing.push(path);
  return missing;
}

/** Deletes `path` if it exists, swallowing errors: for cleaning up after a failure already being reported. */
export async function removeQuietly(fs: FileSystem, path: string, recursive = false): Promise<void> {
  try {
    if (await fs.stat(path)) await fs.delete(path, { recursive, useTrash: false });
  } catch {
    // Best effort: the original error is the one worth reporting.
  }
}
