/**
 * Pause points: how a test stops a server or runner process at an exact step of a call, so that what must work while a
 * call is half done — a cancellation, a second call, a signal, a kill — is tested in that order every time instead of
 * racing the clock (a call that happens to finish first proves nothing).
 *
 * `AGENTFS_PAUSE_AT` holds absolute paths separated by the platform's path delimiter. The first operation of the
 * FileSystem port that names one of them (a read, a listing, a write, a copy or rename to or from it) says so on
 * stderr — "agent-fs: paused at PATH (METHOD)" — and waits, without holding the event loop, until the process gets
 * SIGUSR2; then it runs as it would have. Without the variable (as everywhere but in tests) the port is not wrapped.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../../core/ports/fs';

const VARIABLE = 'AGENTFS_PAUSE_AT';

/** The paths `env` asks to pause at, or undefined when it asks for none. */
export function pausePointsIn(env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> | undefined {
  const value = env[VARIABLE];
  if (value === undefined || value === '') return undefined;
  return new Set(value.split(nodePath.delimiter).filter((path) => path !== ''));
}

/** The arguments of each port method that name a path (the rest, such as content, are left alone). */
const PATH_ARGUMENTS: Readonly<Record<string, readonly number[]>> = {
  readDirectory: [0],
  readFile: [0],
  readRange: [0],
  readInto: [0],
  writeFile: [0],
  createFile: [0],
  appendFile: [0],
  openWriter: [0],
  overwrite: [0],
  link: [0, 1],
  delete: [0],
  rename: [0, 1],
  copyFile: [0, 1],
  setMode: [0],
};

/**
 * `fs` with a pause before the first operation on each of `paths`. A proxy, so the port's optional methods are there
 * exactly when `fs` has them (the core tests for readRange and others).
 */
export function withPausePoints(fs: FileSystem, paths: ReadonlySet<string>): FileSystem {
  const waiting = new Set(paths);
  const pause = (path: string, method: string): Promise<void> => {
    waiting.delete(path);
    process.stderr.write(`agent-fs: paused at ${path} (${method}); SIGUSR2 resumes\n`);
    return new Promise((resolve) => process.once('SIGUSR2', () => resolve()));
  };
  return new Proxy(fs, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      const positions = PATH_ARGUMENTS[String(property)];
      if (typeof value !== 'function') return value;
      if (positions === undefined) return value.bind(target) as unknown;
      return async (...args: unknown[]): Promise<unknown> => {
        const path = positions.map((index) => args[index]).find((each) => typeof each === 'string' && waiting.has(each));
        if (typeof path === 'string') await pause(path, String(property));
        return Reflect.apply(value, target, args) as unknown;
      };
    },
  });
}
