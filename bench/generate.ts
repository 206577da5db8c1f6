/**
 * The benchmark's workspace, generated from a seed so every run (and every machine) measures the same bytes:
 * about 100,000 files in about 5,000 directories, depth up to 8, realistic names and extensions, sizes mostly
 * 0.5–8 KB, ~1% binary, a node_modules folder ignored by .gitignore, one token planted in exactly 50 files, and a
 * 1 GiB log with numbered lines beside the tree.
 *
 * Layout under the bench directory:  tree/ (the workspace)  logs/app.log (the big log)  manifest.json (written
 * last: a complete generation is one whose manifest matches GENERATOR, so an interrupted one is redone).
 *
 * Over 300 lines: most of it is the word lists (names, extensions, packages) the generated tree is drawn from.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const GENERATOR = {
  version: 1,
  seed: 20260401,
  directories: 5000,
  /** Of them, this many are inside node_modules. */
  ignoredDirectories: 400,
  files: 100_000,
  ignoredFiles: 9000,
  maxDepth: 8,
  binaryShare: 0.01,
  tokenFiles: 50,
  logBytes: 1024 * 1024 * 1024,
} as const;

/** Planted in exactly GENERATOR.tokenFiles files, as `${TOKEN}-<n>`. */
export const TOKEN = 'QUASAR_TOKEN_7f3a';
export const TOKEN_REGEX = 'QUASAR_TOKEN_[0-9a-f]{4}-\\d+';

interface BenchTree {
  readonly dir: string;
  readonly tree: string;
  readonly logs: string;
  readonly log: string;
}

function layout(dir: string): BenchTree {
  return { dir, tree: path.join(dir, 'tree'), logs: path.join(dir, 'logs'), log: path.join(dir, 'logs', 'app.log') };
}

/** mulberry32: tiny, fast, and the same sequence everywhere. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIRECTORY_WORDS = [
  'src',
  'lib',
  'app',
  'components',
  'utils',
  'helpers',
  'services',
  'models',
  'controllers',
  'views',
  'api',
  'core',
  'internal',
  'pkg',
  'cmd',
  'handlers',
  'middleware',
  'hooks',
  'store',
  'routes',
  'config',
  'scripts',
  'tests',
  'fixtures',
  'docs',
  'guides',
  'assets',
  'styles',
  'images',
  'fonts',
  'i18n',
  'locales',
  'server',
  'client',
  'shared',
  'common',
  'domain',
  'infra',
  'adapters',
  'ports',
  'migrations',
  'schemas',
  'types',
  'widgets',
  'pages',
  'layouts',
  'plugins',
  'tools',
];
const FILE_WORDS = [
  'user',
  'account',
  'order',
  'invoice',
  'payment',
  'cart',
  'product',
  'catalog',
  'search',
  'index',
  'session',
  'auth',
  'token',
  'profile',
  'settings',
  'report',
  'export',
  'import',
  'queue',
  'worker',
  'cache',
  'logger',
  'metrics',
  'router',
  'controller',
  'service',
  'repository',
  'factory',
  'builder',
  'parser',
  'formatter',
  'validator',
  'client',
  'server',
  'handler',
  'mapper',
  'adapter',
  'schema',
  'model',
  'view',
  'helper',
  'util',
  'config',
  'constants',
  'types',
  'errors',
];
const EXTENSIONS: readonly (readonly [string, number])[] = [
  ['.ts', 24],
  ['.js', 14],
  ['.py', 9],
  ['.json', 8],
  ['.md', 5],
  ['.go', 5],
  ['.css', 5],
  ['.tsx', 5],
  ['.html', 4],
  ['.yml', 4],
  ['.txt', 4],
  ['.rs', 4],
  ['.java', 3],
  ['.sh', 2],
  ['.c', 2],
  ['.h', 2],
];
const BINARY_EXTENSIONS = ['.png', '.woff2', '.bin', '.jpg', '.ico'];
const PACKAGES = [
  'lodash',
  'react',
  'express',
  'chalk',
  'debug',
  'semver',
  'yargs',
  'commander',
  'uuid',
  'ms',
  'qs',
  'zod',
  'axios',
  'rxjs',
  'tslib',
  'glob',
];

function pick<T>(next: () => number, items: readonly T[]): T {
  const item = items[Math.floor(next() * items.length)];
  if (item === undefined) throw new Error('empty list');
  return item;
}

function pickWeighted(next: () => number, items: readonly (readonly [string, number])[]): string {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = next() * total;
  for (const [item, weight] of items) {
    roll -= weight;
    if (roll < 0) return item;
  }
  return items[0]?.[0] ?? '';
}

/** A pool of code-like lines; files are made of lines drawn from it, so content is varied but cheap to build. */
function linePool(next: () => number): string[] {
  const lines: string[] = [];
  const templates = [
    (a: string, b: string) => `export function ${a}${capital(b)}(input: ${capital(a)}): ${capital(b)} {`,
    (a: string, b: string) => `  const ${a} = await this.${b}.load(id, { retries: ${Math.floor(next() * 5)} });`,
    (a: string, b: string) => `  if (!${a}) throw new Error('${a} not found for ${b}');`,
    (a: string, b: string) => `import { ${capital(a)}${capital(b)} } from '../${a}/${b}';`,
    (a: string, b: string) => `// TODO(${a}): handle the ${b} case before release`,
    (a: string, b: string) => `def ${a}_${b}(self, value):`,
    (a: string, b: string) => `    return self.${a}.get("${b}", None)`,
    (a: string, b: string) => `  "${a}": "${b}-${Math.floor(next() * 1000)}",`,
    (a: string, b: string) =>
      `.${a}-${b} { margin: ${Math.floor(next() * 16)}px; color: #${Math.floor(next() * 0xffffff)
        .toString(16)
        .padStart(6, '0')}; }`,
    (a: string, b: string) => `func (s *${capital(a)}) ${capital(b)}(ctx context.Context) error {`,
    (a: string, b: string) => `The ${a} module keeps ${b} records consistent across restarts.`,
    () => '}',
    () => '',
  ];
  for (let index = 0; index < 4000; index++) lines.push(pick(next, templates)(pick(next, FILE_WORDS), pick(next, FILE_WORDS)));
  return lines;
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

interface PlannedDirectory {
  readonly relative: string;
  readonly depth: number;
}

function planDirectories(next: () => number): { visible: PlannedDirectory[]; ignored: PlannedDirectory[] } {
  const visible: PlannedDirectory[] = [{ relative: '', depth: 0 }];
  const names = new Set<string>(['']);
  const add = (list: PlannedDirectory[], parent: PlannedDirectory, name: string): void => {
    const relative = parent.relative === '' ? name : `${parent.relative}/${name}`;
    if (names.has(relative)) return;
    names.add(relative);
    list.push({ relative, depth: parent.depth + 1 });
  };
  const visibleCount = GENERATOR.directories - GENERATOR.ignoredDirectories;
  while (visible.length < visibleCount) {
    // Shallow parents are likelier, as in real repositories; nothing goes below maxDepth.
    const candidates = visible.filter((directory) => directory.depth < GENERATOR.maxDepth);
    const parent = candidates[Math.floor(Math.pow(next(), 1.6) * candidates.length)] ?? visible[0];
    if (!parent) break;
    add(visible, parent, next() < 0.7 ? pick(next, DIRECTORY_WORDS) : `${pick(next, DIRECTORY_WORDS)}-${pick(next, FILE_WORDS)}`);
  }
  const modules: PlannedDirectory = { relative: 'node_modules', depth: 1 };
  const ignored: PlannedDirectory[] = [modules];
  names.add('node_modules');
  while (ignored.length < GENERATOR.ignoredDirectories) {
    const parent = next() < 0.3 ? modules : pick(next, ignored);
    if (parent.depth >= GENERATOR.maxDepth) continue;
    add(
      ignored,
      parent,
      parent === modules
        ? `${pick(next, PACKAGES)}${next() < 0.5 ? '' : `-${pick(next, FILE_WORDS)}`}`
        : pick(next, ['lib', 'dist', 'src', 'esm', 'cjs', 'types', 'utils']),
    );
  }
  return { visible: visible.slice(1), ignored };
}

function fileSize(next: () => number): number {
  // Mostly 0.5–8 KB (log-uniform), a few larger.
  return next() < 0.03 ? Math.floor(8192 + next() * 57344) : Math.floor(512 * Math.pow(2, next() * 4));
}

function textContent(next: () => number, pool: readonly string[], size: number, token?: string): string {
  const lines: string[] = [];
  let length = 0;
  const tokenAt = token === undefined ? -1 : Math.floor(next() * Math.max(1, size / 40));
  while (length < size) {
    const line = lines.length === tokenAt ? `  const marker = "${token}"; // planted for the benchmark` : pick(next, pool);
    lines.push(line);
    length += line.length + 1;
  }
  if (token !== undefined && tokenAt >= lines.length) lines.push(`const marker = "${token}";`);
  return `${lines.join('\n')}\n`;
}

function binaryContent(next: () => number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index++) bytes[index] = Math.floor(next() * 256);
  // A NUL in the first bytes, as real image and font headers have.
  bytes[4] = 0;
  return bytes;
}

function writeLog(file: string): void {
  const next = random(GENERATOR.seed ^ 0x10c);
  const levels = ['INFO ', 'INFO ', 'INFO ', 'DEBUG', 'WARN ', 'ERROR'];
  const handle = fs.openSync(file, 'w');
  try {
    let written = 0;
    let line = 0;
    const start = Date.UTC(2026, 0, 1);
    while (written < GENERATOR.logBytes) {
      const parts: string[] = [];
      let chunk = 0;
      while (chunk < 4 * 1024 * 1024 && written + chunk < GENERATOR.logBytes) {
        line++;
        const time = new Date(start + line * 37).toISOString();
        const text = `${time} ${pick(next, levels)} [worker-${String(Math.floor(next() * 16)).padStart(2, '0')}] line ${String(line).padStart(9, '0')} ${pick(next, FILE_WORDS)}.${pick(next, FILE_WORDS)} took ${Math.floor(next() * 900)}ms\n`;
        parts.push(text);
        chunk += text.length;
      }
      const buffer = Buffer.from(parts.join(''), 'utf8');
      fs.writeSync(handle, buffer);
      written += buffer.length;
    }
  } finally {
    fs.closeSync(handle);
  }
}

export interface Generated extends BenchTree {
  readonly reused: boolean;
}

/** Creates the benchmark workspace under `dir`, or reuses a complete one generated with the same parameters. */
export function ensureGenerated(dir: string, log: (message: string) => void = () => undefined): Generated {
  const where = layout(dir);
  const manifestFile = path.join(dir, 'manifest.json');
  try {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as unknown;
    if (JSON.stringify(manifest) === JSON.stringify(GENERATOR) && fs.statSync(where.log).size >= GENERATOR.logBytes)
      return { ...where, reused: true };
  } catch {
    // Absent or incomplete: generate below.
  }
  log(`Generating the benchmark workspace in ${dir} (once; about a minute and 1.5 GB of disk)…`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(where.tree, { recursive: true });
  fs.mkdirSync(where.logs, { recursive: true });

  const next = random(GENERATOR.seed);
  const pool = linePool(next);
  const { visible, ignored } = planDirectories(next);
  for (const directory of [...visible, ...ignored]) fs.mkdirSync(path.join(where.tree, directory.relative), { recursive: true });
  // A git repository, as real workspaces are: fd and rg honour .gitignore in one.
  fs.mkdirSync(path.join(where.tree, '.git'), { recursive: true });
  fs.writeFileSync(path.join(where.tree, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(where.tree, '.gitignore'), 'node_modules/\n*.log\ndist/\ncoverage/\n');
  fs.writeFileSync(path.join(where.tree, 'README.md'), '# Benchmark workspace\n\nGenerated by bench/generate.ts; do not edit.\n');

  const visibleFiles = GENERATOR.files - GENERATOR.ignoredFiles;
  const tokenEvery = Math.floor(visibleFiles / GENERATOR.tokenFiles);
  let planted = 0;
  const used = new Set<string>();
  for (let index = 0; index < GENERATOR.files; index++) {
    const isIgnored = index >= visibleFiles;
    const directory = isIgnored ? pick(next, ignored) : (visible[Math.floor(next() * visible.length)] ?? { relative: '' });
    const binary = next() < GENERATOR.binaryShare;
    const extension = binary
      ? pick(next, BINARY_EXTENSIONS)
      : isIgnored
        ? pickWeighted(next, [
            ['.js', 6],
            ['.json', 1],
            ['.md', 1],
            ['.ts', 2],
          ])
        : pickWeighted(next, EXTENSIONS);
    let name = `${pick(next, FILE_WORDS)}${next() < 0.6 ? `-${pick(next, FILE_WORDS)}` : ''}${extension}`;
    let relative = directory.relative === '' ? name : `${directory.relative}/${name}`;
    for (let attempt = 2; used.has(relative); attempt++) {
      name = `${pick(next, FILE_WORDS)}-${attempt}${extension}`;
      relative = directory.relative === '' ? name : `${directory.relative}/${name}`;
    }
    used.add(relative);
    const size = fileSize(next);
    const plant = !isIgnored && !binary && planted < GENERATOR.tokenFiles && index >= planted * tokenEvery;
    if (plant) planted++;
    const content = binary ? binaryContent(next, size) : textContent(next, pool, size, plant ? `${TOKEN}-${planted}` : undefined);
    fs.writeFileSync(path.join(where.tree, relative), content);
  }
  if (planted !== GENERATOR.tokenFiles) throw new Error(`planted the token in ${planted} files, not ${GENERATOR.tokenFiles}`);
  log('Writing the 1 GiB log…');
  writeLog(where.log);
  fs.writeFileSync(manifestFile, `${JSON.stringify(GENERATOR)}\n`);
  return { ...where, reused: false };
}
