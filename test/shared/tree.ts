/**
 * Directory trees on disk for tests, as both suites use them: laying files out, and a snapshot of every entry below
 * a directory (paths, types, bytes, link targets) so a test can assert what changed and that nothing else did.
 * Shared by the unit tests and the integration specs, which run inside the editor's extension host: this module
 * imports nothing but Node's own modules (no vscode, no mocha).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes files below `root`, creating parents; a key ending in '/' is an empty directory. */
export function writeTree(root: string, files: Readonly<Record<string, string | Uint8Array>>): void {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    if (relative.endsWith('/')) fs.mkdirSync(target, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, content);
    }
  }
}

/** One entry of a snapshot; file bytes are kept as base64 so any byte sequence compares exactly. */
export type Entry =
  | { readonly type: 'dir' }
  | { readonly type: 'file'; readonly bytes: string }
  | { readonly type: 'link'; readonly target: string }
  | { readonly type: 'other' };

/** Every entry below a directory, keyed by its '/'-separated path relative to that directory. Links are not followed. */
export type Snapshot = Map<string, Entry>;

/**
 * File bytes by path, reused while the file's identity and change time are the same (any write or rename changes
 * the inode or the ctime, which user code cannot set back), so that snapshotting a tree after every call stays cheap.
 */
const bytesCache = new Map<string, { readonly key: string; readonly bytes: string }>();

function fileBytes(full: string, stat: fs.BigIntStats): string {
  const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  const cached = bytesCache.get(full);
  if (cached?.key === key) return cached.bytes;
  const bytes = fs.readFileSync(full).toString('base64');
  if (bytesCache.size > 10000) bytesCache.clear();
  bytesCache.set(full, { key, bytes });
  return bytes;
}

/** The tree below `root`; `ignore` names top-level entries to leave out. */
export function snapshot(root: string, ignore: readonly string[] = []): Snapshot {
  const result: Snapshot = new Map();
  const visit = (relative: string): void => {
    const absolute = relative === '' ? root : path.join(root, relative);
    for (const name of fs.readdirSync(absolute)) {
      if (relative === '' && ignore.includes(name)) continue;
      const key = relative === '' ? name : `${relative}/${name}`;
      const full = path.join(absolute, name);
      const stat = fs.lstatSync(full, { bigint: true });
      if (stat.isSymbolicLink()) result.set(key, { type: 'link', target: fs.readlinkSync(full) });
      else if (stat.isDirectory()) {
        result.set(key, { type: 'dir' });
        visit(key);
      } else if (stat.isFile()) result.set(key, { type: 'file', bytes: fileBytes(full, stat) });
      else result.set(key, { type: 'other' });
    }
  };
  visit('');
  return result;
}

/**
 * The tree as text, for specs that spell out what they expect ({ 'a.txt': 'x\n', 'dir/': '' }): files as UTF-8
 * (a link read through), directories as '' under their path with a trailing '/'; {} for a directory that is gone.
 */
export function textTree(root: string, ignore: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(root)) return out;
  for (const [key, entry] of snapshot(root, ignore)) {
    if (entry.type === 'dir') out[`${key}/`] = '';
    else
      out[key] =
        entry.type === 'file' ? Buffer.from(entry.bytes, 'base64').toString('utf8') : fs.readFileSync(path.join(root, key), 'utf8');
  }
  return out;
}

/** A plain, sorted object form of a snapshot: readable in assertion diffs (file bytes shown as text when they are UTF-8). */
export function describeSnapshot(snap: Snapshot): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of [...snap.keys()].sort()) {
    const entry = snap.get(key);
    if (!entry) continue;
    if (entry.type === 'file') out[key] = `file ${JSON.stringify(Buffer.from(entry.bytes, 'base64').toString('utf8'))}`;
    else if (entry.type === 'link') out[key] = `link -> ${entry.target}`;
    else out[key] = entry.type;
  }
  return out;
}

/** Whether two snapshots are identical (paths, types, bytes, link targets). */
export function sameTree(a: Snapshot, b: Snapshot): boolean {
  if (a.size !== b.size) return false;
  for (const [key, entry] of a) {
    const other = b.get(key);
    if (other === undefined || other.type !== entry.type) return false;
    if (entry.type === 'file' && other.type === 'file' && entry.bytes !== other.bytes) return false;
    if (entry.type === 'link' && other.type === 'link' && entry.target !== other.target) return false;
  }
  return true;
}

export function assertTree(actual: Snapshot, expected: Snapshot, message?: string): void {
  if (sameTree(actual, expected)) return;
  assert.deepEqual(describeSnapshot(actual), describeSnapshot(expected), message);
  // The text form could hide a byte difference in invalid UTF-8; compare the raw bytes too.
  assert.deepEqual(actual, expected, message);
}
