/**
 * Random changes to file contents for the content index's differential test: text rewritten, appended to and
 * overwritten in place, in UTF-8 (with and without a BOM), UTF-16 (both byte orders, with a BOM) and windows-1252;
 * binary files (a NUL at the start, or only past the scan's first read); files crossing the index's size cap; files
 * and folders created, deleted, renamed; hard links (a write through one name changes the other) and symbolic links;
 * Agent FS's own writes. And the search_content queries asked after each: literals and regular expressions, both
 * cases, file patterns, ignored files, a folder, pages and context.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Chooser, inventory } from '../../../shared/churn';

/** The index's size cap in these tests: small, so files cross it both ways. */
export const TEST_CAP = 3000;

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'omega',
  'QUASAR',
  'quasar',
  'Token',
  'token_7',
  'token_42',
  'café',
  'CAFÉ',
  'Straße',
  'kiss',
  '\u212Aiſs',
  'naïve',
  'x',
  '{',
  '}',
  '123',
  '2026',
];
const DIRECTORIES = ['', 'src', 'src/lib', 'docs', 'ignored', 'node_modules/pkg', 'deep/a/b'];
const NAMES = ['a.ts', 'b.md', 'notes.txt', 'main.go', 'data.json', 'c.md', 'Readme.MD'];

function line(chooser: Chooser): string {
  return Array.from({ length: 1 + chooser.int(6) }, () => chooser.pick(WORDS)).join(' ');
}

function text(chooser: Chooser, lines = 1 + chooser.int(12)): string {
  return `${Array.from({ length: lines }, () => line(chooser)).join(chooser.chance(0.2) ? '\r\n' : '\n')}\n`;
}

/** `content` in one of the encodings, or as a binary file, or large enough to pass the cap. */
function encoded(chooser: Chooser, content: string): { bytes: Buffer; how: string } {
  const kind = chooser.int(100);
  if (kind < 45) return { bytes: Buffer.from(content, 'utf8'), how: 'utf-8' };
  if (kind < 50) return { bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(content, 'utf8')]), how: 'utf-8 bom' };
  if (kind < 58) return { bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(content, 'utf16le')]), how: 'utf-16le' };
  if (kind < 63) return { bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(content, 'utf16le').swap16()]), how: 'utf-16be' };
  if (kind < 75) return { bytes: Buffer.from(content.replace(/[^\u0000-\u00ff]/g, '?'), 'latin1'), how: 'windows-1252' };
  if (kind < 82) return { bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x00, 0x47]), Buffer.from(content)]), how: 'binary' };
  const big = Buffer.from(text(chooser, 400 + chooser.int(800)), 'utf8');
  if (kind < 88) return { bytes: Buffer.concat([big, Buffer.from([0]), Buffer.from(content)]), how: 'NUL past the first read' };
  return { bytes: Buffer.concat([Buffer.from(content), big.subarray(0, TEST_CAP + chooser.int(TEST_CAP))]), how: 'over the cap' };
}

function put(root: string, relative: string, bytes: Uint8Array): void {
  const full = path.join(root, relative);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  try {
    fs.writeFileSync(full, bytes);
  } catch (error) {
    // A symbolic link there whose target's folder went: the write cannot happen on this tree, and is left out.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !fs.lstatSync(full, { throwIfNoEntry: false })?.isSymbolicLink()) throw error;
  }
}

/** The starting tree: a .gitignore, files in every folder, some in each encoding. */
export function startingTree(root: string, chooser: Chooser): void {
  put(root, '.gitignore', Buffer.from('ignored/\nnode_modules/\n'));
  for (let index = 0; index < 60; index++) {
    const directory = chooser.pick(DIRECTORIES);
    put(root, directory === '' ? `f${index}.txt` : `${directory}/f${index}.txt`, encoded(chooser, text(chooser)).bytes);
  }
}

export interface ContentChange {
  readonly what: string;
  readonly apply: () => Promise<void> | void;
}

/** One random change below `root`; `viaAgentFs` makes a change through the tools. */
export function contentChange(
  root: string,
  chooser: Chooser,
  viaAgentFs: (operation: string, input: object) => Promise<unknown>,
): ContentChange {
  const { files: existing, directories } = inventory(root);
  const someFile = (): string | undefined => (existing.length > 0 ? chooser.pick(existing) : undefined);
  const newPath = (): string => {
    const directory = chooser.chance(0.7) && directories.length > 0 ? chooser.pick(directories) : chooser.pick(DIRECTORIES);
    const name = chooser.chance(0.5) ? chooser.pick(NAMES) : `n${chooser.int(500)}.${chooser.pick(['txt', 'md', 'ts'])}`;
    return directory === '' ? name : `${directory}/${name}`;
  };
  const kind = chooser.int(100);
  const target = someFile();
  if (kind < 30 || target === undefined) {
    const file = chooser.chance(0.6) && target !== undefined ? target : newPath();
    const { bytes, how } = encoded(chooser, text(chooser));
    return { what: `write ${file} (${how}, ${bytes.length} bytes)`, apply: () => put(root, file, bytes) };
  }
  const absolute = path.join(root, target);
  if (kind < 40) {
    const added = line(chooser);
    return { what: `append to ${target}: ${added}`, apply: () => fs.appendFileSync(absolute, `${added}\n`) };
  }
  if (kind < 48) {
    const patch = Buffer.from(chooser.pick(['QUASAR', 'token_9', 'omega', 'xxxxx', 'Kiss', 'café']), 'utf8');
    return {
      what: `overwrite ${target} in place with ${patch.toString()}`,
      apply: () => {
        const size = fs.statSync(absolute).size;
        const handle = fs.openSync(absolute, 'r+');
        try {
          fs.writeSync(handle, patch, 0, patch.length, chooser.int(Math.max(1, size)));
        } finally {
          fs.closeSync(handle);
        }
      },
    };
  }
  if (kind < 55) return { what: `delete ${target}`, apply: () => fs.rmSync(absolute, { force: true }) };
  if (kind < 63) {
    const to = newPath();
    return {
      what: `rename ${target} to ${to}`,
      apply: () => {
        fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
        fs.renameSync(absolute, path.join(root, to));
      },
    };
  }
  if (kind < 68 && directories.length > 0) {
    const directory = chooser.pick(directories);
    const to = `${chooser.pick(['', 'src', 'docs'])}/moved-${chooser.int(50)}`.replace(/^\//, '');
    return {
      what: `rename folder ${directory} to ${to}`,
      apply: () => {
        if (to.startsWith(`${directory}/`) || fs.existsSync(path.join(root, to))) return;
        fs.mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
        fs.renameSync(path.join(root, directory), path.join(root, to));
      },
    };
  }
  if (kind < 71 && directories.length > 0) {
    const directory = chooser.pick(directories);
    return { what: `delete folder ${directory}`, apply: () => fs.rmSync(path.join(root, directory), { recursive: true, force: true }) };
  }
  if (kind < 78) {
    const link = newPath();
    return {
      what: `hard link ${target} as ${link}`,
      apply: () => {
        fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
        if (!fs.existsSync(path.join(root, link))) fs.linkSync(absolute, path.join(root, link));
      },
    };
  }
  if (kind < 81) {
    const link = newPath();
    return {
      what: `symbolic link ${link} to ${target}`,
      apply: () => {
        fs.mkdirSync(path.dirname(path.join(root, link)), { recursive: true });
        // lstat, not existsSync: a dangling link already there counts as taken.
        if (!fs.lstatSync(path.join(root, link), { throwIfNoEntry: false })) fs.symlinkSync(absolute, path.join(root, link));
      },
    };
  }
  if (kind < 84) return { what: `truncate ${target}`, apply: () => fs.truncateSync(absolute, 0) };
  const [operation, input]: [string, object] = chooser.chance(0.5)
    ? ['write_file', { file_name: target, content: text(chooser) }]
    : ['edit_file', { path: target, old_string: chooser.pick(WORDS), new_string: chooser.pick(WORDS), replace_all: true }];
  return { what: `Agent FS ${operation} ${JSON.stringify(input)}`, apply: async () => void (await viaAgentFs(operation, input)) };
}

/** The queries asked after each change: most narrowed by the index, a few not (no literal), each kind of option. */
export const QUERIES: readonly Record<string, unknown>[] = [
  { query: 'token_7', case_sensitive: true },
  { query: 'QUASAR', case_sensitive: false },
  { query: 'kiss', case_sensitive: false },
  { query: 'café', case_sensitive: false },
  { query: 'Straße', case_sensitive: true },
  { query: 'alpha omega' },
  { query: 'token_\\d+', is_regex: true },
  { query: '(alpha|omega) beta', is_regex: true, case_sensitive: true },
  { query: '\\bQUA[SZ]AR\\b', is_regex: true, case_sensitive: true },
  { query: 'ka?iss|xyz', is_regex: true },
  { query: '\\d{3}', is_regex: true },
  { query: 'omega', file_pattern: '**/*.md' },
  { query: 'gamma', include_ignored: true },
  { query: 'beta', path: 'src' },
  { query: 'alpha', max_results: 3, offset: 2 },
  { query: 'gamma', context_lines: 1, max_results: 5 },
];
