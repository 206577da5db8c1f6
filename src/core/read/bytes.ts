/**
 * Facts about stored bytes that the reads and the streamed edits need without decoding: where lines end, line counts,
 * newline style and character cut points.
 */
import { type EncodingFamily, type EncodingId, familyOf } from '../encoding/names';
import type { NewlineStyle } from '../files/text';

export const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export function humanSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit] ?? ''}`;
}

/**
 * Where lines end in an encoding's stored bytes. In every encoding Agent FS knows but UTF-16 a line ends after the
 * byte 0x0A, which is part of no other character; in UTF-16 it ends after the code unit 0x000A, two bytes at an even
 * offset from the start of the text (after the BOM), and a 0x0A byte anywhere else belongs to another character.
 * A newline is named by the offset of its last byte, so the next line starts one byte after it in every encoding.
 *
 * Invariant: the bytes handed in start at an even offset of the text (a line start, or a whole number of chunks in),
 * so that a code unit's place in them is its place in the text.
 */
export interface LineBreaks {
  /** Bytes in a code unit: 2 in UTF-16, else 1. */
  readonly unit: 1 | 2;
  /** The last byte of the first newline whose last byte is at `from` or after; -1 if none. */
  next(bytes: Uint8Array, from?: number): number;
  /** The last byte of the last newline whose last byte is at `from` or before; -1 if none. */
  previous(bytes: Uint8Array, from?: number): number;
  /** Whether the newline whose last byte is at `end` follows a carriage return; `before(k)` is the byte k before the array (k < 0). */
  afterReturn(bytes: Uint8Array, end: number, before?: (offset: number) => number | undefined): boolean;
}

const at = (bytes: Uint8Array, offset: number, before?: (offset: number) => number | undefined): number | undefined =>
  offset >= 0 ? bytes[offset] : before?.(offset);

/** Line ends of every encoding but UTF-16: the byte 0x0A. */
export const BYTE_BREAKS: LineBreaks = {
  unit: 1,
  next: (bytes, from = 0) => bytes.indexOf(NEWLINE, from),
  previous: (bytes, from = bytes.length - 1) => (from < 0 ? -1 : bytes.lastIndexOf(NEWLINE, from)),
  afterReturn: (bytes, end, before) => at(bytes, end - 1, before) === CARRIAGE_RETURN,
};

/** UTF-16: `low` is the offset of the code unit's low byte in it (0 little-endian, 1 big-endian). */
function unitBreaks(low: 0 | 1): LineBreaks {
  const high = 1 - low;
  return {
    unit: 2,
    next(bytes, from = 0) {
      for (let index = bytes.indexOf(NEWLINE, Math.max(0, from - 1)); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) {
        const start = index - low;
        if (start % 2 === 0 && start + 1 >= from && bytes[start + high] === 0 && start + 1 < bytes.length) return start + 1;
      }
      return -1;
    },
    previous(bytes, from = bytes.length - 1) {
      for (
        let index = from < 0 ? -1 : bytes.lastIndexOf(NEWLINE, from);
        index !== -1;
        index = index === 0 ? -1 : bytes.lastIndexOf(NEWLINE, index - 1)
      ) {
        const start = index - low;
        if (start >= 0 && start % 2 === 0 && start + 1 <= from && bytes[start + high] === 0) return start + 1;
      }
      return -1;
    },
    // The carriage return is the unit before: its bytes at end - 3 and end - 2.
    afterReturn: (bytes, end, before) => at(bytes, end - 3 + low, before) === CARRIAGE_RETURN && at(bytes, end - 3 + high, before) === 0,
  };
}

const UTF16LE_BREAKS = unitBreaks(0);
const UTF16BE_BREAKS = unitBreaks(1);

export function lineBreaksOf(encoding: EncodingId): LineBreaks {
  return encoding === 'utf16le' ? UTF16LE_BREAKS : encoding === 'utf16be' ? UTF16BE_BREAKS : BYTE_BREAKS;
}

/** Lines as an editor counts them (text.ts countLines), over bytes. */
export function countLinesInBytes(bytes: Uint8Array, breaks: LineBreaks = BYTE_BREAKS): number {
  if (bytes.length === 0) return 0;
  let count = 0;
  let last = -1;
  for (let index = breaks.next(bytes); index !== -1; index = breaks.next(bytes, index + 1)) {
    count++;
    last = index;
  }
  return last === bytes.length - 1 ? count : count + 1;
}

export function newlineOfBytes(bytes: Uint8Array, breaks: LineBreaks = BYTE_BREAKS): NewlineStyle {
  let crlf = 0;
  let lf = 0;
  for (let index = breaks.next(bytes); index !== -1; index = breaks.next(bytes, index + 1)) {
    if (breaks.afterReturn(bytes, index)) crlf++;
    else lf++;
    if (crlf > 0 && lf > 0) return 'mixed';
  }
  return crlf > 0 ? 'crlf' : lf > 0 ? 'lf' : 'none';
}

/**
 * The largest cut ≤ `end` that does not split a character, in bytes that start on a character boundary (a line's
 * start). UTF-8 steps back over continuation bytes; single-byte encodings cut anywhere; the legacy multi-byte
 * encodings walk their characters from the start, by their lead bytes.
 */
export function cutEnd(bytes: Uint8Array, end: number, encoding: EncodingId): number {
  const family = familyOf(encoding);
  if (family === 'single') return end;
  if (family === 'utf8') {
    let cut = end;
    while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
    return cut;
  }
  if (family === 'utf16') return end - (end % 2);
  let at = 0;
  for (;;) {
    const next = at + characterLength(bytes, at, family);
    if (next > end) return at;
    at = next;
  }
}

/**
 * The smallest cut ≥ `start` that does not split a character, in bytes that may start mid-character. UTF-8
 * resynchronises on any byte that is not a continuation; the legacy multi-byte encodings after any byte below 0x30
 * (control characters, space and punctuation are never part of a multi-byte character in any of them).
 */
export function cutStart(bytes: Uint8Array, start: number, encoding: EncodingId): number {
  const family = familyOf(encoding);
  if (family === 'single') return start;
  let cut = start;
  if (family === 'utf8') {
    while (cut < bytes.length && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut++;
    return cut;
  }
  if (family === 'utf16') return cut + (cut % 2);
  if (cut === 0 || (bytes[cut - 1] ?? 0) < 0x30) return cut;
  while (cut < bytes.length && (bytes[cut] ?? 0) >= 0x30) cut++;
  return Math.min(bytes.length, cut + 1);
}

/** Bytes of the character at `at` in a legacy multi-byte encoding. */
function characterLength(bytes: Uint8Array, at: number, family: EncodingFamily): number {
  const lead = bytes[at] ?? 0;
  switch (family) {
    case 'sjis':
      return (lead >= 0x81 && lead <= 0x9f) || (lead >= 0xe0 && lead <= 0xfc) ? 2 : 1;
    case 'eucjp':
      return lead === 0x8f ? 3 : lead === 0x8e || (lead >= 0xa1 && lead <= 0xfe) ? 2 : 1;
    case 'gb18030': {
      if (lead < 0x81 || lead > 0xfe) return 1;
      const second = bytes[at + 1] ?? 0;
      return second >= 0x30 && second <= 0x39 ? 4 : 2;
    }
    default:
      return lead >= 0x81 && lead <= 0xfe ? 2 : 1;
  }
}
