/**
 * Random change to a workspace, for the path index's differential tests (test/unit/indexes/pathIndex/, and the extension
 * host's test/integration/tools/pathIndex.test.ts): files and directories created, deleted and renamed (within and
 * across ignored folders, a directory replaced by another of the same name), .gitignore files written and removed,
 * links made, retargeted and left dangling, a link's target turned from a file into a directory, bursts of files,
 * changes made by another process, and `git checkout` of another branch of a repository the test made. Every
 * choice comes from a seeded generator, so a failure names its seed and step, which bring it back.
 *
 * Node's own modules only (the integration specs load it inside the extension host).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** mulberry32: small, fast and good enough to pick test cases from a seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Chooser {
  constructor(readonly random: () => number) {}

  int(below: number): number {
    return Math.floor(this.random() * below);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chance(probability: number): boolean {
    return this.random() < probability;
  }
}

/** Names that the finding tools' queries below look for, hide, ignore or page through. */
const NAMES = [
  'README.md',
  'notes.md',
  'index.ts',
  'user-controller.ts',
  'UserService.ts',
  'app.log',
  'keep.log',
  '.env',
  '.hidden',
  'data.json',
  'main.go',
  'report.pdf',
  'report.pdf.txt',
  'build.txt',
  'Ünïcode.md',
];

/** Directories the changes go to: plain ones, ignored ones (by the .gitignore rules below), dot folders, deep ones. */
const DIRECTORIES = [
  '',
  'src',
  'src/app',
  'src/app/models',
  'docs',
  'node_modules/pkg',
  'build',
  'vendor',
  '.cache',
  'ignored',
  'deep/a/b/c',
  'lib',
];

/** .gitignore rules, combined at random: directory rules, globs, negations, anchored rules, path rules. */
const RULES = [
  'node_modules/',
  '*.log',
  '!keep.log',
  'build/',
  'docs/*.md',
  '/vendor',
  '.cache',
  'ignored/**',
  '*.json',
  'src/app/models/',
];

/** The starting tree: enough files that a listing pages, in every kind of directory above. */
export function baseTree(chooser: Chooser, files = 240): Record<string, string> {
  const tree: Record<string, string> = { '.gitignore': 'node_modules/\n*.log\n!keep.log\nbuild/\n' };
  for (let index = 0; index < files; index++) {
    const directory = chooser.pick(DIRECTORIES);
    const name = chooser.chance(0.5) ? chooser.pick(NAMES) : `file-${index}.${chooser.pick(['ts', 'md', 'txt', 'json'])}`;
    tree[directory === '' ? name : `${directory}/${name}`] = `line one\nline ${index} QUASAR\n`;
  }
  return tree;
}

/** Every path below `root` (relative, '/'-separated), with its kind; links are not followed, the root's .git is left out. */
export function inventory(root: string): { files: string[]; directories: string[]; links: string[] } {
  const found = { files: [] as string[], directories: [] as string[], links: [] as string[] };
  const visit = (relative: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.name === '.git' && relative === '') continue;
      if (entry.isSymbolicLink()) found.links.push(child);
      else if (entry.isDirectory()) {
        found.directories.push(child);
        visit(child);
      } else found.files.push(child);
    }
  };
  visit('');
  return found;
}

/** One step of change, as a plain description (shown when a comparison fails) and the function that makes it. */
export interface Change {
  readonly what: string;
  readonly apply: () => void | Promise<void>;
}

/**
 * Makes the folder `full` and those above it; false when a file has taken one of their names (an earlier change
 * renamed or wrote one there), so the change that needed it cannot happen on this tree and is left out.
 */
function makeFolder(full: string): boolean {
  try {
    fs.mkdirSync(full, { recursive: true });
    return true;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST' || code === 'ENOTDIR') return false;
    throw error;
  }
}

function write(root: string, relative: string, content: string): void {
  const full = path.join(root, relative);
  if (makeFolder(path.dirname(full))) fs.writeFileSync(full, content);
}

function move(root: string, from: string, to: string): void {
  if (makeFolder(path.dirname(path.join(root, to)))) fs.renameSync(path.join(root, from), path.join(root, to));
}

/** A JavaScript program that another Node process runs to make `count` changes below `root`. */
function externalScript(root: string, chooser: Chooser, count: number): string {
  const steps: string[] = [];
  for (let index = 0; index < count; index++) {
    const directory = chooser.pick(DIRECTORIES);
    const target = JSON.stringify(path.join(root, directory, chooser.pick(NAMES)));
    const folder = JSON.stringify(path.join(root, directory));
    switch (chooser.int(4)) {
      case 0:
        steps.push(`fs.mkdirSync(${folder}, { recursive: true }); fs.writeFileSync(${target}, 'from another process QUASAR\\n');`);
        break;
      case 1:
        steps.push(`fs.rmSync(${target}, { force: true, recursive: true });`);
        break;
      case 2:
        steps.push(`try { fs.renameSync(${folder}, ${folder} + '-moved'); } catch {}`);
        break;
      default:
        steps.push(`fs.mkdirSync(${JSON.stringify(path.join(root, directory, `made-${index}`))}, { recursive: true });`);
    }
  }
  return `const fs = require('fs');\n${steps.map((step) => `try { ${step} } catch {}`).join('\n')}\n`;
}

function run(command: string, args: readonly string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
}

/** Makes `root` a git repository with two branches whose trees differ; later checkouts switch between them. */
export function makeRepository(root: string, chooser: Chooser): void {
  const git = (...args: string[]): void => run('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], root);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  git('checkout', '-q', '-b', 'other');
  for (let index = 0; index < 40; index++) {
    write(
      root,
      `${chooser.pick(['src', 'lib', 'docs', 'other/branch', 'src/app'])}/branch-${index}.${chooser.pick(['ts', 'md'])}`,
      'branch\n',
    );
  }
  fs.rmSync(path.join(root, 'src', 'app'), { recursive: true, force: true });
  git('add', '-A');
  git('commit', '-q', '-m', 'other');
  git('checkout', '-q', 'main');
}

/**
 * A random change of `root`. `viaAgentFs`, where given, makes some changes through Agent FS's own tools instead
 * (the session under test), as an agent's own writes come.
 */
export function randomChange(root: string, chooser: Chooser, viaAgentFs?: (operation: string, input: object) => Promise<unknown>): Change {
  const { files, directories, links } = inventory(root);
  const someDirectory = (): string =>
    directories.length > 0 && chooser.chance(0.7) ? chooser.pick(directories) : chooser.pick(DIRECTORIES);
  const newPath = (): string => {
    const directory = someDirectory();
    const name = chooser.chance(0.6) ? chooser.pick(NAMES) : `new-${chooser.int(1000)}.${chooser.pick(['ts', 'md', 'log'])}`;
    return directory === '' ? name : `${directory}/${name}`;
  };
  const kind = chooser.int(100);
  if (viaAgentFs && kind < 10) {
    const target = newPath();
    const choices: [string, object][] = [
      ['write_file', { file_name: target, content: 'via Agent FS QUASAR\n' }],
      ['create_directory', { directory_name: `${someDirectory()}/made-by-agent` }],
    ];
    if (files.length > 0) choices.push(['move_file', { source_path: chooser.pick(files), destination_path: newPath(), overwrite: true }]);
    if (directories.length > 0) {
      const directory = chooser.pick(directories);
      choices.push(['delete_directory', { directory_path: directory, recursive: true }]);
      choices.push(['copy_directory', { source_path: directory, destination_path: `${directory}-copy` }]);
      choices.push([
        'move_directory',
        { source_path: directory, destination_path: `${chooser.pick(['ignored', 'build', 'lib', ''])}/moved-${chooser.int(100)}` },
      ]);
    }
    const [operation, input] = chooser.pick(choices);
    return {
      what: `Agent FS ${operation} ${JSON.stringify(input)}`,
      apply: async () => {
        await viaAgentFs(operation, input);
      },
    };
  }
  if (kind < 22) {
    const target = newPath();
    return { what: `create file ${target}`, apply: () => write(root, target, `created QUASAR ${chooser.int(100)}\n`) };
  }
  if (kind < 28) {
    const target = `${someDirectory()}/${chooser.pick(['fresh', 'nested/deeper', 'node_modules/x', '.dot'])}`;
    return { what: `mkdir ${target}`, apply: () => void makeFolder(path.join(root, target)) };
  }
  if (kind < 36 && files.length > 0) {
    const target = chooser.pick(files);
    return { what: `delete file ${target}`, apply: () => fs.rmSync(path.join(root, target), { force: true }) };
  }
  if (kind < 41 && directories.length > 0) {
    const target = chooser.pick(directories);
    return { what: `delete directory ${target}`, apply: () => fs.rmSync(path.join(root, target), { recursive: true, force: true }) };
  }
  if (kind < 49 && files.length > 0) {
    const from = chooser.pick(files);
    const to = newPath();
    return { what: `rename file ${from} -> ${to}`, apply: () => move(root, from, to) };
  }
  if (kind < 56 && directories.length > 0) {
    const from = chooser.pick(directories);
    // Into and out of ignored folders, and to a plain place.
    const to = `${chooser.pick(['', 'node_modules', 'build', 'ignored', 'src', '.cache'])}/dir-${chooser.int(100)}`.replace(/^\//, '');
    return {
      what: `rename directory ${from} -> ${to}`,
      apply: () => {
        // rename(2) replaces only an empty directory: onto one that has entries it would fail, so none is made.
        if (!to.startsWith(`${from}/`) && !fs.existsSync(path.join(root, to))) move(root, from, to);
      },
    };
  }
  if (kind < 60 && directories.length > 0) {
    const target = chooser.pick(directories);
    return {
      what: `replace directory ${target} by a new one of the same name`,
      apply: () => {
        const aside = `${target}-old-${chooser.int(1000)}`;
        move(root, target, aside);
        write(root, `${target}/${chooser.pick(NAMES)}`, 'in the new directory\n');
      },
    };
  }
  if (kind < 67) {
    const rules = RULES.filter(() => chooser.chance(0.4));
    return { what: `root .gitignore = ${JSON.stringify(rules)}`, apply: () => write(root, '.gitignore', `${rules.join('\n')}\n`) };
  }
  if (kind < 71) {
    const directory = chooser.pick(['src', 'docs', 'deep/a', 'lib']);
    if (chooser.chance(0.3))
      return { what: `remove ${directory}/.gitignore`, apply: () => fs.rmSync(path.join(root, directory, '.gitignore'), { force: true }) };
    const rules = ['*.md', '!README.md', 'app/', '*.ts', 'b/'].filter(() => chooser.chance(0.4));
    return {
      what: `${directory}/.gitignore = ${JSON.stringify(rules)}`,
      apply: () => write(root, `${directory}/.gitignore`, `${rules.join('\n')}\n`),
    };
  }
  if (kind < 76) {
    const at = `${someDirectory()}/link-${chooser.int(20)}`.replace(/^\//, '');
    const targets = [...files.slice(0, 20), ...directories.slice(0, 10)].map((each) => path.join(root, each));
    const target = chooser.chance(0.2)
      ? '/tmp'
      : chooser.chance(0.15)
        ? path.join(root, 'nowhere')
        : targets.length > 0
          ? chooser.pick(targets)
          : '/tmp';
    return {
      what: `link ${at} -> ${target}`,
      apply: () => {
        if (!makeFolder(path.dirname(path.join(root, at)))) return;
        fs.rmSync(path.join(root, at), { force: true, recursive: true });
        fs.symlinkSync(target, path.join(root, at));
      },
    };
  }
  if (kind < 79 && links.length > 0) {
    // A link whose target turns from a file into a directory (or goes): the link's own directory does not change.
    const link = chooser.pick(links);
    return {
      what: `swap the target of ${link}`,
      apply: () => {
        const target = fs.readlinkSync(path.join(root, link));
        const full = path.isAbsolute(target) ? target : path.join(root, path.dirname(link), target);
        if (!full.startsWith(`${root}/`)) return;
        const stat = fs.statSync(full, { throwIfNoEntry: false });
        fs.rmSync(full, { recursive: true, force: true });
        if (stat?.isDirectory()) fs.writeFileSync(full, 'now a file\n');
        else makeFolder(full);
      },
    };
  }
  if (kind < 85) {
    const count = 1 + chooser.int(6);
    const script = externalScript(root, chooser, count);
    return {
      what: `another process makes ${count} changes`,
      apply: () => {
        const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
        if (result.status !== 0) throw new Error(`the other process failed: ${result.stderr}`);
      },
    };
  }
  if (kind < 90 && fs.existsSync(path.join(root, '.git'))) {
    return {
      what: 'git commit everything, then check out the other branch',
      apply: () => {
        const git = (...args: string[]): void => run('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], root);
        git('add', '-A');
        spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'wip'], { cwd: root });
        const branch = spawnSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
        git('checkout', '-q', branch === 'main' ? 'other' : 'main');
      },
    };
  }
  const directory = `${someDirectory()}/burst-${chooser.int(1000)}`.replace(/^\//, '');
  const count = 20 + chooser.int(60);
  return {
    what: `burst of ${count} files in ${directory}`,
    apply: () => {
      for (let index = 0; index < count; index++) write(root, `${directory}/${chooser.pick(NAMES)}-${index}.md`, 'burst\n');
    },
  };
}

/** A random call of one of the finding tools, over the directories that are there now (and some that are not). */
export function randomQuery(root: string, chooser: Chooser, multiRootName?: string): { operation: string; input: Record<string, unknown> } {
  const { directories } = inventory(root);
  const prefix = (relative: string): string =>
    multiRootName === undefined ? relative || '.' : relative ? `${multiRootName}/${relative}` : multiRootName;
  const directory = (): string =>
    prefix(directories.length > 0 && chooser.chance(0.6) ? chooser.pick(directories) : chooser.pick(DIRECTORIES));
  const include_ignored = chooser.chance(0.25);
  const offset = chooser.chance(0.3) ? chooser.int(40) : undefined;
  const paged = (input: Record<string, unknown>): Record<string, unknown> => (offset === undefined ? input : { ...input, offset });
  switch (chooser.int(6)) {
    case 0:
      return {
        operation: 'find_file',
        input: paged({
          file_name: chooser.pick(['user controler', 'readme', 'index.ts', 'notes', 'repotr', '.env', 'burst']),
          include_ignored,
          max_results: 1 + chooser.int(30),
        }),
      };
    case 1:
      return {
        operation: 'search_files',
        input: paged({
          pattern: chooser.pick(['**/*.md', '*.ts', 'src/**', '**/node_modules/**', 'docs/*', '*', '**/link-*', 'deep/**/c/*', '*.LOG']),
          ...(chooser.chance(0.3) ? { path: directory() } : {}),
          include_ignored,
          max_results: 1 + chooser.int(200),
        }),
      };
    case 2:
      return {
        operation: 'list_files',
        input: paged({
          path: chooser.chance(0.5) ? prefix('') : directory(),
          recursive: chooser.chance(0.8),
          include_ignored,
          ...(chooser.chance(0.5) ? { max_results: 1 + chooser.int(100) } : {}),
        }),
      };
    case 3:
      return {
        operation: 'list_directory',
        input: paged({
          path: chooser.chance(0.4) ? prefix('') : directory(),
          recursive: chooser.chance(0.7),
          ...(chooser.chance(0.3) ? { max_depth: 1 + chooser.int(4) } : {}),
          include_hidden: chooser.chance(0.5),
          include_ignored,
          ...(chooser.chance(0.5) ? { max_entries: 1 + chooser.int(60) } : {}),
        }),
      };
    case 4:
      return {
        operation: 'directory_tree',
        input: paged({
          path: chooser.chance(0.5) ? prefix('') : directory(),
          max_depth: 1 + chooser.int(6),
          include_hidden: chooser.chance(0.5),
          include_ignored,
        }),
      };
    default:
      return {
        operation: 'search_content',
        input: paged({
          query: chooser.pick(['QUASAR', 'line', 'branch', 'from another']),
          ...(chooser.chance(0.5) ? { file_pattern: chooser.pick(['*.md', '**/*.ts', 'src/**', '*.txt', '*.pdf']) } : {}),
          ...(chooser.chance(0.3) ? { path: directory() } : {}),
          include_ignored,
          max_results: 1 + chooser.int(60),
        }),
      };
  }
}
