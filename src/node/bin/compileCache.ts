/**
 * Starts the one bundle of the runner and the server (agent-fs.js, beside the bin that loads it) from a V8 code cache,
 * so that a process does not compile megabytes of JavaScript before it can answer. Agents start a server per session
 * and the runner runs a process per call, and compiling the bundle was the largest part of either's start.
 *
 * The cache is one file per bundle, Node version and architecture in the user's cache folder (XDG_CACHE_HOME or
 * ~/.cache on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows), under agent-fs/compile-cache. It holds
 * V8 bytecode, which V8 runs without checking it against the source beyond its length, so a cache is only ever read
 *  - from a folder and a file that this user owns and nobody else can write (POSIX), opened without following a link;
 *  - when the key it was written with (the bundle's path, device, inode, size and both times, Node's version and the
 *    architecture) is the bundle's now: a bundle rewritten or replaced (an update) has another inode or change time.
 * V8 refuses data of another V8 version, flags or source length by itself, but not bytes a crash tore (a cache written
 * just before a power cut can come back with zeros where its data was), so the file also holds a checksum (SHA-1, about
 * 2 ms for the 2.5 MB a cache holds) of its data, and data that does not match it is not used; a refused or missing
 * cache is written anew
 * (beside its name, then renamed) when the process exits, with what the process compiled by then. That may be little
 * (an `--version`, a server stopped at once), so a server (`refresh`) also writes it again when it compiled a tenth
 * more than the cache held. Any failure is only a slower start: the bundle is then compiled from source as Node
 * would. AGENT_FS_COMPILE_CACHE=off turns it off.
 *
 * Node's own compile cache (module.enableCompileCache) would do this from Node 22 on; the project supports Node 20.
 * The v8-compile-cache package keeps its cache in the shared temporary folder without checking who owns it.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import type * as Bundle from './package';

const BUNDLE = 'agent-fs.js';
const MAGIC = 'agent-fs compile cache 2\n';
/** Caches of other bundles (earlier versions) not written for this long are removed when one is written. */
const MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** How much more than the cache held a server must have compiled before it writes the cache again. */
const REFRESH_GROWTH = 1.1;

/**
 * The bundle's exports, run from the code cache when one can be used. With `refresh` (a long-lived process, whose
 * exit is not waited on) the cache is also written again at exit when this process compiled more than it held.
 */
export function loadBundle(refresh = false): typeof Bundle {
  const file = path.join(__dirname, BUNDLE);
  // A vm script has no import() of its own (Node 20 offers one only behind a flag): pdf.js is imported here, beside
  // the bundle, for it (src/core/documents/pdf.ts).
  (globalThis as Record<symbol, unknown>)[Symbol.for('agent-fs.importPdfjs')] = () =>
    Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
  const folder = process.env.AGENT_FS_COMPILE_CACHE === 'off' ? undefined : cacheFolder();
  if (folder === undefined) return createRequire(file)(file) as typeof Bundle;
  // The key and the source come from one open file, so a bundle replaced meanwhile cannot pair one's key with the other's
  // bytes; one rewritten in place has a later change time than the key read first, which no later process matches.
  const { source, key } = readBundle(file);
  const cacheFile = path.join(folder, `${fnv1a(key)}.bin`);
  const cached = readCache(folder, cacheFile, key);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cached ? { cachedData: cached } : {}),
  });
  const unusable = cached === undefined || script.cachedDataRejected === true;
  if (unusable || refresh)
    process.once('exit', () => {
      const data = script.createCachedData();
      if (unusable || data.length > (cached?.length ?? 0) * REFRESH_GROWTH) writeCache(folder, cacheFile, key, data);
    });
  const module = { exports: {} };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports as typeof Bundle;
}

function cacheFolder(): string | undefined {
  const home = os.homedir();
  if (process.platform === 'win32')
    return path.join(process.env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'agent-fs', 'compile-cache');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'agent-fs', 'compile-cache');
  const xdg = process.env.XDG_CACHE_HOME;
  return path.join(xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'agent-fs', 'compile-cache');
}

function readBundle(file: string): { source: string; key: string } {
  const handle = fs.openSync(file, 'r');
  try {
    const stat = fs.fstatSync(handle);
    const key = [process.version, process.arch, file, stat.dev, stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs].join('\n');
    return { source: fs.readFileSync(handle, 'utf8'), key };
  } finally {
    fs.closeSync(handle);
  }
}

/** The SHA-1 of a cache's data, in hex (40 characters): what tells whole data from data a crash tore. */
function checksum(data: Buffer): string {
  return createHash('sha1').update(data).digest('hex');
}

/** Names the file of a key; the file itself holds the whole key, so a collision only costs a compile. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/** Owned by this user and writable by nobody else (POSIX; Windows folders are guarded by their ACLs). */
function ownedAlone(stat: fs.Stats): boolean {
  return process.getuid === undefined || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
}

function readCache(folder: string, cacheFile: string, key: string): Buffer | undefined {
  try {
    const folderStat = fs.lstatSync(folder);
    if (!folderStat.isDirectory() || !ownedAlone(folderStat)) return undefined;
    const handle = fs.openSync(cacheFile, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      const stat = fs.fstatSync(handle);
      if (!stat.isFile() || !ownedAlone(stat)) return undefined;
      const data = fs.readFileSync(handle);
      const header = Buffer.from(`${MAGIC}${key}\n`);
      if (!data.subarray(0, header.length).equals(header)) return undefined;
      const sum = data.subarray(header.length, header.length + 42).toString('latin1');
      const cached = data.subarray(header.length + 42);
      return sum === `${checksum(cached)}\n\n` ? cached : undefined;
    } finally {
      fs.closeSync(handle);
    }
  } catch {
    return undefined;
  }
}

function writeCache(folder: string, cacheFile: string, key: string, data: Buffer): void {
  const staged = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    const folderStat = fs.lstatSync(folder);
    if (!folderStat.isDirectory() || !ownedAlone(folderStat)) return;
    fs.writeFileSync(staged, Buffer.concat([Buffer.from(`${MAGIC}${key}\n${checksum(data)}\n\n`), data]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(staged, cacheFile);
    const now = Date.now();
    for (const name of fs.readdirSync(folder)) {
      const other = path.join(folder, name);
      if (other !== cacheFile && now - fs.lstatSync(other).mtimeMs > MAX_AGE_MS) fs.rmSync(other, { force: true });
    }
  } catch {
    try {
      fs.rmSync(staged, { force: true });
    } catch {
      // Left for the next writer's sweep: an exit handler must not throw.
    }
  }
}
