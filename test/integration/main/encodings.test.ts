/**
 * Encodings in the real editor: the tools read a file in the encoding the editor would (files.encoding per folder and
 * per language, files.autoGuessEncoding, an open document's encoding) and decode it as the editor does, and every
 * encoding VS Code lists reads faithfully and writes back byte for byte (test/shared/encodingCorpus.ts). Each check
 * compares with VS Code's own answer: workspace.decode, and the document openTextDocument gives.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { corpusLines, encodeAs, encodingCorpus } from '../../shared/encodingCorpus';
import { callTool, expectError, expectOk, scratch, withSetting } from '../helpers';

const SHIPPED: Readonly<Record<string, string>> = { utf8: 'utf-8', utf16le: 'utf-16le', utf16be: 'utf-16be', iso88591: 'latin1' };
const named = (encoding: string): string => SHIPPED[encoding] ?? encoding;

/** Sets `files.<key>` in the workspace settings (for one language when given) for the duration of `body`. */
async function withFilesSetting<T>(key: string, value: unknown, body: () => Promise<T>, languageId?: string): Promise<T> {
  const configuration = vscode.workspace.getConfiguration('files', languageId ? { languageId } : undefined);
  await configuration.update(key, value, vscode.ConfigurationTarget.Workspace, languageId !== undefined);
  try {
    return await body();
  } finally {
    await vscode.workspace
      .getConfiguration('files', languageId ? { languageId } : undefined)
      .update(key, undefined, vscode.ConfigurationTarget.Workspace, languageId !== undefined);
  }
}

function text(encoding: string, eol = '\n'): string {
  return corpusLines(encoding).join(eol) + eol;
}

describe('encodings in the editor', function () {
  this.timeout(180_000);

  it('every encoding VS Code lists: read as VS Code decodes it, written back byte for byte, an edit changes only its line', async () => {
    const files = encodingCorpus().filter((file) => file.newlines !== 'mixed');
    const s = scratch('corpus');
    // Some 180 writes: each would open its file and wait for the language services (problems after an edit, tested
    // on its own), which is not what this test is about.
    await withSetting('problemsAfterEdits', 'off', async () => {
      for (const file of files) {
        fs.writeFileSync(s.abs(file.name), file.bytes);
        const read = expectOk(await callTool('read_file', { file_name: s.rel(file.name), encoding: file.encoding })).data;
        assert.equal(read.content, file.text, file.name);
        // VS Code takes BOM-less UTF-16 with these zero bytes for binary and will not decode it even when named.
        if (!/^utf16/.test(file.encoding) || file.bom) {
          assert.equal(
            read.content,
            await vscode.workspace.decode(file.bytes, { encoding: file.encoding }),
            `${file.name}: as VS Code decodes it`,
          );
        }
        assert.equal(read.encoding, named(file.encoding));
        assert.equal(read.bom, file.bom);
        expectOk(
          await callTool('write_file', {
            file_name: s.rel(file.name),
            content: read.content,
            expected_hash: read.content_hash,
            encoding: file.encoding,
          }),
        );
        assert.deepEqual(fs.readFileSync(s.abs(file.name)), Buffer.from(file.bytes), `${file.name} written back unchanged`);
        expectOk(
          await callTool('edit_file', {
            path: s.rel(file.name),
            old_string: 'first line, plain ASCII',
            new_string: 'first line, edited',
            encoding: file.encoding,
          }),
        );
        assert.deepEqual(
          fs.readFileSync(s.abs(file.name)),
          Buffer.from(encodeAs(file.text.replace('first line, plain ASCII', 'first line, edited'), file.encoding, file.bom)),
          file.name,
        );
      }
    });
  });

  it('files.encoding set for the folder decides a file without a BOM; the editor opens it in the same encoding', async () => {
    const s = scratch('folder-encoding');
    const content = text('shiftjis', '\r\n');
    fs.writeFileSync(s.abs('notes.txt'), encodeAs(content, 'shiftjis', false));
    await withFilesSetting('encoding', 'shiftjis', async () => {
      const read = expectOk(await callTool('read_file', { file_name: s.rel('notes.txt') })).data;
      assert.equal(read.content, content);
      assert.equal(read.encoding, 'shiftjis');
      assert.equal(expectOk(await callTool('file_info', { path: s.rel('notes.txt') })).data.encoding, 'shiftjis');
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(s.abs('notes.txt')));
      assert.equal(document.encoding, 'shiftjis');
      assert.equal(document.getText(), read.content);
      // A new file gets the setting's encoding too.
      expectOk(await callTool('create_file', { path: s.rel('new.txt'), content: 'ファイル\n' }));
      assert.deepEqual(fs.readFileSync(s.abs('new.txt')), Buffer.from(encodeAs('ファイル\n', 'shiftjis', false)));
    });
  });

  it('files.encoding set for one language decides that language only', async () => {
    const s = scratch('language-encoding');
    fs.writeFileSync(s.abs('readme.md'), encodeAs(text('windows1251'), 'windows1251', false));
    fs.writeFileSync(s.abs('plain.txt'), encodeAs(text('koi8r'), 'koi8r', false));
    await withFilesSetting('encoding', 'koi8r', async () => {
      await withFilesSetting(
        'encoding',
        'windows1251',
        async () => {
          const markdown = expectOk(await callTool('read_file', { file_name: s.rel('readme.md') })).data;
          assert.equal(markdown.content, text('windows1251'));
          assert.equal(markdown.encoding, 'windows1251');
          const plain = expectOk(await callTool('read_file', { file_name: s.rel('plain.txt') })).data;
          assert.equal(plain.content, text('koi8r'));
          assert.equal(plain.encoding, 'koi8r');
          expectOk(await callTool('replace_lines', { path: s.rel('readme.md'), start_line: 1, end_line: 1, content: 'первая строка\n' }));
          const lines = text('windows1251').split('\n');
          lines[0] = 'первая строка';
          assert.deepEqual(fs.readFileSync(s.abs('readme.md')), Buffer.from(encodeAs(lines.join('\n'), 'windows1251', false)));
        },
        'markdown',
      );
    });
  });

  it('files.autoGuessEncoding guesses as the editor guesses; without it, undecodable bytes are refused, never U+FFFD', async () => {
    const s = scratch('guess');
    const korean = text('euckr');
    fs.writeFileSync(s.abs('korean.txt'), encodeAs(korean, 'euckr', false));
    const refused = expectError(await callTool('read_file', { file_name: s.rel('korean.txt') }), 'ENCODING_MISMATCH');
    assert.equal(refused.error.details?.suggested_encoding, 'euckr');
    assert.match(refused.error.message, /files\.encoding/);
    await withFilesSetting('autoGuessEncoding', true, async () => {
      const read = expectOk(await callTool('read_file', { file_name: s.rel('korean.txt') })).data;
      assert.equal(read.content, korean);
      assert.equal(read.encoding, 'euckr');
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(s.abs('korean.txt')));
      assert.equal(document.encoding, 'euckr', 'the editor guesses the same');
      expectOk(await callTool('edit_file', { path: s.rel('korean.txt'), old_string: 'last line', new_string: '마지막 줄' }));
      assert.deepEqual(
        fs.readFileSync(s.abs('korean.txt')),
        Buffer.from(encodeAs(korean.replace('last line', '마지막 줄'), 'euckr', false)),
      );
    });
  });

  it('a document open in another encoding is read in that one, as the editor shows and saves it', async () => {
    const s = scratch('open-encoding');
    const central = text('windows1250');
    fs.writeFileSync(s.abs('cz.txt'), encodeAs(central, 'windows1250', false));
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(s.abs('cz.txt')), { encoding: 'windows1250' });
    assert.equal(document.encoding, 'windows1250');
    const read = expectOk(await callTool('read_file', { file_name: s.rel('cz.txt') })).data;
    assert.equal(read.encoding, 'windows1250');
    assert.equal(read.content, document.getText());
  });

  it('a character the file encoding cannot hold is refused, naming it, and nothing is written', async () => {
    const s = scratch('unencodable');
    const bytes = encodeAs(text('windows1252'), 'windows1252', false);
    fs.writeFileSync(s.abs('w.txt'), bytes);
    const refused = expectError(
      await callTool('edit_file', { path: s.rel('w.txt'), old_string: 'last line', new_string: 'последняя', encoding: 'windows1252' }),
      'INVALID_INPUT',
    );
    assert.match(refused.error.message, /U\+043F/);
    assert.deepEqual(fs.readFileSync(s.abs('w.txt')), Buffer.from(bytes));
  });

  it('a file above the in-memory limit is edited by streaming on the local disk', async () => {
    const s = scratch('large');
    const line = (index: number): string => `line ${String(index).padStart(7, '0')} of a large file in the workspace\n`;
    const lines = Array.from({ length: 300_000 }, (_, index) => line(index + 1));
    fs.writeFileSync(s.abs('big.log'), lines.join(''));
    assert.ok(fs.statSync(s.abs('big.log')).size > 10 * 1024 * 1024);
    expectOk(
      await callTool('replace_lines', {
        path: s.rel('big.log'),
        start_line: 150_000,
        end_line: 150_000,
        content: 'replaced in the editor\n',
      }),
    );
    lines[149_999] = 'replaced in the editor\n';
    assert.equal(fs.readFileSync(s.abs('big.log'), 'utf8'), lines.join(''));
  });

  it('a UTF-16 file above the in-memory limit is read in part and edited by streaming too', async () => {
    const s = scratch('large-utf16');
    // U+0A00 U+3000 holds the bytes of a newline one byte off: it must not split a line.
    const line = (index: number): string => `line ${String(index).padStart(7, '0')} \u0a00\u3000 of a UTF-16 file\r\n`;
    const lines = Array.from({ length: 200_000 }, (_, index) => line(index + 1));
    const encode = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    fs.writeFileSync(s.abs('big.txt'), encode(lines.join('')));
    assert.ok(fs.statSync(s.abs('big.txt')).size > 10 * 1024 * 1024);
    const read = expectOk(await callTool('read_file', { file_name: s.rel('big.txt'), start_line: 75_000, end_line: 75_001 })).data;
    assert.equal(read.content, lines.slice(74_999, 75_001).join(''));
    assert.deepEqual([read.encoding, read.bom, read.newline], ['utf-16le', true, 'crlf']);
    const edited = expectOk(
      await callTool('replace_lines', {
        path: s.rel('big.txt'),
        start_line: 100_000,
        end_line: 100_000,
        content: 'replaced \u0a00\u3000 here\n',
      }),
    ).data;
    assert.deepEqual([edited.encoding, edited.newline, edited.total_lines], ['utf-16le', 'crlf', 200_000]);
    lines[99_999] = 'replaced \u0a00\u3000 here\r\n';
    assert.ok(
      fs.readFileSync(s.abs('big.txt')).equals(encode(lines.join(''))),
      'the line replaced, its ending kept, every other byte as it was',
    );
  });
});
