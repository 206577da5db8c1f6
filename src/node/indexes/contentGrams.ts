/**
 * The content index's data (src/node/indexes/contentIndex.ts): the trigrams of a file's text, folded as search/grams.ts folds
 * a query, and the posting lists that map each trigram to the files holding it.
 *
 * Folding: ASCII letters to lower case; every other character outside ASCII, and NUL, to one unit (0). A match of a
 * query's ASCII text is a run of ASCII characters in the decoded text, and in every encoding a file without a UTF-16
 * BOM is read in here (UTF-8 and the legacy ones, all ASCII-compatible) those are the same bytes, one to one, in the
 * same order; so the trigrams of the file's bytes, folded, hold every trigram of a match. UTF-16 files (with a BOM)
 * are decoded first. Case-insensitive matching also lets `s` and `k` match U+017F and U+212A: in UTF-8 and UTF-16
 * text they are folded to `s` and `k`; a file that is not valid UTF-8 is marked `legacy`, and is a candidate for every
 * case-insensitive search.
 *
 * Postings: each file's text gets a new id whenever it is read (ids only grow, so each list stays sorted by
 * appending), each list the gaps between its ids as variable-length integers (one byte for gaps under 128). A file
 * read again leaves its old id dead until `compact` renumbers. Trigrams in more than half the files are dropped at
 * `dropCommon` (they narrow little and hold most of the postings); a dropped trigram counts as present everywhere.
 */
import type { GramPlan } from '../../core/ports/contentIndex';

/** Trigram keys: three 7-bit units. */
const KEYS = 1 << 21;

export type TextKind = 'text' | 'legacy';

function lower(byte: number): number {
  return byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
}

/** The unit of a code point outside ASCII: `s` and `k` for the two that fold to them, else 0. */
function wideUnit(code: number): number {
  return code === 0x17f ? 0x73 : code === 0x212a ? 0x6b : 0;
}

/**
 * Collects the distinct trigram keys of a text, `stamps` remembering which were seen for the current file (a stamp
 * per file instead of clearing 2 Mi entries each time).
 */
export class GramCollector {
  private readonly stamps = new Uint32Array(KEYS);
  private stamp = 0;
  keys = new Uint32Array(4096);
  count = 0;

  private begin(): void {
    this.count = 0;
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  /** Adds a key unless it holds a separator (no query text holds one, so it would never be looked up). */
  private add(key: number): void {
    if ((key & 0x7f) === 0 || (key & 0x3f80) === 0 || key < 1 << 14 || this.stamps[key] === this.stamp) return;
    this.stamps[key] = this.stamp;
    if (this.count === this.keys.length) {
      const grown = new Uint32Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    this.keys[this.count++] = key;
  }

  /** The keys of UTF-8 (or legacy) bytes; 'legacy' when they are not valid UTF-8 (then read byte by byte). */
  ofBytes(bytes: Uint8Array, length: number): TextKind {
    this.begin();
    let key = 0;
    for (let index = 0; index < length;) {
      const byte = bytes[index] ?? 0;
      let unit: number;
      if (byte < 0x80) {
        unit = lower(byte);
        index++;
      } else {
        const size = byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0;
        let code = size === 2 ? byte & 0x1f : size === 3 ? byte & 0x0f : byte & 0x07;
        for (let more = 1; more < size; more++) {
          const next = bytes[index + more] ?? 0;
          if (index + more >= length || (next & 0xc0) !== 0x80) code = -1;
          code = code < 0 ? -1 : (code << 6) | (next & 0x3f);
        }
        if (size === 0 || code < 0) return this.ofLegacy(bytes, length);
        unit = wideUnit(code);
        index += size;
      }
      key = ((key << 7) | unit) & (KEYS - 1);
      this.add(key);
    }
    return 'text';
  }

  /** Decoded text (a UTF-16 file's). */
  ofText(text: string): void {
    this.begin();
    let key = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      key = ((key << 7) | (code < 0x80 ? lower(code) : wideUnit(code))) & (KEYS - 1);
      this.add(key);
    }
  }

  private ofLegacy(bytes: Uint8Array, length: number): TextKind {
    this.begin();
    let key = 0;
    for (let index = 0; index < length; index++) {
      const byte = bytes[index] ?? 0;
      key = ((key << 7) | (byte < 0x80 ? lower(byte) : 0)) & (KEYS - 1);
      this.add(key);
    }
    return 'legacy';
  }
}

interface Posting {
  bytes: Uint8Array;
  length: number;
  last: number;
  count: number;
}

function push(posting: Posting, id: number): void {
  let gap = id - posting.last;
  posting.last = id;
  posting.count++;
  if (posting.length + 5 > posting.bytes.length) {
    const grown = new Uint8Array(Math.max(16, posting.bytes.length * 2));
    grown.set(posting.bytes.subarray(0, posting.length));
    posting.bytes = grown;
  }
  while (gap >= 0x80) {
    posting.bytes[posting.length++] = (gap & 0x7f) | 0x80;
    gap >>>= 7;
  }
  posting.bytes[posting.length++] = gap;
}

function decode(posting: Posting): Uint32Array {
  const ids = new Uint32Array(posting.count);
  let id = -1;
  let at = 0;
  for (let index = 0; index < posting.length;) {
    let gap = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = posting.bytes[index++] ?? 0;
      gap += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    id += gap;
    ids[at++] = id;
  }
  return ids;
}

function intersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(Math.min(a.length, b.length));
  let count = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i] ?? 0;
    const y = b[j] ?? 0;
    if (x === y) {
      out[count++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, count);
}

function union(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let count = 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? (a[i] ?? 0) : Infinity;
    const y = j < b.length ? (b[j] ?? 0) : Infinity;
    const next = Math.min(x, y);
    out[count++] = next;
    if (x === next) i++;
    if (y === next) j++;
  }
  return out.subarray(0, count);
}

/** The trigram keys of a plan's text (lower-case ASCII, as search/grams.ts gives it). */
function textKeys(text: string): number[] {
  const keys: number[] = [];
  for (let index = 2; index < text.length; index++)
    keys.push((text.charCodeAt(index - 2) << 14) | (text.charCodeAt(index - 1) << 7) | text.charCodeAt(index));
  return keys;
}

/** Posting lists dropCommon looks at between two of its steps (well under a millisecond's work); every file: ALL. */
const DROP_STEP = 1024;
export const ALL = 'all';

export class Postings {
  private readonly lists = new Map<number, Posting>();
  private readonly common = new Set<number>();
  /** Bytes the lists take (their buffers' capacity). */
  bytes = 0;

  add(keys: Uint32Array, count: number, id: number): void {
    for (let index = 0; index < count; index++) {
      const key = keys[index] ?? 0;
      if (this.common.has(key)) continue;
      let posting = this.lists.get(key);
      if (!posting) {
        posting = { bytes: new Uint8Array(0), length: 0, last: -1, count: 0 };
        this.lists.set(key, posting);
      }
      const before = posting.bytes.length;
      push(posting, id);
      this.bytes += posting.bytes.length - before;
    }
  }

  /**
   * Drops the lists of trigrams in more than `limit` ids (each then counts as present everywhere) and trims every buffer,
   * yielding every DROP_STEP lists so that the caller spreads it over slices; a list added meanwhile is reached too.
   */
  *dropCommon(limit: number): Generator<void, void, void> {
    let step = 0;
    for (const [key, posting] of this.lists) {
      if (++step % DROP_STEP === 0) yield;
      if (posting.count > limit) {
        this.lists.delete(key);
        this.common.add(key);
        this.bytes -= posting.bytes.length;
      } else if (posting.bytes.length > posting.length) {
        this.bytes -= posting.bytes.length - posting.length;
        posting.bytes = posting.bytes.slice(0, posting.length);
      }
    }
  }

  /** Renumbers ids by `renumber` (-1: dead, dropped), keeping each list sorted. */
  compact(renumber: Int32Array): void {
    this.bytes = 0;
    for (const [key, posting] of this.lists) {
      const fresh: Posting = { bytes: new Uint8Array(0), length: 0, last: -1, count: 0 };
      for (const id of decode(posting)) {
        const next = renumber[id] ?? -1;
        if (next >= 0) push(fresh, next);
      }
      if (fresh.count === 0) {
        this.lists.delete(key);
        continue;
      }
      fresh.bytes = fresh.bytes.slice(0, fresh.length);
      this.lists.set(key, fresh);
      this.bytes += fresh.bytes.length;
    }
  }

  /** The ids that may satisfy `plan`, sorted; ALL when the plan narrows nothing. */
  evaluate(plan: GramPlan): Uint32Array | typeof ALL {
    if ('text' in plan) return this.text(plan.text);
    if ('and' in plan) {
      let result: Uint32Array | typeof ALL = ALL;
      for (const part of plan.and) {
        const ids = this.evaluate(part);
        if (ids === ALL) continue;
        result = result === ALL ? ids : intersect(result, ids);
        if (result.length === 0) return result;
      }
      return result;
    }
    let result: Uint32Array = new Uint32Array(0);
    for (const part of plan.or) {
      const ids = this.evaluate(part);
      if (ids === ALL) return ALL;
      result = union(result, ids);
    }
    return result;
  }

  private text(text: string): Uint32Array | typeof ALL {
    const lists: Posting[] = [];
    for (const key of textKeys(text)) {
      if (this.common.has(key)) continue;
      const posting = this.lists.get(key);
      if (!posting) return new Uint32Array(0);
      lists.push(posting);
    }
    if (lists.length === 0) return ALL;
    lists.sort((a, b) => a.count - b.count);
    let result: Uint32Array | undefined;
    for (const posting of lists) {
      // Once few are left, the scan's own check is cheaper than decoding long lists.
      if (result && (result.length <= 4 || posting.count > result.length * 64)) break;
      result = result ? intersect(result, decode(posting)) : decode(posting);
    }
    return result ?? ALL;
  }
}
