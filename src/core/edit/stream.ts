/**
 * Edits of files too large to hold in memory, as passes over the file's bytes (read through the port's readRange in
 * CHUNK_BYTES pieces) that never hold more than one chunk and the windows being edited.
 *
 * A window is a run of whole lines around what an edit touches. `splicePass` finds the windows, hands each to the
 * edit's rewrite (which decodes it, edits the text and encodes it again, textEdit.ts) and, when given a writer, writes
 * the new file on the way: every byte outside the windows is copied as it is, so what an edit does not touch is
 * byte-identical whatever the file holds. The searches find where old text occurs without decoding the file; where
 * a search is what places the windows, `searchSplicePass` runs it inside the splice, so the file is read once.
 *
 * Lines end where the file's encoding ends them (bytes.ts, LineBreaks: the byte 0x0A, or in UTF-16 the code unit
 * 0x000A at an even offset); a search's matches count only where they start on a code unit.
 *
 * Over 300 lines: the passes and the byte searches share one chunked reading of the file and its newlines' offsets
 * (NewlineIndex, found once per chunk), which are most of a pass's work.
 */
import { limitExceeded } from '../contract/caps';
import type { ToolError } from '../errors';
import type { FileWriter, IncrementalHash } from '../ports/fs';
import { BYTE_BREAKS, humanSize, type LineBreaks, NEWLINE } from '../read/bytes';
import { CHUNK_BYTES } from '../ports/fs';
import type { ByteSource } from '../read/select';
import { type CallSignals, throwIfCancelled } from '../signals';

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
  /** Where lines end in the source's encoding; absent, at 0x0A bytes. */
  readonly breaks?: LineBreaks;
}

/**
 * One pass over `source`: counts its lines and line endings, finds the windows `specs` name (merged first, see
 * mergeWindows; they must not overlap), rewrites them and writes the result where asked. A window that starts past
 * the last line is found empty at the end of the file, so a rewrite can refuse it with the file's real line count.
 */
export async function splicePass(source: ByteSource, specs: readonly WindowSpec[], options: PassOptions): Promise<PassSummary> {
  const copy = new WindowedCopy(specs, source.size, options);
  const newlines = new NewlineIndex(options.breaks);
  for (let position = 0; ;) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) break;
    newlines.scan(chunk);
    await copy.feed(chunk, newlines.positions, newlines.count);
    position += chunk.length;
    throwIfCancelled(options.signals);
  }
  return copy.finish();
}

/**
 * What a pass that finds its own windows looks for: byte patterns, one of which (`drives`) places a window around
 * each of its occurrences; the others are only counted.
 */
export interface PassSearch {
  readonly patterns: readonly Uint8Array[];
  readonly drives: number;
  /** The window an occurrence of the driving pattern needs (whole lines around it). */
  around(match: ByteMatch): { readonly firstLine: number; readonly lastLine: number };
  /** The most occurrences of the driving pattern the edit takes; one more refuses it with `tooMany`. */
  readonly limit: number;
  tooMany(): ToolError;
}

/**
 * splicePass with its windows found on the way: each chunk is searched before its lines are spliced, so a file that
 * would take a search and then a pass is read once. `found` counts each pattern's occurrences.
 *
 * The one subtlety is an occurrence that the next chunk completes: its window begins at the start of the line before
 * the one it starts on, which lies in this chunk (or earlier). So the splice stops short of the second-last line start
 * before where such an occurrence may begin, and keeps the bytes after it (usually a line or two) for the next round;
 * a window that could still grow is not closed, and no line whose window may yet be asked for is copied. A window
 * reaching back more than WINDOW_MAX_BYTES before the search's front would be refused anyway: that far back the
 * splice goes on, and a window asked for there is refused as too large.
 */
export async function searchSplicePass(
  source: ByteSource,
  search: PassSearch,
  options: PassOptions,
): Promise<PassSummary & { readonly found: readonly number[] }> {
  const copy = new WindowedCopy([], source.size, options);
  const newlines = new NewlineIndex(options.breaks);
  const finder = new ChunkSearch(search.patterns, options.breaks);
  const found = search.patterns.map(() => 0);
  const reach = Math.max(0, finder.longest - 1);
  /** Bytes read but not yet spliced, from `held.start`, with their newlines' offsets (relative to it). */
  let held: { start: number; bytes: Uint8Array; newlines: number[] } = { start: 0, bytes: new Uint8Array(0), newlines: [] };
  let position = 0;
  for (;;) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) break;
    newlines.scan(chunk);
    for (const match of finder.next(chunk, newlines)) {
      found[match.pattern] = (found[match.pattern] ?? 0) + 1;
      if (match.pattern !== search.drives) continue;
      if ((found[match.pattern] ?? 0) > search.limit) throw search.tooMany();
      copy.add(search.around(match));
    }
    // Occurrences the next chunk completes begin at `front` or later; their windows at the line before front's.
    const front = position + chunk.length - reach;
    const inChunk = newlines.countBefore(front - position);
    const earlier = held.newlines.filter((offset) => held.start + offset < front).length;
    const lineStart =
      inChunk >= 2
        ? position + (newlines.positions[inChunk - 2] ?? 0)
        : inChunk === 1 && earlier >= 1
          ? held.start + (held.newlines[earlier - 1] ?? 0)
          : earlier >= 2
            ? held.start + (held.newlines[earlier - 2] ?? 0)
            : held.start;
    const safe = Math.max(held.start, lineStart, front - WINDOW_MAX_BYTES);
    held = await spliceUntil(copy, held, chunk, position, newlines, Math.min(safe, position + chunk.length));
    position += chunk.length;
    throwIfCancelled(options.signals);
  }
  await copy.feed(held.bytes, held.newlines, held.newlines.length);
  return { ...(await copy.finish()), found };
}

/**
 * Splices the held bytes and then `chunk` (at `position`) up to the offset `until`, and returns what is left held:
 * the rest of both, copied out of the chunk (whose buffer the next read reuses).
 */
async function spliceUntil(
  copy: WindowedCopy,
  held: { start: number; bytes: Uint8Array; newlines: number[] },
  chunk: Uint8Array,
  position: number,
  newlines: NewlineIndex,
  until: number,
): Promise<{ start: number; bytes: Uint8Array; newlines: number[] }> {
  if (until < position) {
    // The splice stays inside what was held: keep its rest and the whole chunk.
    const cut = until - held.start;
    const kept = held.newlines.filter((offset) => offset < cut);
    await copy.feed(held.bytes.subarray(0, cut), kept, kept.length);
    const rest = held.bytes.subarray(cut);
    return {
      start: until,
      bytes: concat([rest, chunk], rest.length + chunk.length),
      newlines: [
        ...held.newlines.slice(kept.length).map((offset) => offset - cut),
        ...Array.from(newlines.positions.subarray(0, newlines.count), (offset) => offset + rest.length),
      ],
    };
  }
  await copy.feed(held.bytes, held.newlines, held.newlines.length);
  const cut = until - position;
  const kept = newlines.countBefore(cut);
  await copy.feed(chunk.subarray(0, cut), newlines.positions, kept);
  return {
    start: until,
    bytes: chunk.slice(cut),
    newlines: Array.from(newlines.positions.subarray(kept, newlines.count), (offset) => offset - cut),
  };
}

/** The offsets of the newlines in one chunk, found once and shared by the search and the splice of that chunk. */
class NewlineIndex {
  positions = new Int32Array(0);
  count = 0;

  constructor(private readonly breaks: LineBreaks = BYTE_BREAKS) {}

  scan(bytes: Uint8Array): void {
    if (this.positions.length < bytes.length) this.positions = new Int32Array(Math.max(bytes.length, CHUNK_BYTES));
    const { positions, breaks } = this;
    let count = 0;
    if (breaks.unit !== 1) {
      for (let index = breaks.next(bytes); index !== -1; index = breaks.next(bytes, index + 1)) positions[count++] = index;
      this.count = count;
      return;
    }
    let from = 0;
    if (bytes.byteOffset % 4 === 0) {
      // Four bytes at a time: a word holds a newline iff its XOR with four of them has a zero byte (the bit trick
      // below is exact for that), and only such words are looked into. Most words of text hold none, and a call
      // of indexOf for each newline costs more than this loop does.
      const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
      for (let word = 0; word < words.length; word++) {
        const x = (words[word] ?? 0) ^ 0x0a0a0a0a;
        if (((x - 0x01010101) & ~x & 0x80808080) === 0) continue;
        for (let index = word * 4; index < word * 4 + 4; index++) if (bytes[index] === NEWLINE) positions[count++] = index;
      }
      from = words.length * 4;
    }
    for (let index = bytes.indexOf(NEWLINE, from); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) positions[count++] = index;
    this.count = count;
  }

  /** How many newlines lie before `offset` in the chunk. */
  countBefore(offset: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.positions[middle] ?? 0) < offset) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

interface OpenWindow {
  readonly firstLine: number;
  readonly start: number;
  lastLine: number;
  readonly parts: Uint8Array[];
  size: number;
}

/**
 * The splice itself, fed the file's bytes in order with their newlines: copies what lies outside the windows, takes
 * each window's bytes, and hands a window to the rewrite once its last line is in. Windows may be added while it
 * runs (searchSplicePass), in order, as long as they start after the last line start already passed.
 */
class WindowedCopy {
  private readonly pending: WindowSpec[];
  private open: OpenWindow | undefined;
  private line = 1;
  private lf = 0;
  private crlf = 0;
  private position = 0;
  /** The last bytes fed before the current piece (a carriage return before a newline may lie there). */
  private recent: number[] = [];
  /** Whether the bytes fed so far end with a newline. */
  private endsWithNewline = false;
  private readonly breaks: LineBreaks;
  /** The last line whose start has been passed: a window can no longer begin there or before. */
  private decided = 0;
  private opened = 0;
  private readonly windows: Window[] = [];

  constructor(
    specs: readonly WindowSpec[],
    private readonly size: number,
    private readonly options: PassOptions,
  ) {
    this.pending = [...specs].sort((a, b) => startKey(a) - startKey(b));
    this.breaks = options.breaks ?? BYTE_BREAKS;
  }

  /** A window more, starting no earlier than the last one added; one that overlaps or touches it joins it. */
  add(spec: { readonly firstLine: number; readonly lastLine: number }): void {
    const last = this.pending[this.pending.length - 1];
    if (last && 'firstLine' in last) {
      if (spec.firstLine <= last.lastLine + 1) {
        this.pending[this.pending.length - 1] = { firstLine: last.firstLine, lastLine: Math.max(last.lastLine, spec.lastLine) };
        return;
      }
    } else if (this.open && spec.firstLine <= this.open.lastLine + 1) {
      this.open.lastLine = Math.max(this.open.lastLine, spec.lastLine);
      return;
    }
    // Only a window reaching back past WINDOW_MAX_BYTES comes too late (searchSplicePass); it would be too large.
    if (spec.firstLine <= this.decided) throw windowTooLarge(this.options.display);
    this.pending.push({ firstLine: spec.firstLine, lastLine: spec.lastLine });
  }

  /** The next bytes of the file; `newlines` holds the offsets (in `bytes`) of its first `count` newlines, all of them. */
  async feed(bytes: Uint8Array, newlines: ArrayLike<number>, count: number): Promise<void> {
    if (bytes.length === 0) return;
    if (this.decided === 0) {
      this.decided = 1;
      this.startAt(0, 1);
    }
    let segment = 0;
    const { recent } = this;
    const before = (offset: number): number | undefined => recent[recent.length + offset];
    for (let each = 0; each < count; each++) {
      const index = newlines[each] ?? 0;
      if (this.breaks.afterReturn(bytes, index, before)) this.crlf++;
      else this.lf++;
      const after = index + 1;
      if (this.open && this.line >= this.open.lastLine) {
        this.take(bytes.subarray(segment, after));
        segment = after;
        await this.close(this.position + after);
      }
      this.line++;
      this.decided = this.line;
      if (!this.open && opensAt(this.pending[0], this.position + after, this.line)) {
        await this.copy(bytes.subarray(segment, after));
        segment = after;
        this.startAt(this.position + after, this.line);
      }
    }
    if (this.open) this.take(bytes.subarray(segment));
    else await this.copy(bytes.subarray(segment));
    this.recent = [...recent, ...bytes.subarray(Math.max(0, bytes.length - 3))].slice(-3);
    this.endsWithNewline = count > 0 && newlines[count - 1] === bytes.length - 1;
    this.position += bytes.length;
  }

  /** After the last byte: closes the open window, and finds the windows that start past the end, empty, there. */
  async finish(): Promise<PassSummary> {
    const { position, line } = this;
    const totalLines = position === 0 ? 0 : this.endsWithNewline ? line - 1 : line;
    await this.close(position);
    while (this.pending.length > 0) {
      this.pending.shift();
      if (this.opened++ === 0) this.options.onFirstWindow?.();
      this.open = { firstLine: totalLines + 1, start: position, lastLine: Number.POSITIVE_INFINITY, parts: [], size: 0 };
      await this.close(position);
    }
    return { totalLines, lf: this.lf, crlf: this.crlf, windows: this.windows };
  }

  private async copy(bytes: Uint8Array): Promise<void> {
    if (bytes.length === 0) return;
    this.options.hash?.update(bytes);
    await this.options.writer?.write(bytes);
  }

  private take(bytes: Uint8Array): void {
    const { open } = this;
    if (!open || bytes.length === 0) return;
    this.options.hash?.update(bytes);
    if (open.size + bytes.length > WINDOW_MAX_BYTES) throw windowTooLarge(this.options.display);
    open.parts.push(bytes.slice());
    open.size += bytes.length;
  }

  private async close(end: number): Promise<void> {
    const { open } = this;
    if (!open) return;
    const window: Window = {
      firstLine: open.firstLine,
      start: open.start,
      end,
      bytes: concat(open.parts, open.size),
      atEnd: end === this.size,
    };
    this.open = undefined;
    this.windows.push(window);
    // The new bytes go to the writer only: `hash` is the source's, and took the window's bytes already.
    if (this.options.rewrite) await this.options.writer?.write(await this.options.rewrite(window));
  }

  /** Opens the next window if it starts at this line start. */
  private startAt(offset: number, lineNumber: number): void {
    const next = this.pending[0];
    if (this.open || !next || !opensAt(next, offset, lineNumber)) return;
    this.pending.shift();
    if (this.opened++ === 0) this.options.onFirstWindow?.();
    this.open = {
      firstLine: lineNumber,
      start: offset,
      lastLine: 'lastLine' in next ? next.lastLine : Number.POSITIVE_INFINITY,
      parts: [],
      size: 0,
    };
  }
}

function startKey(spec: WindowSpec): number {
  return 'firstLine' in spec ? spec.firstLine : Number.MAX_SAFE_INTEGER;
}

function opensAt(spec: WindowSpec | undefined, offset: number, lineNumber: number): boolean {
  if (!spec) return false;
  return 'firstLine' in spec ? spec.firstLine <= lineNumber : spec.fromOffset <= offset;
}

/** The offset where the last `count` lines of `source` start (0 for a file of fewer lines). */
export async function lastLinesStart(source: ByteSource, count: number, breaks: LineBreaks = BYTE_BREAKS): Promise<number> {
  const { size } = source;
  const { unit } = breaks;
  if (size < unit) return 0;
  const last = await source.read(size - unit, unit);
  let position = breaks.next(last) === unit - 1 ? size - unit : size;
  let seen = 0;
  while (position > 0) {
    const from = Math.max(0, position - CHUNK_BYTES);
    const chunk = await source.read(from, position - from);
    for (let index = breaks.previous(chunk); index !== -1; index = breaks.previous(chunk, index - 1)) {
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
 */
export async function searchBytes(
  source: ByteSource,
  patterns: readonly Uint8Array[],
  signals: Pick<CallSignals, 'isCancelled'>,
  limit = 100_000,
  breaks: LineBreaks = BYTE_BREAKS,
): Promise<ByteMatch[]> {
  const finder = new ChunkSearch(patterns, breaks);
  const newlines = new NewlineIndex(breaks);
  const matches: ByteMatch[] = [];
  for (let position = 0; ;) {
    const chunk = await source.read(position, CHUNK_BYTES);
    if (chunk.length === 0) break;
    newlines.scan(chunk);
    for (const match of finder.next(chunk, newlines, limit - matches.length)) {
      matches.push(match);
      if (matches.length >= limit) return matches;
    }
    position += chunk.length;
    throwIfCancelled(signals);
  }
  return matches;
}

/**
 * The search of a file a chunk at a time, each chunk searched where it lies (the source's reused buffer): only the
 * seam with the previous chunk, where a match may straddle the two, is joined into a small buffer. So a pass
 * allocates nothing of a chunk's size.
 */
class ChunkSearch {
  readonly longest: number;
  private finders: readonly Finder[] | undefined;
  /**
   * The previous chunk's last `longest - 1` bytes (the most of a match that can lie before this chunk), rounded up
   * to whole code units so that the seam starts on one.
   */
  private carry = new Uint8Array(0);
  private readonly carryBytes: number;
  private position = 0;
  private linesBefore = 0;

  constructor(
    private readonly patterns: readonly Uint8Array[],
    private readonly breaks: LineBreaks = BYTE_BREAKS,
  ) {
    this.longest = Math.max(0, ...patterns.map((pattern) => pattern.length));
    const reach = Math.max(0, this.longest - 1);
    this.carryBytes = reach + (reach % breaks.unit);
  }

  /** The first `most` occurrences that end in `chunk`, the file's next, whose newlines are scanned; by their start. */
  next(chunk: Uint8Array, newlines: NewlineIndex, most = Number.POSITIVE_INFINITY): ByteMatch[] {
    const { patterns, carry, position, linesBefore, breaks } = this;
    const reach = Math.max(0, this.longest - 1);
    const finders = (this.finders ??= patternFinders(patterns, chunk.subarray(0, SAMPLE_BYTES)));
    // Only what starts on a code unit is an occurrence (the seam and the chunk both start on one).
    const aligned = (at: number): boolean => at % breaks.unit === 0;
    // Matches that begin in the carry and end in this chunk, then those wholly inside it; in order of their start.
    const seam = concat([carry, chunk.subarray(0, reach)], carry.length + Math.min(chunk.length, reach));
    const straddling = occurrences(
      seam,
      patterns,
      finders,
      (at, pattern) => aligned(at) && at < carry.length && at + pattern.length > carry.length,
      most,
    );
    const inside = straddling.length >= most ? [] : occurrences(chunk, patterns, finders, aligned, most - straddling.length);
    const found: ByteMatch[] = [];
    for (const each of straddling) {
      const line = linesBefore + 1 - countNewlines(seam, each.at, carry.length, breaks);
      found.push({ pattern: each.pattern, start: position - carry.length + each.at, line, endLine: line + this.within(each.pattern) });
    }
    for (const each of inside) {
      const line = linesBefore + 1 + newlines.countBefore(each.at);
      found.push({ pattern: each.pattern, start: position + each.at, line, endLine: line + this.within(each.pattern) });
    }
    this.linesBefore += newlines.count;
    this.carry = chunk.slice(Math.max(0, chunk.length - this.carryBytes));
    this.position += chunk.length;
    return found;
  }

  private within(pattern: number): number {
    return newlinesWithin(this.patterns[pattern] ?? new Uint8Array(0), this.breaks);
  }
}

/** How much of the file's start `patternFinders` counts bytes in. */
const SAMPLE_BYTES = 64 * 1024;
/** A byte at most this frequent in the sample is rare enough to search for by itself. */
const RARE_BYTE = 1 / 1024;
/** Below this length a pattern's skips are too short to pay: it is searched for by its rarest byte however common. */
const SKIP_MIN_LENGTH = 4;

/** Where a pattern starts in `bytes`, wholly inside, in order; `visit` says whether to go on. */
type Finder = (bytes: Uint8Array, visit: (at: number) => boolean) => void;

/**
 * How each pattern is looked for, chosen from the bytes' frequencies in `sample` (the file's start). By its rarest
 * byte where that is rare: indexOf (native) finds each hit, and the whole pattern is checked there, so the fewer
 * hits the better; in a log, the first byte of a pattern is often one of the commonest. Where every byte of a long
 * pattern is common, by Horspool's skips instead: each look at the byte under the pattern's last moves on by as far
 * as that byte allows (up to the pattern's length), which never passes over an occurrence, overlapping ones included.
 */
function patternFinders(patterns: readonly Uint8Array[], sample: Uint8Array): Finder[] {
  const counts = new Uint32Array(256);
  for (const byte of sample) counts[byte] = (counts[byte] ?? 0) + 1;
  return patterns.map((pattern): Finder => {
    let anchor = 0;
    for (let index = 1; index < pattern.length; index++) {
      if ((counts[pattern[index] ?? 0] ?? 0) < (counts[pattern[anchor] ?? 0] ?? 0)) anchor = index;
    }
    const rare = (counts[pattern[anchor] ?? 0] ?? 0) <= RARE_BYTE * Math.max(1, sample.length);
    return rare || pattern.length < SKIP_MIN_LENGTH ? byRarestByte(pattern, anchor) : bySkips(pattern);
  });
}

function byRarestByte(pattern: Uint8Array, anchor: number): Finder {
  const byte = pattern[anchor];
  return (bytes, visit) => {
    if (byte === undefined) return;
    for (
      let hit = bytes.indexOf(byte, anchor);
      hit !== -1 && hit - anchor + pattern.length <= bytes.length;
      hit = bytes.indexOf(byte, hit + 1)
    ) {
      if (equalAt(bytes, hit - anchor, pattern) && !visit(hit - anchor)) return;
    }
  };
}

function bySkips(pattern: Uint8Array): Finder {
  const last = pattern.length - 1;
  const skip = new Int32Array(256).fill(pattern.length);
  for (let index = 0; index < last; index++) skip[pattern[index] ?? 0] = last - index;
  const final = pattern[last];
  return (bytes, visit) => {
    for (let at = 0; at + last < bytes.length;) {
      const byte = bytes[at + last] ?? 0;
      if (byte === final && equalAt(bytes, at, pattern) && !visit(at)) return;
      at += skip[byte] ?? pattern.length;
    }
  };
}

/**
 * The first `most` places where any pattern occurs wholly inside `bytes` and `keep` agrees, sorted by position. Each
 * pattern stops at its own `most`, which keeps the first `most` of all of them, and a chunk full of one short
 * pattern holds no more than that.
 */
function occurrences(
  bytes: Uint8Array,
  patterns: readonly Uint8Array[],
  finders: readonly Finder[],
  keep: (at: number, pattern: Uint8Array) => boolean,
  most: number,
): { pattern: number; at: number }[] {
  const found: { pattern: number; at: number }[] = [];
  for (const [index, pattern] of patterns.entries()) {
    let count = 0;
    finders[index]?.(bytes, (at) => {
      if (!keep(at, pattern)) return true;
      found.push({ pattern: index, at });
      return ++count < most;
    });
  }
  return found.sort((a, b) => a.at - b.at).slice(0, most);
}

/** The line breaks inside a match: every newline but one that ends it (the match's last line is where it ends). */
function newlinesWithin(pattern: Uint8Array, breaks: LineBreaks): number {
  return countNewlines(pattern, 0, Math.max(0, pattern.length - 1), breaks);
}

function equalAt(bytes: Uint8Array, at: number, pattern: Uint8Array): boolean {
  for (let index = 0; index < pattern.length; index++) if (bytes[at + index] !== pattern[index]) return false;
  return true;
}

/** Newlines whose last byte lies in [from, to). */
function countNewlines(bytes: Uint8Array, from: number, to: number, breaks: LineBreaks): number {
  let count = 0;
  for (let index = breaks.next(bytes, from); index !== -1 && index < to; index = breaks.next(bytes, index + 1)) count++;
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
  breaks: LineBreaks = BYTE_BREAKS,
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
    for (let index = breaks.next(chunk); index !== -1; index = breaks.next(chunk, index + 1)) {
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
