import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, scratch, snapshot, withSetting } from '../helpers';

/**
 * Inside a test run VS Code accepts tool confirmations by itself, so what the person would be asked is checked
 * through the API's prepare(), the same function the registered prepareInvocation calls.
 */
describe('confirmations (prepareInvocation)', () => {
  it('asks before deleting a file, naming it, and changes nothing while asking', async () => {
    const s = scratch('confirm-delete', { 'doomed.txt': 'bytes' });
    const before = snapshot(s.abs());
    const prepared = await (await api()).prepare('delete_file', { file_name: s.rel('doomed.txt') });
    assert.match(prepared.invocationMessage, /doomed\.txt/);
    assert.ok(prepared.confirmation, 'delete_file asks');
    assert.match(prepared.confirmation.title, /delete/i);
    assert.match(prepared.confirmation.message, /doomed\.txt/);
    assert.deepEqual(snapshot(s.abs()), before);
  });

  it('tells how many entries a recursive directory delete removes', async () => {
    const s = scratch('confirm-rmdir', { 'tree/a.txt': 'a', 'tree/b.txt': 'b', 'tree/sub/c.txt': 'c' });
    const prepared = await (await api()).prepare('delete_directory', { directory_path: s.rel('tree'), recursive: true });
    assert.ok(prepared.confirmation, 'delete_directory asks');
    assert.match(prepared.confirmation.message, /tree/);
    assert.match(prepared.confirmation.message, /3 files?/);
  });

  it('asks before write_file replaces a file, not when it creates one', async () => {
    const s = scratch('confirm-write', { 'there.txt': 'old' });
    const agentFs = await api();
    const replacing = await agentFs.prepare('write_file', { file_name: s.rel('there.txt'), content: 'new' });
    assert.ok(replacing.confirmation, 'replacing asks');
    assert.match(replacing.confirmation.message, /there\.txt/);
    const creating = await agentFs.prepare('write_file', { file_name: s.rel('fresh.txt'), content: 'new' });
    assert.equal(creating.confirmation, undefined);
    assert.match(creating.invocationMessage, /fresh\.txt/);
  });

  it('asks before copy or move overwrite an existing destination, naming it', async () => {
    const s = scratch('confirm-copy', { 'src.txt': 'new', 'dst.txt': 'old', 'dir/a.txt': 'a', 'target/b.txt': 'b' });
    const agentFs = await api();
    const copy = await agentFs.prepare('copy_file', { source_path: s.rel('src.txt'), destination_path: s.rel('dst.txt'), overwrite: true });
    assert.ok(copy.confirmation);
    assert.match(copy.confirmation.message, /dst\.txt/);
    const move = await agentFs.prepare('move_directory', { source_path: s.rel('dir'), destination_path: s.rel('target'), overwrite: true });
    assert.ok(move.confirmation);
    assert.match(move.confirmation.message, /target/);
    const plain = await agentFs.prepare('copy_file', { source_path: s.rel('src.txt'), destination_path: s.rel('elsewhere.txt') });
    assert.equal(plain.confirmation, undefined);
    assert.equal(snapshot(s.abs())['dst.txt'], 'old');
  });

  it('reads never ask', async () => {
    const s = scratch('confirm-read', { 'r.txt': 'r' });
    const prepared = await (await api()).prepare('read_file', { file_name: s.rel('r.txt') });
    assert.equal(prepared.confirmation, undefined);
    assert.match(prepared.invocationMessage, /r\.txt/);
  });

  it("agentFs.confirmDestructive false in user settings drops Agent FS's own confirmation; a workspace value cannot", async () => {
    const s = scratch('confirm-off', { 'x.txt': 'x' });
    const agentFs = await api();
    await withSetting(
      'confirmDestructive',
      false,
      async () => {
        assert.equal((await agentFs.prepare('delete_file', { file_name: s.rel('x.txt') })).confirmation, undefined);
      },
      vscode.ConfigurationTarget.Global,
    );
    await withSetting('confirmDestructive', false, async () => {
      assert.ok((await agentFs.prepare('delete_file', { file_name: s.rel('x.txt') })).confirmation);
    });
  });
});
