/**
 * The shortcuts that make walks fast give the answers of the slow, obvious way: the fuzzy prefilter drops no name
 * fuse.js would match, the one-regex ignore pre-check skips exactly what git (`git ls-files`) and the globs say,
 * the file tree gives the head of a full sort, a listing that keeps only its shallow levels shows what a full
 * sort shows, and the Node port's synchronous and thread-pool directory reads agree.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Fuse from 'fuse.js';
import { FsError } from '../../../src/core/ports/fs';
import { FileNameSearch, nameCorpus } from '../../../src/core/walk/fuzzy';
import { compareCodePoints, FileTree } from '../../../src/core/walk/listing';
import { NodeFileSystem } from '../../../src/node/fs/nodeFileSystem';
// The bench's seeded generator: the same sequence on every run, so a failure reproduces.
import { random } from '../../../bench/generate';
import { gitShows, initRepository } from '../../shared/ignoreCorpus';
import { call, expectOk, makeTempDir, removeTree, tempWorkspace, type TempWorkspace } from '../helpers';

const WORDS = [
  'user',
  'controller',
  'report',
  'final',
  'index',
  'service',
  'payment',
  'handler',
  'config',
  'token',
  'session',
  'a',
  'io',
  'Über',
  'résumé',
  'データ',
  'x',
];
const SEPARATORS = ['-', '_', '.', '', ' '];
const EXTENSIONS = ['.ts', '.md', '.json', '', '.tar.gz', '.PNG'];

function names(next: () => number, count: number): string[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const result: string[] = [];
  for (let index = 0; index < count; index++) {
    let name = pick(WORDS);
    for (let more = Math.floor(next() * 3); more > 0; more--) name += pick(SEPARATORS) + pick(WORDS);
    if (next() < 0.3) name = name.toUpperCase();
    if (next() < 0.2) name += String(Math.floor(next() * 3000));
    // Some names of random letters from a small alphabet: near misses of every kind for the edit distance.
    if (next() < 0.25)
      name = Array.from({ length: 3 + Math.floor(next() * 14) }, () => 'aeiourstnlc'[Math.floor(next() * 11)] ?? 'a').join('');
    result.push(name + pick(EXTENSIONS));
  }
  return result;
}

/** A query made from a word with random edits, or one of the awkward ones Fuse's extended search parses specially. */
function queries(next: () => number, count: number): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzé_-. ';
  const result = [
    'user controler',
    'reprot',
    'report_2026',
    'a',
    'x|y',
    'user | config',
    '"',
    'tok"en',
    '\\index',
    '!config',
    '^user',
    'user$',
    '=token',
    "'pay",
    'データ',
    'über',
    'a'.repeat(40),
    'controllercontrollercontrollerXYZ',
    '  spaced   out  ',
  ];
  while (result.length < count) {
    let word =
      next() < 0.3
        ? Array.from({ length: 2 + Math.floor(next() * 10) }, () => 'aeiourstnlc'[Math.floor(next() * 11)] ?? 'a').join('')
        : (WORDS[Math.floor(next() * WORDS.length)] ?? 'user');
    for (let edits = Math.floor(next() * 4); edits > 0; edits--) {
      const at = Math.floor(next() * (word.length + 1));
      const char = alphabet[Math.floor(next() * alphabet.length)] ?? 'a';
      const kind = next();
      word =
        kind < 0.33
          ? word.slice(0, at) + char + word.slice(at)
          : kind < 0.66
            ? word.slice(0, at) + word.slice(at + 1)
            : word.slice(0, at) + char + word.slice(at + 1);
    }
    if (next() < 0.3) word += ` ${WORDS[Math.floor(next() * WORDS.length)] ?? ''}`;
    if (word.trim() !== '') result.push(word);
  }
  return result;
}

/** find_file's ranking before the prefilter: fuse.js over every name, as find_file ran it before the prefilter. */
function reference(query: string, all: readonly string[]): { matchType: string; ranked: [string, number][] } {
  const wanted = query.trim().toLowerCase();
  const exact = all.filter((name) => name.toLowerCase() === wanted);
  if (exact.length > 0) return { matchType: 'exact', ranked: exact.map((name) => [name, 1]) };
  const words = query
    .trim()
    .toLowerCase()
    .split(/[\s._-]+/)
    .filter((word) => word !== '');
  if (words.length === 0) return { matchType: 'none', ranked: [] };
  const fuse = new Fuse(
    all.map((file_name) => ({ file_name })),
    { keys: ['file_name'], includeScore: true, ignoreLocation: true, threshold: 0.4, useExtendedSearch: true, isCaseSensitive: false },
  );
  const ranked = fuse
    .search(words.map((word) => `"${word.replace(/"/g, '')}"`).join(' '))
    .map(({ item, score = 1 }): [string, number] => [
      item.file_name,
      Math.min(0.99, Math.max(0.0001, Math.round((1 - score) * 10000) / 10000)),
    ]);
  return { matchType: ranked.length > 0 ? 'lax' : 'none', ranked };
}

const byNameThenScore = (a: [string, number], b: [string, number]): number => compareCodePoints(a[0], b[0]) || a[1] - b[1];

describe('walk engine shortcuts', function () {
  let ws: TempWorkspace;
  afterEach(function () {
    if (ws && fs.existsSync(ws.tmp)) ws.cleanup();
  });

  it('find_file: the prefilter and the per-name ranking drop no match and change no score fuse.js gives', async function () {
    const next = random(20261201);
    const all = names(next, 3000);
    let compared = 0;
    let matched = 0;
    for (const query of queries(next, 800)) {
      const search = new FileNameSearch<string>(query.trim());
      for (const name of all) search.add(name, name);
      const got = await search.results();
      const expected = reference(query, all);
      assert.equal(got.matchType, expected.matchType, `match_type for ${JSON.stringify(query)}`);
      assert.deepEqual(
        got.ranked.map(({ item, score }): [string, number] => [item, score]).sort(byNameThenScore),
        [...expected.ranked].sort(byNameThenScore),
        `matches for ${JSON.stringify(query)}`,
      );
      compared++;
      if (expected.ranked.length > 0) matched++;
    }
    // The comparison means something only if many queries match something and some match nothing.
    assert.ok(compared === 800 && matched > 200 && matched < 800, `${matched} of ${compared} queries matched`);
  });

  it('find_file: the names of a corpus that match a query are exactly those mayMatch keeps, one by one', function () {
    const next = random(20261205);
    // Names repeated in other cases too: the corpus groups them by their lower-case form.
    const all = names(next, 3000).flatMap((name, index) => (index % 7 === 0 ? [name, name.toUpperCase()] : [name]));
    const corpus = nameCorpus(all, (name) => name);
    let matched = 0;
    for (const query of [
      ...queries(next, 400),
      'a|b',
      'x\\y',
      '"quoted"',
      '!not',
      'a-very-long-word-beyond-the-bitap-limit-of-32-characters',
    ]) {
      const search = new FileNameSearch<string>(query.trim());
      const expected = all.filter((name) => search.mayMatch(name)).sort(compareCodePoints);
      assert.deepEqual(search.matchingIn(corpus).sort(compareCodePoints), expected, JSON.stringify(query));
      if (expected.length > 0) matched++;
    }
    assert.ok(matched > 100, `${matched} queries matched something`);
  });

  describe('ignore rules: the one-regex pre-check', function () {
    const files = [
      'app.ts',
      'debug.log',
      'keep.log',
      'Build/out.js',
      'build/x.js',
      'node_modules/pkg/index.js',
      'abc.txt',
      'aXc.txt',
      'abc',
      'axc',
      'foo-bar',
      'fooXbar',
      'x+y.txt',
      'a.txt',
      'b.txt',
      'with space.md',
      'docs/guide.md',
      'docs/deep/notes.tmp',
      'sp ace',
      '#hash',
      'ünï.txt',
      '.env',
      'cfg/.env.local',
      'id_rsa',
    ];
    const gitignores = [
      '*.log\n!keep.log\n',
      'node_modules/\nbuild\n',
      'a?c\nfoo*bar\n',
      'x+y.txt\n# a comment\n\n*.tmp\n',
      '*\n!*.md\n!docs/\n',
      '[ab].txt\n',
      'with\\ space.md\n\\#hash\n',
      'sp ace \n',
      'ünï.txt\n',
      'docs/deep/\n',
      '/abc\n',
      '',
    ];
    for (const text of gitignores) {
      it(`list_files skips what git would for ${JSON.stringify(text)}, and the hidden and excluded paths`, async function () {
        ws = tempWorkspace({ exclude: ['*.txt.bak', 'cfg'] });
        ws.write(Object.fromEntries([...files, 'z.txt.bak'].map((file) => [file, file])));
        fs.writeFileSync(path.join(ws.base, '.gitignore'), text);
        // git is the oracle: what `git ls-files --others --exclude-standard` shows, less the hidden and excluded paths.
        const home = makeTempDir('agentfs-home-');
        initRepository(ws.base, home);
        const hidden = ['.env', 'cfg/.env.local', 'id_rsa'];
        const expected = gitShows(ws.base, home)
          .filter((file) => !hidden.includes(file) && file !== 'z.txt.bak' && !file.startsWith('cfg/'))
          .sort(compareCodePoints);
        // Its answer taken, the repository goes: outside one, Agent FS reads .gitignore files all the same.
        removeTree(home);
        removeTree(path.join(ws.base, '.git'));
        const data = expectOk(await call(ws.session, 'list_files', { max_results: 1000 }));
        assert.deepEqual(data.files, expected);
        const shown = expectOk(await call(ws.session, 'list_files', { max_results: 1000, include_ignored: true }));
        assert.deepEqual(
          shown.files,
          [...files, 'z.txt.bak', '.gitignore'].filter((file) => !hidden.includes(file)).sort(compareCodePoints),
        );
      });
    }
  });

  it('FileTree gives the first paths of a full code-unit sort, whatever the names', function () {
    const next = random(7);
    const alphabet = ['a', 'b', 'A', '-', '.', '_', ' ', '~', 'é', '0', 'ab', 'a-b', 'a.b'];
    const pick = (): string => alphabet[Math.floor(next() * alphabet.length)] ?? 'a';
    for (let round = 0; round < 40; round++) {
      const tree = new FileTree();
      const paths = new Set<string>();
      const directories = new Set<string>(['/start']);
      for (let index = 0; index < 300; index++) {
        const parents = [...directories];
        const parent = parents[Math.floor(next() * parents.length)] ?? '/start';
        const name = pick() + pick() + (next() < 0.5 ? pick() : '');
        const path = `${parent}/${name}`;
        if (paths.has(path) || directories.has(path)) continue;
        if (next() < 0.2) {
          directories.add(path);
          tree.addDirectory(parent, name);
        } else {
          paths.add(path);
          tree.addFile(parent, name);
        }
      }
      const sorted = [...paths].sort(compareCodePoints);
      assert.equal(tree.size, paths.size);
      for (const count of [1, 5, 50, 1000])
        assert.deepEqual(tree.first('/start', count), sorted.slice(0, count), `round ${round}, first ${count}`);
    }
    const root = new FileTree();
    root.addFile('/', 'b');
    root.addDirectory('/', 'a');
    root.addFile('/a', 'x');
    assert.deepEqual(root.first('/', 10), ['/a/x', '/b'], 'a walk of "/" itself');
  });

  it('list_directory keeps only the shallow levels it shows, and shows what a full sort would', async function () {
    ws = tempWorkspace();
    const next = random(99);
    const files: Record<string, string> = {};
    for (let index = 0; index < 3000; index++) {
      const depth = 1 + Math.floor(next() * 5);
      const parts = Array.from({ length: depth - 1 }, () => `d${Math.floor(next() * 4)}`);
      files[[...parts, `f${index % 97}-${Math.floor(next() * 10)}.txt`].join('/')] = 'x';
    }
    ws.write(files);
    fs.symlinkSync('d0', path.join(ws.base, 'd1', 'link-in'));
    fs.symlinkSync(ws.outside, path.join(ws.base, 'link-out'));
    // The order the tool promises, computed the slow way: every entry, sorted by depth, parent, directories first, name.
    const all: { depth: number; parent: string; directory: boolean; name: string; relative: string }[] = [];
    const visit = (relative: string, depth: number): void => {
      for (const entry of fs.readdirSync(path.join(ws.base, relative), { withFileTypes: true })) {
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.name === 'link-out') continue;
        all.push({ depth, parent: relative, directory: entry.isDirectory(), name: entry.name, relative: child });
        if (entry.isDirectory()) visit(child, depth + 1);
      }
    };
    visit('', 1);
    all.sort(
      (a, b) =>
        a.depth - b.depth ||
        compareCodePoints(a.parent, b.parent) ||
        Number(b.directory) - Number(a.directory) ||
        compareCodePoints(a.name, b.name),
    );
    for (const max of [1, 7, 200, 1000]) {
      const data = expectOk(await call(ws.session, 'list_directory', { recursive: true, max_entries: max }));
      assert.equal(data.total, all.length, 'total counts every entry, the link out of the base excepted');
      assert.deepEqual(
        (data.entries as { relative_path: string }[]).map((entry) => entry.relative_path),
        all.slice(0, max).map((entry) => entry.relative),
      );
    }
  });

  it('the Node port reads directories and small files the same synchronously and through the thread pool, errors included', async function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'a', 'dir/b.txt': 'b' });
    fs.symlinkSync('a.txt', path.join(ws.base, 'link'));
    const port = new NodeFileSystem();
    const sorted = (entries: readonly object[]): string[] => entries.map((entry) => JSON.stringify(entry)).sort();
    const spin = (): void => {
      // Past the port's synchronous slice, so the next read takes the thread pool.
      const until = performance.now() + 20;
      while (performance.now() < until);
    };
    await port.readDirectory(ws.base);
    const sync = await port.readDirectory(ws.base);
    spin();
    const pooled = await port.readDirectory(ws.base);
    assert.deepEqual(sorted(pooled), sorted(sync));
    assert.deepEqual(
      sorted(sync),
      sorted([
        { name: 'a.txt', kind: 'file', isSymlink: false },
        { name: 'dir', kind: 'directory', isSymlink: false },
        { name: 'link', kind: 'file', isSymlink: true },
      ]),
    );
    // Small file reads take the same two paths.
    ws.write({ 'big.txt': 'x'.repeat(70_000) + 'end' });
    for (const read of [
      () => port.readRange(path.join(ws.base, 'big.txt'), 69_998, 10),
      () => port.readFile(path.join(ws.base, 'a.txt')),
    ]) {
      await port.readDirectory(ws.base);
      const inSlice = Buffer.from(await read()).toString();
      spin();
      const pooledRead = Buffer.from(await read()).toString();
      assert.equal(pooledRead, inSlice);
    }
    assert.equal(Buffer.from(await port.readRange(path.join(ws.base, 'big.txt'), 69_998, 10)).toString(), 'xxend');
    for (const [target, kind] of [
      ['missing', 'not-found'],
      ['a.txt', 'not-a-directory'],
    ] as const) {
      await port.readDirectory(ws.base);
      const syncError = await port.readDirectory(path.join(ws.base, target)).catch((error: unknown) => error);
      spin();
      const pooledError = await port.readDirectory(path.join(ws.base, target)).catch((error: unknown) => error);
      for (const error of [syncError, pooledError]) {
        assert.ok(error instanceof FsError, String(error));
        assert.equal(error.kind, kind);
      }
    }
  });
});
