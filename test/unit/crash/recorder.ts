/**
 * Records the file-system calls a process makes below one folder, by wrapping node:fs itself (every call the
 * production code makes goes through this one module object, so nothing escapes it): what was written where, what
 * was created, renamed, removed, and when each fsync started and ended. The crash-state checker (model.ts) replays
 * the record to rebuild every state a crash could leave. Installed once, before the code under test runs; calls are
 * recorded only between `start` and `stop`, but open descriptors are followed all along, so a write through a
 * descriptor opened earlier (a lock slot kept open) is still placed.
 *
 * The one change it can make to what it records (`dropFolderSyncs`) is the checker's mutation: folders are then
 * never synced, and the checker must find states that lose an acknowledged change.
 */
// The module object itself, not a namespace copy of it: the code under test reads its functions from this object at
// every call, so replacing them here reaches every call it makes.
import fs from 'node:fs';
import * as nodePath from 'node:path';

/** One recorded call. Paths are absolute; data is base64. */
export type TraceOp =
  | { readonly op: 'bind'; readonly fd: number; readonly path: string }
  | {
      readonly op: 'open';
      readonly fd: number;
      readonly path: string;
      readonly create: boolean;
      readonly truncate: boolean;
      readonly append: boolean;
    }
  | { readonly op: 'close'; readonly fd: number }
  | { readonly op: 'write'; readonly fd: number; readonly position: number | null; readonly data: string }
  | { readonly op: 'ftruncate'; readonly fd: number; readonly size: number }
  | { readonly op: 'truncate'; readonly path: string; readonly size: number }
  | { readonly op: 'sync-start'; readonly fd: number; readonly id: number }
  | { readonly op: 'sync-end'; readonly id: number }
  | { readonly op: 'writeFile'; readonly path: string; readonly data: string; readonly exclusive: boolean }
  | { readonly op: 'append'; readonly path: string; readonly data: string }
  | { readonly op: 'create'; readonly path: string; readonly data: string }
  | { readonly op: 'rename'; readonly from: string; readonly to: string }
  | { readonly op: 'unlink'; readonly path: string }
  | { readonly op: 'mkdir'; readonly path: string }
  | { readonly op: 'rmdir'; readonly path: string }
  | { readonly op: 'link'; readonly from: string; readonly to: string }
  | { readonly op: 'symlink'; readonly target: string; readonly path: string }
  | { readonly op: 'ack' };

type AnyFunction = (...args: never[]) => unknown;

let root = '';
let recording = false;
let dropFolderSyncs = false;
const ops: TraceOp[] = [];
/** Every descriptor open below the root, by the path it has now (renames of it followed). */
const open = new Map<number, string>();
let syncs = 0;

function below(path: unknown): path is string {
  return typeof path === 'string' && root !== '' && (nodePath.resolve(path) + '/').startsWith(`${root}/`);
}

/** How deep inside a wrapped call this is: Node's own functions call each other (appendFileSync → writeFileSync), and only the outermost call is the program's. */
let depth = 0;

function note(op: TraceOp): void {
  if (recording && depth === 0) ops.push(op);
}

function inside<T>(call: () => T): T {
  depth++;
  try {
    return call();
  } finally {
    depth--;
  }
}

function base64(data: unknown, encoding?: unknown): string {
  if (typeof data === 'string')
    return Buffer.from(data, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8').toString('base64');
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  return '';
}

function flagsOf(flags: unknown): { create: boolean; truncate: boolean; append: boolean; write: boolean } {
  if (typeof flags === 'number') {
    const { O_CREAT, O_TRUNC, O_APPEND, O_WRONLY, O_RDWR } = fs.constants;
    return {
      create: (flags & O_CREAT) !== 0,
      truncate: (flags & O_TRUNC) !== 0,
      append: (flags & O_APPEND) !== 0,
      write: (flags & (O_WRONLY | O_RDWR)) !== 0,
    };
  }
  const text = typeof flags === 'string' ? flags : 'r';
  return { create: /[wa]/.test(text), truncate: text.includes('w'), append: text.includes('a'), write: /[wa+]/.test(text) };
}

/** The tree below `path` as removals, deepest first: what a recursive rm does. */
function removals(path: string): TraceOp[] {
  return inside(() => removalsOf(path));
}

function removalsOf(path: string): TraceOp[] {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(path);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [{ op: 'unlink', path }];
  const inner = fs.readdirSync(path).flatMap((name) => removalsOf(nodePath.join(path, name)));
  return [...inner, { op: 'rmdir', path }];
}

/** The folders `mkdir -p path` makes, outermost first. */
function missing(path: string): string[] {
  const made: string[] = [];
  inside(() => {
    for (let folder = nodePath.resolve(path); !fs.existsSync(folder); folder = nodePath.dirname(folder)) made.unshift(folder);
  });
  return made;
}

function isDirectoryFd(fd: number): boolean {
  try {
    return inside(() => fs.fstatSync(fd).isDirectory());
  } catch {
    return false;
  }
}

function afterRename(from: string, to: string): void {
  const a = nodePath.resolve(from);
  const b = nodePath.resolve(to);
  for (const [fd, path] of open) if (path === a || path.startsWith(`${a}/`)) open.set(fd, b + path.slice(a.length));
}

/** Replaces `object[name]` by `make(original)`. */
function wrap(object: object, name: string, make: (original: AnyFunction) => AnyFunction): void {
  const target = object as Record<string, AnyFunction>;
  const original = target[name];
  if (typeof original !== 'function') return;
  const bound = original.bind(object);
  // The original runs one level down, so what it calls of this module is not recorded again.
  target[name] = make((...args: never[]) => inside(() => bound(...args)));
}

/** A callback-style call's callback, wrapped to run `after` once it succeeded. */
function onSuccess(args: unknown[], after: (result: unknown) => void): unknown[] {
  const last = args.length - 1;
  const callback = args[last];
  if (typeof callback !== 'function') return args;
  const copy = [...args];
  copy[last] = (error: unknown, ...rest: unknown[]): unknown => {
    if (!error) after(rest[0]);
    return (callback as (...all: unknown[]) => unknown)(error, ...rest);
  };
  return copy;
}

function install(): void {
  const m = fs as unknown as Record<string, unknown>;
  wrap(m, 'openSync', (original) => (...args: never[]) => {
    const [path, flags] = args as unknown as [unknown, unknown];
    const fd = original(...args) as number;
    if (below(path)) {
      const resolved = nodePath.resolve(path);
      open.set(fd, resolved);
      note({ op: 'open', fd, path: resolved, ...flagsOf(flags) });
    }
    return fd;
  });
  wrap(m, 'open', (original) => (...args: never[]) => {
    const [path, flags] = args as unknown as [unknown, unknown];
    if (!below(path)) return original(...args);
    return original(
      ...(onSuccess(args, (fd) => {
        open.set(fd as number, nodePath.resolve(path));
        note({ op: 'open', fd: fd as number, path: nodePath.resolve(path), ...flagsOf(typeof flags === 'function' ? 'r' : flags) });
      }) as never[]),
    );
  });
  const closing = (fd: unknown): void => {
    if (typeof fd === 'number' && open.delete(fd)) note({ op: 'close', fd });
  };
  wrap(m, 'closeSync', (original) => (...args: never[]) => {
    const result = original(...args);
    closing((args as unknown[])[0]);
    return result;
  });
  wrap(m, 'close', (original) => (...args: never[]) => {
    const fd = (args as unknown[])[0];
    return original(...(onSuccess(args, () => closing(fd)) as never[]));
  });
  const written = (fd: number, data: unknown, offset: unknown, length: unknown, position: unknown, count: number): void => {
    if (!open.has(fd)) return;
    let bytes: Buffer;
    let at: number | null;
    if (typeof data === 'string') {
      bytes = Buffer.from(data, typeof length === 'string' ? (length as BufferEncoding) : 'utf8');
      at = typeof offset === 'number' ? offset : null;
    } else {
      const view = data as ArrayBufferView;
      const start = typeof offset === 'number' ? offset : 0;
      bytes = Buffer.from(view.buffer, view.byteOffset + start, count);
      at = typeof position === 'number' ? position : null;
    }
    note({ op: 'write', fd, position: at, data: bytes.subarray(0, count).toString('base64') });
  };
  wrap(m, 'writeSync', (original) => (...args: never[]) => {
    const [fd, data, offset, length, position] = args as unknown as [number, unknown, unknown, unknown, unknown];
    const count = original(...args) as number;
    written(fd, data, offset, length, position, count);
    return count;
  });
  wrap(m, 'write', (original) => (...args: never[]) => {
    const [fd, data, offset, length, position] = args as unknown as [number, unknown, unknown, unknown, unknown];
    return original(...(onSuccess(args, (count) => written(fd, data, offset, length, position, count as number)) as never[]));
  });
  const syncing = (fd: unknown, run: () => unknown, done?: (finish: () => void) => unknown): unknown => {
    if (typeof fd !== 'number' || !open.has(fd)) return run();
    if (dropFolderSyncs && isDirectoryFd(fd)) {
      // The mutation: the folder's sync never happens.
      return done ? done(() => undefined) : undefined;
    }
    const id = ++syncs;
    note({ op: 'sync-start', fd, id });
    if (!done) {
      const result = run();
      note({ op: 'sync-end', id });
      return result;
    }
    return done(() => note({ op: 'sync-end', id }));
  };
  for (const name of ['fsyncSync', 'fdatasyncSync'])
    wrap(
      m,
      name,
      (original) =>
        (...args: never[]) =>
          syncing((args as unknown[])[0], () => original(...args)),
    );
  for (const name of ['fsync', 'fdatasync'])
    wrap(m, name, (original) => (...args: never[]) => {
      const [fd, callback] = args as unknown as [unknown, (error: unknown) => void];
      return syncing(
        fd,
        () => original(...args),
        (finish) => {
          if (dropFolderSyncs && typeof fd === 'number' && isDirectoryFd(fd)) return setImmediate(() => callback(null));
          return original(
            ...([
              fd,
              (error: unknown) => {
                if (!error) finish();
                callback(error);
              },
            ] as never[]),
          );
        },
      );
    });
  wrap(m, 'ftruncateSync', (original) => (...args: never[]) => {
    const [fd, size] = args as unknown as [number, number | undefined];
    const result = original(...args);
    if (open.has(fd)) note({ op: 'ftruncate', fd, size: size ?? 0 });
    return result;
  });
  wrap(m, 'truncateSync', (original) => (...args: never[]) => {
    const [path, size] = args as unknown as [unknown, number | undefined];
    const result = original(...args);
    if (below(path)) note({ op: 'truncate', path: nodePath.resolve(path), size: size ?? 0 });
    return result;
  });
  const wholeWrite = (path: unknown, data: unknown, options: unknown): void => {
    if (!below(path)) return;
    const flag = typeof options === 'object' && options !== null ? (options as { flag?: unknown }).flag : undefined;
    const encoding =
      typeof options === 'string'
        ? options
        : typeof options === 'object' && options !== null
          ? (options as { encoding?: unknown }).encoding
          : undefined;
    note({
      op: 'writeFile',
      path: nodePath.resolve(path),
      data: base64(data, encoding),
      exclusive: typeof flag === 'string' && flag.includes('x'),
    });
  };
  wrap(m, 'writeFileSync', (original) => (...args: never[]) => {
    const [path, data, options] = args as unknown as [unknown, unknown, unknown];
    const result = original(...args);
    wholeWrite(path, data, options);
    return result;
  });
  wrap(m, 'appendFileSync', (original) => (...args: never[]) => {
    const [path, data] = args as unknown as [unknown, unknown];
    const result = original(...args);
    if (below(path)) note({ op: 'append', path: nodePath.resolve(path), data: base64(data) });
    return result;
  });
  const renamed = (from: unknown, to: unknown): void => {
    if (typeof from !== 'string' || typeof to !== 'string') return;
    afterRename(from, to);
    if (below(from) || below(to)) note({ op: 'rename', from: nodePath.resolve(from), to: nodePath.resolve(to) });
  };
  wrap(m, 'renameSync', (original) => (...args: never[]) => {
    const [from, to] = args as unknown as [unknown, unknown];
    const result = original(...args);
    renamed(from, to);
    return result;
  });
  wrap(m, 'unlinkSync', (original) => (...args: never[]) => {
    const [path] = args as unknown as [unknown];
    const result = original(...args);
    if (below(path)) note({ op: 'unlink', path: nodePath.resolve(path) });
    return result;
  });
  wrap(m, 'unlink', (original) => (...args: never[]) => {
    const [path] = args as unknown as [unknown];
    return original(
      ...(onSuccess(args, () => (below(path) ? note({ op: 'unlink', path: nodePath.resolve(path) }) : undefined)) as never[]),
    );
  });
  wrap(m, 'rmdirSync', (original) => (...args: never[]) => {
    const [path] = args as unknown as [unknown];
    const result = original(...args);
    if (below(path)) note({ op: 'rmdir', path: nodePath.resolve(path) });
    return result;
  });
  wrap(m, 'rmSync', (original) => (...args: never[]) => {
    const [path] = args as unknown as [unknown];
    const planned = below(path) ? removals(nodePath.resolve(path)) : [];
    const result = original(...args);
    for (const each of planned) note(each);
    return result;
  });
  wrap(m, 'mkdirSync', (original) => (...args: never[]) => {
    const [path] = args as unknown as [unknown];
    const planned = below(path) ? missing(path) : [];
    const result = original(...args);
    for (const each of planned) note({ op: 'mkdir', path: each });
    return result;
  });
  wrap(m, 'linkSync', (original) => (...args: never[]) => {
    const [from, to] = args as unknown as [unknown, unknown];
    const result = original(...args);
    if (below(to) && typeof from === 'string') note({ op: 'link', from: nodePath.resolve(from), to: nodePath.resolve(to) });
    return result;
  });
  wrap(m, 'symlinkSync', (original) => (...args: never[]) => {
    const [target, path] = args as unknown as [unknown, unknown];
    const result = original(...args);
    if (below(path) && typeof target === 'string') note({ op: 'symlink', target, path: nodePath.resolve(path) });
    return result;
  });
  const copied = (to: unknown): void => {
    if (below(to)) note({ op: 'create', path: nodePath.resolve(to), data: inside(() => fs.readFileSync(to)).toString('base64') });
  };
  wrap(m, 'copyFileSync', (original) => (...args: never[]) => {
    const result = original(...args);
    copied((args as unknown[])[1]);
    return result;
  });

  const promises = fs.promises as unknown as Record<string, AnyFunction>;
  wrap(promises, 'writeFile', (original) => async (...args: never[]) => {
    const [path, data, options] = args as unknown as [unknown, unknown, unknown];
    const result = await original(...args);
    wholeWrite(path, data, options);
    return result;
  });
  wrap(promises, 'appendFile', (original) => async (...args: never[]) => {
    const [path, data] = args as unknown as [unknown, unknown];
    const result = await original(...args);
    if (below(path)) note({ op: 'append', path: nodePath.resolve(path), data: base64(data) });
    return result;
  });
  wrap(promises, 'unlink', (original) => async (...args: never[]) => {
    const [path] = args as unknown as [unknown];
    const result = await original(...args);
    if (below(path)) note({ op: 'unlink', path: nodePath.resolve(path) });
    return result;
  });
  wrap(promises, 'rm', (original) => async (...args: never[]) => {
    const [path] = args as unknown as [unknown];
    const planned = below(path) ? removals(nodePath.resolve(path)) : [];
    const result = await original(...args);
    for (const each of planned) note(each);
    return result;
  });
  wrap(promises, 'copyFile', (original) => async (...args: never[]) => {
    const result = await original(...args);
    copied((args as unknown[])[1]);
    return result;
  });
  wrap(promises, 'link', (original) => async (...args: never[]) => {
    const [from, to] = args as unknown as [unknown, unknown];
    const result = await original(...args);
    if (below(to) && typeof from === 'string') note({ op: 'link', from: nodePath.resolve(from), to: nodePath.resolve(to) });
    return result;
  });
  wrap(promises, 'rename', (original) => async (...args: never[]) => {
    const [from, to] = args as unknown as [unknown, unknown];
    const result = await original(...args);
    renamed(from, to);
    return result;
  });
  wrap(promises, 'mkdir', (original) => async (...args: never[]) => {
    const [path] = args as unknown as [unknown];
    const planned = below(path) ? missing(path) : [];
    const result = await original(...args);
    for (const each of planned) note({ op: 'mkdir', path: each });
    return result;
  });
  wrap(promises, 'open', (original) => async (...args: never[]) => {
    const [path, flags] = args as unknown as [unknown, unknown];
    const handle = (await original(...args)) as fs.promises.FileHandle;
    if (!below(path)) return handle;
    const fd = handle.fd;
    open.set(fd, nodePath.resolve(path));
    note({ op: 'open', fd, path: nodePath.resolve(path), ...flagsOf(flags) });
    const methods = handle as unknown as Record<string, AnyFunction>;
    wrap(methods, 'write', (write) => async (...call: never[]) => {
      const [data, offset, length, position] = call as unknown as [unknown, unknown, unknown, unknown];
      const result = (await write(...call)) as { bytesWritten: number };
      written(fd, data, offset, length, position, result.bytesWritten);
      return result;
    });
    for (const name of ['sync', 'datasync'])
      wrap(methods, name, (sync) => async (...call: never[]) => {
        const id = ++syncs;
        note({ op: 'sync-start', fd, id });
        const result = await sync(...call);
        note({ op: 'sync-end', id });
        return result;
      });
    wrap(methods, 'close', (close) => async (...call: never[]) => {
      const result = await close(...call);
      closing(fd);
      return result;
    });
    return handle;
  });
}

let installed = false;

/** Follows descriptors below `folder` from now on; call before the code under test opens anything there. */
export function follow(folder: string, options: { readonly dropFolderSyncs?: boolean } = {}): void {
  root = nodePath.resolve(folder);
  dropFolderSyncs = options.dropFolderSyncs === true;
  if (!installed) install();
  installed = true;
}

/** Starts recording; descriptors already open below the root are bound to the paths they have now. */
export function start(): void {
  recording = true;
  for (const [fd, path] of open) note({ op: 'bind', fd, path });
}

/** Marks the moment the call under test replied: every state after it must hold the acknowledged change. */
export function acknowledged(): void {
  note({ op: 'ack' });
}

export function stop(): TraceOp[] {
  recording = false;
  return [...ops];
}
