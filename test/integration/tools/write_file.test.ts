import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, readText, scratch } from '../helpers';

describe('write_file', () => {
  it('creates a file and its missing parents', async () => {
    const s = scratch('write');
    const { data } = expectOk(await callTool('write_file', { file_name: s.rel('deep/er/new.txt'), content: 'hello\n' }));
    expectFields(data, { file_name: 'new.txt', relative_path: s.rel('deep/er/new.txt'), created: true, updated: false });
    assert.equal(readText(s.abs('deep/er/new.txt')), 'hello\n');
  });

  it('replaces an existing file (the confirmation is accepted by the test host)', async () => {
    const s = scratch('overwrite', { 'a.txt': 'old' });
    const { data } = expectOk(await callTool('write_file', { file_name: s.rel('a.txt'), content: 'new' }));
    expectFields(data, { created: false, updated: true });
    assert.equal(readText(s.abs('a.txt')), 'new');
  });

  it('refuses to write over a directory', async () => {
    const s = scratch('write-dir', { 'd/': '' });
    expectError(await callTool('write_file', { file_name: s.rel('d'), content: 'x' }), 'FILE_NOT_FILE');
  });
});
