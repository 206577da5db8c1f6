/**
 * A disk that fills up loses nothing. With the history store on a small file system filled to the last byte, every
 * tool that changes files refuses (HISTORY_WRITE_FAILED) and changes nothing, and the store holds nothing torn; once
 * space is freed the next call is made, recorded and undone. With the workspace itself full, a write fails cleanly
 * (WRITE_FAILED) and leaves the old bytes and no staging file. The file systems are real: small tmpfs mounts, which
 * needs root (CI and this project's hosts run as root; elsewhere the test fails and says so).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Session } from '../../src/core/invoke';
import { isStagingName } from '../../src/core/files/staging';
import { createNodeSession } from '../../src/node/host/session';
import { assertTree, snapshot } from '../shared/tree';
import { call, expectError, expectOk, makeTempDir, removeTree } from './helpers';
import { readPack } from './packFile';

function mountTmpfs(directory: string, bytes: number): void {
  if (process.getuid?.() !== 0) {
    assert.fail('This test mounts small tmpfs file systems to fill them, which needs root: run the unit tests as root (as CI does).');
  }
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', directory], { encoding: 'utf8' });
  assert.equal(mounted.status, 0, `mount -t tmpfs failed: ${mounted.stderr}`);
}

function unmount(directory: string): void {
  spawnSync('umount', [directory]);
}

/** Fills the file system of `directory` to the last byte; returns the filler to delete to free the space again. */
function fill(directory: string): string {
  const filler = path.join(directory, 'filler');
  const fd = fs.openSync(filler, 'w');
  const block = Buffer.alloc(4096, 0x61);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(1, 0x61));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

/**
 * Every file the store holds is whole: the pack, entry by entry to its end (an append a full disk cut short was cut
 * back), blobs of their own under their own hash, no staging file.
 */
function assertStoreWhole(state: string): void {
  if (!fs.existsSync(state)) return;
  const visit = (directory: string): void => {
    for (const name of fs.readdirSync(directory)) {
      const full = path.join(directory, name);
      if (name === 'filler') continue;
      assert.ok(!isStagingName(name), `no staging file left: ${full}`);
      if (fs.statSync(full).isDirectory()) visit(full);
      else if (path.basename(directory) === 'blobs')
        assert.equal(createHash('sha256').update(fs.readFileSync(full)).digest('hex'), name, `blob ${name} is whole`);
      else if (name === 'pack') assert.equal(readPack(directory).tornBytes, 0, 'the pack is whole to its end');
    }
  };
  visit(state);
}

const CHANGES: readonly [string, Record<string, unknown>][] = [
  ['write_file', { file_name: 'big.txt', content: 'replaced\n' }],
  ['write_file', { file_name: 'new.txt', content: 'new\n' }],
  ['create_file', { path: 'created.txt', content: 'c\n' }],
  ['edit_file', { path: 'big.txt', old_string: 'line 00001', new_string: 'LINE 00001' }],
  ['replace_lines', { path: 'big.txt', start_line: 2, end_line: 2, content: 'two\n' }],
  ['insert_lines', { path: 'big.txt', position: 'end', content: 'end\n' }],
  ['delete_lines', { path: 'big.txt', start_line: 3, end_line: 3 }],
  ['apply_patch', { patch: '--- a/small.txt\n+++ b/small.txt\n@@ -1,1 +1,1 @@\n-small\n+patched\n' }],
  ['delete_file', { file_name: 'big.txt' }],
  ['copy_file', { source_path: 'small.txt', destination_path: 'big.txt', overwrite: true }],
  ['move_file', { source_path: 'small.txt', destination_path: 'moved.txt' }],
  ['create_directory', { directory_name: 'made' }],
  ['delete_directory', { directory_path: 'tree', recursive: true }],
  ['copy_directory', { source_path: 'tree', destination_path: 'tree-copy' }],
  ['move_directory', { source_path: 'tree', destination_path: 'tree-moved' }],
];

function populate(base: string): void {
  const lines = Array.from({ length: 2000 }, (_, index) => `line ${String(index + 1).padStart(5, '0')} of a file of 140 KB or so, text\n`);
  fs.writeFileSync(path.join(base, 'big.txt'), lines.join(''));
  fs.writeFileSync(path.join(base, 'small.txt'), 'small\n');
  fs.mkdirSync(path.join(base, 'tree', 'deep'), { recursive: true });
  fs.writeFileSync(path.join(base, 'tree', 'a.txt'), 'a\n');
  fs.writeFileSync(path.join(base, 'tree', 'deep', 'b.txt'), 'b\n');
}

describe('a full disk loses nothing', function () {
  let root: string;
  beforeEach(function () {
    root = makeTempDir('agentfs-full-');
  });
  afterEach(function () {
    for (const name of ['state', 'base']) unmount(path.join(root, name));
    removeTree(root);
  });

  it('with the history store full, every changing tool changes nothing and says why; freed, the next call is recorded and undone', async function () {
    const base = path.join(root, 'base');
    const state = path.join(root, 'state');
    fs.mkdirSync(base);
    fs.mkdirSync(state);
    populate(base);
    mountTmpfs(state, 256 * 1024);
    const session: Session = createNodeSession(base, {}, { stateDirectory: state });
    // A first recorded call gives the store its folder and pack, so "full" means full, not "not yet made".
    expectOk(await call(session, 'write_file', { file_name: 'warm.txt', content: 'warm\n' }));
    const filler = fill(state);
    const before = snapshot(base);
    for (const [operation, input] of CHANGES) {
      const refused = expectError(await call(session, operation, input), 'HISTORY_WRITE_FAILED');
      assert.match(refused.message, /changed nothing: .*no space left on device.*turn the history off/is, operation);
      assertTree(snapshot(base), before, `${operation} changed nothing`);
      assertStoreWhole(state);
    }
    assert.equal(expectOk(await call(session, 'history_list', {})).total, 1, 'only the first call is in the history');
    fs.rmSync(filler);
    const edited = expectOk(await call(session, 'replace_lines', { path: 'big.txt', start_line: 1, end_line: 1, content: 'first\n' }));
    assert.equal(edited.undo_available, true);
    assertStoreWhole(state);
    expectOk(await call(session, 'undo_last', {}));
    assertTree(snapshot(base), before, 'undone exactly');
  });

  it('with the workspace full, a write fails cleanly: the old bytes stay, no staging file, nothing in the history', async function () {
    const base = path.join(root, 'base');
    const state = path.join(root, 'state');
    fs.mkdirSync(base);
    fs.mkdirSync(state);
    mountTmpfs(base, 512 * 1024);
    populate(base);
    const session: Session = createNodeSession(base, {}, { stateDirectory: state });
    const filler = fill(base);
    const before = snapshot(base);
    const bigger = 'x'.repeat(300 * 1024);
    for (const [operation, input] of [
      ['write_file', { file_name: 'big.txt', content: bigger }],
      ['write_file', { file_name: 'new.txt', content: bigger }],
      ['edit_file', { path: 'big.txt', old_string: 'line 00001', new_string: bigger }],
      ['copy_directory', { source_path: 'tree', destination_path: 'tree-copy' }],
    ] as const) {
      const failed = await call(session, operation, input);
      assert.equal(failed.ok, false, `${operation} cannot succeed on a full disk`);
      assertTree(snapshot(base), before, `${operation} left the workspace as it was`);
    }
    assert.equal(expectOk(await call(session, 'history_list', {})).total, 0);
    assertStoreWhole(state);
    fs.rmSync(filler);
    expectOk(await call(session, 'write_file', { file_name: 'big.txt', content: 'fits now\n' }));
    assert.equal(fs.readFileSync(path.join(base, 'big.txt'), 'utf8'), 'fits now\n');
  });
});
