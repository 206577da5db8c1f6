/**
 * search_content's pure TypeScript engine: a walk under the ignore rules plus a line scan of each file over the
 * FileSystem port. It runs wherever ripgrep cannot (virtual workspaces, no rg, patterns PCRE2 cannot express) and
 * defines the results the fast path must reproduce (test/unit/search/engines.test.ts).
 *
 * Per file: a UTF-16 file with a BOM is decoded. In any other, a NUL byte makes the file binary where ripgrep's
 * does (in its first 64 KiB, RipgrepFills) and ends it where ripgrep quits (later), and the text is decoded in the
 * file's encoding, a stretch of lines at once, or where that stretch is not text as a whole, line by line, as
 * ripgrep's lines are (encodedMatches.ts): a line that is not text in it is never matched or shown. Files are read in
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
import { compareCodePoints, FileTree, walkVisible, type VisibleEntry } from '../walk/listing';
import { basename, dirname } from '../paths';
import type { ConfinedPath } from '../confinement';
import { bomEncoding, LOCAL_CODEC } from '../encoding/codec';
import { lineBreaksOf } from '../read/bytes';
import { SearchDecoder } from './encodedMatches';
import type { ToolContext } from '../context';
import { breathe, reportProgress, throwIfCancelled } from '../signals';
import type { CompiledQuery } from './query';
import type { FileSystem } from '../ports/fs';
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
/** How long a reader waits at the lookahead's end before it looks for a cancellation again. */
const WAIT_MS = 20;
/** Files the scan's list takes between two breaths (signals.ts): each costs a lookup or two. */
const BREATH_FILES = 512;
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
  /**
   * False for a file known to hold no match (a content index's answer, ports/contentIndex.ts): it is walked and counted
   * like any other, only not read.
   */
  readonly mayMatch?: (absolute: string) => boolean;
}

export interface ScanStats {
  readonly rules: IgnoreRules;
  readonly filesSearched: number;
  readonly binarySkipped: number;
}

/** First index of `needle` in `haystack`, or -1 (a byte search the port's plain Uint8Array lacks). */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
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

/**
 * A line as the scan sees it: its text, or undefined for a line that is not text in the file's encoding (it is
 * counted, never matched, and a match with it among its context lines is dropped, as ripgrep's is: encodedMatches.ts).
 */
type ScannedLine = string | undefined;

/** A match waiting for its after-context. */
interface PendingMatch {
  readonly match: Omit<LineMatch, 'before' | 'after'>;
  readonly before: ScannedLine[];
  readonly after: ScannedLine[];
}

/** Feeds lines of one file, keeps context, hands out matches in line order. */
class LineScanner {
  private lineNumber = 0;
  private readonly recent: ScannedLine[] = [];
  private readonly pending: PendingMatch[] = [];
  private found = 0;

  constructor(
    private readonly path: string,
    private readonly request: ScanRequest,
    private readonly emit: (match: LineMatch) => Promise<boolean>,
  ) {}

  /** False once no more lines are wanted (file limit reached and context complete, or the caller stopped). */
  async feed(line: ScannedLine): Promise<boolean> {
    this.lineNumber++;
    const { contextLines } = this.request;
    for (const waiting of this.pending) waiting.after.push(line);
    while (this.pending.length > 0 && (this.pending[0]?.after.length ?? 0) >= contextLines) {
      const done = this.pending.shift();
      if (done && !(await this.pass(done))) return false;
    }
    if (this.found < this.request.maxMatchesPerFile) {
      const hit = line === undefined ? undefined : this.request.query.find(line);
      if (line !== undefined && hit) {
        this.found++;
        const waiting = {
          match: { path: this.path, line: this.lineNumber, text: line, start: hit.start, end: hit.end },
          before: [...this.recent],
          after: [],
        };
        if (contextLines === 0) {
          if (!(await this.pass(waiting))) return false;
        } else this.pending.push(waiting);
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
    for (const waiting of this.pending.splice(0)) if (!(await this.pass(waiting))) return false;
    return true;
  }

  /** Hands a match on with its context, or drops it (true: go on) when a line of its context is not text. */
  private pass({ match, before, after }: PendingMatch): Promise<boolean> {
    if (!isText(before) || !isText(after)) return YES;
    return this.emit({ ...match, before, after });
  }
}

function isText(lines: readonly ScannedLine[]): lines is string[] {
  return !lines.includes(undefined);
}

/** Splits decoded text into lines without terminators (a final newline ends the last line, it starts none). */
function linesOf(text: string, isEnd: boolean): string[] {
  const lines = text.split('\n');
  if (isEnd && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** The files to search under request.start, in the order of their sort keys, and the ignore rules the walk kept. */
async function filesInOrder(context: ToolContext, request: ScanRequest): Promise<{ rules: IgnoreRules; files: string[] }> {
  // Grouped by directory, so that only each directory's own names are sorted (FileTree), not 100,000 long paths.
  const tree = new FileTree();
  const found: VisibleEntry[] = [];
  const { mayMatch } = request;
  const rules = await walkVisible(
    context,
    request.start,
    { includeIgnored: request.includeIgnored, search: true, includeDotFiles: true },
    (entry) => {
      // Narrowed by a content index, the few files left are sorted by their keys instead (see below).
      if (entry.kind === 'directory' && !entry.isSymlink) {
        if (!mayMatch) tree.addDirectory(entry.parent, entry.name);
      }
      // Links are not followed, as ripgrep does not follow them either.
      else if (entry.kind === 'file' && !entry.isSymlink && request.acceptsFile(entry.absolute) && (mayMatch?.(entry.absolute) ?? true))
        found.push(entry);
    },
  );
  // A tree's code-unit order is that of the paths themselves (FileTree's header): for a few dozen candidates out of
  // 100,000 files a sort of their keys costs less than going through all 5,000 directories in order at every call.
  if (mayMatch) return { rules, files: await inKeyOrder(context, found, request) };
  const standIns = await addByKey(context, tree, found, request);
  const files: string[] = [];
  for (const path of tree.files(request.start.absolute)) {
    if (files.push(standIns.get(path) ?? path) % BREATH_FILES === 0) await breathe(context);
  }
  return { rules, files };
}

/** `found` in the order of their sort keys, a file that sorts under another path in that path's place (addByKey's rule). */
async function inKeyOrder(context: ToolContext, found: readonly VisibleEntry[], request: ScanRequest): Promise<string[]> {
  const { standIns, own } = await sortKeys(context, found, request);
  for (const entry of own) if (!standIns.has(entry.absolute)) standIns.set(entry.absolute, entry.absolute);
  return [...standIns.keys()].sort(compareCodePoints).map((key) => standIns.get(key) ?? key);
}

/** Adds `found` to `tree` under their sort keys; gives, for each path a file stands in for, that file. */
async function addByKey(
  context: ToolContext,
  tree: FileTree,
  found: readonly VisibleEntry[],
  request: ScanRequest,
): Promise<Map<string, string>> {
  const { standIns, own } = await sortKeys(context, found, request);
  for (const key of standIns.keys()) tree.addFile(dirname(key), basename(key));
  for (const entry of own) if (!standIns.has(entry.absolute)) tree.addFile(entry.parent, entry.name);
  return standIns;
}

/**
 * Each file's sort key. A file that sorts under another path (a sidecar as its .pdf) stands in for that path, the
 * first such file winning (`standIns`, by the path); the others sort as themselves (`own`), unless a stand-in took
 * their path.
 */
async function sortKeys(
  context: ToolContext,
  found: readonly VisibleEntry[],
  request: ScanRequest,
): Promise<{ standIns: Map<string, string>; own: VisibleEntry[] }> {
  const standIns = new Map<string, string>();
  const own: VisibleEntry[] = [];
  for (const [index, entry] of found.entries()) {
    if (index % BREATH_FILES === 0) await breathe(context);
    const sorted = request.sortKey(entry.absolute);
    const key = typeof sorted === 'string' ? sorted : await sorted;
    if (key === entry.absolute) own.push(entry);
    else if (!standIns.has(key)) standIns.set(key, entry.absolute);
  }
  return { standIns, own };
}

/** Passes each file's matches on to the caller in the files' order, whatever order their reads finish in. */
class InOrderRelay {
  private halted = false;
  // Each file's matches wait in `held` until every file before it is done; `next` is the first not yet passed on.
  private readonly held = new Map<number, readonly LineMatch[]>();
  private next = 0;
  // One pass at a time; a file done at the frontier starts one unless one runs, which then takes it up itself.
  private passing: Promise<void> | undefined;
  private running = false;
  private failure: Error | undefined;
  private waiters: (() => void)[] = [];

  constructor(private readonly onMatch: (match: LineMatch) => Promise<boolean>) {}

  /** True once the caller wants no more matches, or failed. */
  get stopped(): boolean {
    return this.halted;
  }

  /** The first file whose matches are not yet passed on. */
  get frontier(): number {
    return this.next;
  }

  /** Takes file `index`'s matches, and starts a pass if the file is at the frontier and none runs. */
  add(index: number, matches: readonly LineMatch[]): void {
    this.held.set(index, matches.length === 0 ? NONE : matches);
    if (index === this.next && !this.running) this.passing = this.passOn();
  }

  /**
   * Resolves at the next wakeAll (after every pass, and whenever a reader ends), or after WAIT_MS: a reader waiting for
   * a frontier that a slow file holds back (a network disk, a file another process holds) then sees a cancellation.
   */
  woken(): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== wake);
        resolve();
      }, WAIT_MS);
      this.waiters.push(wake);
    });
  }

  /** Wakes every reader waiting in woken(). */
  wakeAll(): void {
    const woken = this.waiters;
    this.waiters = [];
    for (const wake of woken) wake();
  }

  /** Once every reader is done: waits for the last pass, and throws what the caller threw. */
  async finish(): Promise<void> {
    await this.passing;
    if (this.failure) throw this.failure;
  }

  /** Passes on the held matches from the frontier on, while they are there and the caller wants more. */
  private async passOn(): Promise<void> {
    this.running = true;
    try {
      for (let matches = this.held.get(this.next); matches !== undefined && !this.halted; matches = this.held.get(this.next)) {
        this.held.delete(this.next);
        this.next++;
        for (const match of matches) {
          if (!(await this.onMatch(match))) {
            this.halted = true;
            break;
          }
        }
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.halted = true;
    } finally {
      this.running = false;
      this.wakeAll();
    }
  }
}

/** The UTF-16 encoding a file's BOM names; undefined for any other file. */
function utf16Of(bytes: Uint8Array): 'utf16le' | 'utf16be' | undefined {
  const bom = bomEncoding(bytes);
  return bom === 'utf16le' || bom === 'utf16be' ? bom : undefined;
}

/** ripgrep's buffer: what its first fill reads. */
const RIPGREP_BUFFER_BYTES = 64 * 1024;

/**
 * Where ripgrep stops in a file with a NUL byte (the files of a walk are searched in its "quit" binary mode), so that
 * the scan stops there too: ripgrep reads into a 64 KiB buffer, searches the whole lines of each fill, and quits at
 * the first fill whose new bytes hold a NUL without searching any of it. So a NUL in the first 64 KiB makes a file
 * binary, and a later one ends it at the last newline before the fill that holds it. Each fill keeps what followed
 * the last newline (and, with context lines, the lines before it that the context may need) and reads until the
 * buffer is full; a buffer that fills with no newline among the new bytes grows to three times its size and reads on.
 * The scan's own reads are of other sizes: it hands lines on only up to `searched`.
 */
class RipgrepFills {
  /** Where the buffer of the current fill begins, where its new bytes begin, and where it ends (file offsets). */
  begin = 0;
  private newFrom = 0;
  private end = RIPGREP_BUFFER_BYTES;
  private capacity = RIPGREP_BUFFER_BYTES;
  /** The end of the whole lines ripgrep has searched. */
  searched = 0;

  constructor(private readonly contextLines: number) {}

  /**
   * Takes the file's bytes up to `readTo`, which `data` holds from `base` (at most `begin`), `nul` the offset of the
   * first NUL among them: false once ripgrep has quit.
   */
  advance(data: Uint8Array, base: number, readTo: number, nul: number | undefined): boolean {
    while (this.end <= readTo && (nul === undefined || this.end <= nul)) {
      // The fill's new bytes, [newFrom, end), were read whole and hold no NUL.
      const last = data.lastIndexOf(0x0a, this.end - 1 - base) + base;
      const previousEnd = this.end;
      if (last >= this.newFrom) {
        this.searched = last + 1;
        this.begin = this.contextLines === 0 ? this.searched : precedingLines(data, base, this.begin, this.searched, this.contextLines);
      }
      this.newFrom = previousEnd;
      while (this.begin + this.capacity <= previousEnd) this.capacity *= 3;
      this.end = this.begin + this.capacity;
    }
    return nul === undefined || nul >= this.end;
  }
}

/**
 * Where ripgrep's buffer keeps lines from at a roll with context lines (grep-searcher's `lines::preceding`): the start
 * of the last `count + 1` lines of [from, to), which ends with a newline; `from` when there are fewer.
 */
function precedingLines(data: Uint8Array, base: number, from: number, to: number, count: number): number {
  let position = to - base - 1;
  const start = from - base;
  for (let left = count; ; left--) {
    const newline = position <= start ? -1 : data.lastIndexOf(0x0a, position - 1);
    if (newline < start) return from;
    if (left === 0) return base + newline + 1;
    position = newline;
  }
}

/** Searches one file at a time for the scan, and counts the files searched and the binary files skipped. */
class FileSearch {
  filesSearched = 0;
  binarySkipped = 0;
  private readonly fs: FileSystem;
  // A literal in ASCII has the same bytes in every encoding but UTF-16: only then may a file be passed over undecoded.
  private readonly literalBytes: Uint8Array | undefined;
  /**
   * The text of `bytes` (a whole file, or a stretch of one that starts and ends on line boundaries) as read_file reads
   * it: ASCII as is, anything else in the file's encoding by the host's rules, and only exactly; undefined for bytes
   * that are not text in that encoding, which are not searched (their lines could only be shown with U+FFFD).
   */
  private readonly decoder: SearchDecoder;

  constructor(
    private readonly context: ToolContext,
    private readonly request: ScanRequest,
    private readonly stopped: () => boolean,
  ) {
    this.fs = context.workspace.fs;
    const { literalBytes } = request.query;
    this.literalBytes = literalBytes && isAscii(literalBytes) ? literalBytes : undefined;
    this.decoder = new SearchDecoder(context);
  }

  /** The matches of the file at `path`, those found before any failure to read it (ripgrep passes such a file over). */
  async matchesIn(path: string): Promise<readonly LineMatch[]> {
    const matches: LineMatch[] = [];
    try {
      await this.searchInto(path, matches);
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      // A file that vanished or cannot be read is passed over, as ripgrep does.
    }
    return matches;
  }

  /** Pushes the file's matches onto `matches` as they are found; sorts out binary files and small ones first. */
  private async searchInto(path: string, matches: LineMatch[]): Promise<void> {
    const emit = (match: LineMatch): Promise<boolean> => {
      matches.push(match);
      return this.stopped() ? NO : YES;
    };
    const { fs } = this;
    // Without ranged reads the whole file is read once; with them, the first chunk says whether there is more.
    const bytes = fs.readRange ? await fs.readRange(path, 0, FIRST_READ_BYTES) : await fs.readFile(path);
    const utf16 = utf16Of(bytes);
    const more = fs.readRange !== undefined && bytes.length === FIRST_READ_BYTES;
    // A whole small file without the literal holds no match, binary or not: the cheapest test goes first.
    if (!utf16 && !more && this.literalBytes && indexOfBytes(bytes, this.literalBytes) === -1) {
      this.filesSearched++;
      return;
    }
    if (!utf16 && bytes.indexOf(0) !== -1) {
      this.binarySkipped++;
      return;
    }
    this.filesSearched++;
    if (!more) await this.scanWhole(path, bytes, utf16, emit);
    else await this.scanLarge(path, bytes, utf16, emit);
  }

  /** A file read whole: decoded at once, and fed line by line only when the text may match. */
  private async scanWhole(
    path: string,
    bytes: Uint8Array,
    utf16: 'utf16le' | 'utf16be' | undefined,
    emit: (match: LineMatch) => Promise<boolean>,
  ): Promise<void> {
    const text = utf16 ? LOCAL_CODEC.decode(bytes.subarray(2), utf16) : await this.textOf(path, bytes, true, true);
    if (text !== undefined && !this.request.query.mayMatch(text)) return;
    const scanner = new LineScanner(path, this.request, emit);
    const lines = text === undefined ? await this.linesOneByOne(path, bytes, true) : linesOf(text, true);
    for (const line of lines) if (!(await scanner.feed(line))) return;
    await scanner.finish();
  }

  /** A file larger than its first read (`bytes`), scanned block by block of whole lines. */
  private async scanLarge(
    path: string,
    bytes: Uint8Array,
    utf16: 'utf16le' | 'utf16be' | undefined,
    emit: (match: LineMatch) => Promise<boolean>,
  ): Promise<void> {
    const scanner = new LineScanner(path, this.request, emit);
    // The first block of whole lines begins the file (its BOM, if any, is not text).
    let atFileStart = true;
    for await (const block of this.blocksOf(path, bytes, utf16)) {
      if (!(await this.scanBlock(path, block, utf16, atFileStart, scanner))) return;
      atFileStart = false;
    }
    await scanner.finish();
  }

  /**
   * A large file's non-empty blocks of whole lines (the last may lack its newline), the first read being `bytes`. They
   * end early at a NUL byte where ripgrep quits (RipgrepFills; not in UTF-16, where NUL bytes are text) and at a line
   * over MAX_LINE_BYTES.
   */
  private async *blocksOf(path: string, bytes: Uint8Array, utf16: 'utf16le' | 'utf16be' | undefined): AsyncGenerator<Uint8Array> {
    // Chunks cut after their last newline (a UTF-8 sequence never holds a newline byte; in UTF-16 the newline is a
    // code unit, and every read starts on one). The second read is small, since most files that outgrow the first are
    // only a little larger.
    const breaks = lineBreaksOf(utf16 ?? 'utf8');
    const fills = utf16 ? undefined : new RipgrepFills(this.request.contextLines);
    let offset = 0;
    // The bytes read and not handed on yet (from `offset - carry.length`), and before them, while ripgrep's buffer
    // would still hold them, those handed on (fills.begin onwards).
    let carry: Uint8Array = new Uint8Array(0);
    let handed = 0;
    let first = true;
    for (;;) {
      throwIfCancelled(this.context);
      const chunk = first ? bytes : await this.read(path, offset, offset < CHUNK_BYTES ? 64 * 1024 : CHUNK_BYTES);
      first = false;
      const base = offset - carry.length;
      offset += chunk.length;
      const isEnd = chunk.length === 0;
      const joined = carry.length === 0 ? chunk : concat(carry, chunk);
      let cut = isEnd ? joined.length : breaks.previous(joined) + 1;
      let goesOn = !isEnd;
      if (fills) {
        const nul = chunk.indexOf(0);
        const going = fills.advance(joined, base, offset, nul === -1 ? undefined : offset - chunk.length + nul);
        if (!going || !isEnd) cut = fills.searched - base;
        goesOn = going && !isEnd;
      }
      const complete = joined.subarray(handed - base, cut);
      handed = base + cut;
      carry = joined.slice(Math.min(fills?.begin ?? handed, handed) - base);
      // A "line" this long is not text anyone searches line by line; stop rather than hold it all.
      if (offset - handed > MAX_LINE_BYTES) return;
      if (complete.length > 0) yield complete;
      if (!goesOn) return;
    }
  }

  /** One block of whole lines through `scanner`: false once it wants no more lines. */
  private async scanBlock(
    path: string,
    complete: Uint8Array,
    utf16: 'utf16le' | 'utf16be' | undefined,
    atFileStart: boolean,
    scanner: LineScanner,
  ): Promise<boolean> {
    const { literalBytes } = this;
    if (!utf16 && !scanner.waiting && this.request.contextLines === 0 && literalBytes && indexOfBytes(complete, literalBytes) === -1) {
      scanner.skipCount(countLines(complete));
      return true;
    }
    const text = utf16
      ? LOCAL_CODEC.decode(atFileStart ? complete.subarray(2) : complete, utf16)
      : await this.textOf(path, complete, false, atFileStart);
    if (text === undefined) {
      for (const line of await this.linesOneByOne(path, complete, atFileStart)) if (!(await scanner.feed(line))) return false;
    } else if (this.request.query.mayMatch(text) || scanner.waiting) {
      for (const line of linesOf(text, true)) if (!(await scanner.feed(line))) return false;
    } else scanner.skip(text);
    return true;
  }

  /** `length` bytes of `path` from `offset`, by a ranged read where the port has one. */
  private async read(path: string, offset: number, length: number): Promise<Uint8Array> {
    const { fs } = this;
    if (fs.readRange) return fs.readRange(path, offset, length);
    const whole = await fs.readFile(path);
    return whole.subarray(offset, offset + length);
  }

  /**
   * Whole lines of `path` that are not text in its encoding all together, one line at a time, as ripgrep's lines are
   * told (encodedMatches.ts): a line is its text where it is text on its own (ASCII always), else undefined; never
   * U+FFFD. So both engines find the same lines in a file with a few bytes its encoding cannot read.
   */
  private async linesOneByOne(path: string, bytes: Uint8Array, first: boolean): Promise<ScannedLine[]> {
    const lines: ScannedLine[] = [];
    for (let start = 0; start < bytes.length;) {
      const newline = bytes.indexOf(0x0a, start);
      const next = newline === -1 ? bytes.length : newline + 1;
      let end = newline === -1 ? bytes.length : newline;
      if (end > start && bytes[end - 1] === 0x0d) end--;
      lines.push(await this.textOf(path, bytes.subarray(start, end), false, first && start === 0));
      start = next;
    }
    return lines;
  }

  /** `bytes` of `path` as text: ASCII as is, anything else as read_file decodes it (`first`: they start the file). */
  private async textOf(path: string, bytes: Uint8Array, whole: boolean, first: boolean): Promise<string | undefined> {
    return isAscii(bytes) ? utf8Text(bytes) : this.decoder.text(path, bytes, first, whole ? bytes : undefined);
  }
}

/**
 * Searches `files` with up to CONCURRENCY reads at once, each file's matches handed to `relay` once it is done; reads
 * run at most LOOKAHEAD_FILES ahead of the relay's frontier.
 */
async function searchAll(context: ToolContext, files: readonly string[], search: FileSearch, relay: InOrderRelay): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!relay.stopped && next < files.length) {
      throwIfCancelled(context);
      if (next - relay.frontier >= LOOKAHEAD_FILES) {
        await relay.woken();
        continue;
      }
      const index = next++;
      const path = files[index];
      if (path === undefined) break;
      reportProgress(context, next, files.length, 'files searched');
      relay.add(index, await search.matchesIn(path));
    }
    // A worker that ends wakes the others, which may be waiting for a frontier that no longer moves.
    relay.wakeAll();
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
}

/** Searches the files under request.start, handing matches to `onMatch` in sort-key order until it answers false. */
export async function scanContent(
  context: ToolContext,
  request: ScanRequest,
  onMatch: (match: LineMatch) => Promise<boolean>,
): Promise<ScanStats> {
  const { rules, files } = await filesInOrder(context, request);
  const relay = new InOrderRelay(onMatch);
  const search = new FileSearch(context, request, () => relay.stopped);
  await searchAll(context, files, search, relay);
  await relay.finish();
  return { rules, filesSearched: search.filesSearched, binarySkipped: search.binarySkipped };
}

const NONE: readonly LineMatch[] = [];
const YES = Promise.resolve(true);
const NO = Promise.resolve(false);

function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) count++;
  return count;
}

/** The lines in a block of whole lines, the last of which may lack its newline. */
function countLines(bytes: Uint8Array): number {
  return countNewlines(bytes) + (bytes[bytes.length - 1] === 0x0a ? 0 : 1);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
