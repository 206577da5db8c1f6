/**
 * Bounded reads of text files by line (read_file, read_many_files) and the text facts of file_info.
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
import { ToolError } from './errors';
import type { FileSystem } from './fs';
import {
  BINARY_SNIFF_BYTES,
  contentHash,
  countLines,
  decodeText,
  detectBom,
  detectNewline,
  isLosslessUtf8,
  looksBinary,
  type NewlineStyle,
  type TextEncodingName,
} from './text';

/**
 * Files up to this size are read whole (10 MiB hashes in about 75 ms). It equals the edit tools' cap
 * (editing.ts EDIT_MAX_BYTES), so every file an edit accepts gets a content_hash from a read.
 */
export const WHOLE_READ_BYTES = 10 * 1024 * 1024;
/** Without ranged reads a file is read whole to read any of it; above this that is refused. */
export const UNRANGED_READ_CAP = 64 * 1024 * 1024;
/** Step of forward scans: large enough that a 1 GiB scan is a thousand reads, small enough to stay out of the way. */
const CHUNK_BYTES = 1024 * 1024;
/** Step of backward (tail) scans: a hundred log lines usually fit in one. */
const TAIL_CHUNK_BYTES = 64 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineRequest {
  /** 1-based first line; default 1. */
  readonly startLine?: number;
  /** 1-based last line, inclusive; default the last line. Past the end means "to the end". */
  readonly endLine?: number;
  /** The last N lines instead of a start/end range. */
  readonly tailLines?: number;
  /** Most bytes of the file (as stored; UTF-8 bytes for UTF-16 files) to return. */
  readonly maxBytes: number;
  /** Decode as this instead of the BOM's or UTF-8; also allows reading a file that looks binary. */
  readonly encoding?: TextEncodingName;
}

export type TruncationReason = 'max_bytes' | 'line_too_long';

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

/** Bytes addressed by offset: a whole file in memory, or a file on disk read through `readRange`. */
interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

function memorySource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)) };
}

/** Where the requested lines lie in the source, and what is known about the rest of the file. */
interface Selection {
  readonly start: number;
  readonly end: number;
  readonly startLine: number | null;
  readonly endLine: number | null;
  /** Lines in the file, when the scan saw all of them. */
  readonly totalLines: number | null;
  readonly truncation: TruncationReason | null;
  readonly nextStartLine: number | null;
}

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
function countLinesInBytes(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) count++;
  return bytes[bytes.length - 1] === NEWLINE ? count : count + 1;
}

function newlineOfBytes(bytes: Uint8Array): NewlineStyle {
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
function utf8CutEnd(bytes: Uint8Array, end: number, encoding: TextEncodingName): number {
  if (encoding === 'latin1') return end;
  let cut = end;
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return cut;
}

function utf8CutStart(bytes: Uint8Array, start: number, encoding: TextEncodingName): number {
  if (encoding === 'latin1') return start;
  let cut = start;
  while (cut < bytes.length && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut++;
  return cut;
}

function decodeContent(bytes: Uint8Array, encoding: TextEncodingName): string {
  // ignoreBOM keeps a UTF-8 BOM as U+FEFF in line 1: the content is what is stored.
  return encoding === 'latin1' ? decodeText(bytes, 'latin1').text : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

function refuseStart(startLine: number, totalLines: number): ToolError {
  return new ToolError(
    'INVALID_INPUT',
    `start_line ${startLine} is past the end of the file, which has ${totalLines} line${totalLines === 1 ? '' : 's'}.${totalLines > 0 ? ` Ask for start_line 1 to ${totalLines}, or tail_lines.` : ''}`,
    { field: 'start_line', total_lines: totalLines },
  );
}

/** Lines `startLine`..`endLine` that fit in `maxBytes`, scanning forward from the start of the source. */
async function selectForward(source: ByteSource, request: LineRequest, encoding: TextEncodingName, knownTotal: number | null): Promise<Selection> {
  const startLine = request.startLine ?? 1;
  const endLine = request.endLine ?? Number.POSITIVE_INFINITY;
  const { size } = source;
  if (knownTotal !== null && startLine > Math.max(knownTotal, 1)) throw refuseStart(startLine, knownTotal);

  // Find where startLine begins: after the (startLine - 1)th newline.
  let position = 0;
  let start = 0;
  let needed = startLine - 1;
  let newlinesSeen = 0;
  while (needed > 0) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) break;
    let from = 0;
    for (;;) {
      const index = chunk.indexOf(NEWLINE, from);
      if (index === -1) break;
      newlinesSeen++;
      needed--;
      from = index + 1;
      if (needed === 0) {
        start = position + from;
        break;
      }
    }
    position += chunk.length;
  }
  if (needed > 0 || (startLine > 1 && start >= size)) {
    // Past the end: the scan has seen every newline, so the count is exact.
    const lastByte = size > 0 ? (await source.read(size - 1, 1))[0] : undefined;
    const total = size === 0 ? 0 : lastByte === NEWLINE ? newlinesSeen : newlinesSeen + 1;
    throw refuseStart(startLine, total);
  }

  // Take whole lines from `start` while they fit.
  let end = start;
  let line = startLine;
  let lineStart = start;
  position = start;
  let truncation: TruncationReason | null = null;
  let atEnd = false;
  scan: for (;;) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) {
      atEnd = true;
      // A last line without a newline.
      if (lineStart < size && line <= endLine) {
        if (size - start > request.maxBytes) truncation = line === startLine ? 'line_too_long' : 'max_bytes';
        else {
          end = size;
          line++;
        }
      }
      break;
    }
    let from = 0;
    for (;;) {
      const index = chunk.indexOf(NEWLINE, from);
      const lineEnd = index === -1 ? -1 : position + index + 1;
      if (lineEnd === -1) {
        // The current line continues past this chunk; give up early on a line that cannot fit anyway.
        if (position + chunk.length - start > request.maxBytes) {
          truncation = line === startLine ? 'line_too_long' : 'max_bytes';
          break scan;
        }
        break;
      }
      if (lineEnd - start > request.maxBytes) {
        truncation = line === startLine ? 'line_too_long' : 'max_bytes';
        break scan;
      }
      end = lineEnd;
      line++;
      lineStart = lineEnd;
      from = index + 1;
      if (line > endLine) break scan;
    }
    position += chunk.length;
  }

  if (truncation === 'line_too_long') {
    const head = await source.read(start, request.maxBytes + 4);
    end = start + utf8CutEnd(head, Math.min(request.maxBytes, head.length), encoding);
    line = startLine + 1;
  }
  const lastReturned = line - 1;
  const totalLines = knownTotal ?? (atEnd && truncation === null ? lastReturned : null);
  const more = totalLines === null || line <= totalLines;
  const returnedAny = truncation !== null || lastReturned >= startLine;
  return {
    start,
    end,
    startLine: returnedAny ? startLine : null,
    endLine: truncation === 'line_too_long' ? startLine : lastReturned >= startLine ? lastReturned : null,
    totalLines,
    truncation,
    nextStartLine: truncation !== null && more && line <= endLine ? line : null,
  };
}

/** The last `count` lines that fit in `maxBytes`, scanning backwards from the end. */
async function selectTail(source: ByteSource, request: LineRequest, encoding: TextEncodingName, knownTotal: number | null): Promise<Selection> {
  const count = request.tailLines ?? 0;
  const { size } = source;
  if (size === 0) return { start: 0, end: 0, startLine: null, endLine: null, totalLines: 0, truncation: null, nextStartLine: null };
  const endsWithNewline = (await source.read(size - 1, 1))[0] === NEWLINE;
  // Newlines before `scanEnd` separate lines; the one that ends the file does not start another.
  const scanEnd = endsWithNewline ? size - 1 : size;
  let position = scanEnd;
  let start = -1;
  let newlines = 0;
  while (position > 0 && start === -1) {
    const from = Math.max(0, position - TAIL_CHUNK_BYTES);
    const chunk = await source.read(from, position - from);
    for (let index = chunk.lastIndexOf(NEWLINE); index !== -1; index = index === 0 ? -1 : chunk.lastIndexOf(NEWLINE, index - 1)) {
      newlines++;
      if (newlines === count) {
        start = from + index + 1;
        break;
      }
    }
    position = from;
    // Enough bytes for any answer that fits: stop even if the lines are longer than that.
    if (start === -1 && size - position > request.maxBytes) break;
  }
  const reachedStart = start === -1 && position === 0;
  if (reachedStart) start = 0;

  let truncation: TruncationReason | null = null;
  if (start === -1 || size - start > request.maxBytes) {
    // Too much for max_bytes (so size > maxBytes): keep the last whole lines that fit, i.e. start at the first line
    // start at or after size - maxBytes. A line starts after a newline; the file's final newline starts none.
    const windowStart = size - request.maxBytes;
    const window = await source.read(windowStart - 1, request.maxBytes + 1);
    const index = window.indexOf(NEWLINE);
    const lineStart = index === -1 ? size : windowStart + index;
    if (lineStart < size) {
      start = lineStart;
      truncation = 'max_bytes';
    } else {
      // Not even the last line fits: its last max_bytes bytes, from a character boundary.
      start = windowStart + utf8CutStart(window, 1, encoding) - 1;
      truncation = 'line_too_long';
    }
  }
  const returned = countLinesInBytes(await source.read(start, size - start));
  let totalLines = knownTotal;
  let startLine: number | null = null;
  if (knownTotal !== null) startLine = truncation === 'line_too_long' ? knownTotal : knownTotal - returned + 1;
  else if (reachedStart) {
    totalLines = newlines + 1;
    startLine = 1;
  }
  return {
    start,
    end: size,
    startLine,
    endLine: totalLines,
    totalLines,
    truncation,
    // A tail cut by max_bytes continues backwards; there is no forward line to resume from.
    nextStartLine: null,
  };
}

/**
 * Reads the lines `request` asks for from the file at `path` (already confined and known to be a file of `size`
 * bytes). Refuses binary content (BINARY_CONTENT_REFUSED) unless an encoding is named, and files the port cannot
 * read in part above UNRANGED_READ_CAP (LIMIT_EXCEEDED).
 */
export async function readLines(fs: FileSystem, path: string, display: string, size: number, request: LineRequest): Promise<LineRead> {
  const ranged = size > WHOLE_READ_BYTES && fs.readRange !== undefined;
  if (!ranged && size > UNRANGED_READ_CAP) {
    throw new ToolError(
      'LIMIT_EXCEEDED',
      `${display} is ${humanSize(size)}. This file system cannot read part of a file, and Agent FS reads at most ${humanSize(UNRANGED_READ_CAP)} whole. Open it on a local disk, or use agentfs_search_content to find the lines you need.`,
      { size_bytes: size, cap_bytes: UNRANGED_READ_CAP },
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
    throw new ToolError(
      'LIMIT_EXCEEDED',
      `${display} is a UTF-16 file of ${humanSize(size)}; Agent FS reads UTF-16 files of at most ${humanSize(WHOLE_READ_BYTES)}. Use agentfs_search_content to find lines in it.`,
      { size_bytes: size, cap_bytes: WHOLE_READ_BYTES },
    );
  }
  const source: ByteSource = { size, read: (offset, length) => readRange(path, offset, Math.max(0, Math.min(length, size - offset))) };
  const selection = request.tailLines !== undefined ? await selectTail(source, request, encoding, null) : await selectForward(source, request, encoding, null);
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

function selectionFields(selection: Selection): Pick<LineRead, 'start_line' | 'end_line' | 'truncated' | 'truncation_reason' | 'next_start_line'> {
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
    `${display} looks binary (it has a NUL byte in its first ${BINARY_SNIFF_BYTES} bytes), so it is not returned as text. Name an encoding (e.g. "latin1") to read it as text anyway, or use agentfs_file_info for its size and type.`,
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
  const selection = request.tailLines !== undefined ? await selectTail(source, request, cutAs, totalLines) : await selectForward(source, request, cutAs, totalLines);
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

export interface TextFacts {
  readonly is_text: boolean;
  readonly content_hash: string | null;
  readonly encoding: TextEncodingName | null;
  readonly bom: boolean | null;
  readonly newline: NewlineStyle | null;
  readonly line_count: number | null;
}

/**
 * The text facts of file_info. Files up to WHOLE_READ_BYTES are read whole and described completely; larger ones
 * are judged by their first bytes (content_hash and line_count null), never read whole.
 */
export async function describeText(fs: FileSystem, path: string, size: number): Promise<TextFacts> {
  const unknown: TextFacts = { is_text: false, content_hash: null, encoding: null, bom: null, newline: null, line_count: null };
  if (size <= WHOLE_READ_BYTES || !fs.readRange) {
    if (size > UNRANGED_READ_CAP) return unknown;
    const bytes = await fs.readFile(path);
    const hash = contentHash(bytes);
    if (looksBinary(bytes)) return { ...unknown, content_hash: hash };
    const announced = detectBom(bytes);
    if (announced === 'utf-16le' || announced === 'utf-16be') {
      const { text } = decodeText(bytes);
      return { is_text: true, content_hash: hash, encoding: announced, bom: true, newline: detectNewline(text), line_count: countLines(text) };
    }
    return {
      is_text: true,
      content_hash: hash,
      encoding: announced ?? (isLosslessUtf8(bytes) ? 'utf-8' : 'latin1'),
      bom: announced !== undefined,
      newline: newlineOfBytes(bytes),
      line_count: countLinesInBytes(bytes),
    };
  }
  const head = await fs.readRange(path, 0, CHUNK_BYTES);
  if (looksBinary(head)) return unknown;
  const announced = detectBom(head);
  return { is_text: true, content_hash: null, encoding: announced ?? 'utf-8', bom: announced !== undefined, newline: newlineOfBytes(head), line_count: null };
}

/** The line-range parameters read_file and read_many_files share. */
export interface LineParameters {
  start_line?: number;
  end_line?: number;
  tail_lines?: number;
  max_bytes?: number;
  encoding?: TextEncodingName;
}

/**
 * Checks the shared parameters against each other and the cap (LIMIT_EXCEEDED above `cap`, which is
 * agentFs.maxReadBytes) and turns them into a LineRequest; `defaultMaxBytes` applies when max_bytes is absent.
 */
export function lineRequest(input: LineParameters, cap: number, defaultMaxBytes: number, capName: string): LineRequest {
  if (input.tail_lines !== undefined && (input.start_line !== undefined || input.end_line !== undefined)) {
    throw new ToolError('INVALID_INPUT', 'tail_lines reads the last lines of a file; it cannot be combined with start_line or end_line. Pass one or the other.', { field: 'tail_lines' });
  }
  if (input.start_line !== undefined && input.end_line !== undefined && input.end_line < input.start_line) {
    throw new ToolError('INVALID_INPUT', `end_line ${input.end_line} is before start_line ${input.start_line}; both are 1-based and inclusive.`, { field: 'end_line' });
  }
  if (input.max_bytes !== undefined && input.max_bytes > cap) {
    throw new ToolError(
      'LIMIT_EXCEEDED',
      `max_bytes ${input.max_bytes} is above the cap of ${cap} bytes (${capName}). Ask for at most ${cap} and continue from next_start_line.`,
      { field: 'max_bytes', cap },
    );
  }
  return {
    startLine: input.start_line,
    endLine: input.end_line,
    tailLines: input.tail_lines,
    maxBytes: input.max_bytes ?? defaultMaxBytes,
    encoding: input.encoding,
  };
}
