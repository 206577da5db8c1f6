/**
 * Facts about stored bytes that the reads need without decoding: line counts, newline style and UTF-8 cut points,
 * for the ASCII-compatible encodings (UTF-8, Latin-1) whose line ends are '\n' bytes.
 */
import type { NewlineStyle, TextEncodingName } from '../text';

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

/** The largest cut ≤ `end` that does not split a UTF-8 sequence (Latin-1 cuts anywhere). */
export function utf8CutEnd(bytes: Uint8Array, end: number, encoding: TextEncodingName): number {
  if (encoding === 'latin1') return end;
  let cut = end;
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return cut;
}

export function utf8CutStart(bytes: Uint8Array, start: number, encoding: TextEncodingName): number {
  if (encoding === 'latin1') return start;
  let cut = start;
  while (cut < bytes.length && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut++;
  return cut;
}
