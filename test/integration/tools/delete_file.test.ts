import * as assert from 'node:assert/strict';
import { callTool, exists, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('delete_file', () => {
  it('deletes one file and leaves its siblings', async () => {
    const s = scratch('delete', { 'a.txt': 'a', 'b.txt': 'b' });
    const { data } = expectOk(await callTool('delete_file', { file_name: s.rel('a.txt') }));
    expectFields(data, { file_name: 'a.txt', relative_path: s.rel('a.txt'), deleted: true });
    assert.equal(exists(s.abs('a.txt')), false);
    assert.equal(exists(s.abs('b.txt')), true);
  });

  it('never deletes a directory', async () => {
    const s = scratch('delete-dir', { 'd/inside.txt': 'x' });
    expectError(await callTool('delete_file', { file_name: s.rel('d') }), 'FILE_NOT_FILE');
    assert.equal(exists(s.abs('d/inside.txt')), true);
    expectError(await callTool('delete_file', { file_name: s.rel('missing.txt') }), 'FILE_NOT_FOUND');
  });
});
