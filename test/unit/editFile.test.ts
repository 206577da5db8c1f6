/** edit_file and its staged matcher: exact, whitespace-tolerant with re-basing, NO_MATCH, MULTIPLE_MATCHES. */
import * as assert from 'node:assert/strict';
import { findMatches, applyRegions } from '../../src/core/edit/match';
import { contentHash } from '../../src/core/files/text';
import { assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

function edit(text: string, oldString: string, newString: string): { stage: string; text: string } {
  const result = findMatches(text, oldString, newString);
  if (result.stage === 'none') return { stage: 'none', text };
  return { stage: result.stage, text: applyRegions(text, result.regions) };
}

describe('the staged matcher', function () {
  it('exact first: a literal match anywhere in a line', function () {
    assert.deepEqual(edit('let a = 1;\nlet b = 2;\n', 'b = 2', 'b = 3'), { stage: 'exact', text: 'let a = 1;\nlet b = 3;\n' });
  });

  it('exact match in a CRLF file gives new lines CRLF endings', function () {
    assert.deepEqual(edit('a\r\nb\r\nc\r\n', 'b', 'b1\nb2'), { stage: 'exact', text: 'a\r\nb1\r\nb2\r\nc\r\n' });
  });

  it('tabs in the file, spaces in old_string: matches and re-bases new_string onto tabs', function () {
    const file = 'function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n';
    const old = '    if (x) {\n        return 1;\n    }';
    const replacement = '    if (x) {\n        log();\n        return 2;\n    }';
    assert.deepEqual(edit(file, old, replacement), {
      stage: 'whitespace',
      text: 'function f() {\n\tif (x) {\n\t\tlog();\n\t\treturn 2;\n\t}\n}\n',
    });
  });

  it('spaces in the file, tabs in old_string: the other way round', function () {
    const file = 'class A {\n    m() {\n        go();\n    }\n}\n';
    assert.deepEqual(edit(file, '\tm() {\n\t\tgo();\n\t}', '\tm() {\n\t\tgo();\n\t\tstop();\n\t}'), {
      stage: 'whitespace',
      text: 'class A {\n    m() {\n        go();\n        stop();\n    }\n}\n',
    });
  });

  it("indentation shifted by a level: new_string lands at the file's depth", function () {
    const file = 'root:\n      child: 1\n      other: 2\n';
    assert.deepEqual(edit(file, 'child: 1\nother: 2\n', 'child: 10\nother: 20\nthird: 30\n'), {
      stage: 'whitespace',
      text: 'root:\n      child: 10\n      other: 20\n      third: 30\n',
    });
  });

  it('trailing whitespace in the file does not block a match', function () {
    assert.deepEqual(edit('x = 1;   \ny = 2;\t\n', 'x = 1;\ny = 2;', 'x = 3;\ny = 4;'), { stage: 'whitespace', text: 'x = 3;\ny = 4;\n' });
  });

  it('CRLF file, LF old_string: matches and keeps CRLF, last line ending untouched', function () {
    assert.deepEqual(edit('one\r\ntwo\r\nthree\r\n', 'one\ntwo\n', 'uno\ndos\n'), { stage: 'whitespace', text: 'uno\r\ndos\r\nthree\r\n' });
  });

  it('CRLF file, LF old_string starting mid-line: matches literally once line endings agree', function () {
    assert.deepEqual(edit('x = foo(a,\r\n  b);\r\n', 'foo(a,\n  b)', 'bar(a,\n  c)'), {
      stage: 'whitespace',
      text: 'x = bar(a,\r\n  c);\r\n',
    });
  });

  it('an empty new_string deletes the matched lines with their endings', function () {
    assert.deepEqual(edit('a\n  b\n  c\nd\n', 'b\nc', ''), { stage: 'whitespace', text: 'a\nd\n' });
    assert.deepEqual(edit('a\nb\n  c', 'c', ''), { stage: 'exact', text: 'a\nb\n  ' });
    assert.deepEqual(edit('a\nb\n  c ', ' c', ''), { stage: 'exact', text: 'a\nb\n  ' });
    assert.deepEqual(edit('a\nb\n\tc  ', '    c', ''), { stage: 'whitespace', text: 'a\nb' });
  });

  it('interior whitespace still counts', function () {
    assert.equal(findMatches('a  =  b\n', 'a = b', 'x').stage, 'none');
  });

  it('NO_MATCH candidates point at the nearest lines with a similarity', function () {
    const file = Array.from({ length: 30 }, (_, index) => `line ${index + 1}: value = ${index * 7};`).join('\n');
    const result = findMatches(file, 'line 12: valeu = 77;\nline 13: value = 84;', 'x');
    assert.equal(result.stage, 'none');
    if (result.stage !== 'none') return;
    const [best] = result.candidates;
    assert.ok(best);
    assert.equal(best.start_line, 12);
    assert.equal(best.end_line, 13);
    assert.ok(best.similarity > 0.8 && best.similarity < 1, `similarity ${best.similarity}`);
    assert.deepEqual(best.lines, [
      { line: 12, text: 'line 12: value = 77;' },
      { line: 13, text: 'line 13: value = 84;' },
    ]);
    assert.ok(result.candidates.length <= 3);
  });
});

describe('edit_file', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'src/a.ts': 'const a = 1;\nconst b = 2;\nconst a2 = 1;\n', 'dup.txt': 'x\nsame\ny\nsame\nz\nsame\n' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('replaces the one match and reports stage, lines and the new hash', async function () {
    const data = expectOk(
      await call(ws.session, 'edit_file', { path: 'src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' }),
      'edit_file',
    );
    assert.equal(ws.read('src/a.ts'), 'const a = 1;\nconst b = 3;\nconst a2 = 1;\n');
    assert.equal(data.stage, 'exact');
    assert.equal(data.match_count, 1);
    assert.deepEqual(data.lines, [2]);
    assert.equal(data.changed, true);
    assert.equal(data.dry_run, false);
    assert.equal(data.content_hash, contentHash(new TextEncoder().encode(ws.read('src/a.ts'))));
  });

  it('MULTIPLE_MATCHES lists the line numbers and writes nothing', async function () {
    const before = ws.snap();
    const error = expectError(
      await call(ws.session, 'edit_file', { path: 'dup.txt', old_string: 'same', new_string: 'other' }),
      'MULTIPLE_MATCHES',
      'edit_file',
    );
    assert.deepEqual(error.details?.lines, [2, 4, 6]);
    assert.match(error.message, /2, 4, 6/);
    assertTree(ws.snap(), before);
  });

  it('replace_all changes every match; expected_match_count must equal the count', async function () {
    const before = ws.snap();
    expectError(
      await call(ws.session, 'edit_file', { path: 'dup.txt', old_string: 'same', new_string: 'other', expected_match_count: 2 }),
      'MULTIPLE_MATCHES',
    );
    const fewer = expectError(
      await call(ws.session, 'edit_file', { path: 'dup.txt', old_string: 'same', new_string: 'other', expected_match_count: 4 }),
      'NO_MATCH',
    );
    assert.equal(fewer.details?.match_count, 3);
    assertTree(ws.snap(), before);
    const data = expectOk(
      await call(ws.session, 'edit_file', { path: 'dup.txt', old_string: 'same', new_string: 'other', expected_match_count: 3 }),
    );
    assert.equal(data.replaced, 3);
    assert.equal(ws.read('dup.txt'), 'x\nother\ny\nother\nz\nother\n');
    expectOk(await call(ws.session, 'edit_file', { path: 'dup.txt', old_string: 'other', new_string: 'same', replace_all: true }));
    assert.equal(ws.read('dup.txt'), 'x\nsame\ny\nsame\nz\nsame\n');
  });

  it('NO_MATCH carries candidates in details and writes nothing', async function () {
    const before = ws.snap();
    const error = expectError(
      await call(ws.session, 'edit_file', { path: 'src/a.ts', old_string: 'const b = 20;', new_string: 'x' }),
      'NO_MATCH',
    );
    const candidates = error.details?.candidates as { start_line: number; similarity: number }[];
    assert.equal(candidates[0]?.start_line, 2);
    assert.match(error.message, /2: const b = 2;/);
    assertTree(ws.snap(), before);
  });

  it('dry_run returns the diff and writes nothing', async function () {
    const before = ws.snap();
    const data = expectOk(
      await call(ws.session, 'edit_file', { path: 'src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;', dry_run: true }),
    );
    assert.equal(data.dry_run, true);
    assert.equal(
      data.diff,
      '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n const a2 = 1;\n',
    );
    assertTree(ws.snap(), before);
  });

  it('expected_hash guards the edit (CONTENT_CONFLICT) and accepts the current hash', async function () {
    const before = ws.snap();
    const stale = contentHash(new TextEncoder().encode('something else'));
    const error = expectError(
      await call(ws.session, 'edit_file', { path: 'src/a.ts', old_string: 'b = 2', new_string: 'b = 3', expected_hash: stale }),
      'CONTENT_CONFLICT',
    );
    assert.equal(error.details?.expected_hash, stale);
    assertTree(ws.snap(), before);
    const current = contentHash(new TextEncoder().encode(ws.read('src/a.ts')));
    const data = expectOk(
      await call(ws.session, 'edit_file', { path: 'src/a.ts', old_string: 'b = 2', new_string: 'b = 3', expected_hash: current }),
    );
    // The returned hash chains into the next guarded edit.
    expectOk(
      await call(ws.session, 'edit_file', { path: 'src/a.ts', old_string: 'b = 3', new_string: 'b = 4', expected_hash: data.content_hash }),
    );
    assert.match(ws.read('src/a.ts'), /b = 4/);
  });

  it('refuses old_string equal to new_string, and a missing file', async function () {
    expectError(await call(ws.session, 'edit_file', { path: 'src/a.ts', old_string: 'a', new_string: 'a' }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'edit_file', { path: 'nope.ts', old_string: 'a', new_string: 'b' }), 'FILE_NOT_FOUND');
    expectError(await call(ws.session, 'edit_file', { path: 'src', old_string: 'a', new_string: 'b' }), 'FILE_NOT_FILE');
  });
});
