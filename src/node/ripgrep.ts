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
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { createInterface } from 'node:readline';
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

interface FileState {
  readonly path: string;
  readonly lines: Map<number, { readonly text: string; readonly bytes: Uint8Array; readonly utf8: boolean }>;
  readonly matches: { line: number; text: string; start: number; end: number }[];
}

/** A line's bytes without its terminator. */
function lineBytes(bytes: Buffer): Buffer {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0a) end--;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  return bytes.subarray(0, end);
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

  private async runWith(
    request: ContentSearchRequest,
    engine: Engine,
    skipFile: string | undefined,
    onMatch: (match: LineMatch) => Promise<boolean>,
    isCancelled: () => boolean,
  ): Promise<SearchOutcome> {
    const child = spawn(this.executable, ripgrepArguments(request, engine, skipFile), {
      cwd: nativePath(request.root),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4096) stderr += chunk;
    });
    const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('close', (code) => resolve({ code }));
    });

    // ripgrep may search a long time between two results: the cancellation is polled, not only checked per result.
    const watch = setInterval(() => {
      if (isCancelled()) child.kill();
    }, 100);
    let events = 0;
    let stopped = false;
    let file: FileState | undefined;
    const flush = async (state: FileState): Promise<boolean> => {
      for (const match of state.matches) {
        const before: { text: string; bytes: Uint8Array; utf8: boolean }[] = [];
        const after: { text: string; bytes: Uint8Array; utf8: boolean }[] = [];
        for (let line = match.line - request.contextLines; line < match.line; line++) {
          const known = state.lines.get(line);
          if (known !== undefined) before.push(known);
        }
        for (let line = match.line + 1; line <= match.line + request.contextLines; line++) {
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
        if (!(await onMatch(raw ? { ...found, raw } : found))) return false;
      }
      return true;
    };

    try {
      const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
      for await (const raw of lines) {
        if (isCancelled()) throw new CancelledError();
        events++;
        const event = JSON.parse(raw) as RgEvent;
        const { data } = event;
        if (event.type === 'begin') {
          // Relative to the root, ripgrep's working folder, as the start was given.
          const native = nodePath.resolve(nativePath(request.root), bytesOf(data.path).toString('utf8'));
          file = { path: native.split(nodePath.sep).join('/'), lines: new Map(), matches: [] };
          if (nodePath.sep === '\\') file = { ...file, path: `/${file.path}` };
        } else if ((event.type === 'match' || event.type === 'context') && file && data.line_number !== undefined) {
          const bytes = bytesOf(data.lines);
          const text = lineText(bytes);
          // ripgrep sends a line as base64 bytes exactly when they are not UTF-8.
          file.lines.set(data.line_number, { text, bytes: lineBytes(bytes), utf8: data.lines?.bytes === undefined });
          const first = data.submatches?.[0];
          if (event.type === 'match' && first) {
            // ripgrep counts bytes; the core counts UTF-16 units.
            const start = bytes.subarray(0, first.start).toString('utf8').length;
            const end = bytes.subarray(0, first.end).toString('utf8').length;
            file.matches.push({ line: data.line_number, text, start: Math.min(start, text.length), end: Math.min(end, text.length) });
          }
        } else if (event.type === 'end' && file) {
          const state = file;
          file = undefined;
          if (!(await flush(state))) {
            stopped = true;
            break;
          }
        }
      }
    } finally {
      clearInterval(watch);
      if (child.exitCode === null) child.kill();
    }
    const { code, error } = await exited;
    if (isCancelled()) throw new CancelledError();
    if (stopped) return 'done';
    // Not installed, or a pattern PCRE2 rejects (e.g. a variable-length look-behind): the scan answers instead.
    if (error || (code === 2 && events === 0)) return 'unavailable';
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
