/**
 * search_content with `documents: true` on each engine: PDF and Word files searched in their text (a PDF's matches
 * with their page, `line` counting within it), in the reply's order among the other files; without it, skipped as
 * binary files, as before. Unreadable documents are passed over; a .pdf with a .pdf.txt is still searched through it.
 */
import * as assert from 'node:assert/strict';
import type { Envelope } from '../../../src/core/envelope';
import type { Session } from '../../../src/core/invoke';
import { createNodeSession } from '../../../src/node/host/session';
import { assertTree, call, expectOk, makeTempDir, removeTree, snapshot } from '../helpers';
import { writeTree } from '../../shared/tree';
import { makeDocx, makeEncryptedDocx, makePdf, manyPages, word } from '../../shared/documents';
import { ripgrepForTests } from './ripgrep';

interface Match {
  path: string;
  page?: number;
  line: number;
  column: number;
  text: string;
  via?: string;
  before?: string[];
  after?: string[];
}

for (const engine of ['ripgrep', 'scan'] as const) {
  describe(`search_content documents (${engine})`, function () {
    let base: string;
    let session: Session;
    before(async function () {
      base = makeTempDir('agentfs-search-documents-');
      writeTree(base, {
        'a.txt': 'needle in text\n',
        'docs/two.pdf': makePdf([
          ['Hello needle', 'plain line'],
          ['Γειά σου needle', '你好，世界 needle'],
        ]),
        'docs/report.docx': await makeDocx(
          word.paragraph('Report', 'Heading1') + word.paragraph('the needle in Αθήνα') + word.item('needle item', 1),
        ),
        'docs/locked.pdf': makePdf([['needle']], { encrypted: true }),
        'docs/locked.docx': makeEncryptedDocx(),
        'docs/broken.pdf': '%PDF-1.7\nneedle \x00 garbage\n',
        'docs/side.pdf': makePdf([['needle in the pdf itself']]),
        'docs/side.pdf.txt': 'needle in the sidecar\n',
        'z.txt': 'needle last\n',
        'big/book.pdf': makePdf(manyPages(40, 5)),
      });
      session = createNodeSession(base, {}, { ripgrep: engine === 'ripgrep' ? ripgrepForTests() : false });
    });
    after(function () {
      if (base) removeTree(base);
    });
    const search = async (
      input: Record<string, unknown>,
    ): Promise<{ envelope: Envelope; data: Record<string, unknown>; matches: Match[] }> => {
      const envelope = await call(session, 'search_content', input);
      const data = expectOk(envelope, 'search_content');
      // ripgrep is not given a query outside ASCII where the host may guess encodings (encodedMatches.ts).
      if (/^[\x20-\x7e]*$/.test(String(input.query))) assert.equal(data.engine, engine);
      return { envelope, data, matches: data.matches as Match[] };
    };

    it('skips PDF and Word files as binary by default, as before', async function () {
      const { matches, data } = await search({ query: 'needle', path: 'docs' });
      assert.deepEqual(
        matches.map((match) => [match.path, match.via]),
        [['docs/side.pdf', 'side.pdf.txt']],
      );
      assert.equal(data.total, 1);
    });

    it('finds text in PDFs with the page and in Word files by line, in path order, and changes nothing', async function () {
      const before = snapshot(base);
      const { matches, data, envelope } = await search({ query: 'needle', documents: true });
      assert.deepEqual(matches, [
        { path: 'a.txt', line: 1, column: 1, text: 'needle in text' },
        { path: 'docs/report.docx', line: 2, column: 5, text: 'the needle in Αθήνα' },
        { path: 'docs/report.docx', line: 3, column: 3, text: '- needle item' },
        { path: 'docs/side.pdf', line: 1, column: 1, text: 'needle in the sidecar', via: 'side.pdf.txt' },
        { path: 'docs/two.pdf', page: 1, line: 1, column: 7, text: 'Hello needle' },
        { path: 'docs/two.pdf', page: 2, line: 1, column: 10, text: 'Γειά σου needle' },
        { path: 'docs/two.pdf', page: 2, line: 2, column: 7, text: '你好，世界 needle' },
        { path: 'z.txt', line: 1, column: 1, text: 'needle last' },
      ]);
      assert.equal(data.total, 8);
      assert.ok(Buffer.byteLength(JSON.stringify(envelope)) < 4096);
      assertTree(snapshot(base), before);
    });

    it('a match line is the line read_file gives: the page of a PDF, the line of a Word file', async function () {
      const { matches } = await search({ query: '世界', documents: true, path: 'docs' });
      assert.deepEqual(
        matches.map(({ path, page, line }) => ({ path, page, line })),
        [{ path: 'docs/two.pdf', page: 2, line: 2 }],
      );
      const page = expectOk(await call(session, 'read_file', { file_name: 'docs/two.pdf', pages: '2' }));
      assert.equal((page.content as string).split('\n')[2], '你好，世界 needle');
      const item = expectOk(await call(session, 'read_file', { file_name: 'docs/report.docx', start_line: 3, end_line: 3 }));
      assert.equal(item.content, '- needle item\n');
    });

    it('pages through document matches with offset, context from the same page, and file_pattern', async function () {
      const first = await search({ query: ' l5 ', documents: true, path: 'big', max_results: 15 });
      assert.equal(first.data.truncated, true);
      assert.equal(first.data.next_offset, 15);
      assert.deepEqual(
        first.matches.map((match) => match.page),
        Array.from({ length: 15 }, (_item, index) => index + 1),
      );
      const rest = await search({ query: ' l5 ', documents: true, path: 'big', offset: 15, max_results: 100 });
      assert.deepEqual(
        rest.matches.map((match) => match.page),
        Array.from({ length: 25 }, (_item, index) => index + 16),
      );
      const context = await search({ query: 'p3 l1 ', documents: true, path: 'big', context_lines: 1 });
      assert.deepEqual(context.matches[0]?.before, []);
      assert.deepEqual(context.matches[0]?.after, ['p3 l2 the quick brown fox jumps over the lazy dog again']);
      const pattern = await search({ query: 'needle', documents: true, file_pattern: '**/*.docx' });
      assert.deepEqual([...new Set(pattern.matches.map((match) => match.path))], ['docs/report.docx']);
    });
  });
}
