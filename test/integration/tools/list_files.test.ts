import { callTool, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('list_files', () => {
  it('lists files only, sorted, recursively by default', async () => {
    const s = scratch('ls', { 'b.txt': 'b', 'a.txt': 'a', 'sub/c.txt': 'c', 'empty/': '' });
    const { data } = expectOk(await callTool('list_files', { path: s.rel() }));
    expectFields(data, { count: 3, recursive: true, files: [s.rel('a.txt'), s.rel('b.txt'), s.rel('sub/c.txt')], truncated: false });
  });

  it('stays in one directory with recursive false, and says when it cut the list', async () => {
    const s = scratch('ls-flat', { 'a.txt': 'a', 'b.txt': 'b', 'sub/c.txt': 'c' });
    expectFields(expectOk(await callTool('list_files', { path: s.rel(), recursive: false })).data, {
      count: 2,
      recursive: false,
      files: [s.rel('a.txt'), s.rel('b.txt')],
    });
    expectFields(expectOk(await callTool('list_files', { path: s.rel(), max_results: 1 })).data, { count: 1, truncated: true, total: 3 });
    expectError(await callTool('list_files', { path: s.rel('missing') }), 'DIRECTORY_NOT_FOUND');
  });
});
