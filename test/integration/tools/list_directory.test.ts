import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('list_directory', () => {
  it('lists directories first, then files, with sizes', async () => {
    const s = scratch('list-dir', { 'zeta.txt': '12345', 'alpha/': '', 'beta.md': '' });
    const { data } = expectOk(await callTool('list_directory', { path: s.rel() }));
    expectFields(data, { count: 3, truncated: false });
    const entries = data.entries as { name: string; type: string; size?: number; relative_path: string }[];
    assert.deepEqual(entries.map((entry) => [entry.name, entry.type]), [['alpha', 'directory'], ['beta.md', 'file'], ['zeta.txt', 'file']]);
    assert.equal(entries[2]?.size, 5);
    assert.equal(entries[0]?.relative_path, s.rel('alpha'));
  });

  it('refuses max_entries above 1000 and a path outside the base', async () => {
    expectError(await callTool('list_directory', { path: '.', max_entries: 1001 }), 'LIMIT_EXCEEDED');
    expectError(await callTool('list_directory', { path: '../..' }), 'DIRECTORY_PATH_OUTSIDE_BASE');
  });
});
