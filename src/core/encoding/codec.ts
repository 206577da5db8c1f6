/**
 * Bytes ↔ text in any encoding of names.ts, exactly or not at all.
 *
 * Invariant: `decodeExact` hands out text only when encoding that text again gives back the very bytes it came
 * from, and never U+FFFD for bytes that were not U+FFFD; `encodeExact` hands out bytes only when every character
 * of the text is in the encoding (iconv-lite would write `?` for one that is not). Every read and write of text in
 * Agent FS goes through these two, so a read followed by a write of the same text changes no byte.
 *
 * UTF-8 and UTF-16 are done here with TextDecoder; the legacy encodings with @vscode/iconv-lite-umd, the build of
 * iconv-lite VS Code itself uses (in the editor the host may pass VS Code's own workspace.decode/encode instead,
 * `TextCodec`, so both agree on every table by construction).
 */
import iconv from '@vscode/iconv-lite-umd';
import type { EncodingId } from './names';

/** Decodes and encodes a file's body (no BOM) in a named encoding, the way a host does it. May be lossy. */
export interface TextCodec {
  decode(body: Uint8Array, encoding: EncodingId): string | Promise<string>;
  encode(text: string, encoding: EncodingId): Uint8Array | Promise<Uint8Array>;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];
const UTF16BE_BOM = [0xfe, 0xff];

export function bomBytes(encoding: EncodingId): readonly number[] {
  switch (encoding) {
    case 'utf8':
    case 'utf8bom':
      return UTF8_BOM;
    case 'utf16le':
      return UTF16LE_BOM;
    case 'utf16be':
      return UTF16BE_BOM;
    default:
      return [];
  }
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.length > 0 && bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

/** The Unicode encoding a byte-order mark announces, if the bytes start with one. */
export function bomEncoding(bytes: Uint8Array): 'utf8' | 'utf16le' | 'utf16be' | undefined {
  if (startsWith(bytes, UTF8_BOM)) return 'utf8';
  if (startsWith(bytes, UTF16LE_BOM)) return 'utf16le';
  if (startsWith(bytes, UTF16BE_BOM)) return 'utf16be';
  return undefined;
}

function swapPairs(bytes: Uint8Array): Uint8Array {
  const swapped = new Uint8Array(bytes.length);
  for (let index = 0; index + 1 < bytes.length; index += 2) {
    swapped[index] = bytes[index + 1] ?? 0;
    swapped[index + 1] = bytes[index] ?? 0;
  }
  if (bytes.length % 2 === 1) swapped[bytes.length - 1] = bytes[bytes.length - 1] ?? 0;
  return swapped;
}

const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const utf16Decoder = new TextDecoder('utf-16le', { ignoreBOM: true });
const utf8Encoder = new TextEncoder();

function encodeUtf16(text: string, littleEndian: boolean): Uint8Array {
  const body = new Uint8Array(text.length * 2);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    body[index * 2] = littleEndian ? code & 0xff : code >> 8;
    body[index * 2 + 1] = littleEndian ? code >> 8 : code & 0xff;
  }
  return body;
}

/** Agent FS's own codec: TextDecoder for the Unicode encodings, iconv-lite for the rest. Synchronous. */
export const LOCAL_CODEC = {
  decode(body: Uint8Array, encoding: EncodingId): string {
    switch (encoding) {
      case 'utf8':
      case 'utf8bom':
        return utf8Decoder.decode(body);
      case 'utf16le':
        return utf16Decoder.decode(body);
      case 'utf16be':
        return utf16Decoder.decode(swapPairs(body));
      default:
        return iconv.decode(body, encoding);
    }
  },
  encode(text: string, encoding: EncodingId): Uint8Array {
    switch (encoding) {
      case 'utf8':
      case 'utf8bom':
        return utf8Encoder.encode(text);
      case 'utf16le':
        return encodeUtf16(text, true);
      case 'utf16be':
        return encodeUtf16(text, false);
      default:
        return iconv.encode(text, encoding);
    }
  },
} satisfies TextCodec;

function isUnicode(encoding: EncodingId): boolean {
  return encoding === 'utf8' || encoding === 'utf8bom' || encoding === 'utf16le' || encoding === 'utf16be';
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) if (a[index] !== b[index]) return index;
  return length;
}

export type ExactDecoding = { readonly text: string } | { readonly badOffset: number };

/** decodeExact with Agent FS's own codec, synchronously (for what needs no host: history diffs, scans). */
export function decodeExactLocal(body: Uint8Array, encoding: EncodingId): ExactDecoding {
  if (encoding === 'utf8' || encoding === 'utf8bom') {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body) };
    } catch {
      return { badOffset: invalidUtf8Offset(body) };
    }
  }
  const text = LOCAL_CODEC.decode(body, encoding);
  const again = LOCAL_CODEC.encode(text, encoding);
  const replacementAt = isUnicode(encoding) ? -1 : text.indexOf('\uFFFD');
  if (replacementAt === -1 && again.length === body.length && firstDifference(again, body) === body.length) return { text };
  let bad = firstDifference(again, body);
  if (replacementAt !== -1) bad = Math.min(bad, LOCAL_CODEC.encode(text.slice(0, replacementAt), encoding).length);
  return { badOffset: Math.min(bad, body.length) };
}

/**
 * `body` as text in `encoding` if that is exact (see the header), else the offset of the first byte that is not.
 * UTF-8 is checked with a fatal decoder; everything else by encoding the text again and comparing.
 */
export async function decodeExact(body: Uint8Array, encoding: EncodingId, codec: TextCodec = LOCAL_CODEC): Promise<ExactDecoding> {
  // UTF-8 and UTF-16 decode the same everywhere (TextDecoder); only the legacy tables are the host's.
  if (codec === LOCAL_CODEC || isUnicode(encoding)) return decodeExactLocal(body, encoding);
  const text = await codec.decode(body, encoding);
  const again = await codec.encode(text, encoding);
  // In a legacy encoding U+FFFD only ever stands for a byte without a character (none of them can hold U+FFFD).
  const replacementAt = isUnicode(encoding) ? -1 : text.indexOf('\uFFFD');
  if (replacementAt === -1 && again.length === body.length && firstDifference(again, body) === body.length) return { text };
  let bad = firstDifference(again, body);
  if (replacementAt !== -1) bad = Math.min(bad, (await codec.encode(text.slice(0, replacementAt), encoding)).length);
  return { badOffset: Math.min(bad, body.length) };
}

/** The offset of the first byte that does not belong to a valid UTF-8 sequence. */
function invalidUtf8Offset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index] ?? 0;
    let need: number;
    let min: number;
    if (byte < 0x80) {
      index++;
      continue;
    } else if (byte >= 0xc2 && byte <= 0xdf) [need, min] = [1, 0x80];
    else if (byte >= 0xe0 && byte <= 0xef) [need, min] = [2, 0x800];
    else if (byte >= 0xf0 && byte <= 0xf4) [need, min] = [3, 0x10000];
    else return index;
    if (index + need >= bytes.length) return index;
    let code = byte & (0xff >> (need + 2));
    for (let next = 1; next <= need; next++) {
      const continuation = bytes[index + next];
      if (continuation === undefined || (continuation & 0xc0) !== 0x80) return index;
      code = (code << 6) | (continuation & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return index;
    index += need + 1;
  }
  return bytes.length;
}

export type ExactEncoding = { readonly bytes: Uint8Array } | { readonly badIndex: number };

/**
 * `text` as bytes in `encoding` if every character is in it (decoding the bytes gives `text` back), else the index
 * of the first character that is not. A lone surrogate is never written (TextEncoder would make it U+FFFD).
 */
export async function encodeExact(text: string, encoding: EncodingId, codec: TextCodec = LOCAL_CODEC): Promise<ExactEncoding> {
  const bytes = await codec.encode(text, encoding);
  const back = await codec.decode(bytes, encoding);
  if (back === text) return { bytes };
  let index = 0;
  while (index < text.length && index < back.length && text.charCodeAt(index) === back.charCodeAt(index)) index++;
  // Step back to the start of a surrogate pair, so the character named is whole.
  if (index > 0 && index < text.length && isLowSurrogate(text.charCodeAt(index)) && isHighSurrogate(text.charCodeAt(index - 1))) index--;
  return { badIndex: Math.min(index, text.length - 1) };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** "“€” (U+20AC)": a character as a refusal names it. */
export function describeCharacter(text: string, index: number): string {
  const point = text.codePointAt(index) ?? 0;
  const shown =
    point < 0x20 || (point >= 0x7f && point < 0xa0) || (point >= 0xd800 && point <= 0xdfff) ? '' : `“${String.fromCodePoint(point)}” `;
  return `${shown}(U+${point.toString(16).toUpperCase().padStart(4, '0')})`;
}

/** 1-based line and column (in characters) of a string index. */
export function lineAndColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: [...text.slice(lineStart, index)].length + 1 };
}

/** 1-based line of a byte offset, counting '\n' bytes (ASCII-compatible encodings) or units (UTF-16). */
export function lineOfOffset(bytes: Uint8Array, offset: number, encoding: EncodingId): number {
  let line = 1;
  if (encoding === 'utf16le' || encoding === 'utf16be') {
    const low = encoding === 'utf16le' ? 0 : 1;
    for (let index = 0; index + 1 < offset; index += 2) if (bytes[index + low] === 0x0a && bytes[index + 1 - low] === 0) line++;
    return line;
  }
  for (let index = bytes.indexOf(0x0a); index !== -1 && index < offset; index = bytes.indexOf(0x0a, index + 1)) line++;
  return line;
}
