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
    // Queries without a literal of three characters: the content index cannot narrow them, so ripgrep answers.
    for (const input of [{ query: 'et' }, { query: 'b\\w+ \\d+$', is_regex: true }, { query: 'a(?=\\n|$)', is_regex: true }]) {
      const { data } = expectOk(await callTool('search_content', { ...input, path: s.rel() }));
      assert.equal(data.engine, 'ripgrep', JSON.stringify(input));
      assert.ok((data.matches as unknown[]).length >= 1, JSON.stringify(input));
    }
  });

  it('runs a regular expression with lookahead and rejects an invalid one', async () => {
    const s = scratch('grep-regex', { 'code.ts': 'const value = 1;\nconst other = 2;\n' });
    const { data } = expectOk(await callTool('search_content', { query: 'const (?=other)', is_regex: true, path: s.rel() }));
    assert.deepEqual(
      (data.matches as { line: number }[]).map((match) => match.line),
      [2],
    );
    expectError(await callTool('search_content', { query: '(unclosed', is_regex: true, path: s.rel() }), 'INVALID_PATTERN');
  });

  it("pages through the lines in path and line order with offset and next_offset, ripgrep's sorted walk included", async () => {
    // "a/" and "a-b", "a.ts": a walk that sorts each directory by name meets them out of the reply's path order.
    const files: Record<string, string> = {};
    for (const name of ['a', 'a-b', 'm'])
      for (let file = 0; file < 3; file++) files[`${name}/f${file}.txt`] = `pager one\nfiller\npager two ${name}\n`;
    files['a.ts'] = 'pager in a.ts\n';
    const s = scratch('grep-pages', files);
    // A pattern with no literal of three characters, which the content index cannot narrow: ripgrep's walk answers.
    const query = { query: 'pa.er', is_regex: true };
    const whole = expectOk(await callTool('search_content', { ...query, path: s.rel(), max_results: 200 })).data;
    assert.equal(whole.engine, 'ripgrep');
    assert.equal(whole.truncated, false);
    assert.equal(whole.total, 19);
    const order = (whole.matches as { path: string; line: number }[]).map((match) => `${match.path}:${match.line}`);
    const first = ['a-b/f0.txt:1', 'a-b/f0.txt:3', 'a-b/f1.txt:1', 'a-b/f1.txt:3', 'a-b/f2.txt:1', 'a-b/f2.txt:3', 'a.ts:1', 'a/f0.txt:1'];
    assert.deepEqual(
      order.slice(0, 8),
      first.map((entry) => `${s.rel()}/${entry}`),
    );
    const paged: unknown[] = [];
    let offset: number | undefined = 0;
    for (let page = 0; offset !== undefined; page++) {
      assert.ok(page < 10, 'more than 10 pages');
      const { data } = expectOk(await callTool('search_content', { ...query, path: s.rel(), max_results: 4, offset }));
      assert.equal(data.truncated, data.next_offset !== undefined);
      if (data.truncated) assert.equal(data.next_offset, offset + 4);
      paged.push(...(data.matches as unknown[]));
      offset = data.next_offset as number | undefined;
    }
    assert.deepEqual(paged, whole.matches);
  });
});
