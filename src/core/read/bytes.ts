/**
 * Facts about stored bytes that the reads need without decoding: line counts, newline style and UTF-8 cut points,
 * for the ASCII-compatible encodings (all but UTF-16) whose line ends are '\n' bytes.
 */
import { type EncodingFamily, type EncodingId, familyOf } from '../encoding/names';
import type { NewlineStyle } from '../text';

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

/** Lines as an editor counts them (text.ts countLines), over bytes. */
export function countLinesInBytes(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) count++;
  return bytes[bytes.length - 1] === NEWLINE ? count : count + 1;
}

export function newlineOfBytes(bytes: Uint8Array): NewlineStyle {
  let crlf = 0;
  let lf = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) {
    if (index > 0 && bytes[index - 1] === CARRIAGE_RETURN) crlf++;
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
