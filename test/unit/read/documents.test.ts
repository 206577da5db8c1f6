/**
 * read_file of PDF and Word files: a PDF's text page by page (`pages`, `next_page`) and a Word file's as Markdown-like
 * lines (start_line, next_start_line), both within the byte budget, and DOCUMENT_UNREADABLE for encrypted, damaged
 * and textless files. The files are built by the tests (test/shared/documents.ts); the disk is checked unchanged.
 */
import * as assert from 'node:assert/strict';
import type { Envelope } from '../../../src/core/envelope';
import { assertFields, assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from '../helpers';
import { makeDocx, makeEncryptedDocx, makePdf, manyPages, word } from '../../shared/documents';

const replyBytes = (envelope: Envelope): number => Buffer.byteLength(JSON.stringify(envelope));

describe('read_file: PDF and Word documents', function () {
  let ws: TempWorkspace;
  before(async function () {
    ws = tempWorkspace();
    const good = makePdf([
      ['Hello world', 'Second line'],
      ['Γειά σου κόσμε', '你好，世界'],
    ]);
    ws.write({
      'two.pdf': good,
      'book.pdf': makePdf(manyPages(300)),
      'locked.pdf': makePdf([['secret']], { encrypted: true }),
      'damaged.pdf': Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300, 0x41), Buffer.from('\n%%EOF\n')]),
      'scan.pdf': makePdf([[], []]),
      'notes.txt': 'plain\n',
      'report.docx': await makeDocx(
        word.paragraph('Quarterly report', 'Heading1') +
          word.paragraph('Sales grew in Αθήνα and 東京.') +
          word.paragraph('Regions', 'Heading2') +
          word.item('north', 1) +
          word.item('south', 1) +
          word.item('coast', 1, 1) +
          word.item('first step', 2) +
          word.item('second step', 2) +
          word.table([
            ['Region', 'Total'],
            ['North', '12|3'],
          ]),
      ),
      'locked.docx': makeEncryptedDocx(),
      'damaged.docx': (await makeDocx(word.paragraph('cut short'))).subarray(0, 200),
      'empty.docx': await makeDocx(word.paragraph('')),
    });
  });
  after(function () {
    ws.cleanup();
  });

  const read = (input: Record<string, unknown>): Promise<Envelope> => call(ws.session, 'read_file', input);

  it('reads a PDF page by page, each page marked, Greek and Chinese included, and changes nothing', async function () {
    const before = ws.snap();
    const envelope = await read({ file_name: 'two.pdf' });
    const data = expectOk(envelope, 'read_file');
    assert.deepEqual(data, {
      file_name: 'two.pdf',
      relative_path: 'two.pdf',
      size_bytes: data.size_bytes,
      document: 'pdf',
      content: '--- page 1 ---\nHello world\nSecond line\n--- page 2 ---\nΓειά σου κόσμε\n你好，世界\n',
      total_pages: 2,
      start_page: 1,
      end_page: 2,
      truncated: false,
      truncation_reason: null,
      next_page: null,
    });
    assert.ok(replyBytes(envelope) < 1024);
    assertFields(expectOk(await read({ file_name: 'two.pdf', pages: '2' })), {
      content: '--- page 2 ---\nΓειά σου κόσμε\n你好，世界\n',
      start_page: 2,
      end_page: 2,
    });
    assertFields(expectOk(await read({ file_name: 'two.pdf', pages: '2-' })), { start_page: 2, end_page: 2, truncated: false });
    assertTree(ws.snap(), before);
  });

  it('cuts a 300-page PDF within the default budget, under 32 KB, and goes on from next_page', async function () {
    const first = await read({ file_name: 'book.pdf' });
    const data = expectOk(first);
    assertFields(data, { total_pages: 300, start_page: 1, truncated: true, truncation_reason: 'max_bytes' });
    const end = data.end_page as number;
    assert.ok(end > 5 && end < 300, `end_page ${end}`);
    assert.equal(data.next_page, end + 1);
    assert.ok(Buffer.byteLength(data.content as string) <= 20 * 1024);
    assert.ok(replyBytes(first) < 32 * 1024, `reply of ${replyBytes(first)} bytes`);
    assert.match(data.content as string, new RegExp(`--- page ${end} ---\\np${end} l1 the quick`));

    const next = expectOk(await read({ file_name: 'book.pdf', pages: `${end + 1}-` }));
    assert.equal(next.start_page, end + 1);
    assert.ok((next.content as string).startsWith(`--- page ${end + 1} ---\np${end + 1} l1 `));

    const last = expectOk(await read({ file_name: 'book.pdf', pages: '299-300' }));
    assertFields(last, { start_page: 299, end_page: 300, truncated: false, next_page: null });
  });

  it('cuts a page longer than max_bytes at a character boundary, and says so', async function () {
    const data = expectOk(await read({ file_name: 'two.pdf', pages: '2', max_bytes: 30 }));
    assertFields(data, { start_page: 2, end_page: 2, truncated: true, truncation_reason: 'page_too_long', next_page: null });
    const content = data.content as string;
    assert.ok(Buffer.byteLength(content) <= 30);
    assert.ok('--- page 2 ---\nΓειά σου κόσμε\n'.startsWith(content), JSON.stringify(content));
    assertFields(expectOk(await read({ file_name: 'two.pdf', max_bytes: 40 })), {
      end_page: 1,
      truncated: true,
      truncation_reason: 'max_bytes',
      next_page: 2,
    });
  });

  it('refuses page ranges that name no pages, line parameters on a PDF and pages elsewhere (INVALID_INPUT)', async function () {
    for (const pages of ['x', '0', '5-3', '1,2', ''])
      assert.deepEqual(expectError(await read({ file_name: 'two.pdf', pages }), 'INVALID_INPUT').details, { field: 'pages' }, pages);
    const past = expectError(await read({ file_name: 'two.pdf', pages: '3' }), 'INVALID_INPUT');
    assert.deepEqual(past.details, { field: 'pages', total_pages: 2 });
    assert.deepEqual(expectError(await read({ file_name: 'two.pdf', start_line: 2 }), 'INVALID_INPUT').details, { field: 'start_line' });
    assert.deepEqual(expectError(await read({ file_name: 'notes.txt', pages: '1' }), 'INVALID_INPUT').details, { field: 'pages' });
    assert.deepEqual(expectError(await read({ file_name: 'report.docx', pages: '1' }), 'INVALID_INPUT').details, { field: 'pages' });
  });

  it('answers DOCUMENT_UNREADABLE for an encrypted, a damaged and a textless PDF, with details.reason', async function () {
    const locked = expectError(await read({ file_name: 'locked.pdf' }), 'DOCUMENT_UNREADABLE');
    assert.deepEqual(locked.details, { reason: 'encrypted' });
    assert.match(locked.message, /locked\.pdf is encrypted/);
    assert.deepEqual(expectError(await read({ file_name: 'damaged.pdf' }), 'DOCUMENT_UNREADABLE').details, { reason: 'damaged' });
    const scan = expectError(await read({ file_name: 'scan.pdf' }), 'DOCUMENT_UNREADABLE');
    assert.deepEqual(scan.details, { reason: 'no_text' });
    assert.match(scan.message, /no text on pages 1–2 of 2/);
  });

  it('reads a named encoding as the bytes, as before documents were read', async function () {
    const data = expectOk(await read({ file_name: 'damaged.pdf', encoding: 'latin1' }));
    assert.ok((data.content as string).startsWith('%PDF-1.7\nAAAA'));
    assert.equal(data.encoding, 'latin1');
  });

  it('reads a Word file as Markdown-like lines: headings, lists, tables, Greek and Japanese', async function () {
    const envelope = await read({ file_name: 'report.docx' });
    const data = expectOk(envelope);
    assert.equal(
      data.content,
      [
        '# Quarterly report',
        'Sales grew in Αθήνα and 東京.',
        '## Regions',
        '- north',
        '- south',
        '  - coast',
        '1. first step',
        '2. second step',
        '| Region | Total |',
        '| --- | --- |',
        '| North | 12\\|3 |',
        '',
      ].join('\n'),
    );
    assertFields(data, {
      document: 'docx',
      total_lines: 11,
      start_line: 1,
      end_line: 11,
      truncated: false,
      truncation_reason: null,
      next_start_line: null,
    });
    assert.ok(replyBytes(envelope) < 1024);
  });

  it('cuts a Word file by lines within max_bytes and goes on from next_start_line; tail_lines reads the end', async function () {
    const first = expectOk(await read({ file_name: 'report.docx', max_bytes: 60 }));
    // The first two lines are 56 bytes of UTF-8 (Greek letters take two, Japanese three); the third would not fit.
    assertFields(first, { start_line: 1, end_line: 2, truncated: true, truncation_reason: 'max_bytes', next_start_line: 3 });
    const rest = expectOk(await read({ file_name: 'report.docx', start_line: 3, end_line: 5 }));
    assertFields(rest, { content: '## Regions\n- north\n- south\n', start_line: 3, end_line: 5 });
    assertFields(expectOk(await read({ file_name: 'report.docx', tail_lines: 1 })), {
      content: '| North | 12\\|3 |\n',
      start_line: 11,
      end_line: 11,
    });
  });

  it('answers DOCUMENT_UNREADABLE for an encrypted, a damaged and an empty Word file', async function () {
    assert.deepEqual(expectError(await read({ file_name: 'locked.docx' }), 'DOCUMENT_UNREADABLE').details, { reason: 'encrypted' });
    assert.deepEqual(expectError(await read({ file_name: 'damaged.docx' }), 'DOCUMENT_UNREADABLE').details, { reason: 'damaged' });
    assert.deepEqual(expectError(await read({ file_name: 'empty.docx' }), 'DOCUMENT_UNREADABLE').details, { reason: 'no_text' });
  });
});
