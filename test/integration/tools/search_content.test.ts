import * as assert from 'node:assert/strict';
import { callTool, expectError, expectOk, scratch } from '../helpers';

describe('search_content', () => {
  it('finds literal text with path, line, column and the line, skipping binary files', async () => {
    const s = scratch('grep', { 'a.txt': 'nothing\r\nthe Marmot-Token here\r\n', 'b.bin': 'Marmot-Token\u0000binary' });
    const { data } = expectOk(await callTool('search_content', { query: 'marmot-token', path: s.rel() }));
    assert.deepEqual(data.matches, [{ path: s.rel('a.txt'), line: 2, column: 5, text: 'the Marmot-Token here' }]);
  });

  it('on the local disk runs the ripgrep VS Code ships (engine "ripgrep"), regular expressions included', async () => {
    const s = scratch('grep-engine', { 'x.txt': 'alpha\nbeta 42\n' });
    for (const input of [{ query: 'beta' }, { query: 'beta \\d+$', is_regex: true }, { query: 'a(?=\\n|$)', is_regex: true }]) {
      const { data } = expectOk(await callTool('search_content', { ...input, path: s.rel() }));
      assert.equal(data.engine, 'ripgrep', JSON.stringify(input));
      assert.ok((data.matches as unknown[]).length >= 1, JSON.stringify(input));
    }
  });

  it('runs a regular expression with lookahead and rejects an invalid one', async () => {
    const s = scratch('grep-regex', { 'code.ts': 'const value = 1;\nconst other = 2;\n' });
    const { data } = expectOk(await callTool('search_content', { query: 'const (?=other)', is_regex: true, path: s.rel() }));
    assert.deepEqual((data.matches as { line: number }[]).map((match) => match.line), [2]);
    expectError(await callTool('search_content', { query: '(unclosed', is_regex: true, path: s.rel() }), 'INVALID_PATTERN');
  });
});
