/**
 * replace_in_files beyond what the re.sub oracle covers (replaceOracle.test.ts): all or nothing across 1,000 files
 * with a write failing at the 500th, the limits and expected_total, the refusals, patterns that span lines, files
 * above the in-memory limit, the dry run's bounded reply, and one history record for the whole call.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCAL_CODEC } from '../../src/core/encoding/codec';
import type { EncodingHost } from '../../src/core/encoding/host';
import { invokeOperation } from '../../src/core/invoke';
import { createNodeSession } from '../../src/node/host/session';
import { FaultyFileSystem, isStagingPath, sessionOver } from './faultInjection';
import { assertTree, call, expectError, expectOk, makeTempDir, removeTree, snapshot, tempWorkspace, type TempWorkspace } from './helpers';

const MANY = 1000;

/** windows-1252 for latin*.txt, UTF-8 for the rest. */
const LATIN_BY_NAME: EncodingHost = {
  settingsFor: (absolute) => ({ default: /\/latin[^/]*$/.test(absolute) ? 'windows1252' : 'utf8', guess: false, candidates: [] }),
  codec: LOCAL_CODEC,
  settingName: 'files.encoding',
};

function manyFiles(ws: TempWorkspace): void {
  const files: Record<string, string> = {};
  for (let index = 0; index < MANY; index++) {
    files[`pkg${String(Math.floor(index / 100)).padStart(2, '0')}/f${String(index).padStart(4, '0')}.ts`] =
      `import { fetchUser } from './api';\r\nexport const v${index} = fetchUser(${index});\r\n`;
  }
  ws.write(files);
}

function stagingFiles(root: string): string[] {
  return [...snapshot(root).keys()].filter((key) => isStagingPath(`/${key}`));
}

describe('replace_in_files', function () {
  this.timeout(120_000);
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
  });
  afterEach(function () {
    ws.cleanup();
  });

  describe('all or nothing across 1,000 files', function () {
    for (const fault of [
      { label: 'the 500th staged write fails', step: 'writeFile', when: isStagingPath },
      { label: 'the 500th swap fails', step: 'rename', when: (p: string) => !isStagingPath(p) },
      { label: 'the process fails right after the 500th swap', step: 'rename', when: (p: string) => !isStagingPath(p), timing: 'after' },
    ] as const) {
      it(`${fault.label}: all 1,000 files keep their bytes, no staging file is left`, async function () {
        manyFiles(ws);
        const before = ws.snap();
        const faulty = new FaultyFileSystem().fail({ ...fault, skip: 499 });
        const envelope = await invokeOperation(
          'replace_in_files',
          { query: 'fetchUser', replacement: 'loadUser' },
          sessionOver(faulty, ws.base),
        );
        assert.equal(faulty.fired, 1, 'the fault was reached');
        const error = expectError(envelope, 'WRITE_FAILED');
        assert.match(error.message, /injected/);
        assertTree(ws.snap(), before);
        assert.deepEqual(stagingFiles(ws.tmp), []);
      });
    }

    it('without a fault every file changes, in one history record that one undo_last puts back', async function () {
      manyFiles(ws);
      const before = ws.snap();
      const state = makeTempDir('agentfs-replace-state-');
      try {
        const session = createNodeSession(ws.base, {}, { stateDirectory: state });
        const dry = expectOk(await call(session, 'replace_in_files', { query: 'fetchUser', replacement: 'loadUser', dry_run: true }));
        assert.equal(dry.replacements, 2 * MANY);
        assert.equal(dry.files_changed, MANY);
        assert.equal(dry.truncated, true, 'a thousand diffs do not fit a reply');
        assert.ok(JSON.stringify(dry).length < 32 * 1024, `the dry run's reply is ${JSON.stringify(dry).length} characters`);
        assertTree(ws.snap(), before);
        const done = expectOk(
          await call(session, 'replace_in_files', { query: 'fetchUser', replacement: 'loadUser', expected_total: 2 * MANY }),
        );
        assert.equal(done.files_changed, MANY);
        assert.ok(JSON.stringify(done).length < 32 * 1024);
        assert.equal(ws.read('pkg07/f0700.ts'), `import { loadUser } from './api';\r\nexport const v700 = loadUser(700);\r\n`);
        const listed = expectOk(await call(session, 'history_list', {}));
        const operations = listed.operations as { operation: string; path_count?: number; summary: string }[];
        assert.equal(operations.length, 1, 'one record for the whole call');
        assert.equal(operations[0]?.path_count, MANY);
        assert.match(operations[0]?.summary ?? '', /and 995 more$/);
        const undone = expectOk(await call(session, 'undo_last', {}));
        assert.equal(undone.restored_count, MANY);
        assert.ok(JSON.stringify(undone).length < 32 * 1024, `the undo's reply is ${JSON.stringify(undone).length} characters`);
        assertTree(ws.snap(), before);
        assert.deepEqual(stagingFiles(ws.tmp), []);
      } finally {
        removeTree(state);
      }
    });
  });

  describe('limits and expected_total', function () {
    it('over max_files: LIMIT_EXCEEDED with the counts, nothing changed', async function () {
      ws.write({ 'a.txt': 'x x\n', 'b.txt': 'x\n', 'c.txt': 'x\n' });
      const before = ws.snap();
      const error = expectError(
        await call(ws.session, 'replace_in_files', { query: 'x', replacement: 'y', max_files: 2 }),
        'LIMIT_EXCEEDED',
      );
      assert.deepEqual(error.details, { field: 'max_files', cap: 2, files: 3, replacements: 4 });
      assert.match(error.message, /max_files: 3/);
      assertTree(ws.snap(), before);
    });

    it('over 10,000 replacements: LIMIT_EXCEEDED with the counts', async function () {
      ws.write({ 'a.txt': 'x'.repeat(6000), 'b.txt': 'x\n'.repeat(5000) });
      const before = ws.snap();
      const error = expectError(await call(ws.session, 'replace_in_files', { query: 'x', replacement: 'y' }), 'LIMIT_EXCEEDED');
      assert.deepEqual(error.details, { field: 'replacements', cap: 10000, files: 2, replacements: 11000 });
      assertTree(ws.snap(), before);
    });

    it('max_files above its cap is refused before anything is read', async function () {
      expectError(await call(ws.session, 'replace_in_files', { query: 'x', replacement: 'y', max_files: 10001 }), 'LIMIT_EXCEEDED');
    });

    it('expected_total that no longer holds: CONTENT_CONFLICT, nothing changed', async function () {
      ws.write({ 'a.txt': 'old old\n', 'b.txt': 'old\n' });
      const dry = expectOk(await call(ws.session, 'replace_in_files', { query: 'old', replacement: 'new', dry_run: true }));
      assert.equal(dry.replacements, 3);
      ws.write({ 'c.txt': 'old\n' });
      const before = ws.snap();
      const error = expectError(
        await call(ws.session, 'replace_in_files', { query: 'old', replacement: 'new', expected_total: 3 }),
        'CONTENT_CONFLICT',
      );
      assert.deepEqual(error.details, { expected_total: 3, replacements: 4, files: 3 });
      assertTree(ws.snap(), before);
      assert.deepEqual(stagingFiles(ws.tmp), []);
      expectOk(await call(ws.session, 'replace_in_files', { query: 'old', replacement: 'new', expected_total: 4 }));
      assert.equal(ws.read('c.txt'), 'new\n');
    });
  });

  describe('refusals', function () {
    for (const query of ['a*', '(x|)', '\\b', '(?=a)', 'a?b?', '(a)?\\1']) {
      it(`a pattern that can match the empty string (${query}) is refused`, async function () {
        ws.write({ 'a.txt': 'aab\n' });
        const error = expectError(
          await call(ws.session, 'replace_in_files', { query, replacement: 'x', is_regex: true }),
          'INVALID_PATTERN',
        );
        assert.match(error.message, /empty string/);
        assert.equal(ws.read('a.txt'), 'aab\n');
      });
    }

    it('an invalid regular expression and an unusable glob are refused', async function () {
      expectError(await call(ws.session, 'replace_in_files', { query: '(', replacement: 'x', is_regex: true }), 'INVALID_PATTERN');
      expectError(await call(ws.session, 'replace_in_files', { query: 'a', replacement: 'x', include: '!*.ts' }), 'INVALID_PATTERN');
    });

    it('a replacement the encoding cannot hold refuses the whole call, naming the file', async function () {
      ws.write({ 'a.txt': 'word\n' });
      fs.writeFileSync(path.join(ws.base, 'latin.txt'), Buffer.from('word caf\xe9\n', 'latin1'));
      const before = ws.snap();
      const session = createNodeSession(ws.base, {}, { encodings: LATIN_BY_NAME });
      const error = expectError(await call(session, 'replace_in_files', { query: 'word', replacement: '語' }), 'INVALID_INPUT');
      assert.match(error.message, /latin\.txt/);
      assertTree(ws.snap(), before);
    });

    it('a named path that does not exist is refused', async function () {
      expectError(await call(ws.session, 'replace_in_files', { query: 'a', replacement: 'b', paths: ['missing.txt'] }), 'FILE_NOT_FOUND');
    });
  });

  describe('which files', function () {
    it('paths, include and exclude narrow it; binary, ignored, hidden and undecodable files are left alone and counted', async function () {
      ws.write({
        'src/a.ts': 'token\n',
        'src/b.md': 'token\n',
        'lib/c.ts': 'token\n',
        'lib/skip.test.ts': 'token\n',
        'bin.dat': Uint8Array.from([0x74, 0x6f, 0x6b, 0x65, 0x6e, 0x00]),
        'ignored/x.ts': 'token\n',
        '.gitignore': 'ignored/\n',
        '.env': 'token\n',
        '.github/w.yml': 'token\n',
      });
      fs.writeFileSync(path.join(ws.base, 'bad.txt'), Buffer.from([0x74, 0x6f, 0x6b, 0x65, 0x6e, 0xff, 0x0a]));
      fs.mkdirSync(path.join(ws.base, '.git'));
      const session = createNodeSession(ws.base, {}, { encodings: LATIN_BY_NAME });
      const all = expectOk(await call(session, 'replace_in_files', { query: 'token', replacement: 'T', dry_run: true }));
      assert.deepEqual(
        (all.files as { path: string }[]).map((file) => file.path),
        ['.github/w.yml', 'lib/c.ts', 'lib/skip.test.ts', 'src/a.ts', 'src/b.md'],
      );
      assert.equal(all.skipped_binary, 1);
      assert.equal(all.skipped_not_text, 1);
      const narrowed = expectOk(
        await call(session, 'replace_in_files', {
          query: 'token',
          replacement: 'T',
          paths: ['lib', 'src/b.md'],
          include: '*.ts',
          exclude: '*.test.ts',
        }),
      );
      assert.deepEqual(
        (narrowed.files as { path: string }[]).map((file) => file.path),
        ['lib/c.ts'],
      );
      assert.equal(ws.read('lib/c.ts'), 'T\n');
      assert.equal(ws.read('src/a.ts'), 'token\n');
      assert.equal(ws.read('ignored/x.ts'), 'token\n');
      assert.equal(ws.read('.env'), 'token\n');
    });
  });

  describe('patterns that span lines', function () {
    it('a pattern naming a line break runs over the whole text; a literal line break matches CRLF too', async function () {
      ws.write({ 'crlf.txt': 'one\r\ntwo\r\nthree\r\n', 'lf.txt': 'one\ntwo\nthree\n' });
      expectOk(await call(ws.session, 'replace_in_files', { query: 'one\ntwo', replacement: 'joined\nlines' }));
      assert.equal(ws.read('crlf.txt'), 'joined\r\nlines\r\nthree\r\n');
      assert.equal(ws.read('lf.txt'), 'joined\nlines\nthree\n');
      const done = expectOk(await call(ws.session, 'replace_in_files', { query: 'lines\\r?\\nthree', replacement: 'end', is_regex: true }));
      assert.equal(done.replacements, 2);
      assert.equal(ws.read('crlf.txt'), 'joined\r\nend\r\n');
    });

    it('without one, a match never crosses a line ending, even where \\s could', async function () {
      ws.write({ 'a.txt': 'foo\r\nbar\nfoo bar\n' });
      const done = expectOk(await call(ws.session, 'replace_in_files', { query: 'foo\\s+bar', replacement: 'X', is_regex: true }));
      assert.equal(done.replacements, 1);
      assert.equal(ws.read('a.txt'), 'foo\r\nbar\nX\n');
    });
  });

  describe('files above the in-memory limit', function () {
    it('are streamed: only the matching lines change, every other byte is kept', async function () {
      const line = (index: number): string => (index % 997 === 0 ? `row ${index} fetchUser here\r\n` : `row ${index} nothing\r\n`);
      const text = Array.from({ length: 20000 }, (_, index) => line(index)).join('');
      ws.write({ 'big.log': text, 'small.txt': 'fetchUser\n' });
      const session = createNodeSession(ws.base, { editInMemoryBytes: 64 * 1024 }, {});
      const dry = expectOk(await call(session, 'replace_in_files', { query: 'fetchUser', replacement: 'loadUser', dry_run: true }));
      assert.equal(dry.replacements, 22);
      const done = expectOk(await call(session, 'replace_in_files', { query: 'fetchUser', replacement: 'loadUser', expected_total: 22 }));
      assert.equal(done.files_changed, 2);
      assert.equal(ws.read('big.log'), text.replaceAll('fetchUser', 'loadUser'));
      assert.equal(ws.read('small.txt'), 'loadUser\n');
      assert.deepEqual(stagingFiles(ws.tmp), []);
    });

    it('a binary one is passed over; a pattern spanning lines is refused for one', async function () {
      ws.write({ 'big.bin': `${'fetchUser\n'.repeat(10000)}\u0000` });
      const session = createNodeSession(ws.base, { editInMemoryBytes: 16 * 1024 }, {});
      const done = expectOk(await call(session, 'replace_in_files', { query: 'fetchUser', replacement: 'x' }));
      assert.equal(done.skipped_binary, 1);
      ws.write({ 'big.txt': 'fetchUser\n'.repeat(10000) });
      expectError(await call(session, 'replace_in_files', { query: 'fetchUser\\n', replacement: 'x', is_regex: true }), 'LIMIT_EXCEEDED');
    });
  });
});
