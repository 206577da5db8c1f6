/**
 * search_content's two engines give the same answers: ripgrep (the fast path) and the pure TypeScript scan, on one
 * fixture with Unicode, CRLF files, a long line, UTF-16, binary files, a PDF sidecar, nested .gitignore files,
 * excluded and hidden paths, and regular expressions with look-around (which ripgrep runs through PCRE2).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Session } from '../../../src/core/invoke';
import { toPcre2, translate } from '../../../src/core/search/query';
import { ripgrepForTests } from './ripgrep';
import { flagEncodingHost } from '../../../src/core/encoding/host';
import { createNodeSession } from '../../../src/node/host/session';
import { call, expectOk, makeTempDir, removeTree } from '../helpers';
import { writeSearchFixture } from './fixture';

interface Case {
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** Whether ripgrep is expected to run it (false: a pattern only the scan can run exactly). */
  readonly fast?: boolean;
  /** At least this many matches, so an empty answer cannot pass for agreement. */
  readonly min: number;
}

const CASES: readonly Case[] = [
  { name: 'literal, case-insensitive (default)', input: { query: 'needle' }, min: 14 },
  { name: 'literal, case-sensitive', input: { query: 'NEEDLE', case_sensitive: true }, min: 1 },
  { name: 'literal with accents', input: { query: 'wörld' }, min: 1 },
  { name: 'literal astral emoji', input: { query: '😀 smile' }, min: 1 },
  { name: 'literal CJK', input: { query: '文件' }, min: 1 },
  { name: 'literal ß, case-insensitive', input: { query: 'straße' }, min: 1 },
  { name: 'regex $ on CRLF and LF lines', input: { query: 'end$', is_regex: true }, min: 4 },
  { name: 'regex ^ anchor', input: { query: '^be', is_regex: true }, min: 1 },
  { name: 'regex lookahead', input: { query: 'foo(?=Bar)', is_regex: true, case_sensitive: true }, min: 1 },
  { name: 'regex negative lookahead', input: { query: 'foo(?!Bar)', is_regex: true, case_sensitive: true }, min: 2 },
  { name: 'regex lookbehind', input: { query: '(?<=word_)needle', is_regex: true }, min: 1 },
  { name: 'regex word boundary (ASCII, as JavaScript)', input: { query: '\\bneedle\\b', is_regex: true }, min: 10 },
  { name: 'regex \\w and \\d (ASCII, as JavaScript)', input: { query: '\\w+_needle|\\d{4}', is_regex: true }, min: 2 },
  { name: 'regex \\w next to non-ASCII letters', input: { query: 'caf\\w', is_regex: true }, min: 0 },
  { name: 'regex dot over astral characters', input: { query: '^. smile', is_regex: true }, min: 1 },
  { name: 'regex \\s class and tab', input: { query: '[\\s]needle$', is_regex: true }, min: 3 },
  { name: 'regex \\u escape', input: { query: '\\u00e9llo', is_regex: true }, min: 1 },
  { name: 'regex alternation, case-insensitive', input: { query: 'stra(ß|ss)e', is_regex: true }, min: 1 },
  { name: 'context lines', input: { query: 'needle', context_lines: 2 }, min: 14 },
  { name: 'context lines at file edges', input: { query: 'end', context_lines: 5 }, min: 4 },
  { name: 'file_pattern *.txt', input: { query: 'needle', file_pattern: '*.txt' }, min: 6 },
  { name: 'file_pattern *.pdf reaches the sidecar', input: { query: 'needle', file_pattern: '*.pdf' }, min: 1 },
  { name: 'file_pattern with a directory part', input: { query: 'needle', file_pattern: 'sub/**/*.ts' }, min: 1 },
  { name: 'file_pattern with Windows separators and a leading ./', input: { query: 'needle', file_pattern: '.\\sub\\**\\*.ts' }, min: 1 },
  { name: 'a gitignored file matched by file_pattern stays out', input: { query: 'needle', file_pattern: '*.log' }, min: 0 },
  { name: 'path below the root honours the root .gitignore', input: { query: 'needle', path: 'sub' }, min: 2 },
  { name: 'include_ignored', input: { query: 'needle', include_ignored: true }, min: 18 },
  { name: 'a long line is cut around the match', input: { query: 'needle 0123', is_regex: false }, min: 1 },
  { name: 'variable-length lookbehind (PCRE2 refuses: scan)', input: { query: '(?<=a+)bc', is_regex: true }, fast: false, min: 0 },
  { name: 'escape only valid without the u flag (scan)', input: { query: 'needle\\-dash', is_regex: true }, fast: false, min: 1 },
];

/** The two engines over one fixture, made in a mocha `before` and removed `after`; `utf8`: files read as UTF-8. */
function enginePair(prefix: string, fixture: (base: string) => void, options: { exclude?: string[]; utf8?: boolean } = {}) {
  const pair = { base: '', fast: undefined as Session | undefined, scan: undefined as Session | undefined };
  before(function () {
    const rg = ripgrepForTests();
    pair.base = makeTempDir(prefix);
    fixture(pair.base);
    // Files read as UTF-8 unless a BOM says otherwise (the editor's default): where a host may read a file in a legacy
    // encoding, a query outside ASCII goes to the scan (search/encodedMatches.ts), and ripgrep would not be tested.
    const encodings = options.utf8 ? { encodings: flagEncodingHost({ default: 'utf8', guess: false, candidates: [] }, '--encoding') } : {};
    const policy = options.exclude ? { exclude: options.exclude } : {};
    pair.fast = createNodeSession(pair.base, policy, { ripgrep: rg, ...encodings });
    pair.scan = createNodeSession(pair.base, policy, { ripgrep: false, ...encodings });
  });
  after(function () {
    if (pair.base) removeTree(pair.base);
  });
  /** The same search_content through ripgrep (where it runs) and through the scan. */
  return async (input: Record<string, unknown>): Promise<{ viaRipgrep: Record<string, unknown>; viaScan: Record<string, unknown> }> => {
    assert.ok(pair.fast && pair.scan);
    return {
      viaRipgrep: expectOk(await call(pair.fast, 'search_content', input), 'search_content'),
      viaScan: expectOk(await call(pair.scan, 'search_content', input), 'search_content'),
    };
  };
}

describe('search_content: ripgrep and the scan agree', function () {
  const both = enginePair('agentfs-engines-', writeSearchFixture, { exclude: ['dist'], utf8: true });

  for (const testCase of CASES) {
    it(testCase.name, async function () {
      const input: Record<string, unknown> = { max_results: 200, ...testCase.input };
      const { viaRipgrep, viaScan } = await both(input);
      assert.equal(viaRipgrep.engine, testCase.fast === false ? 'scan' : 'ripgrep');
      assert.equal(viaScan.engine, 'scan');
      assert.deepEqual(viaRipgrep.matches, viaScan.matches);
      assert.equal(viaRipgrep.count, viaScan.count);
      assert.ok(Number(viaScan.count) >= testCase.min, `only ${String(viaScan.count)} matches`);
      const found = (viaScan.matches as { path: string }[]).map((match) => match.path);
      const never = [
        '.env',
        'binary.bin',
        'link.txt',
        'doc.pdf.txt',
        ...(input.include_ignored === true ? [] : ['.git/config', 'dist/bundle.js', 'ignored/x.txt', 'app.log']),
      ];
      for (const path of never) assert.ok(!found.includes(path), path);
    });
  }
});

/** Text lines with bytes UTF-8 cannot read among them (windows-1252 and cp437 text in a folder read as UTF-8). */
function undecodableFiles(base: string): void {
  const latin = (text: string): Buffer => Buffer.from(text, 'latin1');
  fs.writeFileSync(path.join(base, 'cp1252.txt'), latin('first needle line\ncaf\xe9 needle\nplain\nlast needle line\n'));
  fs.writeFileSync(path.join(base, 'crlf.txt'), latin('needle one\r\n\x80\x81 bytes\r\n\r\nneedle two\r\nneedle three\r\n'));
  fs.writeFileSync(
    path.join(base, 'utf8-and-bad.txt'),
    Buffer.concat([Buffer.from('wörld needle\n'), latin('\xff\n'), Buffer.from('needle ünï\n')]),
  );
  // Past the scan's first read, so read in blocks of lines.
  const filler = 'filler line without it\n'.repeat(2000);
  fs.writeFileSync(
    path.join(base, 'large.txt'),
    Buffer.concat([latin(`${filler}\xe9 needle\n`), Buffer.from(`${filler}needle at the end\n`)]),
  );
}

describe('search_content: ripgrep and the scan agree on lines a file’s encoding cannot read', function () {
  const both = enginePair('agentfs-engines-bytes-', undecodableFiles, { utf8: true });

  const cases: readonly { name: string; input: Record<string, unknown>; lines: string[] }[] = [
    {
      name: 'a literal: the text lines of each file, none of the others',
      input: { query: 'needle' },
      lines: [
        'cp1252.txt:1',
        'cp1252.txt:4',
        'crlf.txt:1',
        'crlf.txt:4',
        'crlf.txt:5',
        'large.txt:4002',
        'utf8-and-bad.txt:1',
        'utf8-and-bad.txt:3',
      ],
    },
    {
      name: 'context lines: a match next to a line that is not text is dropped',
      input: { query: 'needle', context_lines: 1 },
      lines: ['cp1252.txt:4', 'crlf.txt:4', 'crlf.txt:5', 'large.txt:4002'],
    },
    {
      name: 'a regular expression',
      input: { query: 'needle (one|two|line)$', is_regex: true },
      lines: ['cp1252.txt:1', 'cp1252.txt:4', 'crlf.txt:1', 'crlf.txt:4'],
    },
  ];
  for (const testCase of cases) {
    it(testCase.name, async function () {
      const { viaRipgrep, viaScan } = await both({ max_results: 200, ...testCase.input });
      assert.equal(viaRipgrep.engine, 'ripgrep');
      assert.equal(viaScan.engine, 'scan');
      assert.deepEqual(viaScan.matches, viaRipgrep.matches);
      const lines = (viaScan.matches as { path: string; line: number }[]).map((match) => `${match.path}:${match.line}`);
      assert.deepEqual(lines, testCase.lines);
    });
  }
});

/**
 * Files with a NUL byte at `at`, each line 35 bytes, every 40th with "needle": ripgrep quits at the first of its
 * 64 KiB buffer fills that holds the NUL, having searched the whole lines of the fills before it.
 */
function filesWithNul(base: string): void {
  const line = (index: number): string => `${index % 40 === 39 ? 'needle' : 'hay   '} filler text here 0123456789\n`;
  for (const at of [20_000, 65_535, 65_536, 130_000, 140_000, 200_000]) {
    const count = Math.floor(at / 35);
    const text = Array.from({ length: count }, (_, index) => line(index)).join('') + 'x'.repeat(at - count * 35);
    fs.mkdirSync(path.join(base, `at-${at}`));
    fs.writeFileSync(
      path.join(base, `at-${at}`, 'file.txt'),
      Buffer.concat([Buffer.from(text), Buffer.from([0]), Buffer.from('\nneedle\n')]),
    );
  }
}

describe('search_content: ripgrep and the scan stop at the same place in a file with a NUL byte', function () {
  const both = enginePair('agentfs-engines-nul-', filesWithNul);

  // The last line searched: none within the first 64 KiB; else the last whole line of the last fill before the NUL.
  const lastLines: Readonly<Record<number, number>> = { 20_000: 0, 65_535: 0, 65_536: 1872, 130_000: 1872, 140_000: 3744, 200_000: 5616 };
  for (const [at, last] of Object.entries(lastLines)) {
    for (const contextLines of [0, 2]) {
      it(`a NUL at ${at}, ${contextLines} context lines: lines up to ${last}`, async function () {
        const { viaRipgrep, viaScan } = await both({ query: 'needle', path: `at-${at}`, context_lines: contextLines, max_results: 200 });
        assert.equal(viaRipgrep.engine, 'ripgrep');
        assert.deepEqual(viaScan.matches, viaRipgrep.matches);
        const lines = (viaScan.matches as { line: number }[]).map((match) => match.line);
        assert.equal(lines.length, Math.floor(last / 40));
        assert.ok(lines.every((line) => line <= last));
      });
    }
  }
});

describe('JavaScript → PCRE2 translation', function () {
  it('spells out the classes and escapes whose meaning differs', function () {
    assert.equal(toPcre2('a\\db'), 'a[0-9]b');
    assert.equal(toPcre2('[\\w-]+'), '[A-Za-z0-9_-]+');
    assert.equal(toPcre2('\\u00e9\\u{1F600}'), '\\x{E9}\\x{1F600}');
    assert.equal(toPcre2('\\ud83d\\ude00'), '\\x{1F600}');
    assert.equal(toPcre2('a.b'), 'a[^\\n\\r\\x{2028}\\x{2029}]b');
    assert.equal(toPcre2('[^]x[]'), '[\\s\\S]x(?!)');
    assert.equal(toPcre2('[[:a]'), '[\\[:a]');
    assert.equal(toPcre2('foo(?=bar)(?<name>x)\\k<name>\\1'), 'foo(?=bar)(?<name>x)\\k<name>\\1');
    assert.match(toPcre2('\\bx') ?? '', /^\(\?:\(\?<=\[A-Za-z0-9_\]\)/);
  });

  it("rewrites for ripgrep's default (Rust) engine, and leaves it what it cannot run", function () {
    assert.equal(translate('a\\db', 'rust'), 'a[0-9]b');
    assert.equal(translate('\\bx\\B', 'rust'), '(?-u:\\b)x(?-u:\\B)');
    assert.equal(translate('(?<year>\\d{4})\\/', 'rust'), '(?P<year>[0-9]{4})/');
    assert.equal(translate('[a&&b~~c[]', 'rust'), '[a\\&\\&b\\~\\~c\\[]');
    for (const pcre2Only of ['foo(?=bar)', '(?<!x)y', '(a)\\1', '(?<n>a)\\k<n>', '\\cJ', '[]'])
      assert.equal(translate(pcre2Only, 'rust'), undefined, pcre2Only);
  });

  it('gives up on what it cannot translate faithfully', function () {
    assert.equal(toPcre2('[\\D]'), undefined);
    assert.equal(toPcre2('\\p{Script=Greek}'), undefined);
    assert.equal(toPcre2('\\p{Lu}'), '\\p{Lu}');
  });
});
