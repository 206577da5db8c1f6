/** replace_lines, insert_lines, delete_lines: inclusive 1-based ranges, never clamped, endings kept. */
import * as assert from 'node:assert/strict';
import { contentHash } from '../../src/core/files/text';
import { assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

describe('line edits', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'five.txt': '1\n2\n3\n4\n5\n', 'crlf.txt': 'a\r\nb\r\nc\r\n', 'open.txt': 'a\nb\nc', 'empty.txt': '' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('replace_lines replaces an inclusive range; a replacement without a trailing newline does not fuse lines', async function () {
    const data = expectOk(
      await call(ws.session, 'replace_lines', { path: 'five.txt', start_line: 2, end_line: 3, content: 'two\nthree' }),
      'replace_lines',
    );
    assert.equal(ws.read('five.txt'), '1\ntwo\nthree\n4\n5\n');
    assert.equal(data.total_lines, 5);
    assert.equal(data.lines_added, 2);
    assert.equal(data.lines_removed, 2);
    expectOk(await call(ws.session, 'replace_lines', { path: 'five.txt', start_line: 1, end_line: 1, content: 'one\nand a half\n' }));
    assert.equal(ws.read('five.txt'), 'one\nand a half\ntwo\nthree\n4\n5\n');
  });

  it('replace_lines with empty content removes the lines', async function () {
    expectOk(await call(ws.session, 'replace_lines', { path: 'five.txt', start_line: 2, end_line: 4, content: '' }));
    assert.equal(ws.read('five.txt'), '1\n5\n');
  });

  it('out-of-range lines are refused, never clamped, and nothing is written', async function () {
    const before = ws.snap();
    for (const input of [
      { start_line: 5, end_line: 6 },
      { start_line: 6, end_line: 6 },
      { start_line: 3, end_line: 2 },
    ]) {
      const error = expectError(await call(ws.session, 'replace_lines', { path: 'five.txt', content: 'x', ...input }), 'INVALID_INPUT');
      assert.equal(error.details?.total_lines, 5);
    }
    expectError(await call(ws.session, 'delete_lines', { path: 'five.txt', start_line: 4, end_line: 9 }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'insert_lines', { path: 'five.txt', position: 'before', line: 6, content: 'x' }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'insert_lines', { path: 'empty.txt', position: 'after', line: 1, content: 'x' }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'replace_lines', { path: 'five.txt', start_line: 0, end_line: 1, content: 'x' }), 'INVALID_INPUT');
    assertTree(ws.snap(), before);
  });

  it('CRLF files keep CRLF in inserted and replaced lines', async function () {
    expectOk(await call(ws.session, 'insert_lines', { path: 'crlf.txt', position: 'before', line: 2, content: 'x\ny' }));
    assert.equal(ws.read('crlf.txt'), 'a\r\nx\r\ny\r\nb\r\nc\r\n');
    expectOk(await call(ws.session, 'replace_lines', { path: 'crlf.txt', start_line: 5, end_line: 5, content: 'C\n' }));
    assert.equal(ws.read('crlf.txt'), 'a\r\nx\r\ny\r\nb\r\nC\r\n');
  });

  it('appending to a file without a trailing newline: the inserted text keeps its own final newline', async function () {
    ws.write({ 'seed.txt': 'alpha\nbeta' });
    expectOk(await call(ws.session, 'insert_lines', { path: 'seed.txt', position: 'end', content: 'omega\n' }));
    assert.equal(ws.read('seed.txt'), 'alpha\nbeta\nomega\n');
    ws.write({ 'crlf-open.txt': 'a\r\nb' });
    expectOk(await call(ws.session, 'insert_lines', { path: 'crlf-open.txt', position: 'end', content: 'c\nd\n' }));
    assert.equal(ws.read('crlf-open.txt'), 'a\r\nb\r\nc\r\nd\r\n');
  });

  it('a file without a trailing newline keeps having none', async function () {
    expectOk(await call(ws.session, 'insert_lines', { path: 'open.txt', position: 'end', content: 'd' }));
    assert.equal(ws.read('open.txt'), 'a\nb\nc\nd');
    expectOk(await call(ws.session, 'insert_lines', { path: 'open.txt', position: 'after', line: 4, content: 'e' }));
    assert.equal(ws.read('open.txt'), 'a\nb\nc\nd\ne');
    expectOk(await call(ws.session, 'replace_lines', { path: 'open.txt', start_line: 5, end_line: 5, content: 'E\n' }));
    assert.equal(ws.read('open.txt'), 'a\nb\nc\nd\nE');
    expectOk(await call(ws.session, 'delete_lines', { path: 'open.txt', start_line: 4, end_line: 5 }));
    assert.equal(ws.read('open.txt'), 'a\nb\nc');
  });

  it('insert_lines: before, after and end; "end" takes no line and before/after need one', async function () {
    expectOk(await call(ws.session, 'insert_lines', { path: 'five.txt', position: 'before', line: 1, content: '0' }));
    expectOk(await call(ws.session, 'insert_lines', { path: 'five.txt', position: 'after', line: 6, content: '6' }));
    expectOk(await call(ws.session, 'insert_lines', { path: 'five.txt', position: 'end', content: '7\n' }));
    assert.equal(ws.read('five.txt'), '0\n1\n2\n3\n4\n5\n6\n7\n');
    const before = ws.snap();
    expectError(await call(ws.session, 'insert_lines', { path: 'five.txt', position: 'end', line: 2, content: 'x' }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'insert_lines', { path: 'five.txt', position: 'after', content: 'x' }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'insert_lines', { path: 'five.txt', position: 'middle', line: 1, content: 'x' }), 'INVALID_INPUT');
    assertTree(ws.snap(), before);
    expectOk(await call(ws.session, 'insert_lines', { path: 'empty.txt', position: 'end', content: 'first' }));
    assert.equal(ws.read('empty.txt'), 'first\n');
  });

  it('delete_lines removes lines with their endings', async function () {
    const data = expectOk(await call(ws.session, 'delete_lines', { path: 'five.txt', start_line: 1, end_line: 2 }), 'delete_lines');
    assert.equal(ws.read('five.txt'), '3\n4\n5\n');
    assert.equal(data.total_lines, 3);
    expectOk(await call(ws.session, 'delete_lines', { path: 'five.txt', start_line: 1, end_line: 3 }));
    assert.equal(ws.read('five.txt'), '');
  });

  it('dry_run returns a unified diff and writes nothing; expected_hash guards every line tool', async function () {
    const before = ws.snap();
    const data = expectOk(await call(ws.session, 'delete_lines', { path: 'five.txt', start_line: 3, end_line: 3, dry_run: true }));
    assert.equal(data.diff, '--- a/five.txt\n+++ b/five.txt\n@@ -1,5 +1,4 @@\n 1\n 2\n-3\n 4\n 5\n');
    const stale = contentHash(new Uint8Array([1]));
    expectError(
      await call(ws.session, 'replace_lines', { path: 'five.txt', start_line: 1, end_line: 1, content: 'x', expected_hash: stale }),
      'CONTENT_CONFLICT',
    );
    expectError(
      await call(ws.session, 'insert_lines', { path: 'five.txt', position: 'end', content: 'x', expected_hash: stale }),
      'CONTENT_CONFLICT',
    );
    expectError(
      await call(ws.session, 'delete_lines', { path: 'five.txt', start_line: 1, end_line: 1, expected_hash: stale }),
      'CONTENT_CONFLICT',
    );
    assertTree(ws.snap(), before);
  });
});
