/**
 * UTF-16 files above the whole-read and in-memory limits (10 MiB): read in part and edited by streaming, like the
 * files of every other encoding. A line ends at the code unit 0x000A only, so every line of these files also holds
 * characters whose bytes, read one off, look like a newline or like the text an edit looks for (U+0A00 U+3000 is
 * `00 0A 00 30` in UTF-16LE; U+3000 U+0A41 is `30 00 0A 41` in UTF-16BE; U+4120 U+4200 and U+2000 U+4100 U+4220
 * hold "AB" one byte off, in UTF-16LE and in UTF-16BE).
 * Each streamed edit must leave the bytes the same edit leaves in memory, with the same result.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flagEncodingHost } from '../../src/core/encoding/host';
import { createNodeSession } from '../../src/node/host/session';
import { call, expectOk, makeTempDir, removeTree } from './helpers';
import { ripgrepForTests } from './search/ripgrep';

const LINES = 120_000;
const DECOYS = '\u0a00\u3000 \u3000\u0a41 \u4120\u4200\u2000 \u2000\u4100\u4220 ਊĊ 😊';

interface Layout {
  readonly name: string;
  readonly encoding: 'utf16le' | 'utf16be';
  readonly bom: boolean;
  readonly eol: '\n' | '\r\n';
}

const LAYOUTS: readonly Layout[] = [
  { name: 'UTF-16LE with a BOM, CRLF', encoding: 'utf16le', bom: true, eol: '\r\n' },
  { name: 'UTF-16BE without a BOM (named), LF', encoding: 'utf16be', bom: false, eol: '\n' },
];

function encode(text: string, layout: Layout): Buffer {
  const body = Buffer.from(text, 'utf16le');
  if (layout.encoding === 'utf16be') body.swap16();
  const bom = layout.encoding === 'utf16le' ? [0xff, 0xfe] : [0xfe, 0xff];
  return layout.bom ? Buffer.concat([Buffer.from(bom), body]) : body;
}

function decode(bytes: Buffer, layout: Layout): string {
  const body = Buffer.from(bytes.subarray(layout.bom ? 2 : 0));
  if (layout.encoding === 'utf16be') body.swap16();
  return body.toString('utf16le');
}

const lineAt = (index: number): string => `line ${index + 1} of the large file ${DECOYS}${index % 1000 === 0 ? ' thousand' : ''}`;

describe('UTF-16 files above 10 MiB: read in part, edited by streaming', function () {
  this.timeout(240_000);
  let base: string;
  before(() => {
    base = makeTempDir('agentfs-utf16-');
  });
  after(() => removeTree(base));

  for (const layout of LAYOUTS) {
    describe(layout.name, () => {
      const lines = Array.from({ length: LINES }, (_, index) => lineAt(index));
      const text = lines.map((line) => `${line}${layout.eol}`).join('');
      const bytes = encode(text, layout);
      const name = `${layout.encoding}${layout.bom ? '-bom' : ''}.txt`;
      const target = (): string => path.join(base, name);
      const named = layout.bom ? {} : { encoding: layout.encoding };
      const read = async (input: Record<string, unknown>): Promise<Record<string, unknown>> =>
        expectOk(await call(createNodeSession(base), 'read_file', { file_name: name, ...named, ...input }), 'read_file');
      const joined = (from: number, to: number): string =>
        lines
          .slice(from, to)
          .map((line) => `${line}${layout.eol}`)
          .join('');

      beforeEach(() => fs.writeFileSync(target(), bytes));

      it('is above the limits', () => assert.ok(bytes.length > 10 * 1024 * 1024, `${bytes.length} bytes`));

      it('read_file: a range in the middle, the tail, and a cut at max_bytes, all whole lines', async () => {
        const middle = await read({ start_line: 40_000, end_line: 40_002 });
        assert.equal(middle.content, joined(39_999, 40_002));
        assert.deepEqual([middle.start_line, middle.end_line, middle.bom], [40_000, 40_002, layout.bom]);
        assert.equal(middle.newline, layout.eol === '\n' ? 'lf' : 'crlf');
        const tail = await read({ tail_lines: 3 });
        assert.equal(tail.content, joined(LINES - 3, LINES));
        const cut = await read({ start_line: 5, max_bytes: 1000 });
        assert.equal(cut.truncated, true);
        const returned = (cut.content as string).split(layout.eol).slice(0, -1);
        assert.ok(returned.length > 1, `${returned.length} lines`);
        assert.deepEqual(returned, lines.slice(4, 4 + returned.length));
        assert.equal(cut.next_start_line, 5 + returned.length);
        const shortTail = await read({ tail_lines: 100, max_bytes: 1000 });
        assert.equal(shortTail.truncated, true);
        assert.ok((shortTail.content as string).length > 0);
        assert.ok(text.endsWith(shortTail.content as string), 'the last lines that fit');
        assert.ok((shortTail.content as string).startsWith('line '), 'from a line start');
      });

      const edits: readonly [string, Record<string, unknown>][] = [
        ['replace_lines', { start_line: 50_000, end_line: 50_001, content: `replaced ${DECOYS}${layout.eol}` }],
        ['insert_lines', { position: 'end', content: `appended ${DECOYS}${layout.eol}` }],
        ['insert_lines', { position: 'before', line: 3, content: `inserted${layout.eol}` }],
        ['delete_lines', { start_line: 70_000, end_line: 70_002 }],
        ['edit_file', { old_string: `${lineAt(60_000)}${layout.eol}${lineAt(60_001)}`, new_string: 'two lines became one' }],
        ['edit_file', { old_string: '  line 12345 of the large file ' + DECOYS, new_string: 'found ignoring indentation' }],
        ['edit_file', { old_string: ' thousand', new_string: ' 1000', replace_all: true }],
      ];
      for (const [tool, input] of edits) {
        it(`${tool} ${JSON.stringify(input).slice(0, 70)}: the bytes and the result of the same edit in memory`, async () => {
          const inMemory = expectOk(
            await call(createNodeSession(base, { editInMemoryBytes: 64 * 1024 * 1024 }), tool, { path: name, ...named, ...input }),
            tool,
          );
          const expected = fs.readFileSync(target());
          assert.ok(!expected.equals(bytes), 'the edit changes the file');
          fs.writeFileSync(target(), bytes);
          const streamed = expectOk(
            await call(createNodeSession(base), tool, { path: name, ...named, ...input, expected_hash: inMemory.previous_hash }),
            tool,
          );
          assert.ok(fs.readFileSync(target()).equals(expected), 'the same bytes');
          if (input.replace_all === true) {
            // Changes spread over the whole file: in memory the line counts are the rough ones (every line from the
            // first change to the last), streamed they are each window's.
            const withoutCounts = (data: Record<string, unknown>): Record<string, unknown> =>
              Object.fromEntries(Object.entries(data).filter(([field]) => field !== 'lines_added' && field !== 'lines_removed'));
            assert.deepEqual(withoutCounts(streamed), withoutCounts(inMemory));
            assert.deepEqual([streamed.lines_added, streamed.lines_removed], [LINES / 1000, LINES / 1000]);
          } else assert.deepEqual(streamed, inMemory);
          const after = decode(expected, layout).split(layout.eol);
          if ('total_lines' in streamed) assert.equal(streamed.total_lines, after.length - 1);
          assert.equal(after.at(-1), '', 'the file still ends with a newline');
        });
      }

      it('write_file over it keeps its encoding, BOM and line endings, as over a small file', async () => {
        const content = `new first line ${DECOYS}\nnew second line\n`;
        const data = expectOk(await call(createNodeSession(base), 'write_file', { file_name: name, content, ...named }), 'write_file');
        assert.ok(fs.readFileSync(target()).equals(encode(content.replace(/\n/g, layout.eol), layout)));
        assert.equal(data.newline, layout.eol === '\n' ? 'lf' : 'crlf');
      });

      if (layout.bom) {
        it('search_content finds its lines, the scan (chunk by chunk) as ripgrep does', async () => {
          const utf8 = flagEncodingHost({ default: 'utf8', guess: false, candidates: [] }, '--encoding');
          const engines = {
            ripgrep: createNodeSession(base, {}, { ripgrep: ripgrepForTests(), encodings: utf8 }),
            scan: createNodeSession(base, {}, { ripgrep: false, encodings: utf8 }),
          };
          for (const query of ['line 12345 of', `${lineAt(99_998)}`, '\u3000\u0a41']) {
            const answers = [];
            for (const [engine, session] of Object.entries(engines)) {
              const data = expectOk(await call(session, 'search_content', { query, file_pattern: name, max_results: 3 }), 'search_content');
              assert.equal(data.engine, engine);
              answers.push(data);
            }
            const [viaRipgrep, viaScan] = answers;
            assert.deepEqual(viaScan?.matches, viaRipgrep?.matches, query);
            assert.equal(viaScan?.count, viaRipgrep?.count, query);
          }
          const found = expectOk(
            await call(engines.scan, 'search_content', { query: 'line 12345 of', file_pattern: name }),
            'search_content',
          );
          assert.deepEqual(
            (found.matches as { line: number; text: string }[]).map(({ line, text }) => [line, text]),
            [[12_345, lineAt(12_344)]],
          );
        });

        it('search_content scans one far larger (80 MB) to its end', async () => {
          const count = 6 * LINES;
          const big = Array.from({ length: count }, (_, index) => `${lineAt(index)}${layout.eol}`).join('');
          fs.writeFileSync(path.join(base, 'huge.txt'), encode(big, layout));
          const scan = createNodeSession(base, {}, { ripgrep: false });
          const found = expectOk(
            await call(scan, 'search_content', { query: `line ${count} of`, file_pattern: 'huge.txt' }),
            'search_content',
          );
          fs.rmSync(path.join(base, 'huge.txt'));
          assert.ok(big.length * 2 > 64 * 1024 * 1024, 'above what the scan once decoded whole');
          assert.deepEqual(
            (found.matches as { line: number; text: string }[]).map(({ line, text }) => [line, text]),
            [[count, lineAt(count - 1)]],
          );
        });
      }

      it('text found only one byte off is not there: NO_MATCH, and nothing changes', async () => {
        const envelope = await call(createNodeSession(base), 'edit_file', { path: name, ...named, old_string: 'AB', new_string: 'x' });
        assert.equal(envelope.ok ? 'ok' : envelope.error.code, 'NO_MATCH');
        assert.ok(fs.readFileSync(target()).equals(bytes));
      });
    });
  }
});
