/**
 * How the tools that create files write them, built from FileSystem port primitives: the atomic replace, the parent
 * folders made on the way (never above the root), and the folders a failed call must remove again.
 */
import { type ErrorCode, ToolError } from '../errors';
import type { FileStat, FileSystem } from '../ports/fs';
import { dirname, isWithin } from '../paths';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { throwIfCancelled } from '../signals';
import { replaceFile, siblingPath } from '../files/staging';

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
    // The parent is there: nothing to create (the write fails on its own if it goes meanwhile).
    if (ancestor === parent) return;
    break;
  }
  await fs.createDirectory(parent);
}

/**
 * Replaces or creates a tool's file with replaceFile (staging.ts: the old bytes or the new ones, never a torn file,
 * permission bits kept), checking for cancellation just before the swap. Through a symbolic link (already checked
 * to stay inside the base) the link's target is replaced, not the link. `exclusive` refuses (FsError 'exists') a
 * target that appeared meanwhile instead of replacing it.
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
  await replaceFile(fs, target, content, { existing, exclusive: options.exclusive, beforeSwap: () => throwIfCancelled(context) });
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

/**
 * A second name for the file at `absolute` under a staging name (a hard link, else a copy), holding its old bytes
 * while a call that changes several files replaces it: a later failure puts it back by renaming this over it. Recovery
 * after a crash deletes it once its file is there again, and puts it back where the file is gone (src/node/fs/locks.ts).
 */
export async function parkFile(fs: FileSystem, absolute: string): Promise<string> {
  const parked = siblingPath(absolute, 'replaced');
  if (fs.link) {
    try {
      await fs.link(absolute, parked);
      return parked;
    } catch {
      // Another device or no hard links here: a copy keeps the bytes as well.
    }
  }
  await fs.copyFile(absolute, parked, { overwrite: false });
  return parked;
}
