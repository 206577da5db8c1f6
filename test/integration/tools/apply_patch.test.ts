import * as assert from 'node:assert/strict';
import { callTool, exists, expectError, expectFields, expectOk, readText, scratch, snapshot } from '../helpers';

describe('apply_patch', () => {
  it('changes, creates and deletes files in one patch (the confirmation is accepted by the test host)', async () => {
    const s = scratch('patch', { 'a.txt': 'a1\na2\na3\n', 'gone.txt': 'bye\n' });
    const patch = [
      `--- a/${s.rel('a.txt')}`,
      `+++ b/${s.rel('a.txt')}`,
      '@@ -1,3 +1,3 @@',
      ' a1',
      '-a2',
      '+A2',
      ' a3',
      '--- /dev/null',
      `+++ b/${s.rel('new/n.txt')}`,
      '@@ -0,0 +1 @@',
      '+n',
      `--- a/${s.rel('gone.txt')}`,
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '',
    ].join('\n');
    const { data } = expectOk(await callTool('apply_patch', { patch }));
    expectFields(data, { applied: true, files_changed: 3 });
    assert.equal(readText(s.abs('a.txt')), 'a1\nA2\na3\n');
    assert.equal(readText(s.abs('new/n.txt')), 'n\n');
    assert.equal(exists(s.abs('gone.txt')), false);
  });

  it('a hunk that does not match refuses the whole patch (PATCH_FAILED), nothing written', async () => {
    const s = scratch('patch-fail', { 'a.txt': 'x\n', 'b.txt': 'y\n' });
    const patch = `--- a/${s.rel('a.txt')}\n+++ b/${s.rel('a.txt')}\n@@ -1 +1 @@\n-x\n+X\n--- a/${s.rel('b.txt')}\n+++ b/${s.rel('b.txt')}\n@@ -1 +1 @@\n-not y\n+Y\n`;
    const refused = expectError(await callTool('apply_patch', { patch }), 'PATCH_FAILED');
    assert.equal(refused.error.details?.file, s.rel('b.txt'));
    assert.deepEqual(snapshot(s.abs()), { 'a.txt': 'x\n', 'b.txt': 'y\n' });
  });

  it('takes a V4A patch: a section placed by its "@@" line, a move with an edit, a CRLF file kept CRLF', async () => {
    const s = scratch('patch-v4a', { 'prog.txt': 'f1\nx\nf2\nx\n', 'win.txt': 'one\r\ntwo\r\n' });
    const patch = [
      '*** Begin Patch',
      `*** Update File: ${s.rel('prog.txt')}`,
      '@@ f2',
      '-x',
      '+X',
      `*** Update File: ${s.rel('win.txt')}`,
      `*** Move to: ${s.rel('moved/win.txt')}`,
      ' one',
      '-two',
      '+TWO',
      '*** End Patch',
      '',
    ].join('\n');
    const { data } = expectOk(await callTool('apply_patch', { patch }));
    expectFields(data, { applied: true, files_changed: 2 });
    assert.equal(readText(s.abs('prog.txt')), 'f1\nx\nf2\nX\n');
    assert.equal(readText(s.abs('moved/win.txt')), 'one\r\nTWO\r\n');
    assert.equal(exists(s.abs('win.txt')), false);
  });
});
