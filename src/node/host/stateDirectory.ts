/**
 * Where the runner and the MCP server keep a root's history when no --state is given: a per-user state directory,
 * one folder per set of roots (named by a hash of their real paths), never inside a root. When a root holds the
 * per-user directory (a home folder as root) the history goes to the first private per-user folder outside every
 * root: the runtime directory, else one in the temp directory. Every process computes the same place for the same
 * roots, so the runner and a server on one folder still share their history.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';

/** The per-user state directory for Agent FS: XDG on Linux, the platform's usual place elsewhere. */
export function userStateDirectory(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return nodePath.join(env.LOCALAPPDATA ?? nodePath.join(os.homedir(), 'AppData', 'Local'), 'agent-fs', 'state');
  if (platform === 'darwin') return nodePath.join(os.homedir(), 'Library', 'Application Support', 'agent-fs', 'state');
  const xdg = env.XDG_STATE_HOME;
  return nodePath.join(xdg !== undefined && nodePath.isAbsolute(xdg) ? xdg : nodePath.join(os.homedir(), '.local', 'state'), 'agent-fs');
}

/** The real path, or the resolved one where nothing exists yet (then its nearest existing ancestor's real path). */
function realOrResolved(path: string): string {
  const resolved = nodePath.resolve(path);
  try {
    return realpathSync(resolved);
  } catch {
    const parent = nodePath.dirname(resolved);
    return parent === resolved ? resolved : nodePath.join(realOrResolved(parent), nodePath.basename(resolved));
  }
}

/** Whether `path` is `root` or lies inside it, by real paths and whole segments. */
export function isInside(root: string, path: string): boolean {
  const relative = nodePath.relative(realOrResolved(root), realOrResolved(path));
  return relative === '' || (!relative.startsWith('..') && !nodePath.isAbsolute(relative));
}

/** `dir`, made if missing, when it is a directory of this user's that nobody else can enter; else undefined. */
function privateDirectory(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = lstatSync(dir);
    const uid = process.getuid?.();
    if (!stats.isDirectory() || stats.isSymbolicLink()) return undefined;
    if (uid !== undefined && (stats.uid !== uid || (stats.mode & 0o077) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The per-user state directory if no root holds it, else the first private per-user folder outside every root:
 * `$XDG_RUNTIME_DIR/agent-fs` (Linux), else `agent-fs-<uid>` in the temp directory. undefined when each lies inside
 * a root (a root such as `/`).
 */
function stateDirectoryOutside(roots: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const outside = (dir: string): boolean => !roots.some((root) => isInside(root, dir));
  const usual = userStateDirectory(env);
  if (outside(usual)) return usual;
  const runtime = env.XDG_RUNTIME_DIR;
  const user = process.getuid?.() ?? os.userInfo().username;
  const candidates = [
    ...(runtime !== undefined && nodePath.isAbsolute(runtime) ? [nodePath.join(runtime, 'agent-fs')] : []),
    nodePath.join(os.tmpdir(), `agent-fs-${user}`),
  ];
  for (const candidate of candidates) if (outside(candidate) && privateDirectory(candidate) !== undefined) return candidate;
  return undefined;
}

/**
 * The history folder for a set of roots: the same roots (by real path, in the same order) always map to the same
 * folder, so the runner and the MCP server started on one directory share one history. It lies outside every root
 * whenever any folder can (stateDirectoryOutside); otherwise it is the usual one, which the caller must refuse.
 */
export function defaultHistoryDirectory(roots: string | readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const list = typeof roots === 'string' ? [roots] : roots;
  const reals = list.map((root) => {
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
  return nodePath.join(stateDirectoryOutside(list, env) ?? userStateDirectory(env), 'history', `${name}-${digest}`);
}

/**
 * Where every Agent FS process of this user keeps its cross-process locks (locks.ts): one place for all of them,
 * whichever workspace, history folder or host (editor, runner, MCP server) they have. It never moves with the roots
 * (two processes with different roots must still exclude each other on a file both reach), so a root may hold it:
 * the session then hides it from the tools (reservedPatterns).
 */
export function defaultLockDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return nodePath.join(userStateDirectory(env), 'locks');
}

/**
 * Hidden-path patterns (anchored at the root) for the folders of Agent FS's own that lie inside one of `roots`: the
 * tools then neither read, list, search nor change them, as for any hidden path.
 */
export function reservedPatterns(roots: readonly string[], folders: readonly string[]): string[] {
  const patterns: string[] = [];
  for (const folder of folders) {
    for (const root of roots) {
      if (!isInside(root, folder)) continue;
      const relative = nodePath.relative(realOrResolved(root), realOrResolved(folder)).split(nodePath.sep).join('/');
      // A root that is the folder itself cannot hide it: the caller refuses such a root.
      if (relative !== '' && !patterns.includes(`/${relative}/`)) patterns.push(`/${relative}/`);
    }
  }
  return patterns;
}
