import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, readText, scratch } from '../helpers';

describe('delete_lines', () => {
  it('deletes an inclusive range with its line endings', async () => {
    const s = scratch('delete-lines', { 'a.txt': '1\r\n2\r\n3\r\n4\r\n' });
    const { data } = expectOk(await callTool('delete_lines', { path: s.rel('a.txt'), start_line: 2, end_line: 3 }));
    expectFields(data, { total_lines: 2, lines_removed: 2 });
    assert.equal(readText(s.abs('a.txt')), '1\r\n4\r\n');
  });

  it('CONTENT_CONFLICT when expected_hash is stale', async () => {
    const s = scratch('delete-lines-hash', { 'a.txt': '1\n' });
    expectError(
      await callTool('delete_lines', { path: s.rel('a.txt'), start_line: 1, end_line: 1, expected_hash: `sha256:${'0'.repeat(64)}` }),
      'CONTENT_CONFLICT',
    );
    assert.equal(readText(s.abs('a.txt')), '1\n');
  });
});
