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
import type { ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import type { Readable } from 'node:stream';
import { CancelledError } from '../../core/errors';
import { relativeTo } from '../../core/paths';
import type { ContentSearcher, ContentSearchRequest, LineMatch, SearchOutcome } from '../../core/ports/searcher';
import { toNativePath } from '../fs/nativePaths';
import { readEvents } from './ripgrepEvents';

export type Engine = 'default' | 'pcre2';

/**
 * A path as an ignore rule that matches it alone: anchored at the root, every glob character escaped. Undefined for
 * a path an ignore file cannot hold (a control character: a line break, or a tab ripgrep would trim), and on Windows,
 * where ripgrep reads '\' as a separator, for one with a glob character.
 */
function literalRule(relative: string, windows = process.platform === 'win32'): string | undefined {
  if (/[\x00-\x1f]/.test(relative) || (windows && /[\\*?[\]{}!#]/.test(relative))) return undefined;
  return `/${relative.replace(/[\\*?[\]{}! #]/g, '\\$&')}`;
}

/**
 * ripgrep's arguments for `request`; `skipFile` is the ignore file that holds request.skipped as literalRule gives
 * them. The start is given relative to the root, ripgrep's working folder, as ignore-file rules are matched so.
 */
function ripgrepArguments(request: ContentSearchRequest, engine: Engine = 'default', skipFile?: string): string[] {
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
  args.push(`--regexp=${pattern ?? ''}`, '--', start === '' ? '.' : `.${nodePath.sep}${toNativePath(`/${start}`).replace(/^[\\/]/, '')}`);
  return args;
}

/** A line ripgrep sent: its text, its bytes without the terminator, and whether they were UTF-8. */
/** ripgrep running, and how it ended: its exit code, or the error it could not start with. */
interface Running {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly exited: Promise<{ code: number | null; error?: Error }>;
}

/** Spawns ripgrep in `cwd` with its stderr read as it comes, so that a full pipe cannot stall it. */
function startRipgrep(executable: string, args: readonly string[], cwd: string): Running {
  // Loaded on the first search, not with the bundle: child_process takes 5-8 ms to load, which every runner call that
  // searches nothing would pay.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
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
    const { child, exited } = startRipgrep(this.executable, ripgrepArguments(request, engine, skipFile), toNativePath(request.root));
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
