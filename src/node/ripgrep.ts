/**
 * search_content's fast path: ripgrep as a child process, speaking `--json`. The runner uses `rg` on PATH; the
 * editor uses the copy VS Code ships under `vscode.env.appRoot` (bundledRipgrep). The core checks every result
 * against its own rules afterwards (searchContent.ts), so this file only has to make ripgrep search at least
 * the files the core would, with the same meaning of the query:
 *  - no ignore file of ripgrep's own reading: where ignore files count, the core walks first and ripgrep skips exactly
 *    what that walk skipped (ContentSearchRequest.skipped), written as literal paths anchored at the root into an
 *    ignore file of ours, which ripgrep matches against paths relative to its working folder, the root; the core's
 *    exclude and hidden globs and `.git` skipped too; hidden (dot) files searched;
 *  - the query: `-F` for literals; a regular expression (translated by core/search/query.ts) on ripgrep's default
 *    engine, or with `--pcre2` when it needs look-around or back-references or the default engine rejects it;
 *    `--crlf` so `$` matches before "\r\n" as it does on the scan's lines;
 *  - symbolic links not followed; binary files (a NUL byte) skipped; UTF-16 files with a BOM decoded.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { CancelledError } from '../core/errors';
import { relativeTo } from '../core/paths';
import type { ContentSearcher, ContentSearchRequest, LineMatch, SearchOutcome } from '../core/ports/searcher';

interface RgText {
  readonly text?: string;
  readonly bytes?: string;
}

interface RgEvent {
  readonly type: 'begin' | 'match' | 'context' | 'end' | 'summary';
  readonly data: {
    readonly path?: RgText;
    readonly lines?: RgText;
    readonly line_number?: number;
    readonly submatches?: readonly { readonly start: number; readonly end: number }[];
  };
}

function bytesOf(value: RgText | undefined): Buffer {
  if (value?.bytes !== undefined) return Buffer.from(value.bytes, 'base64');
  return Buffer.from(value?.text ?? '', 'utf8');
}

/** A line's bytes without its terminator, as text. */
function lineText(bytes: Buffer): string {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0a) end--;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** Native path for a core path ("/C:/x" → "C:\\x" on Windows). */
function nativePath(path: string): string {
  return nodePath.sep === '\\' && /^\/[A-Za-z]:/.test(path) ? path.slice(1).split('/').join('\\') : path;
}

export type Engine = 'default' | 'pcre2';

/**
 * A path as an ignore rule that matches it alone: anchored at the root, every glob character escaped. Undefined for
 * a path an ignore file cannot hold (a control character: a line break, or a tab ripgrep would trim), and on Windows,
 * where ripgrep reads '\' as a separator, for one with a glob character.
 */
export function literalRule(relative: string, windows = process.platform === 'win32'): string | undefined {
  if (/[\x00-\x1f]/.test(relative) || (windows && /[\\*?[\]{}!#]/.test(relative))) return undefined;
  return `/${relative.replace(/[\\*?[\]{}! #]/g, '\\$&')}`;
}

/**
 * ripgrep's arguments for `request`; `skipFile` is the ignore file that holds request.skipped as literalRule gives
 * them. The start is given relative to the root, ripgrep's working folder, as ignore-file rules are matched so.
 */
export function ripgrepArguments(request: ContentSearchRequest, engine: Engine = 'default', skipFile?: string): string[] {
  const args = ['--json', '--no-config', '--no-messages', '--hidden', '--crlf', `--max-count=${request.maxMatchesPerFile}`, '--no-ignore'];
  if (skipFile !== undefined) args.push(`--ignore-file=${skipFile}`);
  if (request.sorted) args.push('--sort=path');
  if (request.contextLines > 0) args.push(`--context=${request.contextLines}`);
  args.push(request.caseSensitive ? '--case-sensitive' : '--ignore-case');
  if (request.query.kind === 'literal') args.push('--fixed-strings');
  else if (engine === 'pcre2') args.push('--pcre2');
  // Later globs win in ripgrep: the file pattern first, then every exclusion.
  for (const glob of request.includeGlobs) args.push(request.includeCaseInsensitive ? `--iglob=${glob}` : `--glob=${glob}`);
  for (const glob of request.excludeGlobs) args.push(`--iglob=!${glob}`);
  if (request.skipGit) args.push('--glob=!.git');
  // Agent FS's own staging files (staging.ts siblingPath), as the port's listings leave them out too.
  args.push('--glob=!.*.agentfs-{write,copy,undo,replaced}-*');
  const pattern = request.query.kind === 'literal' ? request.query.text : engine === 'pcre2' ? request.query.pcre2 : request.query.rust;
  const start = relativeTo(request.root, request.start);
  args.push(`--regexp=${pattern ?? ''}`, '--', start === '' ? '.' : `.${nodePath.sep}${nativePath(`/${start}`).replace(/^[\\/]/, '')}`);
  return args;
}

/** A line ripgrep sent: its text, its bytes without the terminator, and whether they were UTF-8. */
interface KnownLine {
  readonly text: string;
  readonly bytes: Uint8Array;
  readonly utf8: boolean;
}

interface FileState {
  readonly path: string;
  readonly lines: Map<number, KnownLine>;
  readonly matches: { line: number; text: string; start: number; end: number }[];
}

/** A line's bytes without its terminator. */
function lineBytes(bytes: Buffer): Buffer {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0a) end--;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  return bytes.subarray(0, end);
}

/** ripgrep running, and how it ended: its exit code, or the error it could not start with. */
interface Running {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly exited: Promise<{ code: number | null; error?: Error }>;
}

/** Spawns ripgrep in `cwd` with its stderr read as it comes, so that a full pipe cannot stall it. */
function startRipgrep(executable: string, args: readonly string[], cwd: string): Running {
  const child = spawn(executable, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  return { child, exited };
}

/**
 * Reads ripgrep's --json events from `output`, each file's matches passed on when its 'end' arrives; gives the events
 * read and whether `onMatch` stopped the search.
 */
async function readEvents(
  output: Readable,
  request: ContentSearchRequest,
  onMatch: (match: LineMatch) => Promise<boolean>,
  isCancelled: () => boolean,
): Promise<{ readonly events: number; readonly stopped: boolean }> {
  const files = new FileEvents(request.root);
  let events = 0;
  const lines = createInterface({ input: output, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const raw of lines) {
    if (isCancelled()) throw new CancelledError();
    events++;
    const done = files.take(JSON.parse(raw) as RgEvent);
    if (done && !(await passOn(done, request.contextLines, onMatch))) return { events, stopped: true };
  }
  return { events, stopped: false };
}

/** Gathers ripgrep's events into the lines and matches of the file they are about, one file at a time. */
class FileEvents {
  private file: FileState | undefined;

  constructor(private readonly root: string) {}

  /** Takes one event; gives the file an 'end' event closes, its lines and matches then complete. */
  take(event: RgEvent): FileState | undefined {
    const { data } = event;
    if (event.type === 'begin') this.file = beginFile(this.root, data);
    else if ((event.type === 'match' || event.type === 'context') && this.file && data.line_number !== undefined) {
      addLine(this.file, event, data.line_number);
    } else if (event.type === 'end' && this.file) {
      const state = this.file;
      this.file = undefined;
      return state;
    }
    return undefined;
  }
}

/** The file a 'begin' event names, as a core path, with no lines yet. */
function beginFile(root: string, data: RgEvent['data']): FileState {
  // Relative to the root, ripgrep's working folder, as the start was given.
  const native = nodePath.resolve(nativePath(root), bytesOf(data.path).toString('utf8'));
  const path = native.split(nodePath.sep).join('/');
  return { path: nodePath.sep === '\\' ? `/${path}` : path, lines: new Map(), matches: [] };
}

/** Keeps the line of a 'match' or 'context' event, and for a match where its first submatch lies. */
function addLine(file: FileState, event: RgEvent, lineNumber: number): void {
  const { data } = event;
  const bytes = bytesOf(data.lines);
  const text = lineText(bytes);
  // ripgrep sends a line as base64 bytes exactly when they are not UTF-8.
  file.lines.set(lineNumber, { text, bytes: lineBytes(bytes), utf8: data.lines?.bytes === undefined });
  const first = data.submatches?.[0];
  if (event.type === 'match' && first) {
    // ripgrep counts bytes; the core counts UTF-16 units.
    const start = bytes.subarray(0, first.start).toString('utf8').length;
    const end = bytes.subarray(0, first.end).toString('utf8').length;
    file.matches.push({ line: lineNumber, text, start: Math.min(start, text.length), end: Math.min(end, text.length) });
  }
}

/** Passes a finished file's matches on in line order; false once `onMatch` wants no more. */
async function passOn(state: FileState, contextLines: number, onMatch: (match: LineMatch) => Promise<boolean>): Promise<boolean> {
  for (const match of state.matches) if (!(await onMatch(lineMatch(state, match, contextLines)))) return false;
  return true;
}

/** One match of a finished file with its context lines, and the lines' bytes when any of them is not UTF-8. */
function lineMatch(state: FileState, match: FileState['matches'][number], contextLines: number): LineMatch {
  const before: KnownLine[] = [];
  const after: KnownLine[] = [];
  for (let line = match.line - contextLines; line < match.line; line++) {
    const known = state.lines.get(line);
    if (known !== undefined) before.push(known);
  }
  for (let line = match.line + 1; line <= match.line + contextLines; line++) {
    const known = state.lines.get(line);
    if (known === undefined) break;
    after.push(known);
  }
  const own = state.lines.get(match.line);
  const raw =
    own && (!own.utf8 || before.some((each) => !each.utf8) || after.some((each) => !each.utf8))
      ? { line: own.bytes, before: before.map((each) => each.bytes), after: after.map((each) => each.bytes) }
      : undefined;
  const found = {
    path: state.path,
    line: match.line,
    text: match.text,
    start: match.start,
    end: match.end,
    before: before.map((each) => each.text),
    after: after.map((each) => each.text),
  };
  return raw ? { ...found, raw } : found;
}

export class RipgrepSearcher implements ContentSearcher {
  readonly name = 'ripgrep';

  constructor(readonly executable: string) {}

  async search(
    request: ContentSearchRequest,
    onMatch: (match: LineMatch) => Promise<boolean>,
    isCancelled: () => boolean,
  ): Promise<SearchOutcome> {
    const { query } = request;
    if (query.kind === 'literal') return this.run(request, 'default', onMatch, isCancelled);
    // The default engine first (faster); PCRE2 for what it cannot run or rejects (nothing was reported then).
    if (query.rust !== undefined && (await this.run(request, 'default', onMatch, isCancelled)) === 'done') return 'done';
    if (query.pcre2 !== undefined) return this.run(request, 'pcre2', onMatch, isCancelled);
    return 'unavailable';
  }

  /** One engine over the request, with its skipped paths in an ignore file of ours for as long as ripgrep runs. */
  private async run(
    request: ContentSearchRequest,
    engine: Engine,
    onMatch: (match: LineMatch) => Promise<boolean>,
    isCancelled: () => boolean,
  ): Promise<SearchOutcome> {
    if (request.skipped === undefined) return this.runWith(request, engine, undefined, onMatch, isCancelled);
    const rules: string[] = [];
    for (const path of request.skipped) {
      const rule = literalRule(relativeTo(request.root, path));
      // A name ripgrep cannot be told to skip exactly: the scan answers instead.
      if (rule === undefined) return 'unavailable';
      rules.push(rule);
    }
    const folder = mkdtempSync(nodePath.join(tmpdir(), 'agentfs-rg-'));
    const skipFile = nodePath.join(folder, 'skipped');
    try {
      writeFileSync(skipFile, `${rules.join('\n')}\n`, { mode: 0o600 });
      return await this.runWith(request, engine, skipFile, onMatch, isCancelled);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  /** One engine over the request: ripgrep spawned, its events read, and killed if it still runs when that ends. */
  private async runWith(
    request: ContentSearchRequest,
    engine: Engine,
    skipFile: string | undefined,
    onMatch: (match: LineMatch) => Promise<boolean>,
    isCancelled: () => boolean,
  ): Promise<SearchOutcome> {
    const { child, exited } = startRipgrep(this.executable, ripgrepArguments(request, engine, skipFile), nativePath(request.root));
    // ripgrep may search a long time between two results: the cancellation is polled, not only checked per result.
    const watch = setInterval(() => {
      if (isCancelled()) child.kill();
    }, 100);
    let read: { readonly events: number; readonly stopped: boolean };
    try {
      read = await readEvents(child.stdout, request, onMatch, isCancelled);
    } finally {
      clearInterval(watch);
      if (child.exitCode === null) child.kill();
    }
    const { code, error } = await exited;
    if (isCancelled()) throw new CancelledError();
    if (read.stopped) return 'done';
    // Not installed, or a pattern PCRE2 rejects (e.g. a variable-length look-behind): the scan answers instead.
    if (error || (code === 2 && read.events === 0)) return 'unavailable';
    return 'done';
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `rg` on PATH, for the runner. */
export function findRipgrepOnPath(environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd'] : ['rg'];
  for (const directory of (environment.PATH ?? '').split(nodePath.delimiter)) {
    if (directory === '') continue;
    for (const name of names) {
      const candidate = nodePath.join(directory, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The ripgrep VS Code ships, given `vscode.env.appRoot`. Its place has moved between releases (inside or outside
 * node_modules.asar.unpacked; since about 1.13x in @vscode/ripgrep-universal, one binary per platform), so each
 * known place is tried.
 */
export function bundledRipgrep(appRoot: string): string | undefined {
  const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const platform = `${process.platform}-${process.arch}`;
  const candidates = [
    nodePath.join(appRoot, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', platform, binary),
    nodePath.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep-universal', 'bin', platform, binary),
    nodePath.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', binary),
    nodePath.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', binary),
    nodePath.join(appRoot, 'node_modules', 'vscode-ripgrep', 'bin', binary),
    nodePath.join(appRoot, 'node_modules.asar.unpacked', 'vscode-ripgrep', 'bin', binary),
  ];
  return candidates.find(isExecutable);
}
