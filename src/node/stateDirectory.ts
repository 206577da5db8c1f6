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

/** The history folder for one root: the same root (by real path) always maps to the same folder. */
export function defaultHistoryDirectory(root: string, env: NodeJS.ProcessEnv = process.env): string {
  let real = nodePath.resolve(root);
  try {
    real = realpathSync(real);
  } catch {
    // A root that does not exist gets DIR_NOT_AVAILABLE from the session; its folder name does not matter.
  }
  const digest = createHash('sha256').update(real).digest('hex').slice(0, 16);
  return nodePath.join(userStateDirectory(env), 'history', `${nodePath.basename(real) || 'root'}-${digest}`);
}
