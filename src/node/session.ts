/** A Session over node:fs rooted at one directory: what the runner, unit tests and benchmark call tools with. */
import { realpathSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { ToolError } from '../core/errors';
import { DEFAULT_HISTORY_LIMITS, type HistoryLimits, HistoryStore } from '../core/history/store';
import type { Session } from '../core/invoke';
import type { Workspace } from '../core/root';
import { DEFAULT_POLICY, type Policy } from '../core/tool';
import { NodeFileSystem } from './nodeFileSystem';
import { findRipgrepOnPath, RipgrepSearcher } from './ripgrep';

/** POSIX form of a native absolute path, as the core expects ("C:\\a" → "/C:/a" on Windows). */
export function toPosixPath(nativePath: string): string {
  const resolved = nodePath.resolve(nativePath);
  return nodePath.sep === '/' ? resolved : '/' + resolved.split(nodePath.sep).join('/');
}

export interface NodeSessionOptions {
  /** Where to keep the operation history (created on first change); absent: nothing is recorded. */
  readonly stateDirectory?: string;
  readonly historyLimits?: Partial<HistoryLimits>;
  /** The ripgrep executable for search_content; false: always the pure scan. Default: `rg` on PATH, if any. */
  readonly ripgrep?: string | false;
}

export function createNodeSession(rootDirectory: string, policy: Partial<Policy> = {}, options: NodeSessionOptions = {}): Session {
  const fs = new NodeFileSystem();
  const rootPath = toPosixPath(rootDirectory);
  const limits: HistoryLimits = { ...DEFAULT_HISTORY_LIMITS, ...options.historyLimits };
  const history = options.stateDirectory === undefined ? undefined : new HistoryStore(fs, toPosixPath(options.stateDirectory), () => limits);
  const ripgrep = options.ripgrep === undefined ? findRipgrepOnPath() : options.ripgrep || undefined;
  return {
    ...(history ? { history } : {}),
    ...(ripgrep ? { contentSearcher: new RipgrepSearcher(ripgrep) } : {}),
    host: { kind: 'runner', version: process.version, baseDirectoryAsGiven: rootDirectory, workspaceFolders: [{ name: nodePath.basename(rootPath) || rootPath, path: rootPath }] },
    policy: () => ({ ...DEFAULT_POLICY, ...policy }),
    workspace(): Promise<Workspace> {
      let isDirectory = false;
      try {
        isDirectory = statSync(realpathSync(rootDirectory)).isDirectory();
      } catch {
        isDirectory = false;
      }
      if (!isDirectory) {
        return Promise.reject(new ToolError('DIR_NOT_AVAILABLE', `The base directory ${rootPath} does not exist or is not a directory. Pass an existing directory with --root.`));
      }
      return Promise.resolve({ roots: [{ name: nodePath.basename(rootPath) || rootPath, path: rootPath }], fs });
    },
  };
}
