/**
 * apply_patch with the V4A grammar ("*** Begin Patch"): each construct, sections placed without line numbers (anchor,
 * then exact, trailing and surrounding whitespace, each step reported), the file's encoding, BOM and line endings
 * kept byte for byte, and the guarantees unified diffs have: all or nothing, dry_run, one history record that undo
 * reverses, confirmations naming what is deleted or moved, refusals naming the file and the section.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prepareOperation } from '../../src/core/invoke';
import { createNodeSession } from '../../src/node/host/session';
import { encodeAs } from '../shared/encodingCorpus';
import { assertTree, call, edit, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

function v4a(...lines: string[]): string {
  return ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
}

interface FileReport {
  path: string;
  action: string;
  moved_to?: string;
  hunks: { header: string; line: number; offset: number; stage?: string }[];
}

const files = (data: Record<string, unknown>): FileReport[] => data.files as FileReport[];

const PROGRAM = [
  'def alpha():',
  '    value = 1',
  '    return value',
  '',
  'def beta():',
  '    value = 1',
  '    return value',
  '',
  'def gamma():',
  '    return 3',
  '',
].join('\n');

describe('apply_patch: V4A patches', function () {
  let ws: TempWorkspace;
  const states: string[] = [];
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'prog.py': PROGRAM, 'notes.txt': 'one\ntwo\nthree\n', 'old.txt': 'obsolete\n' });
  });
  afterEach(function () {
    ws.cleanup();
  });
  after(function () {
    for (const dir of states) fs.rmSync(dir, { recursive: true, force: true });
  });

  const bytes = (relative: string): Buffer => fs.readFileSync(path.join(ws.base, relative));

  it('adds, deletes and updates files in one patch; an "@@" line places a section whose lines repeat', async function () {
    const patch = v4a(
      '*** Add File: pkg/new.txt',
      '+line one',
      '+line two',
      '*** Delete File: old.txt',
      '*** Update File: prog.py',
      '@@ def beta():',
      '     value = 1',
      '-    return value',
      '+    return value * 2',
      '@@',
      ' def gamma():',
      '-    return 3',
      '+    return 4',
    );
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }), 'apply_patch');
    assert.equal(ws.read('pkg/new.txt'), 'line one\nline two\n');
    assert.equal(ws.exists('old.txt'), false);
    assert.equal(ws.read('prog.py'), PROGRAM.replace('value\n\ndef gamma', 'value * 2\n\ndef gamma').replace('return 3', 'return 4'));
    assert.deepEqual(
      files(data).map((file) => [file.path, file.action, file.hunks]),
      [
        ['pkg/new.txt', 'create', []],
        ['old.txt', 'delete', []],
        [
          'prog.py',
          'modify',
          [
            { header: '@@ def beta():', line: 6, offset: 0, stage: 'exact' },
            { header: '@@', line: 9, offset: 0, stage: 'exact' },
          ],
        ],
      ],
    );
    assert.equal(data.files_changed, 3);
    assert.equal(data.lines_added, 4);
    assert.equal(data.lines_removed, 3);
  });

  it('a section whose lines occur twice below the cursor, without an "@@" line, is ambiguous: refused naming file, section and lines', async function () {
    const before = ws.snap();
    const patch = v4a('*** Update File: prog.py', '@@', '     value = 1', '-    return value', '+    return value * 2');
    const error = expectError(await call(ws.session, 'apply_patch', { patch }), 'PATCH_FAILED', 'apply_patch');
    assert.match(error.message, /Section 1 of 1 \(@@\) for prog\.py is ambiguous/);
    assert.match(error.message, /occur 2 times in the file \(at lines 2, 6, exactly\)/);
    assert.match(error.message, /Nothing was written/);
    assert.deepEqual(error.details, { file: 'prog.py', section: 1, header: '@@', matches_at_lines: [2, 6], stage: 'exact' });
    assertTree(ws.snap(), before);
  });

  it('each section searches below the previous one and its "@@" line: the same line in two functions, changed apart', async function () {
    const patch = v4a(
      '*** Update File: prog.py',
      '@@ def alpha():',
      '-    value = 1',
      '+    value = 10',
      '@@ def beta():',
      '-    value = 1',
      '+    value = 20',
    );
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }));
    assert.equal(ws.read('prog.py'), PROGRAM.replace('value = 1\n', 'value = 10\n').replace('value = 1\n', 'value = 20\n'));
    assert.deepEqual(
      files(data)[0]?.hunks.map((hunk) => hunk.line),
      [2, 6],
    );
  });

  it('an unmatched section is refused with the nearest lines; an "@@" line missing is named', async function () {
    const before = ws.snap();
    const drift = v4a('*** Update File: prog.py', '@@', ' def gamma():', '-    return 30', '+    return 4');
    const error = expectError(await call(ws.session, 'apply_patch', { patch: drift }), 'PATCH_FAILED');
    assert.match(error.message, /Section 1 of 1 \(@@\) for prog\.py does not match the file/);
    assert.match(error.message, /At line 10 the patch expects "    return 30" but the file has "    return 3"/);
    assert.equal(error.details?.nearest_line, 9);
    assert.deepEqual(error.details?.differences, [{ line: 10, expected: '    return 30', actual: '    return 3' }]);
    const anchor = v4a('*** Update File: prog.py', '@@ def delta():', '-    return 3', '+    return 4');
    const missing = expectError(await call(ws.session, 'apply_patch', { patch: anchor }), 'PATCH_FAILED');
    assert.match(missing.message, /Section 1 of 1 \(@@ def delta\(\):\) for prog\.py: its "@@ def delta\(\):" line is not in the file/);
    assert.equal(missing.details?.anchor, 'def delta():');
    // Sections out of the file's order: the second is looked for below the first.
    const order = v4a('*** Update File: prog.py', '@@', '-def gamma():', '+def gamma2():', '@@', '-def alpha():', '+def alpha2():');
    const reversed = expectError(await call(ws.session, 'apply_patch', { patch: order }), 'PATCH_FAILED');
    assert.match(reversed.message, /Section 2 of 2 .* below line 9 .*Its lines are at line 1, above where the search began/);
    assertTree(ws.snap(), before);
  });

  it('old lines are found exactly, then ignoring trailing whitespace, then ignoring surrounding whitespace; context keeps the file bytes', async function () {
    ws.write({ 'ws.txt': 'head\nspaced   \nmid\n\tindented\nplain\ntail\n' });
    const patch = v4a(
      '*** Update File: ws.txt',
      '@@',
      ' spaced',
      '-mid',
      '+MID',
      '@@',
      ' indented',
      '-plain',
      '+PLAIN',
      '@@',
      ' tail',
      '+after',
    );
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }));
    assert.deepEqual(bytes('ws.txt'), Buffer.from('head\nspaced   \nMID\n\tindented\nPLAIN\ntail\nafter\n'));
    // Each section is placed by the first step that finds it.
    assert.deepEqual(
      files(data)[0]?.hunks.map((hunk) => [hunk.line, hunk.stage]),
      [
        [2, 'trailing_whitespace'],
        [4, 'whitespace'],
        [6, 'exact'],
      ],
    );
  });

  it('an "@@" line the previous section passed places a section whose lines occur once below, and says so', async function () {
    ws.write({ 'fn.js': 'function f() {\n  a();\n  b();\n  c();\n  d();\n}\nfunction g() {\n  b();\n}\n' });
    // The model repeats "function f() {" for a second section in it: that line is above where the first one ended.
    const patch = v4a('*** Update File: fn.js', '@@ function f() {', '-  a();', '+  A();', '@@ function f() {', '-  d();', '+  D();');
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }));
    assert.equal(ws.read('fn.js'), 'function f() {\n  A();\n  b();\n  c();\n  D();\n}\nfunction g() {\n  b();\n}\n');
    assert.deepEqual(
      files(data)[0]?.hunks.map((hunk) => [hunk.line, hunk.stage]),
      [
        [2, 'exact'],
        [5, 'anchor_above'],
      ],
    );
    // Lines that occur twice below: the "@@" line cannot tell which is meant, so nothing is written.
    const before = ws.snap();
    const twice = v4a('*** Update File: fn.js', '@@ function f() {', '-  A();', '+  a();', '@@ function f() {', '-  b();', '+  B();');
    const ambiguous = expectError(await call(ws.session, 'apply_patch', { patch: twice }), 'PATCH_FAILED');
    assert.match(ambiguous.message, /Section 2 of 2 .* is ambiguous: its "@@ function f\(\) \{" line is at line 1, above line 3/);
    assert.deepEqual(ambiguous.details?.matches_at_lines, [3, 8]);
    // Only exactly: lines found only ignoring whitespace are refused, as are lines found nowhere.
    const loose = v4a('*** Update File: fn.js', '@@ function f() {', '-  A();', '+  a();', '@@ function f() {', '-c();', '+C();');
    expectError(await call(ws.session, 'apply_patch', { patch: loose }), 'PATCH_FAILED');
    assertTree(ws.snap(), before);
  });

  it('a CRLF file stays CRLF (the patch has none), a file without a final newline keeps having none', async function () {
    ws.write({ 'crlf.txt': 'x\r\ny\r\nz\r\n', 'open.txt': 'a\nb' });
    const patch = v4a(
      '*** Update File: crlf.txt',
      ' x',
      '-y',
      '+Y',
      '+Y2',
      ' z',
      '*** Update File: open.txt',
      '@@',
      ' b',
      '+c',
      '*** End of File',
    );
    expectOk(await call(ws.session, 'apply_patch', { patch: patch.replace(/\n/g, '\r\n') }));
    assert.deepEqual(bytes('crlf.txt'), Buffer.from('x\r\nY\r\nY2\r\nz\r\n'));
    assert.deepEqual(bytes('open.txt'), Buffer.from('a\nb\nc'));
  });

  it('"*** End of File" places a section at the end of the file, and refuses it elsewhere', async function () {
    ws.write({ 'tail.txt': 'end\nmiddle\nend\n' });
    expectOk(await call(ws.session, 'apply_patch', { patch: v4a('*** Update File: tail.txt', '@@', '-end', '+END', '*** End of File') }));
    assert.equal(ws.read('tail.txt'), 'end\nmiddle\nEND\n');
    const before = ws.snap();
    const error = expectError(
      await call(ws.session, 'apply_patch', { patch: v4a('*** Update File: tail.txt', '@@', '-middle', '+MIDDLE', '*** End of File') }),
      'PATCH_FAILED',
    );
    assert.match(error.message, /does not match the file at its end/);
    assertTree(ws.snap(), before);
  });

  it('keeps a UTF-8 BOM, and patches windows-1252 and UTF-16LE (BOM, CRLF) files byte for byte', async function () {
    const latin = 'Café au lait, naïve façade\nGrüße aus Köln\nPreis: 5 €\n';
    const wide = 'first line\r\nsecond — line\r\nthird line\r\n';
    ws.write({
      'bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\ntwo\n')]),
      'w1252.txt': encodeAs(latin, 'windows1252', false),
      'utf16.txt': encodeAs(wide, 'utf16le', true),
    });
    const patch = v4a(
      '*** Update File: bom.txt',
      '-two',
      '+deux',
      '*** Update File: w1252.txt',
      ' Grüße aus Köln',
      '-Preis: 5 €',
      '+Preis: 6 € (März)',
      '*** Update File: utf16.txt',
      ' first line',
      '-second — line',
      '+second – line, ändert',
    );
    expectOk(await call(ws.session, 'apply_patch', { patch }));
    assert.deepEqual(bytes('bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\ndeux\n')]));
    assert.deepEqual(bytes('w1252.txt'), Buffer.from(encodeAs(latin.replace('Preis: 5 €', 'Preis: 6 € (März)'), 'windows1252', false)));
    assert.deepEqual(bytes('utf16.txt'), Buffer.from(encodeAs(wide.replace('second — line', 'second – line, ändert'), 'utf16le', true)));
  });

  it('"*** Move to:" renames with a change (the mode kept) or without one; an existing destination is refused', async function () {
    fs.chmodSync(path.join(ws.base, 'notes.txt'), 0o751);
    const patch = v4a('*** Update File: notes.txt', '*** Move to: moved/notes.md', '@@', ' one', '-two', '+TWO');
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }));
    assert.equal(ws.exists('notes.txt'), false);
    assert.equal(ws.read('moved/notes.md'), 'one\nTWO\nthree\n');
    assert.equal(fs.statSync(path.join(ws.base, 'moved/notes.md')).mode & 0o777, 0o751);
    assert.deepEqual(
      files(data).map((file) => [file.path, file.action, file.moved_to]),
      [['notes.txt', 'move', 'moved/notes.md']],
    );
    expectOk(await call(ws.session, 'apply_patch', { patch: v4a('*** Update File: old.txt', '*** Move to: kept.txt') }));
    assert.equal(ws.read('kept.txt'), 'obsolete\n');
    assert.equal(ws.exists('old.txt'), false);
    const before = ws.snap();
    const onto = expectError(
      await call(ws.session, 'apply_patch', { patch: v4a('*** Update File: kept.txt', '*** Move to: prog.py') }),
      'PATCH_FAILED',
    );
    assert.match(onto.message, /moves kept\.txt to prog\.py, which already exists/);
    assertTree(ws.snap(), before);
  });

  it('refuses to add a file that exists, and to delete, update or move one that does not', async function () {
    const before = ws.snap();
    const cases: [string, RegExp][] = [
      [v4a('*** Add File: notes.txt', '+x'), /creates notes\.txt, which already exists/],
      [v4a('*** Delete File: gone.txt'), /deletes gone\.txt, which does not exist/],
      [v4a('*** Update File: gone.txt', '@@', '-a', '+b'), /changes gone\.txt, which does not exist/],
      [v4a('*** Update File: gone.txt', '*** Move to: there.txt'), /moves gone\.txt, which does not exist/],
      [v4a('*** Update File: notes.txt', '@@', '-one', '+1', '*** Delete File: notes.txt'), /changes notes\.txt twice/],
    ];
    for (const [patch, message] of cases) {
      assert.match(expectError(await call(ws.session, 'apply_patch', { patch }), 'PATCH_FAILED').message, message);
    }
    assertTree(ws.snap(), before);
  });

  it('all or nothing: when the second file does not fit, the first is not written either', async function () {
    const before = ws.snap();
    const patch = v4a(
      '*** Update File: notes.txt',
      '-one',
      '+ONE',
      '*** Add File: fresh.txt',
      '+fresh',
      '*** Update File: prog.py',
      '@@',
      '-def omega():',
      '+def OMEGA():',
    );
    const error = expectError(await call(ws.session, 'apply_patch', { patch }), 'PATCH_FAILED');
    assert.equal(error.details?.file, 'prog.py');
    assert.equal(error.details?.section, 1);
    assert.equal(ws.read('notes.txt'), 'one\ntwo\nthree\n');
    assertTree(ws.snap(), before);
  });

  it('dry_run checks and reports every section but writes nothing', async function () {
    const before = ws.snap();
    const patch = v4a('*** Update File: notes.txt', '*** Move to: n.txt', '-two', '+2', '*** Delete File: old.txt');
    const data = expectOk(await call(ws.session, 'apply_patch', { patch, dry_run: true }));
    assert.equal(data.dry_run, true);
    assert.equal(data.applied, false);
    assert.deepEqual(
      files(data).map((file) => [file.action, file.moved_to]),
      [
        ['move', 'n.txt'],
        ['delete', undefined],
      ],
    );
    assertTree(ws.snap(), before);
  });

  it('a move with a change is one history record: undo_last puts the source back and removes the destination', async function () {
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-v4a-state-'));
    states.push(state);
    const session = createNodeSession(ws.base, {}, { stateDirectory: state });
    const before = ws.snap();
    const patch = v4a(
      '*** Update File: notes.txt',
      '*** Move to: deep/er/notes.txt',
      '-two',
      '+2',
      '*** Delete File: old.txt',
      '*** Add File: added.txt',
      '+added',
    );
    const done = expectOk(await call(session, 'apply_patch', { patch }));
    assert.equal(done.undo_available, true);
    const after = edit.clone(before);
    edit.remove(after, 'base/notes.txt');
    edit.remove(after, 'base/old.txt');
    edit.setFile(after, 'base/deep/er/notes.txt', 'one\n2\nthree\n');
    edit.setFile(after, 'base/added.txt', 'added\n');
    assertTree(ws.snap(), after);
    const record = expectOk(await call(session, 'history_get', { operation_id: done.operation_id }));
    assert.equal(record.operation, 'apply_patch');
    assert.deepEqual([...(record.paths as string[])].sort(), ['added.txt', 'deep', 'notes.txt', 'old.txt']);
    const list = expectOk(await call(session, 'history_list', {}));
    assert.equal((list.operations as unknown[]).length, 1, 'one record for the whole patch');
    expectOk(await call(session, 'undo_last', {}), 'undo_last');
    assertTree(ws.snap(), before);
  });

  it('the confirmation names the files deleted and moved; a patch that only adds files asks nothing', async function () {
    const session = createNodeSession(ws.base, { confirmDestructive: true });
    const before = ws.snap();
    const both = await prepareOperation(
      'apply_patch',
      { patch: v4a('*** Delete File: old.txt', '*** Update File: notes.txt', '*** Move to: n.txt', '-two', '+2') },
      session,
    );
    assert.equal(both.confirmation?.title, 'Apply a patch to 2 files (deletes 1 file, moves notes.txt to n.txt)?');
    assert.match(both.confirmation.message, /- `old\.txt`: deleted \(9 bytes\)/);
    assert.match(both.confirmation.message, /- `notes\.txt`: moved to `n\.txt`, 1 line removed, 1 added/);
    assert.match(both.confirmation.message, /```diff\n[\s\S]*\+\+\+ b\/n\.txt[\s\S]*-two\n\+2/);
    const moves = await prepareOperation(
      'apply_patch',
      { patch: v4a('*** Update File: notes.txt', '*** Move to: n.txt', '*** Update File: old.txt', '*** Move to: o.txt') },
      session,
    );
    assert.equal(moves.confirmation?.title, 'Apply a patch to 2 files (moves 2 files)?');
    const adds = await prepareOperation('apply_patch', { patch: v4a('*** Add File: a.txt', '+a') }, session);
    assert.equal(adds.confirmation, undefined);
    assertTree(ws.snap(), before);
  });

  it('refuses a patch cut off before "*** End Patch", stray lines, and text after the end, naming the line', async function () {
    const before = ws.snap();
    const cut = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-one\n+ONE\n';
    const error = expectError(await call(ws.session, 'apply_patch', { patch: cut }), 'PATCH_FAILED');
    assert.match(error.message, /begins with "\*\*\* Begin Patch" but has no "\*\*\* End Patch" line/);
    const stray = v4a('*** Update File: notes.txt', '@@', 'one', '+ONE');
    const strayError = expectError(await call(ws.session, 'apply_patch', { patch: stray }), 'PATCH_FAILED');
    assert.match(strayError.message, /^Line 4 of the patch: in a section of "\*\*\* Update File: notes\.txt" each line starts with " "/);
    assert.equal(strayError.details?.line, 4);
    const after = `${v4a('*** Delete File: old.txt')}Done!\n`;
    assert.match(expectError(await call(ws.session, 'apply_patch', { patch: after }), 'PATCH_FAILED').message, /text follows/);
    const empty = v4a('*** Update File: notes.txt');
    assert.match(expectError(await call(ws.session, 'apply_patch', { patch: empty }), 'PATCH_FAILED').message, /has no sections/);
    assertTree(ws.snap(), before);
  });

  it('leniencies: surrounding blank lines, an empty context line written empty, a unified "@@ -l,n +l,n @@" header', async function () {
    ws.write({ 'gap.txt': 'a\n\nb\nc\n' });
    const patch = `\n\n${v4a('*** Update File: gap.txt', '@@ -1,4 +1,4 @@', ' a', '', '-b', '+B', '')}\n`;
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }));
    assert.equal(ws.read('gap.txt'), 'a\n\nB\nc\n');
    assert.deepEqual(files(data)[0]?.hunks, [{ header: '@@ -1,4 +1,4 @@', line: 1, offset: 0, stage: 'exact' }]);
    const spaced = v4a('*** Update File: gap.txt', '', '*** Move to: gap2.txt', '', '@@', ' a', '', '-B', '+b2', '', '@@', '-c', '+C', '');
    expectOk(await call(ws.session, 'apply_patch', { patch: spaced }));
    assert.equal(ws.read('gap2.txt'), 'a\n\nb2\nC\n');
  });

  it('paths are confined: outside the base, protected paths and a move out of the base are refused', async function () {
    const before = ws.snap();
    expectError(await call(ws.session, 'apply_patch', { patch: v4a('*** Add File: ../outside/evil.txt', '+x') }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(
      await call(ws.session, 'apply_patch', { patch: v4a('*** Update File: notes.txt', '*** Move to: ../outside/n.txt') }),
      'FILE_PATH_OUTSIDE_BASE',
    );
    expectError(await call(ws.session, 'apply_patch', { patch: v4a('*** Add File: .env', '+SECRET=1') }), 'SENSITIVE_PATH_REFUSED');
    expectError(
      await call(ws.session, 'apply_patch', { patch: v4a('*** Update File: notes.txt', '*** Move to: .env') }),
      'SENSITIVE_PATH_REFUSED',
    );
    assertTree(ws.snap(), before);
  });

  it('a file above the in-memory edit limit is refused (LIMIT_EXCEEDED) with the advice to use a unified diff', async function () {
    const small = tempWorkspace({ editInMemoryBytes: 8 });
    try {
      small.write({ 'big.txt': 'one\ntwo\nthree\n' });
      const before = small.snap();
      const error = expectError(
        await call(small.session, 'apply_patch', { patch: v4a('*** Update File: big.txt', '-two', '+2') }),
        'LIMIT_EXCEEDED',
      );
      assert.match(error.message, /unified diff/);
      assert.deepEqual(error.details, { field: 'size_bytes', cap: 8, path: 'big.txt' });
      assertTree(small.snap(), before);
      // The same change as a unified diff streams.
      expectOk(
        await call(small.session, 'apply_patch', { patch: '--- a/big.txt\n+++ b/big.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n' }),
      );
      assert.equal(small.read('big.txt'), 'one\n2\nthree\n');
    } finally {
      small.cleanup();
    }
  });
});
