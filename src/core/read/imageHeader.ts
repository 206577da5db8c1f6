/**
 * The four image formats a model can be shown (PNG, JPEG, GIF, WebP), told by their first bytes, and their pixel
 * size read from the header: the fields every decoder reads first, so no image library is needed. Pure: bytes in,
 * facts out.
 */

import type { ImageMimeType } from '../envelope';

export interface ImageHeader {
  readonly mimeType: ImageMimeType;
  readonly width: number;
  readonly height: number;
}

/** Enough of a file to tell its format: the longest signature checked is WebP's 12 bytes. */
export const IMAGE_SNIFF_BYTES = 16;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, index) => bytes[at + index] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((character) => character.charCodeAt(0));
}

/** The format the first bytes announce, or undefined for anything else (then the file is not treated as an image). */
export function imageFormatOf(head: Uint8Array): ImageMimeType | undefined {
  if (startsWith(head, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  return undefined;
}

const byteAt = (bytes: Uint8Array, index: number): number => bytes[index] ?? 0;
const u16be = (bytes: Uint8Array, at: number): number => (byteAt(bytes, at) << 8) | byteAt(bytes, at + 1);
const u16le = (bytes: Uint8Array, at: number): number => byteAt(bytes, at) | (byteAt(bytes, at + 1) << 8);
const u24le = (bytes: Uint8Array, at: number): number => u16le(bytes, at) | (byteAt(bytes, at + 2) << 16);
const u32be = (bytes: Uint8Array, at: number): number => u16be(bytes, at) * 0x10000 + u16be(bytes, at + 2);

/**
 * The format and pixel size of a whole image file, or undefined when its first bytes announce none of the four
 * formats. `damaged` when they do but the header is cut short or holds a zero size: such a file is not sent to a
 * model, whose API would refuse it anyway.
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | { readonly mimeType: ImageMimeType; readonly damaged: true } | undefined {
  const mimeType = imageFormatOf(bytes);
  if (mimeType === undefined) return undefined;
  const size = dimensions(bytes, mimeType);
  if (size === undefined || size.width <= 0 || size.height <= 0) return { mimeType, damaged: true };
  return { mimeType, ...size };
}

function dimensions(bytes: Uint8Array, mimeType: ImageMimeType): { width: number; height: number } | undefined {
  switch (mimeType) {
    case 'image/png':
      // The signature, then the IHDR chunk, which the format requires first: length, type, width, height (big-endian).
      if (bytes.length < 24 || !startsWith(bytes, ascii('IHDR'), 12)) return undefined;
      return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
    case 'image/gif':
      // The logical screen descriptor right after the 6-byte signature (little-endian).
      if (bytes.length < 10) return undefined;
      return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
    case 'image/webp':
      return webpDimensions(bytes);
    case 'image/jpeg':
      return jpegDimensions(bytes);
  }
}

/** The first chunk after "RIFF size WEBP" says which of the three encodings follows, each with its own size fields. */
function webpDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 30) return undefined;
  if (startsWith(bytes, ascii('VP8 '), 12)) {
    // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height (the top 2 bits scale).
    if (!startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return undefined;
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  }
  if (startsWith(bytes, ascii('VP8L'), 12)) {
    // Lossless: the signature byte 0x2f, then width - 1 and height - 1 as two 14-bit fields, least significant first.
    if (byteAt(bytes, 20) !== 0x2f) return undefined;
    const bits = u16le(bytes, 21) + u16le(bytes, 23) * 0x10000;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (startsWith(bytes, ascii('VP8X'), 12)) {
    // Extended (alpha, animation, metadata): flags and reserved bytes, then canvas width - 1 and height - 1, 24-bit.
    return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  }
  return undefined;
}

/**
 * Walks the marker segments to the first start-of-frame, which holds the frame's height and width. Markers without
 * a length (restart markers, TEM) and fill bytes (extra 0xff) are stepped over; the scan stops at start-of-scan or
 * end-of-image, after which no frame header can come first.
 */
function jpegDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 1 < bytes.length) {
    if (byteAt(bytes, at) !== 0xff) return undefined;
    const marker = byteAt(bytes, at + 1);
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    if (at + 4 > bytes.length) return undefined;
    const length = u16be(bytes, at + 2);
    if (length < 2) return undefined;
    // SOF0–SOF15 carry the frame header; 0xc4 (Huffman tables), 0xc8 (reserved) and 0xcc (arithmetic coding) do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > bytes.length) return undefined;
      return { height: u16be(bytes, at + 5), width: u16be(bytes, at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}
