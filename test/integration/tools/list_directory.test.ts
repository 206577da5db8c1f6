import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('list_directory', () => {
  it('lists directories first, then files, with sizes', async () => {
    const s = scratch('list-dir', { 'zeta.txt': '12345', 'alpha/': '', 'beta.md': '' });
    const { data } = expectOk(await callTool('list_directory', { path: s.rel() }));
    expectFields(data, { count: 3, truncated: false });
    // Entries carry relative_path only (a name beside it would repeat its last segment).
    const entries = data.entries as { type: string; size?: number; relative_path: string }[];
    assert.deepEqual(
      entries.map((entry) => [entry.relative_path, entry.type]),
      [
        [s.rel('alpha'), 'directory'],
        [s.rel('beta.md'), 'file'],
        [s.rel('zeta.txt'), 'file'],
      ],
    );
    assert.ok(
      entries.every((entry) => !('name' in entry)),
      'no name beside relative_path',
    );
    assert.equal(entries[2]?.size, 5);
  });

  it('refuses max_entries above 1000 and a path outside the base', async () => {
    expectError(await callTool('list_directory', { path: '.', max_entries: 1001 }), 'LIMIT_EXCEEDED');
    expectError(await callTool('list_directory', { path: '../..' }), 'DIRECTORY_PATH_OUTSIDE_BASE');
  });
});
