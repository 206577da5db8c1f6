/**
 * PDF and Word files in the editor: pdf.js and mammoth run inside the extension host's bundle, so a PDF and a .docx
 * are read as text and found by search_content there too, and a locked PDF is refused with its reason.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { makeDocx, makePdf, word } from '../../shared/documents';
import { callTool, expectError, expectOk, scratch } from '../helpers';

describe('PDF and Word documents (read_file, search_content)', () => {
  it('reads a 2-page PDF by pages and a .docx as text, finds both, and refuses a locked PDF', async () => {
    const s = scratch('documents');
    fs.writeFileSync(s.abs('two.pdf'), makePdf([['Hello Marmot'], ['Γειά σου, Marmot']]));
    fs.writeFileSync(s.abs('locked.pdf'), makePdf([['secret']], { encrypted: true }));
    fs.writeFileSync(s.abs('notes.docx'), await makeDocx(word.paragraph('Findings', 'Heading1') + word.paragraph('The Marmot sleeps.')));
    const pdf = expectOk(await callTool('read_file', { file_name: s.rel('two.pdf') })).data;
    assert.equal(pdf.total_pages, 2);
    assert.match(String(pdf.content), /--- page 1 ---\nHello Marmot\n[\s\S]*--- page 2 ---\nΓειά σου, Marmot/);
    const second = expectOk(await callTool('read_file', { file_name: s.rel('two.pdf'), pages: '2' })).data;
    assert.doesNotMatch(String(second.content), /Hello/);
    const docx = expectOk(await callTool('read_file', { file_name: s.rel('notes.docx') })).data;
    assert.equal(docx.content, '# Findings\nThe Marmot sleeps.\n');
    const found = expectOk(await callTool('search_content', { query: 'marmot', path: s.rel(), documents: true })).data;
    const where = (found.matches as { path: string; page?: number }[]).map((match) => [match.path, match.page ?? null]);
    assert.deepEqual(where, [
      [s.rel('notes.docx'), null],
      [s.rel('two.pdf'), 1],
      [s.rel('two.pdf'), 2],
    ]);
    const plain = expectOk(await callTool('search_content', { query: 'marmot', path: s.rel() })).data;
    assert.deepEqual(plain.matches, [], 'without documents: true they are skipped as binary');
    const locked = expectError(await callTool('read_file', { file_name: s.rel('locked.pdf') }), 'DOCUMENT_UNREADABLE');
    assert.equal(locked.error.details?.reason, 'encrypted');
  });
});
