/** A Session over node:fs rooted at one directory: what the runner, unit tests and benchmark call tools with. */
import { realpathSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { ToolError } from '../core/errors';
import type { Session } from '../core/invoke';
import type { Workspace } from '../core/root';
import { DEFAULT_POLICY, type Policy } from '../core/tool';
import { NodeFileSystem } from './nodeFileSystem';

/** POSIX form of a native absolute path, as the core expects ("C:\\a" → "/C:/a" on Windows). */
export function toPosixPath(nativePath: string): string {
  const resolved = nodePath.resolve(nativePath);
  return nodePath.sep === '/' ? resolved : '/' + resolved.split(nodePath.sep).join('/');
}

export function createNodeSession(rootDirectory: string, policy: Partial<Policy> = {}): Session {
  const fs = new NodeFileSystem();
  const rootPath = toPosixPath(rootDirectory);
  return {
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
