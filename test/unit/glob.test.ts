/**
 * One glob, one answer: a path rule of the settings (hidden, protected, exclude) gives the same answer whether a
 * walk meets the path (listings, searches) or a tool names it (reads, writes); and a search pattern gives the same
 * files whichever engine searches.
 */
import * as assert from 'node:assert/strict';
import { Minimatch } from 'minimatch';
import { globList, normaliseGlob, ruleGlob } from '../../src/core/policy/glob';
import { isHidden } from '../../src/core/policy/policy';
import { AGENT_FS_STORAGE_PATHS, DEFAULT_HIDDEN_PATHS } from '../../src/core/settings';
import { call, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

describe('path rule globs', function () {
  it('are normalised once: blanks, backslashes, a leading ./, anchoring and a trailing /', function () {
    assert.equal(normaliseGlob('  .\\build\\out  '), 'build/out');
    assert.equal(ruleGlob('dist'), '**/dist');
    assert.equal(ruleGlob('/dist'), 'dist');
    assert.equal(ruleGlob('secrets/'), '**/secrets/**');
    assert.equal(ruleGlob('./build\\'), '**/build/**');
    assert.equal(ruleGlob('**/x'), '**/x');
    assert.equal(ruleGlob('  '), undefined);
    assert.equal(ruleGlob('/'), undefined);
  });

  it('name the first pattern, in the order a path is checked: the path itself, then each ancestor', function () {
    const list = globList(['b/', 'a/']);
    assert.equal(list.firstMatch('a/b/c.txt', false), 'b/');
    assert.equal(list.firstMatch('a/b', true), 'a/');
    assert.equal(list.firstMatch('a', true), 'a/');
    assert.equal(list.firstMatch('c/d', false), undefined);
  });

  // firstMatch asks the walk's way first (a regex over each name) and goes rule by rule only when that finds a match:
  // the answer must be what rule by rule gives for every path, or a protected path could be written.
  it('answer as each rule asked in turn would, for every path of a generated tree', function () {
    const patterns = [
      ...DEFAULT_HIDDEN_PATHS,
      ...AGENT_FS_STORAGE_PATHS,
      'src/generated/',
      '/build/*.map',
      'docs/*/draft-?.md',
      '*.PEM',
      'sec*/',
      'x/!(keep).txt',
      '{a,b}/c/',
      '/deep/**/leaf',
      '[ab]ny.env',
    ];
    const list = globList(patterns);
    const rules = patterns.flatMap((pattern) => {
      const glob = ruleGlob(pattern);
      return glob === undefined
        ? []
        : [{ pattern, matcher: new Minimatch(glob, { dot: true, nocase: true, nocomment: true, nonegate: true }) }];
    });
    const ruleByRule = (relative: string, isDirectory: boolean): string | undefined => {
      const segments = relative.split('/');
      for (let length = segments.length; length >= 1; length--) {
        const candidate = segments.slice(0, length).join('/');
        for (const { pattern, matcher } of rules) if (matcher.match(candidate)) return pattern;
      }
      if (isDirectory)
        for (const { pattern, matcher } of rules) if (matcher.pattern.endsWith('/**') && matcher.match(`${relative}/`)) return pattern;
      return undefined;
    };
    const names = [
      'src',
      'generated',
      'build',
      'docs',
      'x',
      'a',
      'c',
      'deep',
      'secrets',
      '.ssh',
      'workspaceStorage',
      'agent-fs.agent-fs',
      '.VSCode',
    ];
    const leaves = [
      'a.ts',
      'app.js.map',
      'draft-1.md',
      '.env',
      'key.pem',
      'keep.txt',
      'other.txt',
      'leaf',
      'any.env',
      'id_rsa',
      'settings.json',
    ];
    let checked = 0;
    let covered = 0;
    const visit = (parent: string, depth: number): void => {
      for (const name of depth === 3 ? leaves : [...names, ...leaves]) {
        const relative = parent === '' ? name : `${parent}/${name}`;
        for (const isDirectory of [false, true]) {
          const expected = ruleByRule(relative, isDirectory);
          assert.equal(list.firstMatch(relative, isDirectory), expected, `${relative} (${isDirectory ? 'directory' : 'file'})`);
          checked++;
          if (expected !== undefined) covered++;
        }
        if (depth < 3) visit(relative, depth + 1);
      }
    };
    visit('', 1);
    assert.ok(covered > 500 && checked - covered > 500, `${covered} of ${checked} paths covered by a rule`);
  });

  // Walks used to test a directory against every path glob with a trailing '/' added, reads only when they named the
  // directory itself: an extended glob that matches an empty name ("!(x)") hid a directory from listings while its
  // files could still be read. A directory is now tested that way only by a glob aimed at its contents ("dir/**").
  it('cover a directory through its contents only for a glob aimed at them ("dir/**", "dir/")', function () {
    for (const [pattern, directory, covered] of [
      ['.ssh/**', '.ssh', true],
      ['secrets/', 'x/secrets', true],
      ['secret/!(public.txt)', 'secret', false],
      ['!(a)', 'a', false],
      ['!(a)', 'b', true],
    ] as const) {
      const list = globList([pattern]);
      assert.equal(list.firstMatch(directory, true) !== undefined, covered, `${pattern} on the directory ${directory} (read)`);
      const name = directory.slice(directory.lastIndexOf('/') + 1);
      assert.equal(list.matchesEntry(directory, name, true), covered, `${pattern} on the directory ${directory} (walk)`);
      assert.equal(
        isHidden({ hiddenPaths: [pattern] }, directory, 'directory'),
        covered,
        `${pattern} on the directory ${directory} (policy)`,
      );
    }
  });
});

describe('the name pre-check of walks', function () {
  // A walk tests most entries with one regex over the name (IgnoreRules), which any path rule used to turn off for
  // every entry: the rules for VS Code's storage of Agent FS, hidden in every host, made every walk about 3× slower.
  it('stays on for path rules, and lets through the name of every entry a rule matches where a walk meets it', function () {
    const patterns = [...DEFAULT_HIDDEN_PATHS, ...AGENT_FS_STORAGE_PATHS, 'src/generated/', '/build/*.map', 'docs/*/draft-?.md'];
    const list = globList(patterns);
    assert.ok(list.nameSources, 'the default hidden paths and plain path rules keep the pre-check');
    const quick = new RegExp(list.nameSources.map((source) => `(?:${source})`).join('|'), 'i');
    const names = ['home', 'workspaceStorage', 'globalStorage', 'agent-fs.agent-fs', 'history', 'src', 'generated', 'build'];
    const leaves = ['a.ts', 'app.js.map', 'docs', 'draft-1.md', '.env', 'key.pem', 'AGENT-FS.agent-fs'];
    let matched = 0;
    // Every path of up to four segments a walk meets (no ancestor matched), as a file and as a directory.
    const visit = (parent: string, depth: number): void => {
      for (const name of depth === 4 ? leaves : [...names, ...leaves]) {
        const relative = parent === '' ? name : `${parent}/${name}`;
        for (const isDirectory of [false, true]) {
          if (!list.matchesEntry(relative, name, isDirectory)) continue;
          matched++;
          assert.ok(
            quick.test(name),
            `${relative} (${isDirectory ? 'directory' : 'file'}) matches a rule, but its name fails the pre-check`,
          );
        }
        if (depth < 4 && !list.matchesEntry(relative, name, true)) visit(relative, depth + 1);
      }
    };
    visit('', 1);
    assert.ok(matched > 100, `${matched} matches checked`);
    assert.equal(globList(['src/{a,b/c}']).nameSources, undefined, 'braces can hide a "/": every entry takes the full check');
    assert.equal(globList(['docs/**']).nameSources?.length, 1, 'a directory aimed at is met by its own name');
  });
});

describe('a hidden-path glob answers the same in listings and in reads', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace({ hiddenPaths: ['secret/!(public.txt)'] });
    ws.write({ 'secret/public.txt': 'shown\n', 'secret/key.txt': 'hidden\n', 'other.txt': 'x\n' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('secret/!(public.txt): public.txt is listed and read, key.txt neither', async function () {
    const listed = expectOk(await call(ws.session, 'list_files', {}), 'list_files');
    assert.deepEqual(listed.files, ['other.txt', 'secret/public.txt']);
    const entries = expectOk(await call(ws.session, 'list_directory', { path: 'secret' }), 'list_directory');
    assert.deepEqual(
      (entries.entries as { relative_path: string }[]).map((entry) => entry.relative_path),
      ['secret/public.txt'],
    );
    const found = expectOk(await call(ws.session, 'search_files', { pattern: '*.txt' }), 'search_files');
    assert.deepEqual(
      (found.matches as { relative_path: string }[]).map((match) => match.relative_path),
      ['other.txt', 'secret/public.txt'],
    );
    assert.equal(expectOk(await call(ws.session, 'read_file', { file_name: 'secret/public.txt' }), 'read_file').content, 'shown\n');
    expectError(await call(ws.session, 'read_file', { file_name: 'secret/key.txt' }), 'SENSITIVE_PATH_REFUSED', 'read_file');
  });
});
