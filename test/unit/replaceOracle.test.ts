/**
 * replace_in_files against an oracle no one here wrote: Python's re.sub (corpus/resub.py), run over generated trees
 * that hold UTF-8 files (LF, CRLF, mixed, with and without a final newline, with a BOM), windows-1252 files, UTF-16
 * files with a BOM (both byte orders), binary files, a file that is not UTF-8, files git ignores, a hidden file and a
 * dot file. Which files count is git's answer (`git ls-files --others --exclude-standard`) and the hidden-path
 * defaults, handed to Python, which decides by itself which files are text and in which encoding.
 *
 * For every tree and every case (a literal, regular expressions with captures and named groups, case-insensitive and
 * whole-word replacements, replacement patterns, anchors at the line's ends, replacements that write line breaks), on a fresh copy of the tree: the dry run changes no byte and
 * counts what Python counts; the call with that count as expected_total leaves every file byte for byte as Python
 * writes it (and every file Python leaves alone untouched: binary, ignored, hidden, undecodable); one undo_last puts
 * every byte back. The JavaScript replacement patterns ($1, $<name>, $&, $$) are translated to Python's (\g<1>, …).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import iconv from '@vscode/iconv-lite-umd';
import { LOCAL_CODEC } from '../../src/core/encoding/codec';
import type { EncodingHost } from '../../src/core/encoding/host';
import { DEFAULT_POLICY } from '../../src/core/settings';
import { createNodeSession } from '../../src/node/host/session';
import { encodeAs } from '../shared/encodingCorpus';
import { seeded } from '../shared/churn';
import { call, expectOk, makeTempDir, removeTree } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const ORACLE = path.join(ROOT, 'test', 'unit', 'corpus', 'resub.py');
/** Debian's Python, which npm test installs with python3-nbformat (test/launcher/install.ts). */
const PYTHON = '/usr/bin/python3';
const SEEDS = [11, 22, 33, 44];

/** windows-1252 for *.w1252.* files, UTF-8 for the rest, no guessing: what Python is told too. */
const ENCODINGS: EncodingHost = {
  settingsFor: (absolute) => ({ default: /\.w1252\.\w+$/.test(absolute) ? 'windows1252' : 'utf8', guess: false, candidates: [] }),
  codec: LOCAL_CODEC,
  settingName: 'files.encoding',
};

interface Case {
  readonly query: string;
  readonly replacement: string;
  readonly is_regex?: boolean;
  readonly case_sensitive?: boolean;
  readonly whole_word?: boolean;
}

const CASES: readonly Case[] = [
  { query: 'fetchUser', replacement: 'loadUser' },
  { query: 'fetchuser', replacement: 'Load$$User', case_sensitive: false },
  { query: '([a-z]+)User\\(', replacement: '$1Account(', is_regex: true },
  { query: '(?<word>[A-Za-z]+)_(?<rest>id)', replacement: '$<rest>-$<word>', is_regex: true },
  { query: 'user', replacement: 'member', whole_word: true },
  { query: 'us(er|e)', replacement: 'x$1', is_regex: true, whole_word: true, case_sensitive: false },
  { query: 'Café', replacement: 'Tea', case_sensitive: false },
  { query: 'fetch[A-Z][a-z]+', replacement: '<$&>', is_regex: true },
  { query: '^  [a-z]+', replacement: '\t', is_regex: true },
  { query: '[0-9]+ €', replacement: '$$$&', is_regex: true },
  { query: '([a-z]+)$', replacement: '[$1]', is_regex: true, case_sensitive: false },
  { query: '\\);$', replacement: ');\n// moved', is_regex: true },
  { query: 'a fetchUsers(list) call', replacement: 'two\nlines' },
];

/** The same tree for the same seed. */
const prng = seeded;

/** Lines every encoding here holds (windows-1252 included); the UTF files add some it does not. */
const LINES = [
  'const fetchUser = getUser(id);',
  'FetchUser and fetchuser and FETCHUSER',
  'userId user_id user users User',
  '  indented user_name = fetchUser(user);',
  'Café fetchUser naïve Ünïcode',
  'price: 12 € and 7 € for user',
  'a fetchUsers(list) call',
  'x$1y $& and \\1 literally',
  '',
  'plain line without anything',
  '\tuse(user); reuse user',
];
const WIDE_LINES = ['日本語 fetchUser テキスト', 'emoji 😀 user_id', 'Ελληνικά Café'];

function linesFor(random: () => number, wide: boolean): string[] {
  const pool = wide ? [...LINES, ...WIDE_LINES] : LINES;
  return Array.from({ length: 4 + Math.floor(random() * 30) }, () => pool[Math.floor(random() * pool.length)] ?? '');
}

function joined(lines: readonly string[], random: () => number, style: 'lf' | 'crlf' | 'mixed'): string {
  const final = random() < 0.7;
  return lines
    .map((line, index) => {
      const eol = style === 'lf' ? '\n' : style === 'crlf' ? '\r\n' : random() < 0.5 ? '\n' : '\r\n';
      return index === lines.length - 1 && !final ? line : line + eol;
    })
    .join('');
}

/** One generated tree: every kind of file the oracle is about. */
function generateTree(root: string, seed: number): void {
  const random = prng(seed);
  const files: Record<string, Uint8Array> = {};
  const style = (): 'lf' | 'crlf' | 'mixed' => (['lf', 'crlf', 'mixed'] as const)[Math.floor(random() * 3)] ?? 'lf';
  for (let index = 0; index < 12; index++)
    files[`src/m${index}/file${index}.ts`] = encodeAs(joined(linesFor(random, true), random, style()), 'utf8', false);
  for (let index = 0; index < 3; index++)
    files[`docs/bom${index}.md`] = encodeAs(joined(linesFor(random, true), random, style()), 'utf8', true);
  for (let index = 0; index < 3; index++)
    files[`legacy/old${index}.w1252.txt`] = encodeAs(joined(linesFor(random, false), random, style()), 'windows1252', false);
  for (const encoding of ['utf16le', 'utf16be'])
    files[`wide/${encoding}.txt`] = encodeAs(joined(linesFor(random, true), random, style()), encoding, true);
  files['bin/blob.dat'] = Uint8Array.from([0x00, 0x01, ...Buffer.from('fetchUser user Café 12 €\n'), 0x00, 0xff]);
  files['bin/late-nul.txt'] = Uint8Array.from([...Buffer.from('fetchUser user\n'.repeat(50)), 0x00]);
  // windows-1252 bytes in a file read as UTF-8: not text, so left alone.
  files['notes/undecodable.txt'] = Uint8Array.from(iconv.encode('Café fetchUser user_id\n', 'windows1252'));
  files['build/out.ts'] = encodeAs('const fetchUser = user_id;\n', 'utf8', false);
  files['debug.log'] = encodeAs('fetchUser user\n', 'utf8', false);
  files['.env'] = encodeAs('USER_ID=fetchUser user\n', 'utf8', false);
  files['.config/dot.txt'] = encodeAs(joined(linesFor(random, true), random, style()), 'utf8', false);
  files['.gitignore'] = encodeAs('build/\n*.log\n', 'utf8', false);
  for (const [relative, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), bytes);
  }
  execFileSync('git', ['init', '-q', root]);
}

/** Every file below `root` (not .git) by its relative path, with its bytes. */
function filesBelow(root: string, at = ''): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const entry of fs.readdirSync(path.join(root, at), { withFileTypes: true })) {
    const relative = at === '' ? entry.name : `${at}/${entry.name}`;
    if (relative === '.git') continue;
    if (entry.isDirectory()) for (const [each, bytes] of filesBelow(root, relative)) found.set(each, bytes);
    else found.set(relative, fs.readFileSync(path.join(root, relative)));
  }
  return found;
}

/** A JavaScript replacement template as Python's re.sub template says it. */
function pythonTemplate(replacement: string): string {
  let out = '';
  for (let index = 0; index < replacement.length; index++) {
    const char = replacement[index] ?? '';
    const next = replacement[index + 1] ?? '';
    if (char === '\\') out += '\\\\';
    else if (char === '$' && next === '$') {
      out += '$';
      index++;
    } else if (char === '$' && next === '&') {
      out += '\\g<0>';
      index++;
    } else if (char === '$' && /[0-9]/.test(next)) {
      out += `\\g<${next}>`;
      index++;
    } else if (char === '$' && next === '<') {
      const close = replacement.indexOf('>', index);
      out += `\\g<${replacement.slice(index + 2, close)}>`;
      index = close;
    } else out += char;
  }
  return out;
}

/** The query as a Python pattern: a literal escaped, a named group spelled (?P<name>…). */
function pythonPattern(testCase: Case): string {
  const escaped = testCase.is_regex
    ? testCase.query.replace(/\(\?<(?=[A-Za-z_])/g, '(?P<')
    : testCase.query.replace(/[.^$*+?()[\]{}|\\-]/g, '\\$&');
  return testCase.whole_word ? `(?<![A-Za-z0-9_])(?:${escaped})(?![A-Za-z0-9_])` : escaped;
}

interface Answer {
  readonly total: number;
  readonly files: Readonly<Record<string, { count: number; bytes: string }>>;
}

function oracle(root: string): Answer[] {
  const listed = execFileSync('git', ['-C', root, 'ls-files', '-z', '--others', '--exclude-standard'], { encoding: 'utf8' });
  const request = {
    root,
    files: listed.split('\0').filter(Boolean),
    hidden: DEFAULT_POLICY.hiddenPaths,
    cases: CASES.map((each) => ({
      pattern: pythonPattern(each),
      repl: pythonTemplate(each.replacement),
      case_sensitive: each.case_sensitive ?? true,
    })),
  };
  const result = spawnSync(PYTHON, [ORACLE], { input: JSON.stringify(request), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw new Error(`${PYTHON} is needed for the re.sub oracle (apt-get install python3): ${result.error.message}`);
  assert.equal(result.status, 0, result.stderr);
  return (JSON.parse(result.stdout) as { answers: Answer[] }).answers;
}

describe('replace_in_files: Python re.sub as the oracle', function () {
  this.timeout(600_000);
  let tmp = '';
  before(function () {
    tmp = makeTempDir('agentfs-replace-oracle-');
  });
  after(function () {
    removeTree(tmp);
  });

  it('gives every file the bytes re.sub gives it, counts as it counts, and one undo puts every byte back', async function () {
    const counts = { trees: 0, runs: 0, filesCompared: 0, filesChanged: 0, replacements: 0, untouchedChecked: 0, differences: 0 };
    const differences: string[] = [];
    for (const seed of SEEDS) {
      const original = path.join(tmp, `tree-${seed}`);
      generateTree(original, seed);
      counts.trees++;
      const answers = oracle(original);
      const before = filesBelow(original);
      for (const [index, testCase] of CASES.entries()) {
        const answer = answers[index];
        assert.ok(answer);
        const work = path.join(tmp, `work-${seed}-${index}`);
        fs.cpSync(original, work, { recursive: true });
        const state = path.join(tmp, `state-${seed}-${index}`);
        const session = createNodeSession(work, {}, { stateDirectory: state, encodings: ENCODINGS, ripgrep: false });
        const label = `seed ${seed}, case ${JSON.stringify(testCase)}`;

        const dry = expectOk(await call(session, 'replace_in_files', { ...testCase, dry_run: true }));
        assert.deepEqual(filesBelow(work), before, `${label}: the dry run changed the disk`);
        assert.equal(dry.replacements, answer.total, `${label}: the dry run counts what re.sub counts`);

        const applied = expectOk(await call(session, 'replace_in_files', { ...testCase, expected_total: answer.total }));
        assert.equal(applied.replacements, answer.total, label);
        counts.runs++;
        const after = filesBelow(work);
        for (const [relative, bytes] of before) {
          const expected = answer.files[relative] ? Buffer.from(answer.files[relative].bytes, 'base64') : bytes;
          counts.filesCompared++;
          if (!answer.files[relative]) counts.untouchedChecked++;
          else if (!expected.equals(bytes)) counts.filesChanged++;
          if (!after.get(relative)?.equals(expected)) {
            counts.differences++;
            differences.push(`${label}: ${relative} differs from re.sub's`);
          }
        }
        assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), `${label}: files appeared or went`);
        counts.replacements += answer.total;

        if (answer.total > 0) {
          expectOk(await call(session, 'undo_last', {}));
          assert.deepEqual(filesBelow(work), before, `${label}: one undo_last puts every byte back`);
        }
        removeTree(work);
        removeTree(state);
      }
    }
    console.log(`      re.sub oracle: ${JSON.stringify(counts)}`);
    assert.deepEqual(differences.slice(0, 20), []);
    assert.equal(counts.differences, 0);
    // The corpus holds what it is for.
    assert.ok(counts.filesChanged > 100, 'many files changed');
  });
});
