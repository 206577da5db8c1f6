/**
 * search_content's pure TypeScript engine: a walk under the ignore rules plus a line scan of each file over the
 * FileSystem port. It runs wherever ripgrep cannot (virtual workspaces, no rg, patterns PCRE2 cannot express) and
 * defines the results the fast path must reproduce (test/unit/search/engines.test.ts).
 *
 * Per file: a NUL byte in the first chunk marks it binary and skips it (in a later chunk it ends the file, as
 * ripgrep quits there); a UTF-16 file with a BOM is decoded; anything else is read as UTF-8. Files are read in
 * chunks split at newlines (in UTF-16, at the code unit 0x000A), so a 1 GiB log costs one chunk of memory, not the
 * file, in either.
 *
 * Matches come out in the order of the files' sort keys, then by line, whatever order the reads finish in: the
 * caller can stop at the first N and know they are the first N.
 *
 * Over 300 lines: one pipeline (walk, reads, line scanner) that keeps the order matches leave in.
 */
import { CancelledError } from '../errors';
import type { IgnoreRules } from '../walk/ignore/rules';
import { FileTree, walkVisible, type VisibleEntry } from '../walk/listing';
import { basename, dirname } from '../paths';
import type { ConfinedPath } from '../confinement';
import { bomEncoding, LOCAL_CODEC } from '../encoding/codec';
import { lineBreaksOf } from '../read/bytes';
import { SearchDecoder } from './encodedMatches';
import type { ToolContext } from '../context';
import { reportProgress, throwIfCancelled } from '../signals';
import type { CompiledQuery } from './query';
import type { LineMatch } from '../ports/searcher';

/** The first read of each file: most source files fit in it whole, and a small buffer is cheap to allocate. */
const FIRST_READ_BYTES = 16 * 1024;

const utf8Decoder = new TextDecoder('utf-8');

/** ASCII (or UTF-8) bytes as text, a leading BOM left out. */
function utf8Text(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

function isAscii(bytes: Uint8Array): boolean {
  for (let index = 0; index < bytes.length; index++) if ((bytes[index] ?? 0) >= 0x80) return false;
  return true;
}
/** Later reads of a large file. */
const CHUNK_BYTES = 1024 * 1024;
/** Files read at once: the scan waits on I/O more than it computes. */
const CONCURRENCY = 8;
/** How far reads may run ahead of the first file not yet done, so that one slow file does not make the rest pile up. */
const LOOKAHEAD_FILES = 256;
/** A line longer than this ends the search of its file (the scan would otherwise hold all of it). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface ScanRequest {
  readonly start: ConfinedPath;
  readonly query: CompiledQuery;
  readonly contextLines: number;
  /** Whether a file (root-relative path) is one to search; the sidecar rule is the caller's (searchContent.ts). */
  readonly acceptsFile: (absolute: string) => boolean;
  readonly includeIgnored: boolean;
  readonly maxMatchesPerFile: number;
  /**
   * The path (absolute) a file sorts as among the others: its own, or another in the same directory; a promise only
   * for the few that need a look at the disk.
   */
  readonly sortKey: (absolute: string) => string | Promise<string>;
}

export interface ScanStats {
  readonly rules: IgnoreRules;
  readonly filesSearched: number;
  readonly binarySkipped: number;
}

/** First index of `needle` in `haystack`, or -1 (a byte search the port's plain Uint8Array lacks). */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  if (first === undefined) return 0;
  const last = haystack.length - needle.length;
  for (let index = haystack.indexOf(first); index !== -1 && index <= last; index = haystack.indexOf(first, index + 1)) {
    let equal = true;
    for (let offset = 1; offset < needle.length; offset++) {
      if (haystack[index + offset] !== needle[offset]) {
        equal = false;
        break;
      }
    }
    if (equal) return index;
  }
  return -1;
}

/** Feeds lines of one file, keeps context, hands out matches in line order. */
class LineScanner {
  private lineNumber = 0;
  private readonly recent: string[] = [];
  private readonly pending: { match: { -readonly [K in keyof LineMatch]: LineMatch[K] }; after: string[] }[] = [];
  private found = 0;

  constructor(
    private readonly path: string,
    private readonly request: ScanRequest,
    private readonly emit: (match: LineMatch) => Promise<boolean>,
  ) {}

  /** False once no more lines are wanted (file limit reached and context complete, or the caller stopped). */
  async feed(line: string): Promise<boolean> {
    this.lineNumber++;
    const { contextLines } = this.request;
    for (const waiting of this.pending) waiting.after.push(line);
    while (this.pending.length > 0 && (this.pending[0]?.after.length ?? 0) >= contextLines) {
      const done = this.pending.shift();
      if (done && !(await this.emit({ ...done.match, after: done.after }))) return false;
    }
    if (this.found < this.request.maxMatchesPerFile) {
      const hit = this.request.query.find(line);
      if (hit) {
        this.found++;
        const match = {
          path: this.path,
          line: this.lineNumber,
          text: line,
          start: hit.start,
          end: hit.end,
          before: [...this.recent],
          after: [],
        };
        if (contextLines === 0) {
          if (!(await this.emit(match))) return false;
        } else this.pending.push({ match, after: [] });
      }
    } else if (this.pending.length === 0) return false;
    if (contextLines > 0) {
      this.recent.push(line);
      if (this.recent.length > contextLines) this.recent.shift();
    }
    return true;
  }

  /** Whether a match still waits for lines of after-context. */
  get waiting(): boolean {
    return this.pending.length > 0;
  }

  /** Lines known to hold no match (and none waiting for context): only counted, and kept as before-context. */
  skip(text: string): void {
    const lines = linesOf(text, true);
    this.lineNumber += lines.length;
    const { contextLines } = this.request;
    if (contextLines > 0) {
      this.recent.push(...lines.slice(-contextLines));
      this.recent.splice(0, Math.max(0, this.recent.length - contextLines));
    }
  }

  /** Lines known to hold no match, when no context is kept: only counted. */
  skipCount(lines: number): void {
    this.lineNumber += lines;
  }

  /** At the end of the file: matches still waiting for after-context get what there is. */
  async finish(): Promise<boolean> {
    for (const waiting of this.pending.splice(0)) if (!(await this.emit({ ...waiting.match, after: waiting.after }))) return false;
    return true;
  }
}

/** Splits decoded text into lines without terminators (a final newline ends the last line, it starts none). */
function linesOf(text: string, isEnd: boolean): string[] {
  const lines = text.split('\n');
  if (isEnd && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

export async function scanContent(
  context: ToolContext,
  request: ScanRequest,
  onMatch: (match: LineMatch) => Promise<boolean>,
): Promise<ScanStats> {
  // Grouped by directory, so that only each directory's own names are sorted (FileTree), not 100,000 long paths.
  const tree = new FileTree();
  const found: VisibleEntry[] = [];
  const rules = await walkVisible(
    context,
    request.start,
    { includeIgnored: request.includeIgnored, search: true, includeDotFiles: true },
    (entry) => {
      if (entry.kind === 'directory' && !entry.isSymlink) tree.addDirectory(entry.parent, entry.name);
      // Links are not followed, as ripgrep does not follow them either.
      else if (entry.kind === 'file' && !entry.isSymlink && request.acceptsFile(entry.absolute)) found.push(entry);
    },
  );
  // A file that sorts under another path (a sidecar as its .pdf) takes that path's place in the tree.
  const standIns = new Map<string, string>();
  const own: VisibleEntry[] = [];
  for (const entry of found) {
    const sorted = request.sortKey(entry.absolute);
    const key = typeof sorted === 'string' ? sorted : await sorted;
    if (key === entry.absolute) own.push(entry);
    else if (!standIns.has(key)) {
      standIns.set(key, entry.absolute);
      tree.addFile(dirname(key), basename(key));
    }
  }
  for (const entry of own) if (!standIns.has(entry.absolute)) tree.addFile(entry.parent, entry.name);
  const files = tree.first(request.start.absolute, Number.POSITIVE_INFINITY).map((path) => standIns.get(path) ?? path);

  const { fs } = context.workspace;
  let stopped = false;
  let filesSearched = 0;
  let binarySkipped = 0;
  // Each file's matches wait in `held` until every file before it is done; `frontier` is the first not yet passed on.
  const held = new Map<number, readonly LineMatch[]>();
  let frontier = 0;
  // One pass at a time; a file done at the frontier starts one unless one runs, which then takes it up itself.
  let passing: Promise<void> | undefined;
  let running = false;
  let failure: Error | undefined;
  const passOn = async (): Promise<void> => {
    running = true;
    try {
      for (let matches = held.get(frontier); matches !== undefined && !stopped; matches = held.get(frontier)) {
        held.delete(frontier);
        frontier++;
        for (const match of matches) {
          if (!(await onMatch(match))) {
            stopped = true;
            break;
          }
        }
      }
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      stopped = true;
    } finally {
      running = false;
      wakeAll();
    }
  };
  let waiters: (() => void)[] = [];
  const wakeAll = (): void => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };

  const read = async (path: string, offset: number, length: number): Promise<Uint8Array> => {
    if (fs.readRange) return fs.readRange(path, offset, length);
    const whole = await fs.readFile(path);
    return whole.subarray(offset, offset + length);
  };

  // A literal in ASCII has the same bytes in every encoding but UTF-16: only then may a file be passed over undecoded.
  const literalBytes = request.query.literalBytes && isAscii(request.query.literalBytes) ? request.query.literalBytes : undefined;

  /**
   * The text of `bytes` (a whole file, or a stretch of one that starts and ends on line boundaries) as read_file reads
   * it: ASCII as is, anything else in the file's encoding by the host's rules, and only exactly; undefined for bytes
   * that are not text in that encoding, which are not searched (their lines could only be shown with U+FFFD).
   */
  const decoder = new SearchDecoder(context);
  /** `bytes` of `path` as text: ASCII as is, anything else as read_file decodes it (`first`: they start the file). */
  const textOf = async (path: string, bytes: Uint8Array, whole: boolean, first: boolean): Promise<string | undefined> =>
    isAscii(bytes) ? utf8Text(bytes) : decoder.text(path, bytes, first, whole ? bytes : undefined);

  const searchFileInto = async (path: string, matches: LineMatch[]): Promise<void> => {
    const emit = (match: LineMatch): Promise<boolean> => {
      matches.push(match);
      return stopped ? NO : YES;
    };
    // Without ranged reads the whole file is read once; with them, the first chunk says whether there is more.
    const bytes = fs.readRange ? await fs.readRange(path, 0, FIRST_READ_BYTES) : await fs.readFile(path);
    const bom = bomEncoding(bytes);
    const utf16 = bom === 'utf16le' || bom === 'utf16be';
    const more = fs.readRange !== undefined && bytes.length === FIRST_READ_BYTES;
    // A whole small file without the literal holds no match, binary or not: the cheapest test goes first.
    if (!utf16 && !more && literalBytes && indexOfBytes(bytes, literalBytes) === -1) {
      filesSearched++;
      return;
    }
    if (!utf16 && bytes.indexOf(0) !== -1) {
      binarySkipped++;
      return;
    }
    filesSearched++;
    if (!more) {
      const text = utf16 ? LOCAL_CODEC.decode(bytes.subarray(2), bom) : await textOf(path, bytes, true, true);
      if (text === undefined || !request.query.mayMatch(text)) return;
      const scanner = new LineScanner(path, request, emit);
      for (const line of linesOf(text, true)) if (!(await scanner.feed(line))) return;
      await scanner.finish();
      return;
    }
    // A large file: chunks cut after their last newline (a UTF-8 sequence never holds a newline byte; in UTF-16 the
    // newline is a code unit, and every read starts on one). The second read is small, since most files that outgrow
    // the first are only a little larger.
    const breaks = lineBreaksOf(utf16 ? bom : 'utf8');
    const scanner = new LineScanner(path, request, emit);
    let offset = 0;
    let carry: Uint8Array = new Uint8Array(0);
    let first = true;
    // The first block of whole lines begins the file (its BOM, if any, is not text).
    let atFileStart = true;
    for (;;) {
      throwIfCancelled(context);
      const chunk = first ? bytes : await read(path, offset, offset < CHUNK_BYTES ? 64 * 1024 : CHUNK_BYTES);
      first = false;
      offset += chunk.length;
      const isEnd = chunk.length === 0;
      if (!isEnd && !utf16 && chunk.indexOf(0) !== -1) break;
      const joined = carry.length === 0 ? chunk : concat(carry, chunk);
      const cut = isEnd ? joined.length : breaks.previous(joined) + 1;
      const complete = joined.subarray(0, cut);
      carry = joined.slice(cut);
      // A "line" this long is not text anyone searches line by line; stop rather than hold it all.
      if (carry.length > MAX_LINE_BYTES) break;
      if (complete.length === 0) {
        if (isEnd) break;
        continue;
      }
      if (!utf16 && !scanner.waiting && request.contextLines === 0 && literalBytes && indexOfBytes(complete, literalBytes) === -1) {
        scanner.skipCount(countNewlines(complete) + (complete[complete.length - 1] === 0x0a ? 0 : 1));
      } else {
        const text = utf16
          ? LOCAL_CODEC.decode(atFileStart ? complete.subarray(2) : complete, bom)
          : await textOf(path, complete, false, atFileStart);
        // Lines that are not text in the file's encoding are passed over, counted, never shown as U+FFFD.
        if (text === undefined) scanner.skipCount(countNewlines(complete) + (complete[complete.length - 1] === 0x0a ? 0 : 1));
        else if (request.query.mayMatch(text) || scanner.waiting) {
          for (const line of linesOf(text, true)) if (!(await scanner.feed(line))) return;
        } else scanner.skip(text);
      }
      atFileStart = false;
      if (isEnd) break;
    }
    await scanner.finish();
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (!stopped && next < files.length) {
      throwIfCancelled(context);
      if (next - frontier >= LOOKAHEAD_FILES) {
        await new Promise<void>((resolve) => waiters.push(resolve));
        continue;
      }
      const index = next++;
      const path = files[index];
      if (path === undefined) break;
      reportProgress(context, next, files.length, 'files searched');
      const matches: LineMatch[] = [];
      try {
        await searchFileInto(path, matches);
      } catch (error) {
        if (error instanceof CancelledError) throw error;
        // A file that vanished or cannot be read is passed over, as ripgrep does.
      }
      held.set(index, matches.length === 0 ? NONE : matches);
      if (index === frontier && !running) passing = passOn();
    }
    // A worker that ends wakes the others, which may be waiting for a frontier that no longer moves.
    wakeAll();
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  await passing;
  if (failure) throw failure;
  return { rules, filesSearched, binarySkipped };
}

const NONE: readonly LineMatch[] = [];
const YES = Promise.resolve(true);
const NO = Promise.resolve(false);

function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) count++;
  return count;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
