/**
 * Byte-exact round trips: writing back what was read changes no byte, and an edit changes only
 * the bytes it names, for LF, CRLF, mixed endings, UTF-8 with and without BOM, UTF-16 LE with BOM, Latin-1 (named)
 * and a file without a trailing newline. Every assertion compares the bytes on disk.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeText, encodeText, type TextEncodingName } from '../../src/core/text';
import { call, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

interface Sample {
  readonly name: string;
  readonly encoding: TextEncodingName;
  readonly bom: boolean;
  /** The text as a model sees it (no BOM character). */
  readonly text: string;
  /** Pass encoding explicitly (a file whose encoding cannot be detected). */
  readonly named?: boolean;
}

const SAMPLES: readonly Sample[] = [
  { name: 'lf.txt', encoding: 'utf-8', bom: false, text: 'alpha\nbeta ✓\ngamma\n' },
  { name: 'crlf.txt', encoding: 'utf-8', bom: false, text: 'alpha\r\nbeta ✓\r\ngamma\r\n' },
  { name: 'mixed.txt', encoding: 'utf-8', bom: false, text: 'alpha\r\nbeta ✓\ngamma\r\ndelta\n' },
  { name: 'bom.txt', encoding: 'utf-8', bom: true, text: 'alpha\nbeta ✓\ngamma\n' },
  { name: 'utf16.txt', encoding: 'utf-16le', bom: true, text: 'alpha\r\nbeta ✓ 𝄞\r\ngamma\r\n' },
  { name: 'latin1.txt', encoding: 'latin1', bom: false, text: 'alpha\nbeta café\ngamma\n', named: true },
  { name: 'no-eol.txt', encoding: 'utf-8', bom: false, text: 'alpha\nbeta ✓\ngamma' },
];

function bytesOf(sample: Sample, text = sample.text): Buffer {
  return Buffer.from(encodeText(text, sample.encoding, sample.bom));
}

describe('byte-exact round trips', function () {
  let ws: TempWorkspace;
  const disk = (name: string): Buffer => fs.readFileSync(path.join(ws.base, name));
  beforeEach(function () {
    ws = tempWorkspace();
    for (const sample of SAMPLES) fs.writeFileSync(path.join(ws.base, sample.name), bytesOf(sample));
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('the samples are what they claim (sanity check of the fixture)', function () {
    for (const sample of SAMPLES) {
      const decoded = decodeText(disk(sample.name), sample.named ? sample.encoding : undefined);
      assert.equal(decoded.text, sample.text, sample.name);
      assert.equal(decoded.bom, sample.bom, sample.name);
    }
    // 'é' as the single byte 0xE9, which is not valid UTF-8: the file cannot be mistaken for UTF-8.
    assert.equal(disk('latin1.txt')[14], 0xe9);
    assert.throws(() => new TextDecoder('utf-8', { fatal: true }).decode(disk('latin1.txt')));
  });

  for (const sample of SAMPLES) {
    const encoding = sample.named ? { encoding: sample.encoding } : {};
    describe(sample.name, function () {
      it('write_file with the text read back writes the same bytes', async function () {
        const data = expectOk(await call(ws.session, 'write_file', { file_name: sample.name, content: sample.text, ...encoding }));
        assert.deepEqual(disk(sample.name), bytesOf(sample));
        assert.equal(data.encoding, sample.encoding);
        assert.equal(data.bom, sample.bom);
      });

      if (sample.bom) {
        it('write_file with the BOM character at the start (as read_file returns it) writes one BOM, not two', async function () {
          expectOk(await call(ws.session, 'write_file', { file_name: sample.name, content: `\uFEFF${sample.text}`, ...encoding }));
          assert.deepEqual(disk(sample.name), bytesOf(sample));
        });
      }

      it('edit_file changes only the replaced bytes', async function () {
        const data = expectOk(
          await call(ws.session, 'edit_file', { path: sample.name, old_string: 'beta', new_string: 'BETA', ...encoding }),
        );
        assert.equal(data.stage, 'exact');
        assert.deepEqual(disk(sample.name), bytesOf(sample, sample.text.replace('beta', 'BETA')));
      });

      it('replace_lines, insert_lines and delete_lines keep every other byte and the line-ending style', async function () {
        const eol = sample.text.includes('\r\n') ? '\r\n' : '\n';
        expectOk(await call(ws.session, 'replace_lines', { path: sample.name, start_line: 1, end_line: 1, content: 'ALPHA', ...encoding }));
        let expected = sample.text.replace('alpha', 'ALPHA');
        assert.deepEqual(disk(sample.name), bytesOf(sample, expected));
        expectOk(
          await call(ws.session, 'insert_lines', { path: sample.name, position: 'after', line: 1, content: 'inserted\n', ...encoding }),
        );
        expected = expected.replace(`ALPHA${eol}`, `ALPHA${eol}inserted${eol}`);
        assert.deepEqual(disk(sample.name), bytesOf(sample, expected));
        expectOk(await call(ws.session, 'delete_lines', { path: sample.name, start_line: 2, end_line: 2, ...encoding }));
        assert.deepEqual(disk(sample.name), bytesOf(sample, sample.text.replace('alpha', 'ALPHA')));
      });

      it('apply_patch changes only the patched line', async function () {
        // The patch is written with LF as a model writes it; a CRLF file keeps its CRLF.
        const lines = sample.text.split(/\r?\n/);
        const patch = `--- a/${sample.name}\n+++ b/${sample.name}\n@@ -1,3 +1,3 @@\n ${lines[0]}\n-${lines[1]}\n+${lines[1]?.toUpperCase()}\n ${lines[2]}\n${sample.text.endsWith('gamma') ? '\\ No newline at end of file\n' : ''}`;
        if (sample.named) {
          // apply_patch takes no encoding: a file that is not valid UTF-8 without a BOM is refused, untouched.
          expectError(await call(ws.session, 'apply_patch', { patch }), 'BINARY_CONTENT_REFUSED');
          assert.deepEqual(disk(sample.name), bytesOf(sample));
          return;
        }
        expectOk(await call(ws.session, 'apply_patch', { patch }));
        assert.deepEqual(disk(sample.name), bytesOf(sample, sample.text.replace(lines[1] ?? '', lines[1]?.toUpperCase() ?? '')));
      });
    });
  }

  it('a Latin-1 file is refused by the edit tools unless its encoding is named, and left untouched', async function () {
    const before = disk('latin1.txt');
    const error = expectError(
      await call(ws.session, 'edit_file', { path: 'latin1.txt', old_string: 'beta', new_string: 'BETA' }),
      'BINARY_CONTENT_REFUSED',
    );
    assert.match(error.message, /encoding/);
    expectError(
      await call(ws.session, 'replace_lines', { path: 'latin1.txt', start_line: 1, end_line: 1, content: 'x' }),
      'BINARY_CONTENT_REFUSED',
    );
    assert.deepEqual(disk('latin1.txt'), before);
  });

  it('a character Latin-1 cannot hold is refused with INVALID_INPUT, nothing written', async function () {
    const before = disk('latin1.txt');
    expectError(
      await call(ws.session, 'edit_file', { path: 'latin1.txt', old_string: 'beta', new_string: 'β', encoding: 'latin1' }),
      'INVALID_INPUT',
    );
    assert.deepEqual(disk('latin1.txt'), before);
  });

  it('write_file keeps an existing CRLF file CRLF when the model sends LF, unless newline is named', async function () {
    expectOk(await call(ws.session, 'write_file', { file_name: 'crlf.txt', content: 'one\ntwo\n' }));
    assert.equal(disk('crlf.txt').toString('utf8'), 'one\r\ntwo\r\n');
    expectOk(await call(ws.session, 'write_file', { file_name: 'crlf.txt', content: 'one\ntwo\n', newline: 'lf' }));
    assert.equal(disk('crlf.txt').toString('utf8'), 'one\ntwo\n');
  });

  it('write_file keeps UTF-16 LE with its BOM, and converts when another encoding is named', async function () {
    expectOk(await call(ws.session, 'write_file', { file_name: 'utf16.txt', content: 'new ✓\r\n' }));
    assert.deepEqual(disk('utf16.txt'), Buffer.from(encodeText('new ✓\r\n', 'utf-16le', true)));
    const data = expectOk(await call(ws.session, 'write_file', { file_name: 'utf16.txt', content: 'new ✓\r\n', encoding: 'utf-8' }));
    assert.deepEqual(disk('utf16.txt'), Buffer.from('new ✓\r\n', 'utf8'));
    assert.equal(data.bom, false);
  });

  it('a new file is written as given: UTF-8, no BOM, line endings untouched', async function () {
    expectOk(await call(ws.session, 'write_file', { file_name: 'new.txt', content: 'a\r\nb\nc' }));
    assert.deepEqual(disk('new.txt'), Buffer.from('a\r\nb\nc', 'utf8'));
    expectOk(await call(ws.session, 'create_file', { path: 'made.txt', content: '\uFEFFx\n' }));
    assert.deepEqual(disk('made.txt'), Buffer.from([0xef, 0xbb, 0xbf, 0x78, 0x0a]));
    expectOk(await call(ws.session, 'create_file', { path: 'made16.txt', content: 'x', encoding: 'utf-16le' }));
    assert.deepEqual(disk('made16.txt'), Buffer.from([0xff, 0xfe, 0x78, 0x00]));
  });

  it('binary files are refused by the edit tools, untouched', async function () {
    fs.writeFileSync(path.join(ws.base, 'blob.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x0a]));
    const before = disk('blob.bin');
    expectError(await call(ws.session, 'edit_file', { path: 'blob.bin', old_string: 'P', new_string: 'Q' }), 'BINARY_CONTENT_REFUSED');
    expectError(await call(ws.session, 'insert_lines', { path: 'blob.bin', position: 'end', content: 'x' }), 'BINARY_CONTENT_REFUSED');
    assert.deepEqual(disk('blob.bin'), before);
  });
});
