/**
 * The history store's journal (store.ts): its format, one line per change to the store, and the index a reader builds
 * from it. Lines: "+<id> <hex>:<size> … [@<session>]" when an operation is reserved (with the blobs it holds and the
 * session it belongs to), "*<id> <hex>:<size> …"
 * for content added after it, "-<id>" when pruned or given up; the first line names the journal's generation, so a
 * journal rewritten by another process is told from the one read before. A line counts only once its newline is
 * there, and a line naming an id or a blob of the wrong form is skipped, so no string from a model names a path.
 */

/** Operation ids: lower-case base-36 time, a counter and a random tail. Also the only names the store accepts. */
export const OPERATION_ID_PATTERN = /^[a-z0-9]{1,20}(-[a-z0-9]{1,20}){0,3}$/;

/** A blob's name: the SHA-256 of its bytes, in hex. */
export const BLOB_FILE = /^[0-9a-f]{64}$/;
export const GENERATION_LENGTH = 12;
export const JOURNAL_HEADER = /^agentfs-history-journal 1 ([0-9a-z]{12})$/;

export function randomToken(length: number): string {
  let token = '';
  while (token.length < length) token += Math.random().toString(36).slice(2);
  return token.slice(0, length);
}

export function journalHeader(generation: string): string {
  return `agentfs-history-journal 1 ${generation}\n`;
}

export const HEADER_BYTES = journalHeader(randomToken(GENERATION_LENGTH)).length;
const encoder = new TextEncoder();

function journalLine(mark: '+' | '*', id: string, blobs: Readonly<Record<string, number>>, session?: string): string {
  return `${mark}${id}${Object.entries(blobs)
    .map(([hex, size]) => ` ${hex}:${size}`)
    .join('')}${session === undefined ? '' : ` @${encodeURIComponent(session)}`}\n`;
}

/**
 * The line of an operation reserved with these blobs, by `session` when it has one: pruning keeps sessions whole and
 * so must know every record's session, which the line tells without reading the record. The session goes last as
 * `@<percent-encoded>`, a word older readers skip (it is no blob's `hex:size`).
 */
export function addLine(id: string, blobs: Readonly<Record<string, number>>, session?: string): string {
  return journalLine('+', id, blobs, session);
}

/** The line of blobs added to an operation after it was reserved. */
export function extendLine(id: string, blobs: Readonly<Record<string, number>>): string {
  return journalLine('*', id, blobs);
}

interface IndexEntry<R> {
  readonly blobs: Readonly<Record<string, number>>;
  /** The session its journal line names; undefined when the line names none (written before lines did). */
  readonly session?: string;
  /** Loaded on first use. */
  record?: R;
}

/** What the store holds, as of the journal's first `offset` bytes. */
export class StoreIndex<R> {
  readonly entries = new Map<string, IndexEntry<R>>();
  /** Ascending, so oldest first. */
  readonly ids: string[] = [];
  /** Blob hex → how many records refer to it, and its size. */
  readonly refs = new Map<string, { count: number; size: number }>();
  bytes = 0;
  /** Lines in the journal, for deciding when to compact it. */
  lines = 0;

  constructor(
    /** Empty while the directory has no journal yet (a new store, or one an older version wrote). */
    public generation: string,
    public offset: number,
    /** The journal's stat `ctimeMs` when last read: with `offset`, what tells a changed journal from ours. */
    public stamp: number,
  ) {}

  insert(id: string, blobs: Readonly<Record<string, number>>, known: { readonly session?: string; readonly record?: R } = {}): void {
    if (this.entries.has(id)) return;
    const { session, record } = known;
    this.entries.set(id, { blobs, ...(session === undefined ? {} : { session }), ...(record ? { record } : {}) });
    let index = this.ids.length;
    while (index > 0 && (this.ids[index - 1] ?? '') > id) index--;
    this.ids.splice(index, 0, id);
    for (const [hex, size] of Object.entries(blobs)) this.refer(hex, size);
  }

  /** More blobs for an operation already in the index (its after content, added once the change was made). */
  extend(id: string, blobs: Readonly<Record<string, number>>): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    const added: Record<string, number> = {};
    for (const [hex, size] of Object.entries(blobs)) {
      if (entry.blobs[hex] !== undefined) continue;
      added[hex] = size;
      this.refer(hex, size);
    }
    this.entries.set(id, { ...entry, blobs: { ...entry.blobs, ...added } });
  }

  /** One more record refers to blob `hex`. */
  private refer(hex: string, size: number): void {
    const ref = this.refs.get(hex);
    if (ref) ref.count++;
    else {
      this.refs.set(hex, { count: 1, size });
      this.bytes += size;
    }
  }

  /** Drops a record; returns the blobs no record refers to any more. */
  remove(id: string): string[] {
    const entry = this.entries.get(id);
    if (!entry) return [];
    this.entries.delete(id);
    const at = this.ids.indexOf(id);
    if (at >= 0) this.ids.splice(at, 1);
    const freed: string[] = [];
    for (const hex of Object.keys(entry.blobs)) {
      const ref = this.refs.get(hex);
      if (!ref) continue;
      if (--ref.count === 0) {
        this.refs.delete(hex);
        this.bytes -= ref.size;
        freed.push(hex);
      }
    }
    return freed;
  }

  /** Applies journal text (complete lines only); returns how many bytes it consumed. */
  apply(text: string): number {
    let consumed = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', consumed)) {
      const line = text.slice(consumed, end);
      consumed = end + 1;
      this.lines++;
      const [head = '', ...parts] = line.split(' ');
      const id = head.slice(1);
      if (!OPERATION_ID_PATTERN.test(id)) continue;
      const blobs: Record<string, number> = {};
      let session: string | undefined;
      for (const part of parts) {
        if (part.startsWith('@')) {
          session = decodedSession(part.slice(1));
          continue;
        }
        const [hex = '', size = ''] = part.split(':');
        if (BLOB_FILE.test(hex)) blobs[hex] = Number(size) || 0;
      }
      if (head.startsWith('+')) this.insert(id, blobs, session === undefined ? {} : { session });
      else if (head.startsWith('*')) this.extend(id, blobs);
      else if (head.startsWith('-')) this.remove(id);
    }
    return encoder.encode(text.slice(0, consumed)).length;
  }
}

/** A line's session word back to the session; undefined (read the record instead) when it is not one this wrote. */
function decodedSession(word: string): string | undefined {
  try {
    return decodeURIComponent(word);
  } catch {
    return undefined;
  }
}
