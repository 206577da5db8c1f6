/**
 * How Agent FS sees the bytes of a text file: encoding, byte-order mark, newline convention, hash. Reads report
 * these; edits keep them. Invariant: `encodeText(decodeText(bytes))` gives back `bytes` for every file whose
 * encoding round-trips (UTF-8 without invalid sequences, UTF-16 with a BOM, Latin-1).
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';

export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'latin1'] as const;
export type TextEncodingName = (typeof ENCODINGS)[number];

export type NewlineStyle = 'lf' | 'crlf' | 'mixed' | 'none';

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];
const UTF16BE_BOM = [0xfe, 0xff];

/** Bytes inspected to decide "binary": enough to see NULs of any binary format, cheap on huge files. */
export const BINARY_SNIFF_BYTES = 8192;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** The encoding a byte-order mark announces, if any. */
export function detectBom(bytes: Uint8Array): TextEncodingName | undefined {
  if (startsWith(bytes, UTF8_BOM)) return 'utf-8';
  if (startsWith(bytes, UTF16LE_BOM)) return 'utf-16le';
  if (startsWith(bytes, UTF16BE_BOM)) return 'utf-16be';
  return undefined;
}

export function bomBytes(encoding: TextEncodingName): readonly number[] {
  return encoding === 'utf-8' ? UTF8_BOM : encoding === 'utf-16le' ? UTF16LE_BOM : encoding === 'utf-16be' ? UTF16BE_BOM : [];
}

/** A NUL byte in the first bytes of a file without a UTF-16 BOM marks it binary (git's and ripgrep's rule). */
export function looksBinary(bytes: Uint8Array): boolean {
  const bom = detectBom(bytes);
  if (bom === 'utf-16le' || bom === 'utf-16be') return false;
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}

export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncodingName;
  readonly bom: boolean;
}

/**
 * Decodes a file's bytes. A BOM decides the encoding unless `encoding` is named; the BOM is not part of `text`.
 * Without either, UTF-8 is assumed (invalid sequences become U+FFFD: callers that write back must check
 * `isLosslessUtf8` first).
 */
export function decodeText(bytes: Uint8Array, encoding?: TextEncodingName): DecodedText {
  const announced = detectBom(bytes);
  const chosen = encoding ?? announced ?? 'utf-8';
  const bom = announced !== undefined && announced === chosen;
  const body = bom ? bytes.subarray(bomBytes(chosen).length) : bytes;
  return { text: decodeBody(body, chosen), encoding: chosen, bom };
}

function decodeBody(body: Uint8Array, encoding: TextEncodingName): string {
  switch (encoding) {
    case 'latin1': {
      let text = '';
      for (let offset = 0; offset < body.length; offset += 0x8000) {
        text += String.fromCharCode(...body.subarray(offset, offset + 0x8000));
      }
      return text;
    }
    case 'utf-16be': {
      const swapped = new Uint8Array(body.length - (body.length % 2));
      for (let index = 0; index + 1 < body.length; index += 2) {
        swapped[index] = body[index + 1] ?? 0;
        swapped[index + 1] = body[index] ?? 0;
      }
      return new TextDecoder('utf-16le').decode(swapped);
    }
    default:
      return new TextDecoder(encoding, { ignoreBOM: true }).decode(body);
  }
}

/** Whether the bytes are valid UTF-8, so decoding and re-encoding them changes nothing. */
export function isLosslessUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Encodes `text` as a file in `encoding`, with the BOM when `bom`. Latin-1 refuses characters above U+00FF. */
export function encodeText(text: string, encoding: TextEncodingName, bom: boolean): Uint8Array {
  const prefix = bom ? bomBytes(encoding) : [];
  let body: Uint8Array;
  switch (encoding) {
    case 'utf-8':
      body = new TextEncoder().encode(text);
      break;
    case 'latin1': {
      body = new Uint8Array(text.length);
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        if (code > 0xff)
          throw new RangeError(`Character U+${code.toString(16).toUpperCase().padStart(4, '0')} cannot be written as Latin-1.`);
        body[index] = code;
      }
      break;
    }
    default: {
      body = new Uint8Array(text.length * 2);
      const littleEndian = encoding === 'utf-16le';
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        body[index * 2] = littleEndian ? code & 0xff : code >> 8;
        body[index * 2 + 1] = littleEndian ? code >> 8 : code & 0xff;
      }
    }
  }
  const result = new Uint8Array(prefix.length + body.length);
  result.set(prefix, 0);
  result.set(body, prefix.length);
  return result;
}

export function detectNewline(text: string): NewlineStyle {
  let crlf = 0;
  let lf = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf++;
    else lf++;
    if (crlf > 0 && lf > 0) return 'mixed';
  }
  return crlf > 0 ? 'crlf' : lf > 0 ? 'lf' : 'none';
}

/** Lines as an editor counts them: a trailing newline does not start another line; an empty text has none. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

/** The `content_hash` of the contract: "sha256:" and the hex SHA-256 of the file's exact bytes. */
export function contentHash(bytes: Uint8Array): string {
  return `sha256:${bytesToHex(sha256(bytes))}`;
}
