/**
 * Fault injection: every operation that writes file content stages it in a temporary sibling and
 * renames it into place. A failure at any step (the write, the rename, the permissions copy, a crash right after a
 * step, a cancellation between steps) must leave the old bytes byte-identical and no temporary file behind.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CancelledError } from '../../src/core/errors';
import { invokeOperation } from '../../src/core/invoke';
import { FaultyFileSystem, type Fault, isStagingPath, sessionOver } from './faultInjection';
import { assertTree, expectError, expectOk, snapshot, tempWorkspace, type TempWorkspace } from './helpers';

const ORIGINAL = 'first line\r\nsecond line\r\nthird line\r\n';

interface Case {
  readonly operation: string;
  readonly input: Record<string, unknown>;
  readonly code: string;
}

const EDITS: readonly Case[] = [
  { operation: 'write_file', input: { file_name: 'doc.txt', content: 'replaced\n' }, code: 'WRITE_FAILED' },
  { operation: 'edit_file', input: { path: 'doc.txt', old_string: 'second', new_string: 'SECOND' }, code: 'WRITE_FAILED' },
  { operation: 'replace_lines', input: { path: 'doc.txt', start_line: 2, end_line: 2, content: 'two' }, code: 'WRITE_FAILED' },
  { operation: 'insert_lines', input: { path: 'doc.txt', position: 'end', content: 'four' }, code: 'WRITE_FAILED' },
  { operation: 'delete_lines', input: { path: 'doc.txt', start_line: 1, end_line: 1 }, code: 'WRITE_FAILED' },
  {
    operation: 'apply_patch',
    input: { patch: '--- a/doc.txt\n+++ b/doc.txt\n@@ -1,3 +1,3 @@\n first line\n-second line\n+2nd line\n third line\n' },
    code: 'WRITE_FAILED',
  },
  { operation: 'copy_file', input: { source_path: 'other.txt', destination_path: 'doc.txt', overwrite: true }, code: 'COPY_FAILED' },
  { operation: 'replace_in_files', input: { query: 'second', replacement: 'SECOND' }, code: 'WRITE_FAILED' },
];

const FAULTS: readonly (Fault & { label: string })[] = [
  { label: 'the write of the new bytes fails', step: 'writeFile' },
  { label: 'the process dies right after writing the new bytes', step: 'writeFile', timing: 'after' },
  { label: 'the rename over the target fails', step: 'rename' },
  { label: 'copying the old file (for its permissions) fails', step: 'copyFile' },
  { label: 'the process dies right after the staging copy', step: 'copyFile', timing: 'after' },
];

function stagingFiles(root: string): string[] {
  return [...snapshot(root).keys()].filter((key) => isStagingPath(`/${key}`));
}

describe('atomic writes under fault injection', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'doc.txt': ORIGINAL, 'other.txt': 'other content\n' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  for (const each of EDITS) {
    for (const fault of FAULTS) {
      // copy_file stages with copyFile alone; a writeFile fault never reaches it.
      if (each.operation === 'copy_file' && fault.step === 'writeFile') continue;
      it(`${each.operation}: ${fault.label} → ${each.code}, old bytes kept, no temporary file`, async function () {
        const faulty = new FaultyFileSystem().fail(fault);
        const before = ws.snap();
        const envelope = await invokeOperation(each.operation, each.input, sessionOver(faulty, ws.base));
        assert.equal(faulty.fired, 1, `the ${fault.step} fault was reached: ${faulty.calls.join(', ')}`);
        const error = expectError(envelope, each.code, each.operation);
        assert.match(error.message, /injected/);
        assertTree(ws.snap(), before);
        assert.deepEqual(stagingFiles(ws.tmp), []);
      });
    }
    it(`${each.operation}: cancelled between writing and renaming → cancellation, old bytes kept, no temporary file`, async function () {
      const faulty = new FaultyFileSystem();
      const before = ws.snap();
      // Cancelled once content has been staged: the next throwIfCancelled sits between that step and the rename.
      const staged = (): boolean =>
        faulty.calls.some((call) => /^(writeFile|copyFile) /.test(call) && isStagingPath(call.split(' ')[1] ?? ''));
      await assert.rejects(invokeOperation(each.operation, each.input, sessionOver(faulty, ws.base), staged), CancelledError);
      assert.ok(staged(), 'content was staged before the cancellation');
      assertTree(ws.snap(), before);
      assert.deepEqual(stagingFiles(ws.tmp), []);
    });
  }

  it('create_file: a failed write or rename leaves no file and no temporary file', async function () {
    for (const fault of [{ step: 'writeFile' }, { step: 'writeFile', timing: 'after' }, { step: 'rename' }] as const) {
      const faulty = new FaultyFileSystem().fail(fault);
      const before = ws.snap();
      expectError(
        await invokeOperation('create_file', { path: 'fresh.txt', content: 'new\n' }, sessionOver(faulty, ws.base)),
        'WRITE_FAILED',
      );
      assertTree(ws.snap(), before);
      assert.deepEqual(stagingFiles(ws.tmp), []);
    }
  });

  it('write_file creating a new file: a failed rename leaves nothing behind', async function () {
    const faulty = new FaultyFileSystem().fail({ step: 'rename' });
    const before = ws.snap();
    expectError(
      await invokeOperation('write_file', { file_name: 'brand-new.txt', content: 'x' }, sessionOver(faulty, ws.base)),
      'WRITE_FAILED',
    );
    assertTree(ws.snap(), before);
  });

  it('copy_file to a new destination is staged too: a copy that dies midway leaves no torn destination', async function () {
    const faulty = new FaultyFileSystem().fail({ step: 'copyFile', timing: 'after' });
    const before = ws.snap();
    expectError(
      await invokeOperation('copy_file', { source_path: 'other.txt', destination_path: 'copy.txt' }, sessionOver(faulty, ws.base)),
      'COPY_FAILED',
    );
    assertTree(ws.snap(), before);
  });

  it('a successful edit leaves exactly the new bytes and no temporary file', async function () {
    const faulty = new FaultyFileSystem();
    expectOk(
      await invokeOperation('edit_file', { path: 'doc.txt', old_string: 'second', new_string: 'SECOND' }, sessionOver(faulty, ws.base)),
    );
    assert.equal(ws.read('doc.txt'), ORIGINAL.replace('second', 'SECOND'));
    assert.deepEqual(stagingFiles(ws.tmp), []);
    assert.ok(
      faulty.calls.some((call) => call.startsWith('rename ') && call.endsWith('/doc.txt')),
      'the new bytes arrived by rename',
    );
  });

  // Permission bits are POSIX: on Windows there is nothing to keep, and so no test.
  if (process.platform !== 'win32')
    it('keeps the permission bits of the file it replaces', async function () {
      fs.chmodSync(path.join(ws.base, 'doc.txt'), 0o640);
      expectOk(await invokeOperation('edit_file', { path: 'doc.txt', old_string: 'third', new_string: 'THIRD' }, ws.session));
      assert.equal(fs.statSync(path.join(ws.base, 'doc.txt')).mode & 0o777, 0o640);
    });
});

describe('apply_patch across several files when a write fails midway', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'a1\na2\na3\n', 'b.txt': 'b1\nb2\nb3\n', 'gone.txt': 'to be deleted\n' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  const PATCH = [
    '--- a/a.txt',
    '+++ b/a.txt',
    '@@ -1,3 +1,3 @@',
    ' a1',
    '-a2',
    '+A2',
    ' a3',
    '--- /dev/null',
    '+++ b/new/created.txt',
    '@@ -0,0 +1,1 @@',
    '+created',
    '--- a/gone.txt',
    '+++ /dev/null',
    '@@ -1,1 +0,0 @@',
    '-to be deleted',
    '--- a/b.txt',
    '+++ b/b.txt',
    '@@ -1,3 +1,3 @@',
    ' b1',
    '-b2',
    '+B2',
    ' b3',
    '',
  ].join('\n');

  it('restores the files already written (modified, created, deleted) and says which', async function () {
    const faulty = new FaultyFileSystem().fail({ step: 'rename', when: (to) => to.endsWith('/b.txt') });
    const before = snapshot(ws.base);
    const error = expectError(
      await invokeOperation('apply_patch', { patch: PATCH }, sessionOver(faulty, ws.base)),
      'WRITE_FAILED',
      'apply_patch',
    );
    assert.match(error.message, /b\.txt/);
    assert.match(error.message, /restored/);
    assert.deepEqual(error.details, { failed_path: 'b.txt', restored: ['gone.txt', 'new/created.txt', 'a.txt'], not_restored: [] });
    // The created directory may stay (empty); every file is as it was.
    const after = snapshot(ws.base);
    after.delete('new');
    assertTree(after, before);
    assert.deepEqual(stagingFiles(ws.tmp), []);
  });

  it('a cancellation midway also restores, then cancels', async function () {
    const faulty = new FaultyFileSystem();
    const before = snapshot(ws.base);
    const cancelled = (): boolean => faulty.calls.some((call) => call.startsWith('delete ') && call.endsWith('/gone.txt'));
    await assert.rejects(invokeOperation('apply_patch', { patch: PATCH }, sessionOver(faulty, ws.base), cancelled), CancelledError);
    const after = snapshot(ws.base);
    after.delete('new');
    assertTree(after, before);
  });

  it('applies all four changes when nothing fails', async function () {
    const data = expectOk(await invokeOperation('apply_patch', { patch: PATCH }, ws.session));
    assert.equal(data.files_changed, 4);
    assert.equal(ws.read('a.txt'), 'a1\nA2\na3\n');
    assert.equal(ws.read('b.txt'), 'b1\nB2\nb3\n');
    assert.equal(ws.read('new/created.txt'), 'created\n');
    assert.equal(ws.exists('gone.txt'), false);
  });
});
