/** A Session over node:fs rooted at one or more directories: what the runner, the MCP server, unit tests and benchmark call tools with. */
import { realpathSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { ToolError } from '../core/errors';
import { DEFAULT_HISTORY_LIMITS, type HistoryLimits, HistoryStore } from '../core/history/store';
import type { Session } from '../core/invoke';
import type { Root, Workspace } from '../core/root';
import { DEFAULT_POLICY, type Policy } from '../core/settings';
import { type NodeLockOptions, NodeLocks } from './locks';
import { NodeFileSystem } from './nodeFileSystem';
import { findRipgrepOnPath, RipgrepSearcher } from './ripgrep';
import { defaultLockDirectory, reservedPatterns, userStateDirectory } from './stateDirectory';

/** POSIX form of a native absolute path, as the core expects ("C:\\a" → "/C:/a" on Windows). */
export function toPosixPath(nativePath: string): string {
  const resolved = nodePath.resolve(nativePath);
  return nodePath.sep === '/' ? resolved : '/' + resolved.split(nodePath.sep).join('/');
}

export interface NodeSessionOptions {
  /** Where to keep the operation history (created on first change); absent: nothing is recorded. */
  readonly stateDirectory?: string;
  readonly historyLimits?: Partial<HistoryLimits>;
  /**
   * A store to share instead of opening `stateDirectory`: a long-lived host (the MCP server) builds a session per
   * set of roots, and every one of them must serialise its recorded calls through the same store.
   */
  readonly history?: HistoryStore;
  /** The ripgrep executable for search_content; false: always the pure scan. Default: `rg` on PATH, if any. */
  readonly ripgrep?: string | false;
  /** What workspace_info reports as the host: 'runner' (default) or 'mcp'. */
  readonly hostKind?: string;
  /**
   * The cross-process lock directory every cooperating process shares (default: the per-user one,
   * stateDirectory.ts), with its wait and staleness bounds; false: exclusion within this process only.
   */
  readonly locks?: ({ readonly directory?: string } & NodeLockOptions) | false;
}

/**
 * The roots, named by their directory's base name as workspace folders are. A name two roots share gets a
 * " (2)"-style suffix, so a relative path that starts with a name always means one root.
 */
function namedRoots(directories: readonly string[]): Root[] {
  const used = new Set<string>();
  return directories.map((directory) => {
    const path = toPosixPath(directory);
    const base = nodePath.posix.basename(path) || path;
    let name = base;
    for (let index = 2; used.has(name); index++) name = `${base} (${index})`;
    used.add(name);
    return { name, path };
  });
}

export function createNodeSession(
  rootDirectories: string | readonly string[],
  policy: Partial<Policy> = {},
  options: NodeSessionOptions = {},
): Session {
  const directories = typeof rootDirectories === 'string' ? [rootDirectories] : rootDirectories;
  if (directories.length === 0) throw new Error('createNodeSession needs at least one root directory.');
  const lockDirectory = options.locks === false ? undefined : (options.locks?.directory ?? defaultLockDirectory());
  const locks =
    lockDirectory === undefined ? undefined : NodeLocks.shared(lockDirectory, options.locks === false ? {} : (options.locks ?? {}));
  // Agent FS's own folders inside a root (a home folder as root holds the per-user state directory: every history
  // kept there, and the lock directory) are hidden paths, so no tool reads, lists, searches or changes them.
  const reserved = reservedPatterns(
    directories,
    [userStateDirectory(), lockDirectory, options.stateDirectory].filter((folder): folder is string => folder !== undefined),
  );
  const fs = new NodeFileSystem(locks);
  const roots = namedRoots(directories);
  const limits: HistoryLimits = { ...DEFAULT_HISTORY_LIMITS, ...options.historyLimits };
  const history =
    options.history ??
    (options.stateDirectory === undefined ? undefined : new HistoryStore(fs, toPosixPath(options.stateDirectory), () => limits));
  const ripgrep = options.ripgrep === undefined ? findRipgrepOnPath() : options.ripgrep || undefined;
  return {
    ...(history ? { history } : {}),
    ...(ripgrep ? { contentSearcher: new RipgrepSearcher(ripgrep) } : {}),
    host: {
      kind: options.hostKind ?? 'runner',
      version: process.version,
      baseDirectoryAsGiven: directories.join(', '),
      workspaceFolders: roots,
      // Only the editor has language services to ask.
      problemsAfterEdits: false,
    },
    policy: () => {
      const merged = { ...DEFAULT_POLICY, ...policy };
      return reserved.length === 0 ? merged : { ...merged, hiddenPaths: [...merged.hiddenPaths, ...reserved] };
    },
    workspace(): Promise<Workspace> {
      for (const [index, directory] of directories.entries()) {
        let isDirectory = false;
        try {
          isDirectory = statSync(realpathSync(directory)).isDirectory();
        } catch {
          isDirectory = false;
        }
        if (!isDirectory) {
          const path = roots[index]?.path ?? directory;
          return Promise.reject(
            new ToolError(
              'DIR_NOT_AVAILABLE',
              `The base directory ${path} does not exist or is not a directory. Pass an existing directory with --root.`,
            ),
          );
        }
      }
      return Promise.resolve({ roots, fs });
    },
  };
}
