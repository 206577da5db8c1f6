/**
 * The model-shaped sequence over the MCP server, as a client does it: read_file with default arguments, one ASCII
 * line changed, write_file back with the expected_hash the read gave — on files in the encodings people's
 * repositories hold, found by the server's detection (guessing on, as it starts without flags). Checked on the
 * bytes on disk.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { corpusLines, encodeAs } from '../../shared/encodingCorpus';
import { expectOk, removeTree } from '../helpers';
import { buildOnce, serve, type Served, tempLayout } from './serve';

const FILES: readonly { encoding: string; bom: boolean; eol: string }[] = [
  { encoding: 'utf8', bom: true, eol: '\r\n' },
  { encoding: 'utf16le', bom: true, eol: '\r\n' },
  { encoding: 'windows1252', bom: false, eol: '\r\n' },
  { encoding: 'shiftjis', bom: false, eol: '\n' },
  { encoding: 'eucjp', bom: false, eol: '\n' },
  { encoding: 'gbk', bom: false, eol: '\n' },
  { encoding: 'cp950', bom: false, eol: '\r\n' },
  { encoding: 'euckr', bom: false, eol: '\n' },
  { encoding: 'koi8r', bom: false, eol: '\n' },
  { encoding: 'windows1251', bom: false, eol: '\r\n' },
];

describe('MCP server: files in their encodings read faithfully and written back byte for byte', function () {
  let layout: ReturnType<typeof tempLayout>;
  let server: Served;
  before(async function () {
    buildOnce();
    layout = tempLayout('agentfs-mcp-enc-');
    server = await serve(['--root', layout.base, '--state', layout.state]);
  });
  after(async function () {
    await server.close();
    removeTree(layout.tmp);
  });

  for (const file of FILES) {
    it(`${file.encoding}${file.bom ? ' with a BOM' : ''}: read, one line changed, written back`, async function () {
      const text = corpusLines(file.encoding).join(file.eol) + file.eol;
      const name = `${file.encoding}.txt`;
      fs.writeFileSync(path.join(layout.base, name), encodeAs(text, file.encoding, file.bom));
      const read = expectOk((await server.call('read_file', { file_name: name })).envelope);
      assert.equal(read.content, text);
      const edited = text.replace('last line, plain ASCII', 'last line, written back');
      expectOk((await server.call('write_file', { file_name: name, content: edited, expected_hash: read.content_hash })).envelope);
      assert.deepEqual(fs.readFileSync(path.join(layout.base, name)), Buffer.from(encodeAs(edited, file.encoding, file.bom)));
    });
  }
});
