import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { callTool, expectError, expectFields, expectOk, readText, scratch, snapshot } from '../helpers';

describe('edit_file', () => {
  it('replaces the one match, keeping CRLF line endings', async () => {
    const s = scratch('edit', { 'a.ts': 'const a = 1;\r\nconst b = 2;\r\n' });
    const { data } = expectOk(
      await callTool('edit_file', { path: s.rel('a.ts'), old_string: 'const b = 2;', new_string: 'const b = 3;\nconst c = 4;' }),
    );
    expectFields(data, { stage: 'exact', match_count: 1, lines: [2], changed: true });
    assert.equal(readText(s.abs('a.ts')), 'const a = 1;\r\nconst b = 3;\r\nconst c = 4;\r\n');
  });

  it('matches despite different indentation and re-bases the replacement (stage whitespace)', async () => {
    const s = scratch('edit-ws', { 'a.py': 'def f():\n\tif x:\n\t\treturn 1\n' });
    const { data } = expectOk(
      await callTool('edit_file', {
        path: s.rel('a.py'),
        old_string: '    if x:\n        return 1',
        new_string: '    if x:\n        return 2',
      }),
    );
    expectFields(data, { stage: 'whitespace' });
    assert.equal(readText(s.abs('a.py')), 'def f():\n\tif x:\n\t\treturn 2\n');
  });

  it('NO_MATCH and MULTIPLE_MATCHES change nothing', async () => {
    const s = scratch('edit-refused', { 'a.txt': 'same\nsame\n' });
    const none = expectError(await callTool('edit_file', { path: s.rel('a.txt'), old_string: 'other', new_string: 'x' }), 'NO_MATCH');
    assert.ok(Array.isArray(none.error.details?.candidates));
    const many = expectError(
      await callTool('edit_file', { path: s.rel('a.txt'), old_string: 'same', new_string: 'x' }),
      'MULTIPLE_MATCHES',
    );
    assert.deepEqual(many.error.details?.lines, [1, 2]);
    assert.deepEqual(snapshot(s.abs()), { 'a.txt': 'same\nsame\n' });
  });

  it('dry_run returns a diff and writes nothing', async () => {
    const s = scratch('edit-dry', { 'a.txt': 'one\n' });
    const { data } = expectOk(await callTool('edit_file', { path: s.rel('a.txt'), old_string: 'one', new_string: 'two', dry_run: true }));
    assert.match(String(data.diff), /-one\n\+two/);
    assert.equal(fs.readFileSync(s.abs('a.txt'), 'utf8'), 'one\n');
  });
});
