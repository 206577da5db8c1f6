import * as assert from 'node:assert/strict';
import { callTool, exists, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('delete_directory', () => {
  it('deletes an empty directory', async () => {
    const s = scratch('rmdir', { 'empty/': '' });
    const { data } = expectOk(await callTool('delete_directory', { directory_path: s.rel('empty') }));
    expectFields(data, { directory_name: 'empty', relative_path: s.rel('empty'), deleted: true, recursive: false });
    assert.equal(exists(s.abs('empty')), false);
  });

  it('deletes a non-empty directory only when recursive is true', async () => {
    const s = scratch('rmdir-full', { 'full/a.txt': 'a', 'full/sub/b.txt': 'b' });
    expectError(await callTool('delete_directory', { directory_path: s.rel('full') }), 'DIRECTORY_NOT_EMPTY');
    assert.equal(exists(s.abs('full/sub/b.txt')), true);
    const { data } = expectOk(await callTool('delete_directory', { directory_path: s.rel('full'), recursive: true }));
    expectFields(data, { deleted: true, recursive: true });
    assert.equal(exists(s.abs('full')), false);
  });
});
