/**
 * Ports that fail on demand, two on purpose:
 *  - FaultyFileSystem, a reduced port (no setMode, readRange, lock or appendFile, so writes take the
 *    copy-for-permissions path and reads read whole) that records every mutating step and can fail the next
 *    writeFile, rename, copyFile or delete matching a path test, before doing anything or after doing its work
 *    (a crash between two steps). It proves that every write path leaves the old bytes whole and no temporary file.
 *  - faultySession, the runner's whole node session (its locks, searcher and policy merging) whose port rejects any
 *    method a predicate picks: for the *_FAILED codes, which a healthy disk never gives.
 */
import * as nodePath from 'node:path';
import type { Session } from '../../src/core/invoke';
import type { DirEntry, FileStat, FileSystem } from '../../src/core/ports/fs';
import { DEFAULT_POLICY, type Policy } from '../../src/core/settings';
import { isStagingName } from '../../src/core/files/staging';
import type { EditorState } from '../../src/core/context';
import { NodeFileSystem } from '../../src/node/fs/nodeFileSystem';
import { toPosixPath } from '../../src/node/fs/nativePaths';
import { createNodeSession } from '../../src/node/host/session';

export type FaultyStep = 'writeFile' | 'rename' | 'copyFile' | 'delete';

export interface Fault {
  readonly step: FaultyStep;
  /** Which call fails: the path (for rename and copy, the destination) must satisfy it. Default: any. */
  readonly when?: (path: string) => boolean;
  /** 'before': nothing is done; 'after': the step completes, then throws (a crash right after it). */
  readonly timing?: 'before' | 'after';
  /** Skip this many matching calls before failing. */
  readonly skip?: number;
}

export class FaultyFileSystem implements FileSystem {
  private readonly inner = new NodeFileSystem();
  private readonly faults: (Fault & { seen: number; fired: boolean })[] = [];
  /** Every mutating call in order, for asserting what was attempted. */
  readonly calls: string[] = [];

  fail(fault: Fault): this {
    this.faults.push({ ...fault, seen: 0, fired: false });
    return this;
  }

  get fired(): number {
    return this.faults.filter((fault) => fault.fired).length;
  }

  private async step<T>(step: FaultyStep, path: string, action: () => Promise<T>): Promise<T> {
    this.calls.push(`${step} ${path}`);
    const fault = this.faults.find(
      (each) => !each.fired && each.step === step && (each.when?.(path) ?? true) && each.seen++ >= (each.skip ?? 0),
    );
    if (fault) fault.fired = true;
    if (fault && (fault.timing ?? 'before') === 'before') throw new Error(`injected ${step} failure on ${path}`);
    const result = await action();
    if (fault) throw new Error(`injected crash after ${step} on ${path}`);
    return result;
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.inner.stat(path);
  }
  readDirectory(path: string): Promise<DirEntry[]> {
    return this.inner.readDirectory(path);
  }
  readFile(path: string): Promise<Uint8Array> {
    return this.inner.readFile(path);
  }
  writeFile(path: string, content: Uint8Array): Promise<void> {
    return this.step('writeFile', path, () => this.inner.writeFile(path, content));
  }
  createDirectory(path: string): Promise<void> {
    return this.inner.createDirectory(path);
  }
  delete(path: string, options: { recursive: boolean; useTrash: boolean }): Promise<void> {
    return this.step('delete', path, () => this.inner.delete(path, options));
  }
  rename(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    return this.step('rename', to, () => this.inner.rename(from, to, options));
  }
  copyFile(from: string, to: string, options: { overwrite: boolean }): Promise<void> {
    return this.step('copyFile', to, () => this.inner.copyFile(from, to, options));
  }
  realPath(path: string): Promise<string | undefined> {
    return this.inner.realPath(path);
  }
}

/** A session over any FileSystem port rooted at `root` (a native directory path). */
export function sessionOver(fs: FileSystem, root: string, options: { policy?: Partial<Policy>; editors?: EditorState } = {}): Session {
  const path = toPosixPath(root);
  return {
    policy: () => ({ ...DEFAULT_POLICY, ...options.policy }),
    workspace: () => Promise.resolve({ roots: [{ name: nodePath.basename(path), path }], fs }),
    editors: options.editors,
  };
}

/** True for a path the atomic-write machinery stages through (staging.ts siblingPath). */
export function isStagingPath(path: string): boolean {
  return isStagingName(nodePath.posix.basename(path));
}

/**
 * A session over node:fs whose port fails where `fault` says so: `fault(method, args)` returns the error a call
 * should reject with, or undefined to let it through. For the *_FAILED codes, which a healthy disk never gives.
 */
export function faultySession(
  root: string,
  fault: (method: string, args: readonly unknown[]) => Error | undefined,
  policy: Partial<Policy> = {},
): Session {
  const inner = createNodeSession(root, policy);
  return {
    policy: () => inner.policy(),
    async workspace() {
      const workspace = await inner.workspace();
      const fs = new Proxy(workspace.fs, {
        get(target, property, receiver): unknown {
          const value: unknown = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]): unknown => {
            const error = fault(String(property), args);
            if (error) return Promise.reject(error);
            return Reflect.apply(value, target, args);
          };
        },
      });
      return { ...workspace, fs };
    },
  };
}
