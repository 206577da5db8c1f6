import * as assert from 'node:assert/strict';
import { callTool, expectError, expectOk, scratch } from '../helpers';

describe('search_files', () => {
  it('matches a glob under a path', async () => {
    const s = scratch('glob', { 'docs/a.md': '', 'docs/deep/b.md': '', 'docs/c.txt': '' });
    const { data } = expectOk(await callTool('search_files', { pattern: '**/*.md', path: s.rel() }));
    const found = (data.matches as { relative_path: string }[]).map((match) => match.relative_path).sort();
    assert.deepEqual(found, [s.rel('docs/a.md'), s.rel('docs/deep/b.md')]);
  });

  it('refuses max_results above 200', async () => {
    expectError(await callTool('search_files', { pattern: '**/*', max_results: 201 }), 'LIMIT_EXCEEDED');
  });
});
