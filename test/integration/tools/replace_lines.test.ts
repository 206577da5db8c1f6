import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, readText, scratch, snapshot } from '../helpers';

describe('replace_lines', () => {
  it('replaces an inclusive range without fusing lines', async () => {
    const s = scratch('replace-lines', { 'a.txt': '1\n2\n3\n' });
    const { data } = expectOk(await callTool('replace_lines', { path: s.rel('a.txt'), start_line: 2, end_line: 2, content: 'two' }));
    expectFields(data, { start_line: 2, end_line: 2, total_lines: 3 });
    assert.equal(readText(s.abs('a.txt')), '1\ntwo\n3\n');
  });

  it('refuses a range past the end, never clamping', async () => {
    const s = scratch('replace-lines-range', { 'a.txt': '1\n2\n' });
    const refused = expectError(
      await callTool('replace_lines', { path: s.rel('a.txt'), start_line: 2, end_line: 3, content: 'x' }),
      'INVALID_INPUT',
    );
    assert.equal(refused.error.details?.total_lines, 2);
    assert.deepEqual(snapshot(s.abs()), { 'a.txt': '1\n2\n' });
  });
});
