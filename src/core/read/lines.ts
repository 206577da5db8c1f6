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
 * Text is decoded in the file's encoding (encoding/detect.ts) and only when exactly (encoding/fileText.ts), so the
 * content never holds a character the file does not: bytes that are not text in that encoding are refused
 * (ENCODING_MISMATCH), never handed out as U+FFFD. The BOM is not part of the content (`bom` says it is there).
 * A file read whole is decoded whole and its lines are picked from the text's UTF-8 bytes (the stored bytes
 * themselves for UTF-8), so `max_bytes` counts what the model receives. A file read in part is measured in its
 * stored bytes: a line ends with the byte '\n' (in UTF-16, the code unit 0x000A; bytes.ts, LineBreaks) and keeps its
 * '\r', so lines are found without decoding, and only the selected stretch is decoded.
 */
import { toolRef } from '../naming';
import { limitExceeded } from '../contract/caps';
import { bomBytes, decodeExact, LOCAL_CODEC } from '../encoding/codec';
import { DETECTION_HEAD_BYTES } from '../encoding/detect';
import { binaryRefusal, decodeFileText, detectFileEncoding, type FileRef, mismatch } from '../encoding/fileText';
import { type EncodingId, publicName } from '../encoding/names';
import type { FileSystem } from '../ports/fs';
import { contentHash, type NewlineStyle } from '../files/text';
import { countLinesInBytes, humanSize, lineBreaksOf, newlineOfBytes } from './bytes';
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
  readonly encoding: string;
  readonly bom: boolean;
  readonly newline: NewlineStyle;
  readonly start_line: number | null;
  readonly end_line: number | null;
  readonly truncated: boolean;
  readonly truncation_reason: TruncationReason | null;
  readonly next_start_line: number | null;
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Reads the lines `request` asks for from `file` (already confined and known to be a file of `size` bytes). Refuses
 * binary content (BINARY_CONTENT_REFUSED) unless an encoding is named, bytes that are not text in the file's encoding
 * (ENCODING_MISMATCH), and files the port cannot read in part above UNRANGED_READ_CAP (LIMIT_EXCEEDED).
 */
export async function readLines(fs: FileSystem, file: FileRef, size: number, request: LineRequest): Promise<LineRead> {
  const { display } = file;
  const ranged = size > WHOLE_READ_BYTES && fs.readRange !== undefined;
  if (!ranged && size > UNRANGED_READ_CAP) {
    throw limitExceeded(
      'size_bytes',
      UNRANGED_READ_CAP,
      `${display} is ${humanSize(size)}. This file system cannot read part of a file, and Agent FS reads at most ${humanSize(UNRANGED_READ_CAP)} whole. Open it on a local disk, or use ${toolRef('search_content')} to find the lines you need.`,
      display,
    );
  }
  if (!ranged) return readWhole(await fs.readFile(file.absolute), file, request);

  const readRange = fs.readRange?.bind(fs);
  if (!readRange) throw new Error('unreachable: ranged read without readRange');
  const head = await readRange(file.absolute, 0, DETECTION_HEAD_BYTES);
  const { detection, settings } = await detectFileEncoding(file, head, request.encoding);
  if (detection.kind === 'binary') throw binaryRefusal(display);
  const { encoding, bom } = detection;
  const breaks = lineBreaksOf(encoding);
  // Lines are counted from after the BOM, so line 1 starts with the first character.
  const skip = bom ? bomBytes(encoding).length : 0;
  const bodySize = size - skip;
  const source: ByteSource = {
    size: bodySize,
    read: (offset, length) => readRange(file.absolute, skip + offset, Math.max(0, Math.min(length, bodySize - offset))),
  };
  const selection =
    request.tailLines !== undefined
      ? await selectTail(source, request, encoding, null)
      : await selectForward(source, request, encoding, null);
  const bytes = await source.read(selection.start, selection.end - selection.start);
  const exact = await decodeExact(bytes, encoding, file.encodings.codec ?? LOCAL_CODEC);
  if ('badOffset' in exact) throw mismatch(file, bytes, bytes, detection, exact.badOffset, settings);
  return {
    content: exact.text,
    size_bytes: size,
    total_lines: selection.totalLines,
    content_hash: null,
    encoding: publicName(encoding),
    bom,
    // Only the part read is known; a single line says nothing, so the file's start decides then.
    newline: newlineOfBytes(bytes, breaks) === 'none' ? newlineOfBytes(head.subarray(skip), breaks) : newlineOfBytes(bytes, breaks),
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

/** A file read whole: everything about it is known. */
async function readWhole(bytes: Uint8Array, file: FileRef, request: LineRequest): Promise<LineRead> {
  const decoded = await decodeFileText(file, bytes, request.encoding);
  // UTF-8 files are measured in their own bytes; others in the UTF-8 bytes of their text, what the reply carries.
  const lineBytes: Uint8Array = decoded.encoding === 'utf8' ? bytes.subarray(decoded.bom ? 3 : 0) : utf8.encode(decoded.text);
  const cutAs: EncodingId = 'utf8';
  const source = memorySource(lineBytes);
  const totalLines = countLinesInBytes(lineBytes);
  const selection =
    request.tailLines !== undefined
      ? await selectTail(source, request, cutAs, totalLines)
      : await selectForward(source, request, cutAs, totalLines);
  return {
    content: utf8Decoder.decode(lineBytes.subarray(selection.start, selection.end)),
    size_bytes: bytes.length,
    total_lines: totalLines,
    content_hash: contentHash(bytes),
    encoding: publicName(decoded.encoding),
    bom: decoded.bom,
    newline: newlineOfBytes(lineBytes),
    ...selectionFields(selection),
  };
}
