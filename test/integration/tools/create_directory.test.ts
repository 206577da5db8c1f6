import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { callTool, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('create_directory', () => {
  it('creates a directory with its parents; again is not an error', async () => {
    const s = scratch('mkdir');
    const first = expectOk(await callTool('create_directory', { directory_name: s.rel('a/b/c') }));
    expectFields(first.data, { directory_name: 'c', relative_path: s.rel('a/b/c'), created: true });
    assert.equal(fs.statSync(s.abs('a/b/c')).isDirectory(), true);
    const again = expectOk(await callTool('create_directory', { directory_name: s.rel('a/b/c') }));
    expectFields(again.data, { created: false });
  });

  it('answers DIRECTORY_NOT_DIRECTORY when a file is in the way', async () => {
    const s = scratch('mkdir-file', { 'f.txt': 'x' });
    expectError(await callTool('create_directory', { directory_name: s.rel('f.txt/sub') }), 'DIRECTORY_NOT_DIRECTORY');
    assert.equal(fs.statSync(s.abs('f.txt')).isFile(), true);
  });
});
