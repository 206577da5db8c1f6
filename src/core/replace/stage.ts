/**
 * The two file steps of an all-or-nothing replacement across files, over the FileSystem port and the staging names
 * of files/staging.ts (which the ports leave out of listings and the cross-process locks clean up after a crash):
 * a file's new bytes written beside it before any file is changed. Its old bytes are kept under a second name while
 * the others are swapped in (parkFile, changes/writes.ts), so that a failure at any file can put every file back.
 */
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import type { FileStat } from '../ports/fs';
import { removeQuietly, siblingPath } from '../files/staging';

/** The file a write to `path` replaces: through a link (inside the base, already checked), the link's target. */
export async function targetOf(context: ToolContext, path: ConfinedPath, stat: FileStat): Promise<string> {
  const { fs } = context.workspace;
  return stat.isSymlink && fs.realPath ? ((await fs.realPath(path.absolute)) ?? path.absolute) : path.absolute;
}

/**
 * Writes `content` to a new staging sibling of the file at `path`, with the file's permission bits, and returns its
 * path: renamed over the file, it replaces it in one step. On a failure nothing is left behind.
 */
export async function stageFile(context: ToolContext, path: ConfinedPath, content: Uint8Array, stat: FileStat): Promise<string> {
  const { fs } = context.workspace;
  const target = await targetOf(context, path, stat);
  const staging = siblingPath(target, 'write');
  try {
    if (stat.mode !== undefined && fs.setMode) {
      await fs.writeFile(staging, content);
      await fs.setMode(staging, stat.mode);
    } else {
      // No way to set modes here: a copy of the file carries them (as replaceFile does).
      await fs.copyFile(target, staging, { overwrite: false });
      await fs.writeFile(staging, content);
    }
  } catch (error) {
    await removeQuietly(fs, staging);
    throw error;
  }
  return staging;
}
