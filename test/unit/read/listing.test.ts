/** list_directory, directory_tree, search_files, and the ignore rules they share with list_files and find_file. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Policy } from '../../../src/core/settings';
import { assertFields, assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from '../helpers';

/**
 * .git, a root .gitignore with a negation, a nested .gitignore, an excluded folder (policy.exclude), a
 * search-excluded folder (policy.searchExclude), a hidden secret, dot files, and links in and out of the base.
 */
function fixture(policy: Partial<Policy> = {}): TempWorkspace {
  const ws = tempWorkspace({ exclude: ['dist'], searchExclude: ['tmp/'], ...policy });
  ws.write({
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.gitignore': 'build/\n*.log\n!keep.log\n',
    'src/app.ts': 'app',
    'src/util/helper.ts': 'helper',
    'src/.hidden.ts': 'hidden',
    'src/gen/.gitignore': '*.gen.ts\n',
    'src/gen/a.gen.ts': 'generated',
    'src/gen/b.ts': 'b',
    'build/out.js': 'out',
    'logs/x.log': 'x',
    'logs/keep.log': 'keep',
    'dist/bundle.js': 'bundle',
    'docs/README.md': 'readme',
    'docs/guide.MD': 'guide',
    'tmp/cache.bin': 'cache',
    '.env': 'SECRET=1',
  });
  fs.symlinkSync('src', path.join(ws.base, 'link-in'));
  fs.symlinkSync('../outside', path.join(ws.base, 'link-out'));
  return ws;
}

type Listed = { relative_path: string; type: string; size?: number };

function paths(data: Record<string, unknown>, key = 'entries'): string[] {
  return (data[key] as Listed[]).map((entry) => entry.relative_path);
}

describe('list_directory', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = fixture();
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('lists one level: directories first, then by name; skips dot names, ignored paths and links out of the base', async function () {
    const before = ws.snap();
    const data = expectOk(await call(ws.session, 'list_directory', {}), 'list_directory');
    assert.deepEqual(data.entries, [
      { relative_path: 'docs', type: 'directory' },
      { relative_path: 'logs', type: 'directory' },
      { relative_path: 'src', type: 'directory' },
      { relative_path: 'tmp', type: 'directory' },
      { relative_path: 'link-in', type: 'symlink', target_type: 'directory' },
    ]);
    // build (gitignored) and dist (agentFs.exclude / files.exclude); tmp is only excluded from searches.
    assertFields(data, { path: '.', recursive: false, count: 5, total: 5, truncated: false, depth_limited: false, ignored_count: 2 });
    assertTree(ws.snap(), before);
  });

  it('lists recursively, shallow levels first, honouring nested .gitignore files and negations', async function () {
    const data = expectOk(await call(ws.session, 'list_directory', { recursive: true }));
    assert.deepEqual(paths(data), [
      'docs',
      'logs',
      'src',
      'tmp',
      'link-in',
      'docs/README.md',
      'docs/guide.MD',
      'logs/keep.log',
      'src/gen',
      'src/util',
      'src/app.ts',
      'tmp/cache.bin',
      'src/gen/b.ts',
      'src/util/helper.ts',
    ]);
    // build, dist, logs/x.log, src/gen/a.gen.ts.
    assert.equal(data.ignored_count, 4);
    assert.equal((data.entries as Listed[]).find((entry) => entry.relative_path === 'src/app.ts')?.size, 3);
  });

  it('shows dot names with include_hidden and everything but hidden secrets with include_ignored', async function () {
    const hidden = expectOk(await call(ws.session, 'list_directory', { recursive: true, include_hidden: true }));
    assert.ok(paths(hidden).includes('.gitignore'));
    assert.ok(paths(hidden).includes('src/.hidden.ts'));
    assert.ok(!paths(hidden).some((each) => each.startsWith('.git/') || each === '.git'));
    assert.equal(hidden.ignored_count, 5);
    const all = expectOk(await call(ws.session, 'list_directory', { recursive: true, include_hidden: true, include_ignored: true }));
    for (const each of ['.git/HEAD', 'build/out.js', 'dist/bundle.js', 'logs/x.log', 'src/gen/a.gen.ts'])
      assert.ok(paths(all).includes(each), each);
    assert.ok(!paths(all).includes('.env'), 'agentFs.hiddenPaths stay hidden');
    assert.equal(all.ignored_count, 0);
  });

  it('bounds the reply: max_entries cuts with truncated and total, above 1000 is refused, max_depth says depth_limited', async function () {
    assertFields(expectOk(await call(ws.session, 'list_directory', { recursive: true, max_entries: 3 })), {
      count: 3,
      total: 14,
      truncated: true,
    });
    const refused = expectError(await call(ws.session, 'list_directory', { max_entries: 1001 }), 'LIMIT_EXCEEDED');
    assert.deepEqual(refused.details, { field: 'max_entries', cap: 1000 });
    assertFields(expectOk(await call(ws.session, 'list_directory', { recursive: true, max_depth: 1 })), { total: 5, depth_limited: true });
    assertFields(expectOk(await call(ws.session, 'list_directory', { path: 'src', recursive: true, max_depth: 2 })), {
      total: 5,
      depth_limited: false,
    });
  });

  it('answers the directory codes', async function () {
    expectError(await call(ws.session, 'list_directory', { path: 'nope' }), 'DIRECTORY_NOT_FOUND');
    expectError(await call(ws.session, 'list_directory', { path: 'src/app.ts' }), 'DIRECTORY_NOT_DIRECTORY');
    expectError(await call(ws.session, 'list_directory', { path: '..' }), 'DIRECTORY_PATH_OUTSIDE_BASE');
    expectError(await call(ws.session, 'list_directory', { path: 'link-out' }), 'SYMLINK_OUTSIDE_BASE');
  });

  it('shows nothing of a folder that is itself ignored, unless include_ignored', async function () {
    assertFields(expectOk(await call(ws.session, 'list_directory', { path: 'build' })), { entries: [], total: 0, ignored_count: 1 });
    assertFields(expectOk(await call(ws.session, 'list_directory', { path: 'dist', recursive: true })), { entries: [], ignored_count: 1 });
    assert.deepEqual(paths(expectOk(await call(ws.session, 'list_directory', { path: 'build', include_ignored: true }))), ['build/out.js']);
  });

  it('applies the root .gitignore when listing a subdirectory', async function () {
    const data = expectOk(await call(ws.session, 'list_directory', { path: 'logs' }));
    assert.deepEqual(paths(data), ['logs/keep.log']);
    assert.equal(data.ignored_count, 1);
  });
});

describe('directory_tree', function () {
  it('draws a box-drawing tree with counts, directories first', async function () {
    const ws = fixture();
    try {
      const data = expectOk(await call(ws.session, 'directory_tree', { path: 'src' }), 'directory_tree');
      assert.equal(data.tree, ['src/', '├── gen/', '│   └── b.ts', '├── util/', '│   └── helper.ts', '└── app.ts'].join('\n'));
      assertFields(data, { path: 'src', max_depth: 3, directories: 2, files: 3, entries_shown: 5, truncated: false, ignored_count: 1 });
      const shallow = expectOk(await call(ws.session, 'directory_tree', { max_depth: 1, include_hidden: true }));
      assert.equal(
        shallow.tree,
        ['./', '├── docs/', '├── logs/', '├── src/', '├── tmp/', '├── .gitignore', '└── link-in -> (link)'].join('\n'),
      );
      expectError(await call(ws.session, 'directory_tree', { path: 'missing' }), 'DIRECTORY_NOT_FOUND');
      expectError(await call(ws.session, 'directory_tree', { max_depth: 0 }), 'INVALID_INPUT');
    } finally {
      ws.cleanup();
    }
  });

  it('stops at 1000 entries or about 24 KB of lines, says how many it left out, and goes on from next_offset', async function () {
    const ws = tempWorkspace();
    try {
      const files: Record<string, string> = {};
      for (let index = 0; index < 1005; index++) files[`many/f${String(index).padStart(4, '0')}.txt`] = '';
      ws.write(files);
      const data = expectOk(await call(ws.session, 'directory_tree', {}));
      const lines = String(data.tree).split('\n');
      assertFields(data, { truncated: true, directories: 1, files: 1005 });
      const shown = Number(data.entries_shown);
      assert.ok(shown > 900 && shown <= 1000, `entries_shown ${shown}`);
      assert.equal(data.next_offset, shown);
      assert.equal(lines.length, 1 + shown + 1);
      assert.ok(Buffer.byteLength(JSON.stringify(data)) < 32 * 1024);
      // Entry 0 is "many/"; file k is entry k + 1.
      assert.match(lines[lines.length - 1] ?? '', new RegExp(`^… ${1006 - shown} more entries not shown; continue with offset ${shown}`));
      const rest = expectOk(await call(ws.session, 'directory_tree', { offset: shown }));
      assertFields(rest, { truncated: false, entries_shown: 1006 - shown });
      assert.equal('next_offset' in rest, false);
      const restLines = String(rest.tree).split('\n').slice(1);
      assert.equal(restLines[0], `    ├── f${String(shown - 1).padStart(4, '0')}.txt`);
      assert.equal(restLines[restLines.length - 1], '    └── f1004.txt');
      assert.equal(restLines.length, 1006 - shown);
    } finally {
      ws.cleanup();
    }
  });
});

describe('search_files', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = fixture();
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('matches a name-only glob at any depth, dot files included, sorted, links not followed', async function () {
    const data = expectOk(await call(ws.session, 'search_files', { pattern: '*.ts' }), 'search_files');
    assert.deepEqual(data.matches, [
      { relative_path: 'src/.hidden.ts', type: 'file' },
      { relative_path: 'src/app.ts', type: 'file' },
      { relative_path: 'src/gen/b.ts', type: 'file' },
      { relative_path: 'src/util/helper.ts', type: 'file' },
    ]);
    assertFields(data, { count: 4, total: 4, truncated: false });
    assert.equal('path' in data, false, 'no path field repeats an absent input');
  });

  it('matches root-relative paths, is case-insensitive unless the pattern has capitals, and finds directories', async function () {
    assert.deepEqual(paths(expectOk(await call(ws.session, 'search_files', { pattern: 'docs/*' })), 'matches'), [
      'docs/README.md',
      'docs/guide.MD',
    ]);
    assert.deepEqual(paths(expectOk(await call(ws.session, 'search_files', { pattern: '**/*.md' })), 'matches'), [
      'docs/README.md',
      'docs/guide.MD',
    ]);
    assert.deepEqual(paths(expectOk(await call(ws.session, 'search_files', { pattern: '*.MD' })), 'matches'), ['docs/guide.MD']);
    assert.deepEqual(expectOk(await call(ws.session, 'search_files', { pattern: 'src/*' })).matches, [
      { relative_path: 'src/.hidden.ts', type: 'file' },
      { relative_path: 'src/app.ts', type: 'file' },
      { relative_path: 'src/gen', type: 'directory' },
      { relative_path: 'src/util', type: 'directory' },
    ]);
    assert.deepEqual(paths(expectOk(await call(ws.session, 'search_files', { pattern: 'src/util/*.ts', path: 'src/util' })), 'matches'), [
      'src/util/helper.ts',
    ]);
  });

  it('skips .git, .gitignore matches, exclude and search.exclude unless include_ignored; hidden secrets always', async function () {
    const data = expectOk(await call(ws.session, 'search_files', { pattern: '*' }));
    const found = paths(data, 'matches');
    for (const each of ['build', 'dist', 'tmp', 'logs/x.log', 'src/gen/a.gen.ts', '.git', '.env']) assert.ok(!found.includes(each), each);
    // .git, build, dist, tmp (search.exclude), logs/x.log, src/gen/a.gen.ts.
    assert.equal(data.ignored_count, 6);
    const all = paths(
      expectOk(await call(ws.session, 'search_files', { pattern: '*', include_ignored: true, max_results: 200 })),
      'matches',
    );
    for (const each of ['build/out.js', 'dist/bundle.js', 'tmp/cache.bin', 'logs/x.log', 'src/gen/a.gen.ts', '.git/HEAD'])
      assert.ok(all.includes(each), each);
    assert.ok(!all.includes('.env'));
  });

  it('bounds results and refuses bad input', async function () {
    assertFields(expectOk(await call(ws.session, 'search_files', { pattern: '*.ts', max_results: 1 })), {
      count: 1,
      total: 4,
      truncated: true,
    });
    const refused = expectError(await call(ws.session, 'search_files', { pattern: '*.ts', max_results: 201 }), 'LIMIT_EXCEEDED');
    assert.deepEqual(refused.details, { field: 'max_results', cap: 200 });
    expectError(await call(ws.session, 'search_files', { pattern: '[z-a].ts' }), 'INVALID_PATTERN');
    expectError(await call(ws.session, 'search_files', { pattern: '!*.ts' }), 'INVALID_PATTERN');
    expectError(await call(ws.session, 'search_files', { pattern: '*.ts', path: 'nope' }), 'DIRECTORY_NOT_FOUND');
  });
});

describe('list_files and find_file: ignore rules', function () {
  it('skip ignored paths and count them; include_ignored shows them; the plugin fields stay', async function () {
    const ws = fixture();
    try {
      const listed = expectOk(await call(ws.session, 'list_files', {}), 'list_files');
      assert.deepEqual(listed.files, [
        '.gitignore',
        'docs/README.md',
        'docs/guide.MD',
        'logs/keep.log',
        'src/.hidden.ts',
        'src/app.ts',
        'src/gen/.gitignore',
        'src/gen/b.ts',
        'src/util/helper.ts',
        'tmp/cache.bin',
      ]);
      assertFields(listed, { count: 10, recursive: true, truncated: false, total: 10, ignored_count: 5 });
      const all = expectOk(await call(ws.session, 'list_files', { include_ignored: true }));
      assert.ok((all.files as string[]).includes('build/out.js'));
      assert.ok((all.files as string[]).includes('.git/HEAD'));
      assert.ok(!(all.files as string[]).includes('.env'));

      const found = expectOk(await call(ws.session, 'find_file', { file_name: 'out.js' }), 'find_file');
      assertFields(found, { match_type: 'none', count: 0, ignored_count: 5 });
      assertFields(expectOk(await call(ws.session, 'find_file', { file_name: 'out.js', include_ignored: true })), {
        match_type: 'exact',
        matches: [{ file_name: 'out.js', relative_path: 'build/out.js', score: 1 }],
      });
    } finally {
      ws.cleanup();
    }
  });
});
