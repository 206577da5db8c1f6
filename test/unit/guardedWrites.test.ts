/** write_file's guards (expected_hash, dry_run), create_file, confirmations with diffs, and concurrent guarded writes. */
import * as assert from 'node:assert/strict';
import { invokeOperation, prepareOperation } from '../../src/core/invoke';
import { TOOL_DEFINITIONS } from '../../src/core/tools';
import { contentHash } from '../../src/core/files/text';
import { assertFields, assertTree, call, expectError, expectOk, nodeSession, tempWorkspace, type TempWorkspace } from './helpers';

const hashOf = (text: string): string => contentHash(new TextEncoder().encode(text));

describe('write_file guards', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'notes.md': '# Notes\nfirst\n' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('keeps the plugin data fields and adds the new ones', async function () {
    const data = expectOk(await call(ws.session, 'write_file', { file_name: 'notes.md', content: '# Notes\nsecond\n' }), 'write_file');
    assertFields(data, {
      file_name: 'notes.md',
      relative_path: 'notes.md',
      created: false,
      updated: true,
      dry_run: false,
      previous_hash: hashOf('# Notes\nfirst\n'),
      content_hash: hashOf('# Notes\nsecond\n'),
    });
    assert.equal(ws.read('notes.md'), '# Notes\nsecond\n');
  });

  it('expected_hash: a stale hash is CONTENT_CONFLICT and nothing is written; the current hash writes', async function () {
    const before = ws.snap();
    const error = expectError(
      await call(ws.session, 'write_file', { file_name: 'notes.md', content: 'x', expected_hash: hashOf('old') }),
      'CONTENT_CONFLICT',
      'write_file',
    );
    assert.equal(error.details?.actual_hash, hashOf('# Notes\nfirst\n'));
    assertTree(ws.snap(), before);
    // A hash for a file that is gone (or never was) is a conflict too, never a silent create.
    expectError(
      await call(ws.session, 'write_file', { file_name: 'missing.md', content: 'x', expected_hash: hashOf('x') }),
      'CONTENT_CONFLICT',
    );
    assertTree(ws.snap(), before);
    expectOk(
      await call(ws.session, 'write_file', {
        file_name: 'notes.md',
        content: 'x',
        expected_hash: hashOf('# Notes\nfirst\n').toUpperCase().replace('SHA256:', 'sha256:'),
      }),
    );
    assert.equal(ws.read('notes.md'), 'x');
  });

  it('dry_run validates every guard, reports what would change with a diff, and writes nothing', async function () {
    const before = ws.snap();
    const data = expectOk(await call(ws.session, 'write_file', { file_name: 'notes.md', content: '# Notes\nsecond\n', dry_run: true }));
    assertFields(data, {
      created: false,
      updated: false,
      dry_run: true,
      would_create: false,
      would_update: true,
      diff: '--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n # Notes\n-first\n+second\n',
      diff_truncated: false,
    });
    const fresh = expectOk(await call(ws.session, 'write_file', { file_name: 'sub/new.md', content: 'hi\n', dry_run: true }));
    assertFields(fresh, { would_create: true, would_update: false });
    expectError(
      await call(ws.session, 'write_file', { file_name: 'notes.md', content: 'x', dry_run: true, expected_hash: hashOf('old') }),
      'CONTENT_CONFLICT',
    );
    assertTree(ws.snap(), before);
  });

  it('delete_file with expected_hash deletes only the content that was read', async function () {
    const before = ws.snap();
    expectError(
      await call(ws.session, 'delete_file', { file_name: 'notes.md', expected_hash: hashOf('other') }),
      'CONTENT_CONFLICT',
      'delete_file',
    );
    assertTree(ws.snap(), before);
    expectOk(await call(ws.session, 'delete_file', { file_name: 'notes.md', expected_hash: hashOf('# Notes\nfirst\n') }));
    assert.equal(ws.exists('notes.md'), false);
  });

  it('20 concurrent guarded writes with the same expected_hash: exactly one wins, the rest are CONTENT_CONFLICT', async function () {
    const session = nodeSession(ws.base);
    const expected = hashOf('# Notes\nfirst\n');
    const envelopes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        invokeOperation('write_file', { file_name: 'notes.md', content: `writer ${index}\n`, expected_hash: expected }, session),
      ),
    );
    const winners = envelopes.flatMap((envelope, index) => (envelope.ok ? [index] : []));
    assert.equal(winners.length, 1, `winners: ${winners.join(', ')}`);
    for (const envelope of envelopes) if (!envelope.ok) expectError(envelope, 'CONTENT_CONFLICT');
    for (const winner of winners) expectOk(envelopes[winner] ?? assert.fail('no winner'));
    assert.equal(ws.read('notes.md'), `writer ${winners[0] ?? -1}\n`);
  });

  it('20 concurrent edits of one file all land (each reads the result of the one before)', async function () {
    ws.write({ 'counter.txt': Array.from({ length: 20 }, (_, index) => `slot ${index}: empty`).join('\n') + '\n' });
    const envelopes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(ws.session, 'edit_file', { path: 'counter.txt', old_string: `slot ${index}: empty`, new_string: `slot ${index}: filled` }),
      ),
    );
    for (const envelope of envelopes) expectOk(envelope);
    assert.equal(ws.read('counter.txt'), Array.from({ length: 20 }, (_, index) => `slot ${index}: filled`).join('\n') + '\n');
  });
});

describe('create_file', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'exists.txt': 'keep me\n', 'dir/inner.txt': 'x' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('creates the file and its parent directories', async function () {
    const data = expectOk(await call(ws.session, 'create_file', { path: 'a/b/c.txt', content: 'one\ntwo\n' }), 'create_file');
    assertFields(data, {
      path: 'a/b/c.txt',
      created: true,
      dry_run: false,
      size_bytes: 8,
      total_lines: 2,
      content_hash: hashOf('one\ntwo\n'),
    });
    assert.equal(ws.read('a/b/c.txt'), 'one\ntwo\n');
  });

  it('ALREADY_EXISTS for a file or a directory, which stay untouched', async function () {
    const before = ws.snap();
    expectError(await call(ws.session, 'create_file', { path: 'exists.txt', content: 'overwrite?' }), 'ALREADY_EXISTS', 'create_file');
    expectError(await call(ws.session, 'create_file', { path: 'dir', content: 'x' }), 'ALREADY_EXISTS');
    assertTree(ws.snap(), before);
  });

  it('a file where a parent directory should be is DIRECTORY_NOT_DIRECTORY', async function () {
    const before = ws.snap();
    expectError(await call(ws.session, 'create_file', { path: 'exists.txt/child.txt', content: 'x' }), 'DIRECTORY_NOT_DIRECTORY');
    assertTree(ws.snap(), before);
  });

  it('dry_run writes nothing', async function () {
    const before = ws.snap();
    const data = expectOk(await call(ws.session, 'create_file', { path: 'new.txt', content: 'x\n', dry_run: true }));
    assertFields(data, { created: false, dry_run: true });
    assertTree(ws.snap(), before);
  });

  it('of 10 concurrent creates of one path exactly one succeeds', async function () {
    const envelopes = await Promise.all(
      Array.from({ length: 10 }, (_, index) => call(ws.session, 'create_file', { path: 'race.txt', content: `creator ${index}` })),
    );
    const winners = envelopes.flatMap((envelope, index) => (envelope.ok ? [index] : []));
    assert.equal(winners.length, 1);
    for (const envelope of envelopes) if (!envelope.ok) assert.equal(envelope.error.code, 'ALREADY_EXISTS');
    assert.equal(ws.read('race.txt'), `creator ${winners[0] ?? -1}`);
  });
});

describe('confirmations show the diff', function () {
  let ws: TempWorkspace;
  const many = Array.from({ length: 40 }, (_, index) => `row ${index}`).join('\n') + '\n';
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'small.txt': 'a\nb\nc\n', 'big.txt': many });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('write_file over an existing file: a fenced diff; a new file: no confirmation', async function () {
    const preparation = await prepareOperation('write_file', { file_name: 'small.txt', content: 'a\nB\nc\n' }, ws.session);
    assert.ok(preparation.confirmation);
    assert.match(
      preparation.confirmation.message,
      /```diff\n--- a\/small\.txt\n\+\+\+ b\/small\.txt\n@@ -1,3 \+1,3 @@\n a\n-b\n\+B\n c\n```/,
    );
    assert.equal((await prepareOperation('write_file', { file_name: 'fresh.txt', content: 'x' }, ws.session)).confirmation, undefined);
  });

  it('edits above agentFs.confirmEditsOverLines ask with the diff; smaller ones do not', async function () {
    const small = await prepareOperation('replace_lines', { path: 'big.txt', start_line: 1, end_line: 1, content: 'ROW 0' }, ws.session);
    assert.equal(small.confirmation, undefined);
    const large = await prepareOperation('replace_lines', { path: 'big.txt', start_line: 1, end_line: 30, content: 'gone' }, ws.session);
    assert.ok(large.confirmation);
    assert.match(large.confirmation.message, /```diff\n/);
    assert.match(large.confirmation.message, /-row 29/);
    const strict = await prepareOperation(
      'edit_file',
      { path: 'small.txt', old_string: 'b', new_string: 'B' },
      nodeSession(ws.base, { confirmEditsOverLines: 0 }),
    );
    assert.ok(strict.confirmation);
    // Preparing never writes.
    assert.equal(ws.read('big.txt'), many);
    assert.equal(ws.read('small.txt'), 'a\nb\nc\n');
  });

  it('apply_patch that changes or deletes files asks with the diff; one that only creates files does not', async function () {
    const modify = await prepareOperation(
      'apply_patch',
      { patch: '--- a/small.txt\n+++ b/small.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n' },
      ws.session,
    );
    assert.ok(modify.confirmation);
    assert.match(modify.confirmation.message, /```diff\n[\s\S]*-b\n\+B/);
    const remove = await prepareOperation(
      'apply_patch',
      { patch: '--- a/small.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n' },
      ws.session,
    );
    assert.match(remove.confirmation?.title ?? '', /deletes/);
    const create = await prepareOperation('apply_patch', { patch: '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+n\n' }, ws.session);
    assert.equal(create.confirmation, undefined);
    assert.equal(ws.exists('n.txt'), false);
  });

  it('a diff holding backticks gets a longer fence', async function () {
    ws.write({ 'md.md': 'text\n```js\ncode\n```\n' });
    const preparation = await prepareOperation('write_file', { file_name: 'md.md', content: 'text\n```ts\ncode\n```\n' }, ws.session);
    assert.match(preparation.confirmation?.message ?? '', /````diff\n[\s\S]*\n````/);
  });
});

/** A notebook of one code cell, the file edit_notebook's call guards. */
const NOTEBOOK = `${JSON.stringify({ cells: [{ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: ['one'] }], metadata: {}, nbformat: 4, nbformat_minor: 4 }, null, 1)}\n`;

/** A Python file of one function, the file edit_symbol's call guards. */
const SOURCE = 'def one():\n    return 2\n';

/**
 * One call per tool that takes expected_hash, on a file `g.txt` holding "one\ntwo\n" (a notebook `g.ipynb` for
 * notebooks, a Python file `g.py` for edit_symbol).
 */
const GUARDED_CALLS: Readonly<Record<string, Record<string, unknown>>> = {
  write_file: { file_name: 'g.txt', content: 'new\n' },
  delete_file: { file_name: 'g.txt' },
  edit_file: { path: 'g.txt', old_string: 'one', new_string: 'uno' },
  replace_lines: { path: 'g.txt', start_line: 1, end_line: 1, content: 'uno' },
  insert_lines: { path: 'g.txt', position: 'end', content: 'three\n' },
  delete_lines: { path: 'g.txt', start_line: 1, end_line: 1 },
  edit_notebook: { path: 'g.ipynb', edits: [{ action: 'edit', cell: 0, source: 'uno' }] },
  edit_symbol: { path: 'g.py', symbol: 'one', action: 'replace', text: 'def one():\n    return 1' },
};

describe('expected_hash takes a bare hex digest as sha256sum prints it', function () {
  let ws: TempWorkspace;
  const original = 'one\ntwo\n';
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'g.txt': original, 'g.ipynb': NOTEBOOK, 'g.py': SOURCE });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('covers every tool whose schema has expected_hash', function () {
    const guarded = TOOL_DEFINITIONS.filter((tool) => tool.inputSchema.properties.expected_hash !== undefined).map((tool) => tool.name);
    assert.deepEqual([...guarded].sort(), Object.keys(GUARDED_CALLS).sort());
  });

  for (const [operation, input] of Object.entries(GUARDED_CALLS)) {
    it(`${operation}: the current digest, bare or upper-case, is accepted; a stale one is CONTENT_CONFLICT and writes nothing`, async function () {
      const bare = hashOf(operation === 'edit_notebook' ? NOTEBOOK : operation === 'edit_symbol' ? SOURCE : original).slice(
        'sha256:'.length,
      );
      const staleBare = hashOf('something else').slice('sha256:'.length);
      const before = ws.snap();
      const conflict = expectError(
        await call(ws.session, operation, { ...input, expected_hash: staleBare }),
        'CONTENT_CONFLICT',
        operation,
      );
      assert.match(conflict.message, /changed since it was read/);
      expectError(await call(ws.session, operation, { ...input, expected_hash: bare.slice(1) }), 'INVALID_INPUT', operation);
      assertTree(ws.snap(), before);
      expectOk(await call(ws.session, operation, { ...input, expected_hash: bare.toUpperCase() }), operation);
      assert.notDeepEqual(ws.snap(), before, `${operation} changed nothing`);
    });
  }
});
