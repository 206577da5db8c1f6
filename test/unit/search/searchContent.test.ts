/** search_content's contract, checked on each engine: results, limits, error codes, and an unchanged disk. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Session } from '../../../src/core/invoke';
import { LINE_TEXT_MAX } from '../../../src/core/tools/searchContent';
import { ripgrepForTests } from './ripgrep';
import { createNodeSession } from '../../../src/node/host/session';
import { assertFields, assertTree, call, expectError, expectOk, makeTempDir, removeTree, snapshot } from '../helpers';
import { LONG_LINE, writeSearchFixture } from './fixture';

interface Match {
  path: string;
  line: number;
  column: number;
  text: string;
  text_truncated?: boolean;
  via?: string;
  before?: string[];
  after?: string[];
}

for (const engine of ['ripgrep', 'scan'] as const) {
  describe(`search_content (${engine})`, function () {
    let base: string;
    let session: Session;
    before(function () {
      base = makeTempDir('agentfs-search-');
      writeSearchFixture(base);
      session = createNodeSession(base, { exclude: ['dist'] }, { ripgrep: engine === 'ripgrep' ? ripgrepForTests() : false });
    });
    after(function () {
      if (base) removeTree(base);
    });
    const search = async (input: Record<string, unknown>): Promise<{ data: Record<string, unknown>; matches: Match[] }> => {
      const data = expectOk(await call(session, 'search_content', input), 'search_content');
      assert.equal(data.engine, engine);
      return { data, matches: data.matches as Match[] };
    };

    it('ignored_count: 0 with include_ignored, as every tool; with ignore rules on, what the walk ignored, whatever the engine', async function () {
      const { data: all } = await search({ query: 'needle', include_ignored: true });
      assert.equal(all.ignored_count, 0);
      const { data: ruled } = await search({ query: 'needle' });
      assert.equal(ruled.engine, engine);
      // ripgrep skips what the core's walk skipped, so the core counts it either way: the same as list_files.
      const listed = expectOk(await call(session, 'list_files', { max_results: 1 }));
      assert.ok(typeof ruled.ignored_count === 'number' && ruled.ignored_count > 0, `ignored_count ${String(ruled.ignored_count)}`);
      assert.equal(ruled.ignored_count, listed.ignored_count);
    });

    it('finds lines with path, 1-based line and column in characters, sorted, and changes nothing', async function () {
      const before = snapshot(base);
      const { data, matches } = await search({ query: 'needle', case_sensitive: true, path: 'sub' });
      assert.deepEqual(matches, [
        { path: 'sub/b.txt', line: 1, column: 1, text: 'needle in sub' },
        { path: 'sub/b.txt', line: 3, column: 12, text: 'line three needle' },
        { path: 'sub/deep/c.ts', line: 1, column: 14, text: 'export const needle = 1;' },
      ]);
      assertFields(data, { query: 'needle', is_regex: false, case_sensitive: true, path: 'sub', count: 3, truncated: false });
      assert.equal('file_pattern' in data, false, 'no file_pattern field repeats an absent input');
      const emoji = (await search({ query: 'smile' })).matches;
      // "😀 " is one character plus a space before "smile".
      assert.deepEqual(emoji, [{ path: 'unicode.txt', line: 2, column: 3, text: '😀 smile needle 😀' }]);
      assertTree(snapshot(base), before);
    });

    it('searches literal text holding regex punctuation, case-insensitively', async function () {
      const { matches } = await search({ query: 'NEEDLE-DASH', path: '.', file_pattern: 'code.ts' });
      assert.deepEqual(matches, [{ path: 'code.ts', line: 3, column: 17, text: 'word_needle and needle-dash' }]);
    });

    it('returns line text without its CRLF, and context lines around each match', async function () {
      const { matches } = await search({ query: 'gamma', context_lines: 2 });
      assert.deepEqual(matches, [
        { path: 'crlf.txt', line: 3, column: 1, text: 'gamma needle', before: ['alpha', 'beta end'], after: ['', 'last end'] },
      ]);
    });

    it('cuts a long line to a window around the match', async function () {
      const { matches } = await search({ query: 'needle', path: '.', file_pattern: 'long.txt' });
      const long = matches.find((match) => match.line === 2);
      assert.ok(long);
      assert.equal(long.text_truncated, true);
      assert.equal(long.column, LONG_LINE.indexOf('needle') + 1);
      assert.ok(long.text.includes(' needle '));
      assert.ok(long.text.length <= LINE_TEXT_MAX + 2);
      assert.ok(long.text.startsWith('…') && long.text.endsWith('…'));
    });

    it('skips binary files and searches a .pdf through its .pdf.txt', async function () {
      const { matches } = await search({ query: 'needle' });
      const paths = matches.map((match) => match.path);
      assert.ok(!paths.includes('binary.bin'));
      assert.deepEqual(
        matches.filter((match) => match.path === 'doc.pdf'),
        [{ path: 'doc.pdf', line: 1, column: 23, text: 'extracted text with a needle', via: 'doc.pdf.txt' }],
      );
      assert.ok(paths.includes('notes.md.txt'), 'a .txt without a .pdf beside it is an ordinary file');
      assert.ok(paths.includes('utf16.txt'), 'UTF-16 with a BOM is text');
    });

    it('leaves out ignored paths unless include_ignored, and hidden secrets always', async function () {
      const paths = (await search({ query: 'needle' })).matches.map((match) => match.path);
      for (const each of ['ignored/x.txt', 'app.log', 'dist/bundle.js', 'sub/a.skip', '.git/config', '.env', 'link.txt'])
        assert.ok(!paths.includes(each), each);
      assert.ok(paths.includes('.hidden/h.txt'), 'dot folders are searched');
      const all = (await search({ query: 'needle', include_ignored: true, max_results: 200 })).matches.map((match) => match.path);
      for (const each of ['ignored/x.txt', 'app.log', 'dist/bundle.js', 'sub/a.skip', '.git/config']) assert.ok(all.includes(each), each);
      assert.ok(!all.includes('.env'));
    });

    it('finds nothing in a folder that is itself ignored, unless include_ignored', async function () {
      assertFields((await search({ query: 'needle', path: 'ignored' })).data, { count: 0 });
      assert.deepEqual(
        (await search({ query: 'needle', path: 'ignored', include_ignored: true })).matches.map((match) => match.path),
        ['ignored/x.txt'],
      );
    });

    it('says truncated when more lines match than max_results', async function () {
      const { data, matches } = await search({ query: 'needle', max_results: 2 });
      assertFields(data, { count: 2, truncated: true });
      assert.equal(matches.length, 2);
    });

    it('refuses bad patterns, lines breaks in literals, and requests above the caps', async function () {
      expectError(await call(session, 'search_content', { query: '(unclosed', is_regex: true }), 'INVALID_PATTERN');
      expectError(await call(session, 'search_content', { query: 'two\nlines' }), 'INVALID_PATTERN');
      expectError(await call(session, 'search_content', { query: 'x', file_pattern: '[z-a]' }), 'INVALID_PATTERN');
      assert.deepEqual(expectError(await call(session, 'search_content', { query: 'x', max_results: 201 }), 'LIMIT_EXCEEDED').details, {
        field: 'max_results',
        cap: 200,
      });
      assert.deepEqual(expectError(await call(session, 'search_content', { query: 'x', context_lines: 6 }), 'LIMIT_EXCEEDED').details, {
        field: 'context_lines',
        cap: 5,
      });
      expectError(await call(session, 'search_content', { query: 'x', context_lines: -1 }), 'INVALID_INPUT');
      expectError(await call(session, 'search_content', { query: '' }), 'INVALID_INPUT');
      expectError(await call(session, 'search_content', { query: 'x', path: 'missing' }), 'DIRECTORY_NOT_FOUND');
      expectError(await call(session, 'search_content', { query: 'x', path: 'sub/b.txt' }), 'DIRECTORY_NOT_DIRECTORY');
      expectError(await call(session, 'search_content', { query: 'x', path: '../' }), 'DIRECTORY_PATH_OUTSIDE_BASE');
    });

    it('searches a file above the first read in chunks, to its last line', async function () {
      const lines = Array.from({ length: 30_000 }, (_, index) => `row ${index + 1} ${index % 7 === 0 ? 'seven' : 'other'}`);
      lines[29_999] = 'the very last row has the marker';
      fs.writeFileSync(path.join(base, 'big.txt'), `${lines.join('\n')}\n`);
      try {
        const { matches } = await search({ query: 'marker', context_lines: 1 });
        assert.deepEqual(matches, [
          { path: 'big.txt', line: 30_000, column: 27, text: 'the very last row has the marker', before: ['row 29999 other'], after: [] },
        ]);
      } finally {
        fs.rmSync(path.join(base, 'big.txt'));
      }
    });
  });
}
