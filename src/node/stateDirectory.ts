/**
 * Where the runner keeps a root's history when no --state is given: a per-user state directory, one folder per
 * root (named by a hash of the root's real path), never inside the root itself.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';

/** The per-user state directory for Agent FS: XDG on Linux, the platform's usual place elsewhere. */
export function userStateDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return nodePath.join(env.LOCALAPPDATA ?? nodePath.join(os.homedir(), 'AppData', 'Local'), 'agent-fs', 'state');
  if (platform === 'darwin') return nodePath.join(os.homedir(), 'Library', 'Application Support', 'agent-fs', 'state');
  const xdg = env.XDG_STATE_HOME;
  return nodePath.join(xdg !== undefined && nodePath.isAbsolute(xdg) ? xdg : nodePath.join(os.homedir(), '.local', 'state'), 'agent-fs');
}

/**
 * The history folder for a set of roots: the same roots (by real path, in the same order) always map to the same
 * folder, so the runner and the MCP server started on one directory share one history.
 */
export function defaultHistoryDirectory(roots: string | readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const reals = (typeof roots === 'string' ? [roots] : roots).map((root) => {
    const resolved = nodePath.resolve(root);
    try {
      return realpathSync(resolved);
    } catch {
      // A root that does not exist gets DIR_NOT_AVAILABLE from the session; its folder name does not matter.
      return resolved;
    }
  });
  const first = reals[0] ?? nodePath.resolve('.');
  const digest = createHash('sha256').update(reals.join('\n')).digest('hex').slice(0, 16);
  const name = `${nodePath.basename(first) || 'root'}${reals.length > 1 ? `+${reals.length - 1}` : ''}`;
  return nodePath.join(userStateDirectory(env), 'history', `${name}-${digest}`);
}

/**
 * Where every Agent FS process of this user keeps its cross-process locks (locks.ts): one place for all of them,
 * whichever workspace, history folder or host (editor, runner, MCP server) they have.
 */
export function defaultLockDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return nodePath.join(userStateDirectory(env), 'locks');
}
