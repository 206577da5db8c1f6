/**
 * Bounded reads of text files by line (read_file, read_many_files).
 *
 * Files up to WHOLE_READ_BYTES are read whole: the result then knows everything (content_hash, total_lines,
 * newline style of the whole file). Larger files are read in part through the port's optional `readRange`, so a
 * line range or the tail of a 1 GiB log costs the bytes around it, not the file: a forward range scans from the
 * start in CHUNK_BYTES steps (memory stays at one chunk plus the answer), a tail scans backwards from the end. Such
 * a result has content_hash null (hashing the file would mean reading all of it) and total_lines null unless the
 * scan reached the end anyway. Where the port has no `readRange`, files above UNRANGED_READ_CAP are refused.
 *
 * Line arithmetic works on the stored bytes for ASCII-compatible encodings (UTF-8, Latin-1): a line ends with its
 * '\n' byte and keeps its '\r', so line endings come back exactly as stored, and so does a UTF-8 byte-order mark
 * (U+FEFF at the start of line 1). UTF-16 files are decoded whole and measured in UTF-8 bytes; they are not read in
 * part, so those above WHOLE_READ_BYTES are refused.
 */
import { toolRef } from '../naming';
import { limitExceeded } from '../caps';
import { ToolError } from '../errors';
import type { FileSystem } from '../fs';
import { BINARY_SNIFF_BYTES, contentHash, decodeText, detectBom, looksBinary, type NewlineStyle, type TextEncodingName } from '../text';
import { countLinesInBytes, humanSize, newlineOfBytes } from './bytes';
import { UNRANGED_READ_CAP, WHOLE_READ_BYTES } from './limits';
import {
  type ByteSource,
  type LineRequest,
  memorySource,
  type Selection,
  selectForward,
  selectTail,
  type TruncationReason,
} from './select';

export interface LineRead {
  readonly content: string;
  readonly size_bytes: number;
  readonly total_lines: number | null;
  readonly content_hash: string | null;
  readonly encoding: TextEncodingName;
  readonly bom: boolean;
  readonly newline: NewlineStyle;
  readonly start_line: number | null;
  readonly end_line: number | null;
  readonly truncated: boolean;
  readonly truncation_reason: TruncationReason | null;
  readonly next_start_line: number | null;
}

function decodeContent(bytes: Uint8Array, encoding: TextEncodingName): string {
  // ignoreBOM keeps a UTF-8 BOM as U+FEFF in line 1: the content is what is stored.
  return encoding === 'latin1' ? decodeText(bytes, 'latin1').text : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/**
 * Reads the lines `request` asks for from the file at `path` (already confined and known to be a file of `size`
 * bytes). Refuses binary content (BINARY_CONTENT_REFUSED) unless an encoding is named, and files the port cannot
 * read in part above UNRANGED_READ_CAP (LIMIT_EXCEEDED).
 */
export async function readLines(fs: FileSystem, path: string, display: string, size: number, request: LineRequest): Promise<LineRead> {
  const ranged = size > WHOLE_READ_BYTES && fs.readRange !== undefined;
  if (!ranged && size > UNRANGED_READ_CAP) {
    throw limitExceeded(
      'size_bytes',
      UNRANGED_READ_CAP,
      `${display} is ${humanSize(size)}. This file system cannot read part of a file, and Agent FS reads at most ${humanSize(UNRANGED_READ_CAP)} whole. Open it on a local disk, or use ${toolRef('search_content')} to find the lines you need.`,
      display,
    );
  }
  if (!ranged) return readWhole(await fs.readFile(path), display, request);

  const readRange = fs.readRange?.bind(fs);
  if (!readRange) throw new Error('unreachable: ranged read without readRange');
  const head = await readRange(path, 0, BINARY_SNIFF_BYTES);
  if (looksBinary(head) && request.encoding === undefined) throw binaryRefusal(display);
  const announced = detectBom(head);
  const encoding = request.encoding ?? announced ?? 'utf-8';
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    throw limitExceeded(
      'size_bytes',
      WHOLE_READ_BYTES,
      `${display} is a UTF-16 file of ${humanSize(size)}; Agent FS reads UTF-16 files of at most ${humanSize(WHOLE_READ_BYTES)}. Use ${toolRef('search_content')} to find lines in it.`,
      display,
    );
  }
  const source: ByteSource = { size, read: (offset, length) => readRange(path, offset, Math.max(0, Math.min(length, size - offset))) };
  const selection =
    request.tailLines !== undefined
      ? await selectTail(source, request, encoding, null)
      : await selectForward(source, request, encoding, null);
  const bytes = await source.read(selection.start, selection.end - selection.start);
  return {
    content: decodeContent(bytes, encoding),
    size_bytes: size,
    total_lines: selection.totalLines,
    content_hash: null,
    encoding,
    bom: announced !== undefined && announced === encoding,
    // Only the part read is known; a single line says nothing, so the file's start decides then.
    newline: newlineOfBytes(bytes) === 'none' ? newlineOfBytes(head) : newlineOfBytes(bytes),
    ...selectionFields(selection),
  };
}

function selectionFields(
  selection: Selection,
): Pick<LineRead, 'start_line' | 'end_line' | 'truncated' | 'truncation_reason' | 'next_start_line'> {
  return {
    start_line: selection.startLine,
    end_line: selection.endLine,
    truncated: selection.truncation !== null,
    truncation_reason: selection.truncation,
    next_start_line: selection.nextStartLine,
  };
}

function binaryRefusal(display: string): ToolError {
  return new ToolError(
    'BINARY_CONTENT_REFUSED',
    `${display} looks binary (it has a NUL byte in its first ${BINARY_SNIFF_BYTES} bytes), so it is not returned as text. Name an encoding (e.g. "latin1") to read it as text anyway, or use ${toolRef('file_info')} for its size and type.`,
  );
}

/** A file read whole: everything about it is known. */
export async function readWhole(bytes: Uint8Array, display: string, request: LineRequest): Promise<LineRead> {
  if (request.encoding === undefined && looksBinary(bytes)) throw binaryRefusal(display);
  const announced = detectBom(bytes);
  const encoding = request.encoding ?? announced ?? 'utf-8';
  const bom = announced !== undefined && announced === encoding;
  let lineBytes = bytes;
  let newline: NewlineStyle;
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const { text } = decodeText(bytes, encoding);
    // Measured and cut as UTF-8, the BOM kept as U+FEFF like a UTF-8 file's.
    lineBytes = new TextEncoder().encode(bom ? `\uFEFF${text}` : text);
    newline = newlineOfBytes(lineBytes);
  } else newline = newlineOfBytes(bytes);
  const source = memorySource(lineBytes);
  const totalLines = countLinesInBytes(lineBytes);
  const cutAs = encoding === 'latin1' ? 'latin1' : 'utf-8';
  const selection =
    request.tailLines !== undefined
      ? await selectTail(source, request, cutAs, totalLines)
      : await selectForward(source, request, cutAs, totalLines);
  const slice = lineBytes.subarray(selection.start, selection.end);
  return {
    content: decodeContent(slice, encoding === 'latin1' ? 'latin1' : 'utf-8'),
    size_bytes: bytes.length,
    total_lines: totalLines,
    content_hash: contentHash(bytes),
    encoding,
    bom,
    newline,
    ...selectionFields(selection),
  };
}
