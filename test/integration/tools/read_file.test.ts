import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('read_file', () => {
  it('returns the whole content with the plugin data shape', async () => {
    const s = scratch('read', { 'notes/a b.md': 'first line\r\nsecond line\n' });
    const { data } = expectOk(await callTool('read_file', { file_name: s.rel('notes/a b.md') }));
    expectFields(data, { file_name: 'a b.md', relative_path: s.rel('notes/a b.md'), content: 'first line\r\nsecond line\n' });
  });

  it('answers FILE_NOT_FOUND and FILE_NOT_FILE', async () => {
    const s = scratch('read-missing', { 'dir/': '' });
    expectError(await callTool('read_file', { file_name: s.rel('nope.txt') }), 'FILE_NOT_FOUND');
    expectError(await callTool('read_file', { file_name: s.rel('dir') }), 'FILE_NOT_FILE');
  });

  it('refuses a path that leaves the base directory', async () => {
    const refused = expectError(await callTool('read_file', { file_name: '../../../../../../etc/hostname' }), 'FILE_PATH_OUTSIDE_BASE');
    assert.doesNotMatch(refused.error.message, /^\s*$/);
    expectError(await callTool('read_file', { file_name: '/etc/hostname' }), 'FILE_PATH_OUTSIDE_BASE');
  });
});
