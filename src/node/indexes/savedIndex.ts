/**
 * The path index saved between processes (pathIndex.ts): one file per root in a folder of the host's state, so that a
 * server started again begins from the listings its predecessor held instead of walking the whole tree.
 *
 * A saved listing is only ever a claim. Each directory is saved with the identity (device, inode) and times
 * (modification, change) it had just before its listing was read, and whether those times were too close to the read
 * to prove anything (racy: see RACY_MS in pathIndex.ts). The index that loads the file hands a listing out only after
 * proving it as it proves any listing it did not watch: the directory statted, identity and both times as saved, and
 * not racy. A directory's change time moves with every entry added, removed or renamed and cannot be set back (touch
 * -d sets the modification time, and the change time to now), so equal times mean the same listing.
 *
 * The file itself is not trusted either: a header line (format, version, the root it is for, the body's length and
 * SHA-256), then the body, one JSON array; anything that does not check out — another version, another root, a
 * truncated or altered body, a record of the wrong shape, a name no directory can hold — discards the whole file, and
 * the index is built by walking as if there were none. Written beside the final name and renamed over it, so a reader
 * sees a whole file or the previous one; bounded (MAX_SAVED_BYTES): a larger index is not saved, a larger file not read.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { basename } from '../../core/paths';
import type { IndexedEntry } from '../../core/ports/pathIndex';
import type { EntryKind } from '../../core/ports/fs';

/** Changes whenever the layout below does: a file of another version is discarded, never migrated. */
export const SAVED_INDEX_VERSION = 1;
const FORMAT = 'agent-fs path index';
/** The largest file written or read: about 1,000,000 paths of ordinary names (the index's own bound per root). */
const MAX_SAVED_BYTES = 64 * 1024 * 1024;

/** One directory as saved: its listing, and what proves it (see the header). */
interface SavedDirectory {
  readonly path: string;
  readonly entries: readonly IndexedEntry[];
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly racy: boolean;
}

export interface SavedRoot {
  readonly root: string;
  /** The root's identity when saved: a root that is another directory now discards the file. */
  readonly dev: number;
  readonly ino: number;
  /** When the file was written (Date.now()). */
  readonly savedAt: number;
  readonly directories: readonly SavedDirectory[];
}

interface Header {
  readonly format: string;
  readonly version: number;
  readonly root: string;
  readonly dev: number;
  readonly ino: number;
  readonly savedAt: number;
  readonly directories: number;
  readonly bytes: number;
  readonly sha256: string;
}

/** The file for `root` in `folder`: the root's last name (for people) and a digest of its path (unique). */
export function savedIndexFile(folder: string, root: string): string {
  const digest = createHash('sha256').update(root).digest('hex').slice(0, 16);
  return `${folder}/${basename(root) || 'root'}-${digest}.index`;
}

const KIND_LETTERS: Readonly<Record<EntryKind, string>> = { file: 'f', directory: 'd', other: 'o' };
const LETTER_KINDS: Readonly<Record<string, { kind: EntryKind; isSymlink: boolean }>> = {
  f: { kind: 'file', isSymlink: false },
  d: { kind: 'directory', isSymlink: false },
  o: { kind: 'other', isSymlink: false },
  F: { kind: 'file', isSymlink: true },
  D: { kind: 'directory', isSymlink: true },
  O: { kind: 'other', isSymlink: true },
};

/**
 * The file's text: the header line, then the body — per directory [path below the root ('' for the root), dev, ino,
 * mtimeMs, ctimeMs, racy 0/1, its names joined by '/' (which no name holds), one letter per entry for its kind
 * (upper case: a link, with its target's kind)]. Undefined when it would exceed MAX_SAVED_BYTES.
 */
export function encodeSavedIndex(saved: SavedRoot, maxBytes = MAX_SAVED_BYTES): string | undefined {
  const prefix = saved.root === '/' ? 1 : saved.root.length + 1;
  const records: string[] = [];
  let length = 0;
  for (const directory of saved.directories) {
    let kinds = '';
    for (const entry of directory.entries) kinds += entry.isSymlink ? KIND_LETTERS[entry.kind].toUpperCase() : KIND_LETTERS[entry.kind];
    const relative = directory.path === saved.root ? '' : directory.path.slice(prefix);
    const record = JSON.stringify([
      relative,
      directory.dev,
      directory.ino,
      directory.mtimeMs,
      directory.ctimeMs,
      directory.racy ? 1 : 0,
      directory.entries.map((entry) => entry.name).join('/'),
      kinds,
    ]);
    length += record.length + 2;
    if (length > maxBytes) return undefined;
    records.push(record);
  }
  const body = `[${records.join(',\n')}]`;
  const header: Header = {
    format: FORMAT,
    version: SAVED_INDEX_VERSION,
    root: saved.root,
    dev: saved.dev,
    ino: saved.ino,
    savedAt: saved.savedAt,
    directories: saved.directories.length,
    bytes: Buffer.byteLength(body),
    sha256: createHash('sha256').update(body).digest('hex'),
  };
  const text = `${JSON.stringify(header)}\n${body}`;
  return Buffer.byteLength(text) > maxBytes ? undefined : text;
}

/** The saved index of `root` in `text`, or why it cannot be used (the header's list). */
export function decodeSavedIndex(text: string, root: string): SavedRoot | string {
  const steps = decodeSteps(text, root);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Records decoded between two steps of decodeSteps: a few hundred microseconds' work. */
const RECORDS_PER_STEP = 64;

/**
 * decodeSavedIndex's work in steps, each yielding after RECORDS_PER_STEP records, so a host can decode between the
 * turns of its event loop (readSavedIndex's sliceMs) and go on answering meanwhile.
 */
function* decodeSteps(text: string, root: string): Generator<undefined, SavedRoot | string> {
  const newline = text.indexOf('\n');
  if (newline < 0) return 'no header';
  let header: unknown;
  try {
    header = JSON.parse(text.slice(0, newline));
  } catch {
    return 'a header that is not JSON';
  }
  if (!isHeader(header) || header.format !== FORMAT) return 'not a saved path index';
  if (header.version !== SAVED_INDEX_VERSION) return `version ${header.version}, not ${SAVED_INDEX_VERSION}`;
  if (header.root !== root) return `saved for ${header.root}`;
  const body = text.slice(newline + 1);
  if (Buffer.byteLength(body) !== header.bytes) return 'a body of another length (truncated or appended to)';
  if (createHash('sha256').update(body).digest('hex') !== header.sha256) return 'a body that does not match its digest';
  yield;
  let records: unknown;
  try {
    records = JSON.parse(body);
  } catch {
    return 'a body that is not JSON';
  }
  if (!Array.isArray(records) || records.length !== header.directories) return 'a body of another shape';
  yield;
  const directories: SavedDirectory[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const directory = decodeDirectory(record, root);
    if (typeof directory === 'string') return directory;
    if (seen.has(directory.path)) return `${directory.path} saved twice`;
    seen.add(directory.path);
    directories.push(directory);
    if (directories.length % RECORDS_PER_STEP === 0) yield;
  }
  if (!seen.has(root)) return 'no listing of the root';
  return { root, dev: header.dev, ino: header.ino, savedAt: header.savedAt, directories };
}

function isHeader(value: unknown): value is Header {
  if (typeof value !== 'object' || value === null) return false;
  const header = value as Record<string, unknown>;
  return (
    typeof header.format === 'string' &&
    typeof header.root === 'string' &&
    typeof header.sha256 === 'string' &&
    [header.version, header.dev, header.ino, header.savedAt, header.directories, header.bytes].every(
      (each) => typeof each === 'number' && Number.isFinite(each),
    )
  );
}

function decodeDirectory(record: unknown, root: string): SavedDirectory | string {
  if (!Array.isArray(record) || record.length !== 8) return 'a record of another shape';
  const [relative, dev, ino, mtimeMs, ctimeMs, racy, names, kinds] = record as unknown[];
  if (typeof relative !== 'string' || typeof names !== 'string' || typeof kinds !== 'string') return 'a record of another shape';
  for (const number of [dev, ino, mtimeMs, ctimeMs, racy])
    if (typeof number !== 'number' || !Number.isFinite(number)) return 'a record of another shape';
  if (relative !== '' && !relative.split('/').every(isName)) return `a path that is not below the root: ${relative}`;
  const path = relative === '' ? root : root === '/' ? `/${relative}` : `${root}/${relative}`;
  const split = kinds === '' ? [] : names.split('/');
  if (split.length !== kinds.length) return `${path}: names and kinds disagree`;
  const entries: IndexedEntry[] = [];
  const prefix = path === '/' ? '/' : `${path}/`;
  for (let index = 0; index < split.length; index++) {
    const name = split[index] ?? '';
    const kind = LETTER_KINDS[kinds.charAt(index)];
    if (!kind || !isName(name)) return `${path}: an entry that cannot be`;
    entries.push({ name, kind: kind.kind, isSymlink: kind.isSymlink, absolute: prefix + name, parent: path });
  }
  return {
    path,
    entries,
    dev: dev as number,
    ino: ino as number,
    mtimeMs: mtimeMs as number,
    ctimeMs: ctimeMs as number,
    racy: racy !== 0,
  };
}

/** A name a directory can hold: not empty, not '.' or '..', no '/' (split already) and no NUL. */
function isName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\u0000');
}

/**
 * Writes `text` to `file` whole or not at all: into a file of this process's beside it, then renamed over it. Two
 * processes saving the same root leave one whole file, the last renamed. Throws what the file system threw.
 */
export function writeSavedIndex(file: string, text: string): void {
  const folder = file.slice(0, file.lastIndexOf('/'));
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const staged = `${file}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    fs.writeFileSync(staged, text, { mode: 0o600, flag: 'wx' });
    fs.renameSync(staged, file);
  } catch (error) {
    fs.rmSync(staged, { force: true });
    throw error;
  }
}

/**
 * The saved index of `root` in `file`, or why there is none to use: missing, not a regular file (a link is not
 * followed), over MAX_SAVED_BYTES, or failing decodeSavedIndex. Decoded in slices of at most about `sliceMs`, between
 * which the event loop turns (a server answers its client meanwhile); by default at once.
 */
export async function readSavedIndex(
  file: string,
  root: string,
  options: { readonly maxBytes?: number; readonly sliceMs?: number } = {},
): Promise<SavedRoot | string> {
  const { maxBytes = MAX_SAVED_BYTES, sliceMs = Number.POSITIVE_INFINITY } = options;
  let text: string;
  try {
    const handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return 'not a file';
      if (stat.size > maxBytes) return `larger than ${maxBytes} bytes`;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none saved' : `unreadable: ${(error as Error).message}`;
  }
  return decodeSavedIndexInSlices(text, root, sliceMs);
}

/**
 * decodeSavedIndex in slices of at most about `sliceMs` (each at least one step of RECORDS_PER_STEP records), with a
 * turn of the event loop between two slices.
 */
export async function decodeSavedIndexInSlices(text: string, root: string, sliceMs: number): Promise<SavedRoot | string> {
  const steps = decodeSteps(text, root);
  for (let sliceStart = performance.now(); ;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
