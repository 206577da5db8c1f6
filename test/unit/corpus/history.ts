/**
 * A git repository with a generated history, the same for the same seed: source files of several styles edited in
 * several places per commit, files added, deleted and renamed (some renames with an edit), CRLF files (committed
 * with core.autocrlf false, so the bytes are the file's), windows-1252 files (named *.w1252.*, which keep the suffix
 * when renamed, for the encoding setting that says so), a UTF-8 file with a BOM, files without
 * a final newline, and chunks copied elsewhere in a file so that later edits have repeated, ambiguous context.
 *
 * What the generator keeps, so that every commit can be said as a V4A patch: a file's encoding, BOM, line endings
 * and final newline never change (the grammar cannot say them); added files are UTF-8 with LF and a final newline,
 * as apply_patch writes new files; renamed files stay similar enough for git to see the rename.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeAs } from '../../shared/encodingCorpus';

const GIT = '/usr/bin/git';

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

type Style = 'js' | 'py' | 'md' | 'ini' | 'latin' | 'text';

interface FileModel {
  lines: string[];
  readonly style: Style;
  readonly eol: '\n' | '\r\n';
  readonly encoding: 'utf8' | 'windows1252';
  readonly bom: boolean;
  readonly finalNewline: boolean;
}

export function git(repo: string, ...args: string[]): string {
  return gitBytes(repo, ...args).toString('utf8');
}

/** git's output as bytes: a blob as the repository holds it. */
export function gitBytes(repo: string, ...args: string[]): Buffer {
  return execFileSync(GIT, args, {
    cwd: repo,
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Corpus',
      GIT_AUTHOR_EMAIL: 'corpus@example.invalid',
      GIT_COMMITTER_NAME: 'Corpus',
      GIT_COMMITTER_EMAIL: 'corpus@example.invalid',
      GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
    },
  });
}

function bytesOf(file: FileModel): Uint8Array {
  const text = file.lines.join(file.eol) + (file.finalNewline && file.lines.length > 0 ? file.eol : '');
  if (file.encoding === 'windows1252') return encodeAs(text, 'windows1252', false);
  return encodeAs(text, 'utf8', file.bom);
}

/** Lines of one style; `counter` makes most of them unique, and some are the lines code repeats everywhere. */
class Lines {
  private counter = 0;
  constructor(private readonly random: () => number) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private next(): number {
    return ++this.counter;
  }

  /** A unit that starts with a header line where the style has headers (a function, a section). */
  block(style: Style): string[] {
    const n = this.next();
    const body = Array.from({ length: 2 + Math.floor(this.random() * 4) }, () => this.line(style));
    switch (style) {
      case 'js':
        return [`function step${n}(input) {`, ...body.map((line) => `  ${line}`), '  return null;', '}', ''];
      case 'py':
        return [`def step_${n}(value):`, ...body.map((line) => `    ${line}`), '    return None', ''];
      case 'md':
        return [`## Section ${n}`, '', ...body.map((line) => `- ${line}`), ''];
      case 'ini':
        return [`[section${n}]`, ...body.map((line, index) => `key${index}=${line}`), 'enabled=true', ''];
      case 'latin':
        return [`Kapitel ${n}: Größe und Maß`, ...body, ''];
      case 'text':
        return [...body, this.pick(['--', '', 'end'])];
    }
  }

  line(style: Style): string {
    const n = this.next();
    if (this.random() < (style === 'text' ? 0.5 : 0.3)) {
      const common: Record<Style, readonly string[]> = {
        js: ['i++;', 'return null;', '}', 'continue;'],
        py: ['pass', 'return None', 'i += 1'],
        md: ['see above', 'TODO'],
        ini: ['true', 'false', 'none'],
        latin: ['Grüße', 'Café €', '…'],
        text: ['same line', 'again', ''],
      };
      return this.pick(common[style]);
    }
    switch (style) {
      case 'js':
        return this.pick([`const v${n} = input + ${n};`, `if (v${n} > ${n}) log(v${n});`, `// step ${n}`]);
      case 'py':
        return this.pick([`total_${n} = value * ${n}`, `if value > ${n}: value -= ${n}`, `# note ${n}`]);
      case 'md':
        return this.pick([`Item ${n} with words`, `A sentence about ${n}.`]);
      case 'ini':
        return `value${n}`;
      case 'latin':
        return this.pick([`Zeile ${n}: naïve façade`, `Preis ${n} € für Café`, `Straße Nr. ${n}`]);
      case 'text':
        return `row ${n}`;
    }
  }
}

export interface GeneratedHistory {
  readonly repo: string;
  /** Commit ids, oldest first; the first is the root. */
  readonly commits: readonly string[];
}

/** Writes the history into `repo` (made) and returns its commits. */
export function generateHistory(repo: string, seed: number, count: number): GeneratedHistory {
  const random = prng(seed);
  const lines = new Lines(random);
  const chance = (p: number): boolean => random() < p;
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const files = new Map<string, FileModel>();
  const make = (style: Style, blocks: number, shape: Partial<Omit<FileModel, 'lines' | 'style'>> = {}): FileModel => ({
    lines: Array.from({ length: blocks }, () => lines.block(style)).flat(),
    style,
    eol: shape.eol ?? '\n',
    encoding: shape.encoding ?? 'utf8',
    bom: shape.bom ?? false,
    finalNewline: shape.finalNewline ?? true,
  });
  files.set('src/app.js', make('js', 8));
  files.set('src/tools.py', make('py', 8));
  files.set('docs/guide.md', make('md', 6));
  files.set('win/config.ini', make('ini', 6, { eol: '\r\n' }));
  files.set('win/readme.txt', make('text', 8, { eol: '\r\n' }));
  files.set('legacy/notes.w1252.txt', make('latin', 6, { encoding: 'windows1252' }));
  files.set('legacy/windows.w1252.ini', make('latin', 5, { encoding: 'windows1252', eol: '\r\n' }));
  files.set('data/open.txt', make('text', 6, { finalNewline: false }));
  files.set('data/repeats.txt', make('text', 10));
  files.set('bom/utf8.md', make('md', 4, { bom: true }));
  let added = 0;

  const edit = (file: FileModel): void => {
    const at = between(0, Math.max(0, file.lines.length - 1));
    const kind = random();
    if (kind < 0.3) file.lines.splice(at, 1, lines.line(file.style));
    else if (kind < 0.55) file.lines.splice(at, 0, ...(chance(0.5) ? lines.block(file.style) : [lines.line(file.style)]));
    else if (kind < 0.75 && file.lines.length > 12) file.lines.splice(at, between(1, 3));
    else {
      // A chunk copied elsewhere: the repeated context later edits must be told apart by.
      const length = between(3, file.style === 'text' ? 12 : 6);
      const from = between(0, Math.max(0, file.lines.length - length));
      const chunk = file.lines.slice(from, from + length);
      file.lines.splice(between(0, file.lines.length), 0, ...chunk, lines.line(file.style));
    }
  };

  // A file without a final newline whose last line is empty would read as one with a newline: keep it ending in text.
  const settle = (file: FileModel): void => {
    if (file.finalNewline) return;
    while (file.lines.length > 0 && file.lines[file.lines.length - 1] === '') file.lines.pop();
    if (file.lines.length === 0) file.lines.push('the end');
  };

  const write = (): void => {
    for (const entry of fs.readdirSync(repo)) if (entry !== '.git') fs.rmSync(path.join(repo, entry), { recursive: true, force: true });
    for (const [relative, file] of files) {
      fs.mkdirSync(path.dirname(path.join(repo, relative)), { recursive: true });
      fs.writeFileSync(path.join(repo, relative), bytesOf(file));
    }
  };

  fs.mkdirSync(repo, { recursive: true });
  git(repo, 'init', '--quiet', '--initial-branch=main');
  git(repo, 'config', 'core.autocrlf', 'false');
  git(repo, 'config', 'core.safecrlf', 'false');
  git(repo, 'config', 'commit.gpgsign', 'false');
  const commits: string[] = [];
  const commit = (message: string): void => {
    for (const file of files.values()) settle(file);
    write();
    git(repo, 'add', '--all');
    // Every commit changes something: a change that undid itself gets a line of its own.
    if (git(repo, 'status', '--porcelain') === '') {
      const [file] = [...files.values()].filter((each) => each.finalNewline);
      file?.lines.push(`commit ${commits.length}`);
      write();
      git(repo, 'add', '--all');
    }
    git(repo, 'commit', '--quiet', '-m', message);
    commits.push(git(repo, 'rev-parse', 'HEAD').trim());
  };
  commit('root');
  for (let number = 1; number < count; number++) {
    const names = [...files.keys()];
    const pick = (): string => names[between(0, names.length - 1)] ?? '';
    for (let edits = between(1, 3); edits > 0; edits--) {
      const file = files.get(pick());
      if (!file) continue;
      for (let places = between(1, 3); places > 0; places--) edit(file);
    }
    if (chance(0.25)) {
      const style = (['js', 'py', 'md', 'text'] as const)[between(0, 3)] ?? 'text';
      files.set(
        `added/file${++added}.${style === 'js' ? 'js' : style === 'py' ? 'py' : style === 'md' ? 'md' : 'txt'}`,
        make(style, between(1, 3)),
      );
    }
    if (chance(0.12)) {
      const victim = names.find((name) => name.startsWith('added/') && files.has(name));
      if (victim) files.delete(victim);
    }
    if (chance(0.2)) {
      const from = pick();
      const file = files.get(from);
      if (file && file.lines.length >= 20) {
        files.delete(from);
        const to = `moved/${number}-${path.posix.basename(from)}`;
        if (chance(0.5)) edit(file);
        files.set(to, file);
      }
    }
    commit(`commit ${number}`);
  }
  return { repo, commits };
}

/** Writes the tree of `commit` into `directory` (emptied first), byte for byte. */
export function checkout(repo: string, commit: string, directory: string): void {
  fs.rmSync(directory, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  const tar = execFileSync(GIT, ['archive', '--format=tar', commit], { cwd: repo, maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', directory], { input: tar });
}

/** Every file below `directory` (directories themselves aside: git keeps no empty ones), by relative path. */
export function filesBelow(directory: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(directory, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isSymbolicLink()) found.set(child, Buffer.from(`link to ${fs.readlinkSync(path.join(directory, child))}`));
      else if (entry.isDirectory()) walk(child);
      else found.set(child, fs.readFileSync(path.join(directory, child)));
    }
  };
  walk('');
  return found;
}
