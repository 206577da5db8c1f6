import { callTool, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('path_exists', () => {
  it('answers file, directory and missing, all ok', async () => {
    const s = scratch('exists', { 'f.txt': 'x', 'd/': '' });
    expectFields(expectOk(await callTool('path_exists', { path: s.rel('f.txt') })).data, {
      path: s.rel('f.txt'),
      exists: true,
      path_type: 'file',
    });
    expectFields(expectOk(await callTool('path_exists', { path: s.rel('d') })).data, { exists: true, path_type: 'directory' });
    expectFields(expectOk(await callTool('path_exists', { path: s.rel('nope') })).data, { exists: false, path_type: 'missing' });
  });

  it('refuses to say anything about a path outside the base', async () => {
    expectError(await callTool('path_exists', { path: '/etc/passwd' }), 'PATH_OUTSIDE_BASE');
  });
});
