/**
 * Every file as it is, in every encoding VS Code knows (test/shared/encodingCorpus.ts): a read gives the text that was
 * written and names its encoding; writing it back changes no byte; write_file, edit_file, each line tool and
 * apply_patch leave exactly the bytes expected, also when the file is streamed (as files above the in-memory limit
 * are); a character the encoding cannot hold is refused and nothing changes. Then the model's most ordinary sequence
 * (read, change a line, write back with expected_hash) on the fourteen encodings people's repositories hold, found
 * by detection alone as the runner finds them.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flagEncodingHost } from '../../src/core/encoding/host';
import { type EncodingId, encodingNamed, publicName } from '../../src/core/encoding/names';
import type { Session } from '../../src/core/invoke';
import { createNodeSession } from '../../src/node/host/session';
import { type CorpusFile, corpusLines, encodeAs, encodingCorpus } from '../shared/encodingCorpus';
import { call, expectError, expectOk, makeTempDir, removeTree } from './helpers';
import { ripgrepForTests } from './search/ripgrep';

const CORPUS = encodingCorpus();

function session(base: string, encoding: string, options: { guess?: boolean; stream?: boolean } = {}): Session {
  const id = encodingNamed(encoding) ?? 'utf8';
  return createNodeSession(base, options.stream ? { editInMemoryBytes: 0 } : {}, {
    encodings: flagEncodingHost({ default: id, guess: options.guess ?? false, candidates: [] }, '--encoding'),
  });
}

/** The text with one line (0-based) replaced, its line ending kept. */
function withLine(text: string, index: number, line: string): string {
  const lines = text.split(/(?<=\n)/);
  const old = lines[index] ?? '';
  lines[index] = line + (/\r?\n$/.exec(old)?.[0] ?? '');
  return lines.join('');
}

function eolOf(text: string, index: number): string {
  return /\r?\n$/.exec(text.split(/(?<=\n)/)[index] ?? '')?.[0] ?? '';
}

/** What each tool is asked, and the text it must leave. */
function cases(file: CorpusFile): { tool: string; input: Record<string, unknown>; expected: string }[] {
  const lines = corpusLines(file.encoding);
  const scriptLine = lines[1] ?? '';
  // The line's characters backwards: the same characters (so the encoding holds them), another text.
  const turned = [...scriptLine].reverse().join('');
  const patchEol = file.newlines === 'mixed' ? '\n' : file.newlines === 'crlf' ? '\r\n' : '\n';
  const last = lines.length - 1;
  return [
    {
      tool: 'edit_file',
      input: { old_string: 'first line, plain ASCII', new_string: 'FIRST LINE, EDITED' },
      expected: withLine(file.text, 0, 'FIRST LINE, EDITED'),
    },
    { tool: 'edit_file', input: { old_string: scriptLine, new_string: turned }, expected: withLine(file.text, 1, turned) },
    {
      tool: 'edit_file',
      input: {
        edits: [
          { old_string: 'first line', new_string: 'line one' },
          { old_string: 'last line', new_string: 'final line' },
        ],
      },
      expected: file.text.replace('first line', 'line one').replace('last line', 'final line'),
    },
    {
      tool: 'replace_lines',
      input: { start_line: 2, end_line: 2, content: 'replaced line\n' },
      expected: withLine(file.text, 1, 'replaced line'),
    },
    {
      tool: 'insert_lines',
      input: { position: 'after', line: 1, content: `inserted ${turned}\n` },
      expected: (() => {
        const lines = file.text.split(/(?<=\n)/);
        lines.splice(1, 0, `inserted ${turned}${eolOf(file.text, 0)}`);
        return lines.join('');
      })(),
    },
    {
      tool: 'delete_lines',
      input: { start_line: 2, end_line: 2 },
      expected: file.text
        .split(/(?<=\n)/)
        .filter((_, index) => index !== 1)
        .join(''),
    },
    {
      tool: 'apply_patch',
      input: {
        patch: `--- a/${file.name}\n+++ b/${file.name}\n@@ -${last + 1},1 +${last + 1},1 @@\n-last line, plain ASCII\n+last line, patched\n`,
      },
      expected: file.text.replace(/last line, plain ASCII\r?\n$/, `last line, patched${patchEol}`),
    },
  ];
}

function pathInput(tool: string, file: CorpusFile): Record<string, unknown> {
  return tool === 'apply_patch' ? {} : { path: file.name };
}

describe('encodings: every VS Code encoding read faithfully and written back byte-exact', function () {
  let base: string;
  beforeEach(function () {
    base = makeTempDir('agentfs-enc-');
  });
  afterEach(function () {
    removeTree(base);
  });

  it('the corpus is what it claims: every encoding, a dozen or more characters outside ASCII in each', function () {
    assert.ok(CORPUS.length >= 48 * 3, `${CORPUS.length} files`);
    for (const file of CORPUS) {
      assert.ok(file.nonAscii >= 10, `${file.name} holds ${file.nonAscii} characters outside ASCII`);
      assert.ok(encodingNamed(file.encoding), file.encoding);
    }
  });

  for (const file of CORPUS) {
    // UTF-16 without a BOM is told only by its zero bytes, and this text's first 512 bytes look binary to that rule
    // (as to VS Code): the call names it. Every other file is read in the encoding its settings give.
    const named = /^utf16/.test(file.encoding) && !file.bom ? { encoding: file.encoding } : {};
    describe(file.name, function () {
      it('reads the text as written, names the encoding, and writes it back byte for byte', async function () {
        const target = path.join(base, file.name);
        fs.writeFileSync(target, file.bytes);
        const runner = session(base, file.encoding);
        const read = expectOk(await call(runner, 'read_file', { file_name: file.name, ...named }));
        assert.equal(read.content, file.text);
        assert.equal(read.encoding, publicName(encodingNamed(file.encoding) as EncodingId));
        assert.equal(read.bom, file.bom);
        assert.equal(read.truncated, false);
        const info = expectOk(await call(runner, 'file_info', { path: file.name }));
        if (!('encoding' in named)) assert.equal(info.encoding, read.encoding, 'file_info names the same encoding');
        expectOk(
          await call(runner, 'write_file', { file_name: file.name, content: read.content, expected_hash: read.content_hash, ...named }),
        );
        assert.deepEqual(fs.readFileSync(target), Buffer.from(file.bytes), 'written back unchanged');
        const changed = withLine(file.text, 0, 'first line, rewritten');
        expectOk(await call(runner, 'write_file', { file_name: file.name, content: changed, ...named }));
        assert.deepEqual(
          fs.readFileSync(target),
          Buffer.from(encodeAs(changed, file.encoding, file.bom)),
          'one line changed, the rest as it was',
        );
      });

      for (const { tool, input, expected } of cases(file)) {
        // apply_patch takes no encoding, and a BOM-less UTF-16 file is only read when one is named.
        if (tool === 'apply_patch' && 'encoding' in named) continue;
        const label = `${tool} ${JSON.stringify(input).slice(0, 60)}`;
        it(`${label}: exactly the bytes expected, in memory and streamed`, async function () {
          const target = path.join(base, file.name);
          const want = Buffer.from(encodeAs(expected, file.encoding, file.bom));
          for (const stream of [false, true]) {
            fs.writeFileSync(target, file.bytes);
            const data = expectOk(
              await call(session(base, file.encoding, { stream }), tool, {
                ...pathInput(tool, file),
                ...input,
                ...(tool === 'apply_patch' ? {} : named),
              }),
              tool,
            );
            assert.deepEqual(fs.readFileSync(target), want, `${tool}${stream ? ' streamed' : ''}`);
            if (tool !== 'apply_patch') assert.equal(data.encoding, publicName(encodingNamed(file.encoding) as EncodingId));
          }
        });
      }

      it('refuses a character the encoding cannot hold, naming it, and changes nothing', async function () {
        const target = path.join(base, file.name);
        fs.writeFileSync(target, file.bytes);
        const runner = session(base, file.encoding);
        // GB 18030 holds every character, as the Unicode encodings do: for them, a lone surrogate is what none holds.
        const alien = /^(utf|gb18030)/.test(file.encoding) ? '\uD800' : '\u{1F600}';
        const refused = expectError(
          await call(runner, 'write_file', { file_name: file.name, content: `${file.text}${alien}\n`, ...named }),
          'INVALID_INPUT',
        );
        assert.match(refused.message, /U\+(D800|1F600)/);
        expectError(
          await call(runner, 'edit_file', { path: file.name, old_string: 'first line', new_string: `first ${alien}`, ...named }),
          'INVALID_INPUT',
        );
        assert.deepEqual(fs.readFileSync(target), Buffer.from(file.bytes));
      });
    });
  }
});

/** The fourteen files of the model-shaped sequence: the encodings people's repositories really hold. */
const EVERYDAY: readonly { name: string; encoding: string; bom: boolean; newlines: 'lf' | 'crlf' }[] = [
  { name: 'utf8.txt', encoding: 'utf8', bom: false, newlines: 'lf' },
  { name: 'utf8-crlf.txt', encoding: 'utf8', bom: false, newlines: 'crlf' },
  { name: 'utf8-bom.txt', encoding: 'utf8', bom: true, newlines: 'lf' },
  { name: 'utf16le-bom.txt', encoding: 'utf16le', bom: true, newlines: 'crlf' },
  { name: 'utf16be-bom.txt', encoding: 'utf16be', bom: true, newlines: 'lf' },
  { name: 'iso88591.txt', encoding: 'iso88591', bom: false, newlines: 'lf' },
  { name: 'windows1252.txt', encoding: 'windows1252', bom: false, newlines: 'crlf' },
  { name: 'shiftjis.txt', encoding: 'shiftjis', bom: false, newlines: 'crlf' },
  { name: 'eucjp.txt', encoding: 'eucjp', bom: false, newlines: 'lf' },
  { name: 'gbk.txt', encoding: 'gbk', bom: false, newlines: 'lf' },
  { name: 'big5.txt', encoding: 'cp950', bom: false, newlines: 'crlf' },
  { name: 'euckr.txt', encoding: 'euckr', bom: false, newlines: 'lf' },
  { name: 'koi8r.txt', encoding: 'koi8r', bom: false, newlines: 'lf' },
  { name: 'windows1251.txt', encoding: 'windows1251', bom: false, newlines: 'crlf' },
];

describe('encodings: the model-shaped sequence on fourteen everyday files, detected as the runner detects them', function () {
  let base: string;
  before(function () {
    base = makeTempDir('agentfs-enc14-');
  });
  after(function () {
    removeTree(base);
  });

  for (const sample of EVERYDAY) {
    it(`${sample.name}: read_file with default arguments is faithful; one ASCII line changed and written back changes only that line`, async function () {
      const eol = sample.newlines === 'crlf' ? '\r\n' : '\n';
      const text = corpusLines(sample.encoding).join(eol) + eol;
      const bytes = encodeAs(text, sample.encoding, sample.bom);
      const target = path.join(base, sample.name);
      fs.writeFileSync(target, bytes);
      // The runner as started without flags: UTF-8 by default, guessing on.
      const runner = createNodeSession(base, {}, {});
      const read = expectOk(await call(runner, 'read_file', { file_name: sample.name }));
      assert.equal(read.content, text, 'the very text, no U+FFFD');
      assert.equal(String(read.content).includes('\uFFFD'), false);
      const expectedName =
        sample.encoding === 'iso88591' ? ['latin1', 'windows1252'] : [publicName(encodingNamed(sample.encoding) as EncodingId)];
      // GBK text is guessed as GB 2312 (its subset, decoded by the same table), Latin-1 as its superset Windows-1252.
      if (sample.encoding === 'gbk') expectedName.push('gb2312');
      assert.ok(expectedName.includes(String(read.encoding)), `${sample.name} read as ${String(read.encoding)}`);
      const edited = String(read.content).replace('first line, plain ASCII', 'first line, edited by a model');
      expectOk(await call(runner, 'write_file', { file_name: sample.name, content: edited, expected_hash: read.content_hash }));
      assert.deepEqual(fs.readFileSync(target), Buffer.from(encodeAs(edited, sample.encoding, sample.bom)));
      expectOk(await call(runner, 'edit_file', { path: sample.name, old_string: 'edited by a model', new_string: 'edited again' }));
      assert.deepEqual(
        fs.readFileSync(target),
        Buffer.from(encodeAs(edited.replace('edited by a model', 'edited again'), sample.encoding, sample.bom)),
      );
    });
  }

  it('without guessing, bytes that are not UTF-8 are refused (ENCODING_MISMATCH) with the encoding a guess suggests, and nothing is written', async function () {
    const text = 'Café au lait, naïve façade: "Grüße aus Köln", señor niño.\nZweite Zeile: Äpfel, Öl, Übermut, ß; 5 €.\n';
    const bytes = encodeAs(text, 'windows1252', false);
    fs.writeFileSync(path.join(base, 'plain.txt'), bytes);
    const strict = session(base, 'utf8', { guess: false });
    const refused = expectError(await call(strict, 'read_file', { file_name: 'plain.txt' }), 'ENCODING_MISMATCH');
    assert.match(refused.message, /not valid utf-8 text: byte 0xE9 at offset 3 \(line 1\)/);
    assert.equal(refused.details?.suggested_encoding, 'windows1252');
    expectError(await call(strict, 'edit_file', { path: 'plain.txt', old_string: 'aus', new_string: 'von' }), 'ENCODING_MISMATCH');
    expectError(await call(strict, 'replace_lines', { path: 'plain.txt', start_line: 1, end_line: 1, content: 'x' }), 'ENCODING_MISMATCH');
    assert.deepEqual(fs.readFileSync(path.join(base, 'plain.txt')), Buffer.from(bytes));
    const named = expectOk(await call(strict, 'read_file', { file_name: 'plain.txt', encoding: 'windows1252' }));
    assert.equal(named.content, text);
    expectError(await call(strict, 'read_file', { file_name: 'plain.txt', encoding: 'klingon' }), 'INVALID_INPUT');
  });
});

describe('encodings: search_content tells a line in the encoding read_file reads the file in, with either engine', function () {
  let base: string;
  const german = 'Café au lait, naïve façade: "Grüße aus Köln", señor niño.\nZweite Zeile: Äpfel, Öl, Übermut, ß; 5 €.\n';
  before(function () {
    base = makeTempDir('agentfs-enc-search-');
    fs.writeFileSync(path.join(base, 'w1252.txt'), encodeAs(german, 'windows1252', false));
    fs.writeFileSync(path.join(base, 'utf8.txt'), german);
    fs.writeFileSync(path.join(base, 'sjis.txt'), encodeAs(corpusLines('shiftjis').join('\n') + '\n', 'shiftjis', false));
  });
  after(function () {
    removeTree(base);
  });

  for (const engine of [{ name: 'ripgrep' }, { name: 'scan' }] as const) {
    const ripgrep = (): string | false => (engine.name === 'ripgrep' ? ripgrepForTests() : false);
    it(`${engine.name}: guessed files are searched in their encoding, ASCII and other queries alike; never U+FFFD`, async function () {
      const runner = createNodeSession(base, {}, { ripgrep: ripgrep() });
      for (const query of ['aus', 'Köln', '東京都']) {
        const data = expectOk(await call(runner, 'search_content', { query }));
        const matches = data.matches as { path: string; text: string }[];
        // ripgrep runs where its bytes are the file's: ASCII queries; the others are scanned, file by file in its encoding.
        assert.equal(data.engine, engine.name === 'ripgrep' && query === 'aus' ? 'ripgrep' : 'scan', query);
        const expected = query === '東京都' ? ['sjis.txt'] : ['utf8.txt', 'w1252.txt'];
        assert.deepEqual(
          matches.map((match) => match.path),
          expected,
          `${query}: ${JSON.stringify(matches)}`,
        );
        for (const match of matches) {
          assert.equal(match.text.includes('\uFFFD'), false, match.text);
          assert.ok(match.text.includes(query));
        }
      }
    });

    it(`${engine.name}: without guessing, a file that is not UTF-8 is not searched, as read_file refuses it`, async function () {
      const strict = createNodeSession(
        base,
        {},
        {
          encodings: flagEncodingHost({ default: 'utf8', guess: false, candidates: [] }, '--encoding'),
          ripgrep: ripgrep(),
        },
      );
      for (const query of ['aus', 'Köln']) {
        const data = expectOk(await call(strict, 'search_content', { query }));
        assert.deepEqual(
          (data.matches as { path: string }[]).map((match) => match.path),
          ['utf8.txt'],
          query,
        );
      }
    });
  }
});
