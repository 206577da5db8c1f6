/**
 * Line selection over bytes: which bytes hold lines start..end (scanning forward) or the last N lines (scanning
 * backwards) within a byte budget, without reading more of the source than those lines and the scan step need.
 * The source is a whole file in memory or a file on disk read through the port's `readRange`.
 */
import { ToolError } from '../errors';
import type { EncodingId } from '../encoding/names';
import { countLinesInBytes, cutEnd, cutStart, type LineBreaks, lineBreaksOf } from './bytes';
import { CHUNK_BYTES } from '../ports/fs';
import { TAIL_CHUNK_BYTES } from './limits';

export interface LineRequest {
  /** 1-based first line; default 1. */
  readonly startLine?: number;
  /** 1-based last line, inclusive; default the last line. Past the end means "to the end". */
  readonly endLine?: number;
  /** The last N lines instead of a start/end range. */
  readonly tailLines?: number;
  /** Most bytes of the file (as stored, BOM aside; UTF-8 bytes for UTF-16 files) to return. */
  readonly maxBytes: number;
  /** Decode as this instead of the detected encoding; also allows reading a file that looks binary. */
  readonly encoding?: EncodingId;
}

export type TruncationReason = 'max_bytes' | 'line_too_long';

/** Bytes addressed by offset: a whole file in memory, or a file on disk read through `readRange`. */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export function memorySource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)) };
}

/** Where the requested lines lie in the source, and what is known about the rest of the file. */
export interface Selection {
  readonly start: number;
  readonly end: number;
  readonly startLine: number | null;
  readonly endLine: number | null;
  /** Lines in the file, when the scan saw all of them. */
  readonly totalLines: number | null;
  readonly truncation: TruncationReason | null;
  readonly nextStartLine: number | null;
}

function refuseStart(startLine: number, totalLines: number): ToolError {
  return new ToolError(
    'INVALID_INPUT',
    `start_line ${startLine} is past the end of the file, which has ${totalLines} line${totalLines === 1 ? '' : 's'}.${totalLines > 0 ? ` Ask for start_line 1 to ${totalLines}, or tail_lines.` : ''}`,
    { field: 'start_line', total_lines: totalLines },
  );
}

/** Lines `startLine`..`endLine` that fit in `maxBytes`, scanning forward from the start of the source. */
export async function selectForward(
  source: ByteSource,
  request: LineRequest,
  encoding: EncodingId,
  knownTotal: number | null,
): Promise<Selection> {
  const startLine = request.startLine ?? 1;
  const endLine = request.endLine ?? Number.POSITIVE_INFINITY;
  const breaks = lineBreaksOf(encoding);
  if (knownTotal !== null && startLine > Math.max(knownTotal, 1)) throw refuseStart(startLine, knownTotal);
  const start = await findLineStart(source, startLine, breaks);
  const range: ForwardRange = { start, startLine, endLine, maxBytes: request.maxBytes };
  const scan = await takeLines(source, range, breaks);
  if (scan.truncation === 'line_too_long') await cutLongLine(source, scan, range, encoding);
  return forwardSelection(scan, range, knownTotal);
}

/** What a forward selection takes: whole lines from `startLine`, which begins at byte `start`, up to `endLine`. */
interface ForwardRange {
  readonly start: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly maxBytes: number;
}

/** How far taking lines forward has come; the bytes taken are `range.start`..`end`. */
interface ForwardScan {
  end: number;
  /** The next line to take: one past the last line taken. */
  line: number;
  /** Where that line starts. */
  lineStart: number;
  truncation: TruncationReason | null;
  /** Whether the scan read to the end of the source. */
  atEnd: boolean;
}

/** Where line `startLine` begins: after the (startLine - 1)th newline. Refuses a line past the end of the source. */
async function findLineStart(source: ByteSource, startLine: number, breaks: LineBreaks): Promise<number> {
  const { size } = source;
  let position = 0;
  let start = 0;
  let needed = startLine - 1;
  let newlinesSeen = 0;
  while (needed > 0) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) break;
    let from = 0;
    for (;;) {
      const index = breaks.next(chunk, from);
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
    const last = await source.read(Math.max(0, size - breaks.unit), Math.min(size, breaks.unit));
    const total = size === 0 ? 0 : last.length === breaks.unit && breaks.next(last) === last.length - 1 ? newlinesSeen : newlinesSeen + 1;
    throw refuseStart(startLine, total);
  }
  return start;
}

/** Takes whole lines from `range.start` while they fit, chunk by chunk, until one does not or `endLine` is taken. */
async function takeLines(source: ByteSource, range: ForwardRange, breaks: LineBreaks): Promise<ForwardScan> {
  const scan: ForwardScan = { end: range.start, line: range.startLine, lineStart: range.start, truncation: null, atEnd: false };
  let position = range.start;
  for (;;) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) {
      takeLastLine(scan, source.size, range);
      return scan;
    }
    if (takeFromChunk(scan, chunk, position, range, breaks)) return scan;
    position += chunk.length;
  }
}

/** Takes the lines that end in `chunk` (read at `position`) while they fit; true when the scan is done. */
function takeFromChunk(scan: ForwardScan, chunk: Uint8Array, position: number, range: ForwardRange, breaks: LineBreaks): boolean {
  let from = 0;
  for (;;) {
    const index = breaks.next(chunk, from);
    const lineEnd = index === -1 ? -1 : position + index + 1;
    if (lineEnd === -1) {
      // The current line continues past this chunk; give up early on a line that cannot fit anyway.
      if (position + chunk.length - range.start > range.maxBytes) {
        scan.truncation = overflowAt(scan, range);
        return true;
      }
      return false;
    }
    if (lineEnd - range.start > range.maxBytes) {
      scan.truncation = overflowAt(scan, range);
      return true;
    }
    scan.end = lineEnd;
    scan.line++;
    scan.lineStart = lineEnd;
    from = index + 1;
    if (scan.line > range.endLine) return true;
  }
}

/** At the end of the source: takes a last line without a newline, if it is wanted and fits. */
function takeLastLine(scan: ForwardScan, size: number, range: ForwardRange): void {
  scan.atEnd = true;
  if (scan.lineStart < size && scan.line <= range.endLine) {
    if (size - range.start > range.maxBytes) scan.truncation = overflowAt(scan, range);
    else {
      scan.end = size;
      scan.line++;
    }
  }
}

/** Why taking stopped at a line that does not fit: alone it is too long (the first line), or the budget is spent. */
function overflowAt(scan: ForwardScan, range: ForwardRange): TruncationReason {
  return scan.line === range.startLine ? 'line_too_long' : 'max_bytes';
}

/** A first line longer than maxBytes: its first maxBytes bytes, cut back to a character boundary. */
async function cutLongLine(source: ByteSource, scan: ForwardScan, range: ForwardRange, encoding: EncodingId): Promise<void> {
  const head = await source.read(range.start, range.maxBytes + 4);
  scan.end = range.start + cutEnd(head, Math.min(range.maxBytes, head.length), encoding);
  scan.line = range.startLine + 1;
}

/** The selection a forward scan made, with the file's line count where the scan (or the caller) knows it. */
function forwardSelection(scan: ForwardScan, range: ForwardRange, knownTotal: number | null): Selection {
  const { line, truncation } = scan;
  const { startLine } = range;
  const lastReturned = line - 1;
  const totalLines = knownTotal ?? (scan.atEnd && truncation === null ? lastReturned : null);
  const more = totalLines === null || line <= totalLines;
  const returnedAny = truncation !== null || lastReturned >= startLine;
  return {
    start: range.start,
    end: scan.end,
    startLine: returnedAny ? startLine : null,
    endLine: truncation === 'line_too_long' ? startLine : lastReturned >= startLine ? lastReturned : null,
    totalLines,
    truncation,
    nextStartLine: truncation !== null && more && line <= range.endLine ? line : null,
  };
}

/** The last `count` lines that fit in `maxBytes`, scanning backwards from the end. */
export async function selectTail(
  source: ByteSource,
  request: LineRequest,
  encoding: EncodingId,
  knownTotal: number | null,
): Promise<Selection> {
  const count = request.tailLines ?? 0;
  const { size } = source;
  const breaks = lineBreaksOf(encoding);
  const { unit } = breaks;
  if (size === 0) return { start: 0, end: 0, startLine: null, endLine: null, totalLines: 0, truncation: null, nextStartLine: null };
  const last = await source.read(Math.max(0, size - unit), Math.min(size, unit));
  const endsWithNewline = last.length === unit && breaks.next(last) === last.length - 1;
  // Newlines before `scanEnd` separate lines; the one that ends the file does not start another.
  const scanEnd = endsWithNewline ? size - unit : size;
  let position = scanEnd;
  let start = -1;
  let newlines = 0;
  while (position > 0 && start === -1) {
    const from = Math.max(0, position - TAIL_CHUNK_BYTES);
    const chunk = await source.read(from, position - from);
    for (let index = breaks.previous(chunk); index !== -1; index = breaks.previous(chunk, index - 1)) {
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
    // start at or after size - maxBytes. A line starts after a newline; the file's final newline starts none. The
    // window begins a code unit early, so that a line starting right at its start is seen.
    const windowStart = size - request.maxBytes + ((size - request.maxBytes) % unit);
    const window = await source.read(windowStart - unit, size - windowStart + unit);
    const index = breaks.next(window, unit - 1);
    const lineStart = index === -1 ? size : windowStart - unit + index + 1;
    if (lineStart < size) {
      start = lineStart;
      truncation = 'max_bytes';
    } else {
      // Not even the last line fits: its last max_bytes bytes, from a character boundary.
      start = windowStart - unit + cutStart(window, unit, encoding);
      truncation = 'line_too_long';
    }
  }
  const returned = countLinesInBytes(await source.read(start, size - start), breaks);
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
