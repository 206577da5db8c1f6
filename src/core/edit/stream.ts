/**
 * Edits of files too large to hold in memory, as passes over the file's bytes (read through the port's readRange in
 * CHUNK_BYTES pieces) that never hold more than one chunk and the windows being edited.
 *
 * A window is a run of whole lines around what an edit touches. `splicePass` finds the windows, hands each to the
 * edit's rewrite (which decodes it, edits the text and encodes it again, textEdit.ts) and, when given a writer, writes
 * the new file on the way: every byte outside the windows is copied as it is, so what an edit does not touch is
 * byte-identical whatever the file holds. The searches find where old text occurs without decoding the file.
 *
 * These passes need an encoding in which the byte 0x0A is a line feed wherever it occurs (every encoding Agent FS
 * knows except UTF-16), which the callers check.
 *
 * Over 300 lines: the passes and the byte searches share one chunked reading of the file and its line bookkeeping.
 */
import { limitExceeded } from '../caps';
import type { ToolError } from '../errors';
import type { FileWriter, IncrementalHash } from '../fs';
import { humanSize } from '../read/bytes';
import { CHUNK_BYTES } from '../read/limits';
import type { ByteSource } from '../read/select';
import { type CallSignals, throwIfCancelled } from '../signals';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** The most bytes one window may hold: the lines an edit touches are decoded and edited in memory. */
export const WINDOW_MAX_BYTES = 32 * 1024 * 1024;

/** Lines `firstLine`..`lastLine` (1-based, inclusive; past the end means to the end), or everything from a line start. */
export type WindowSpec = { readonly firstLine: number; readonly lastLine: number } | { readonly fromOffset: number };

export interface Window {
  /** 1-based number of the window's first line (the line count plus one for a window at the very end). */
  readonly firstLine: number;
  /** Offsets in the source: [start, end). */
  readonly start: number;
  readonly end: number;
  readonly bytes: Uint8Array;
  /** Whether the window reaches the end of the file (so the lines after it are known: none). */
  readonly atEnd: boolean;
}

export interface PassSummary {
  readonly totalLines: number;
  /** Line endings seen: for the newline style of the whole file. */
  readonly lf: number;
  readonly crlf: number;
  readonly windows: readonly Window[];
}

function windowTooLarge(display: string): ToolError {
  return limitExceeded(
    'size_bytes',
    WINDOW_MAX_BYTES,
    `The lines this edit touches in ${display} are longer than ${humanSize(WINDOW_MAX_BYTES)}; Agent FS edits lines of at most that size. Nothing was changed.`,
    display,
  );
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const joined = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** Merges overlapping or touching line windows (sorted by first line). Offset windows stand alone. */
export function mergeWindows(specs: readonly WindowSpec[]): WindowSpec[] {
  const lines = specs
    .filter((spec): spec is { firstLine: number; lastLine: number } => 'firstLine' in spec)
    .sort((a, b) => a.firstLine - b.firstLine);
  const merged: { firstLine: number; lastLine: number }[] = [];
  for (const spec of lines) {
    const last = merged[merged.length - 1];
    if (last && spec.firstLine <= last.lastLine + 1) last.lastLine = Math.max(last.lastLine, spec.lastLine);
    else merged.push({ firstLine: spec.firstLine, lastLine: spec.lastLine });
  }
  return [...merged, ...specs.filter((spec) => 'fromOffset' in spec)];
}

export interface PassOptions {
  readonly display: string;
  /** Called for each window, in order; returns its new bytes. Throwing refuses the edit (nothing is renamed into place). */
  readonly rewrite?: (window: Window) => Promise<Uint8Array>;
  /** Where the new file goes: the bytes before the first window, each rewritten window, the bytes between and after. */
  readonly writer?: FileWriter;
  /** Fed every byte of the source, in order, as each is copied or taken into a window. */
  readonly hash?: IncrementalHash;
  /** Told when the first window opens: until then the output is the source byte for byte. */
  readonly onFirstWindow?: () => void;
  readonly signals: Pick<CallSignals, 'isCancelled'>;
}

/**
 * One pass over `source`: counts its lines and line endings, finds the windows `specs` name (merged first, see
 * mergeWindows; they must not overlap), rewrites them and writes the result where asked. A window that starts past
 * the last line is found empty at the end of the file, so a rewrite can refuse it with the file's real line count.
 */
export async function splicePass(source: ByteSource, specs: readonly WindowSpec[], options: PassOptions): Promise<PassSummary> {
  const pending = [...specs].sort((a, b) => startKey(a) - startKey(b));
  const windows: Window[] = [];
  let open:
    { readonly firstLine: number; readonly start: number; readonly lastLine: number; parts: Uint8Array[]; size: number } | undefined;
  let line = 1;
  let lf = 0;
  let crlf = 0;
  let position = 0;
  let previous = -1;

  let windowsOpened = 0;
  const copy = async (bytes: Uint8Array): Promise<void> => {
    if (bytes.length === 0) return;
    options.hash?.update(bytes);
    await options.writer?.write(bytes);
  };
  const take = (bytes: Uint8Array): void => {
    if (!open || bytes.length === 0) return;
    options.hash?.update(bytes);
    if (open.size + bytes.length > WINDOW_MAX_BYTES) throw windowTooLarge(options.display);
    open.parts.push(bytes.slice());
    open.size += bytes.length;
  };
  const close = async (end: number): Promise<void> => {
    if (!open) return;
    const window: Window = {
      firstLine: open.firstLine,
      start: open.start,
      end,
      bytes: concat(open.parts, open.size),
      atEnd: end === source.size,
    };
    open = undefined;
    windows.push(window);
    if (options.rewrite) await copy(await options.rewrite(window));
  };
  /** Opens the next window if it starts at this line start. */
  const startAt = (offset: number, lineNumber: number): boolean => {
    const next = pending[0];
    if (open || !next) return false;
    const here = 'firstLine' in next ? next.firstLine <= lineNumber : next.fromOffset <= offset;
    if (!here) return false;
    pending.shift();
    if (windowsOpened++ === 0) options.onFirstWindow?.();
    open = {
      firstLine: lineNumber,
      start: offset,
      lastLine: 'lastLine' in next ? next.lastLine : Number.POSITIVE_INFINITY,
      parts: [],
      size: 0,
    };
    return true;
  };

  startAt(0, 1);
  for (;;) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) break;
    let segment = 0;
    for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, index + 1)) {
      if ((index > 0 ? chunk[index - 1] : previous) === CARRIAGE_RETURN) crlf++;
      else lf++;
      const after = index + 1;
      if (open && line >= open.lastLine) {
        take(chunk.subarray(segment, after));
        segment = after;
        await close(position + after);
      }
      line++;
      if (!open && pending.length > 0 && startAtWouldOpen(pending[0], position + after, line)) {
        await copy(chunk.subarray(segment, after));
        segment = after;
        startAt(position + after, line);
      }
    }
    if (open) take(chunk.subarray(segment));
    else await copy(chunk.subarray(segment));
    previous = chunk[chunk.length - 1] ?? -1;
    position += chunk.length;
    throwIfCancelled(options.signals);
  }
  const totalLines = position === 0 ? 0 : previous === NEWLINE ? line - 1 : line;
  await close(position);
  // Windows that start past the end: empty, at the end of the file.
  while (pending.length > 0) {
    pending.shift();
    if (windowsOpened++ === 0) options.onFirstWindow?.();
    open = { firstLine: totalLines + 1, start: position, lastLine: Number.POSITIVE_INFINITY, parts: [], size: 0 };
    await close(position);
  }
  return { totalLines, lf, crlf, windows };
}

function startKey(spec: WindowSpec): number {
  return 'firstLine' in spec ? spec.firstLine : Number.MAX_SAFE_INTEGER;
}

function startAtWouldOpen(spec: WindowSpec | undefined, offset: number, lineNumber: number): boolean {
  if (!spec) return false;
  return 'firstLine' in spec ? spec.firstLine <= lineNumber : spec.fromOffset <= offset;
}

/** The offset where the last `count` lines of `source` start (0 for a file of fewer lines). */
export async function lastLinesStart(source: ByteSource, count: number): Promise<number> {
  const { size } = source;
  if (size === 0) return 0;
  const endsWithNewline = (await source.read(size - 1, 1))[0] === NEWLINE;
  let position = endsWithNewline ? size - 1 : size;
  let seen = 0;
  while (position > 0) {
    const from = Math.max(0, position - CHUNK_BYTES);
    const chunk = await source.read(from, position - from);
    for (let index = chunk.lastIndexOf(NEWLINE); index !== -1; index = index === 0 ? -1 : chunk.lastIndexOf(NEWLINE, index - 1)) {
      if (++seen === count) return from + index + 1;
    }
    position = from;
    if (size - position > WINDOW_MAX_BYTES) return position;
  }
  return 0;
}

/** Where a byte pattern occurs: its offsets and the 1-based lines it starts and ends on. */
export interface ByteMatch {
  readonly pattern: number;
  readonly start: number;
  readonly line: number;
  readonly endLine: number;
}

/**
 * Every place any of `patterns` occurs, overlapping ones included (in a multi-byte legacy encoding a pattern can
 * seem to start inside a character; the windows' own matching on decoded text sorts those out, and no real match
 * may be skipped for a false one). Stops once `limit` matches are found.
 *
 * Each chunk is searched where it lies (the source's reused buffer); only the seam with the previous chunk, where a
 * match may straddle the two, is joined into a small buffer. So a pass allocates nothing of a chunk's size.
 */
export async function searchBytes(
  source: ByteSource,
  patterns: readonly Uint8Array[],
  signals: Pick<CallSignals, 'isCancelled'>,
  limit = 100_000,
): Promise<ByteMatch[]> {
  const longest = Math.max(0, ...patterns.map((pattern) => pattern.length));
  let anchors: readonly number[] | undefined;
  const matches: ByteMatch[] = [];
  let position = 0;
  let linesBefore = 0;
  /** The previous chunk's last `longest - 1` bytes: the most of a match that can lie before this chunk. */
  let carry = new Uint8Array(0);
  for (;;) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) break;
    anchors ??= rarestBytes(patterns, chunk.subarray(0, SAMPLE_BYTES));
    // Matches that begin in the carry and end in this chunk, then those wholly inside it; in order of their start.
    const seam = concat(
      [carry, chunk.subarray(0, Math.max(0, longest - 1))],
      carry.length + Math.min(chunk.length, Math.max(0, longest - 1)),
    );
    const straddling = occurrences(
      seam,
      patterns,
      anchors,
      (at, pattern) => at < carry.length && at + pattern.length > carry.length,
      limit - matches.length,
    );
    const inside = occurrences(chunk, patterns, anchors, () => true, limit - matches.length);
    for (const each of straddling) {
      const pattern = patterns[each.pattern] ?? new Uint8Array(0);
      const line = linesBefore + 1 - countNewlines(seam, each.at, carry.length);
      matches.push({ pattern: each.pattern, start: position - carry.length + each.at, line, endLine: line + newlinesWithin(pattern) });
      if (matches.length >= limit) return matches;
    }
    let counted = 0;
    let line = linesBefore + 1;
    for (const each of inside) {
      line += countNewlines(chunk, counted, each.at);
      counted = each.at;
      const pattern = patterns[each.pattern] ?? new Uint8Array(0);
      matches.push({ pattern: each.pattern, start: position + each.at, line, endLine: line + newlinesWithin(pattern) });
      if (matches.length >= limit) return matches;
    }
    linesBefore += countNewlines(chunk, 0, chunk.length);
    carry = chunk.slice(Math.max(0, chunk.length - Math.max(0, longest - 1)));
    position += chunk.length;
    throwIfCancelled(signals);
  }
  return matches;
}

/** How much of the file's start `rarestBytes` counts bytes in. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * For each pattern, the index of the byte of it that is rarest in `sample` (the file's start): the search scans for
 * that byte (indexOf, native) and checks the whole pattern around each hit, so the fewer hits, the fewer checks. In a
 * log, the first byte of a pattern is often one of the commonest there.
 */
function rarestBytes(patterns: readonly Uint8Array[], sample: Uint8Array): number[] {
  const counts = new Uint32Array(256);
  for (const byte of sample) counts[byte] = (counts[byte] ?? 0) + 1;
  return patterns.map((pattern) => {
    let best = 0;
    for (let index = 1; index < pattern.length; index++) {
      if ((counts[pattern[index] ?? 0] ?? 0) < (counts[pattern[best] ?? 0] ?? 0)) best = index;
    }
    return best;
  });
}

/**
 * The first `most` places where any pattern occurs wholly inside `bytes` and `keep` agrees, sorted by position. Each
 * pattern is found by its byte at `anchors` (rarestBytes) and stops at its own `most`, which keeps the first `most`
 * of all of them, and a chunk full of one short pattern holds no more than that.
 */
function occurrences(
  bytes: Uint8Array,
  patterns: readonly Uint8Array[],
  anchors: readonly number[],
  keep: (at: number, pattern: Uint8Array) => boolean,
  most: number,
): { pattern: number; at: number }[] {
  const found: { pattern: number; at: number }[] = [];
  for (const [index, pattern] of patterns.entries()) {
    const anchor = anchors[index] ?? 0;
    const byte = pattern[anchor];
    if (byte === undefined) continue;
    let count = 0;
    for (
      let hit = bytes.indexOf(byte, anchor);
      hit !== -1 && hit - anchor + pattern.length <= bytes.length && count < most;
      hit = bytes.indexOf(byte, hit + 1)
    ) {
      const at = hit - anchor;
      if (keep(at, pattern) && equalAt(bytes, at, pattern)) {
        found.push({ pattern: index, at });
        count++;
      }
    }
  }
  return found.sort((a, b) => a.at - b.at).slice(0, most);
}

/** The line breaks inside a match: every newline but one that ends it (the match's last line is where it ends). */
function newlinesWithin(pattern: Uint8Array): number {
  return countNewlines(pattern, 0, Math.max(0, pattern.length - 1));
}

function equalAt(bytes: Uint8Array, at: number, pattern: Uint8Array): boolean {
  for (let index = 0; index < pattern.length; index++) if (bytes[at + index] !== pattern[index]) return false;
  return true;
}

function countNewlines(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE, from); index !== -1 && index < to; index = bytes.indexOf(NEWLINE, index + 1)) count++;
  return count;
}

/**
 * The first lines of every run of consecutive lines whose keys (`keyOf`, the decoded line trimmed) are `keys` in
 * order: the whitespace-tolerant stage of edit_file's matching (match.ts) over a file too large to decode whole.
 * Runs do not overlap (a match is skipped past, as the in-memory stage does). A line too long to be any key (more
 * than four bytes a character, plus room for indentation) is not decoded.
 */
export async function searchLineKeys(
  source: ByteSource,
  keys: readonly string[],
  keyOf: (line: Uint8Array) => string,
  signals: Pick<CallSignals, 'isCancelled'>,
  limit = 100_000,
): Promise<number[]> {
  const longest = 4 * Math.max(0, ...keys.map((key) => key.length)) + 4096;
  const recent: (string | undefined)[] = [];
  const starts: number[] = [];
  let line = 0;
  let skipUntil = 0;
  let parts: Uint8Array[] = [];
  let size = 0;
  let tooLong = false;
  const endLine = (): void => {
    line++;
    recent.push(tooLong ? undefined : keyOf(concat(parts, size)));
    parts = [];
    size = 0;
    tooLong = false;
    if (recent.length > keys.length) recent.shift();
    if (line < skipUntil || recent.length < keys.length) return;
    if (keys.every((key, index) => recent[index] === key)) {
      starts.push(line - keys.length + 1);
      skipUntil = line + keys.length;
    }
  };
  const add = (piece: Uint8Array): void => {
    if (tooLong || size + piece.length > longest) {
      tooLong = true;
      return;
    }
    parts.push(piece.slice());
    size += piece.length;
  };
  let position = 0;
  for (;;) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) break;
    let from = 0;
    for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, index + 1)) {
      add(chunk.subarray(from, index + 1));
      endLine();
      from = index + 1;
      if (starts.length >= limit) return starts;
    }
    add(chunk.subarray(from));
    position += chunk.length;
    throwIfCancelled(signals);
  }
  if (size > 0 || tooLong) endLine();
  return starts;
}
