import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import { api, callTool, eventually, expectError, expectFields, expectOk, readText, scratch, snapshot } from '../helpers';

/** Every tab's label in the window, for finding the preview's. */
function tabLabels(): string[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
}

describe('replace_in_files', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("replaces across files in their encodings, all or nothing, and the editor's Undo Last Change puts every byte back", async () => {
    const s = scratch('replace', { 'a.ts': 'fetchUser();\r\nfetchUser(1);\r\n', 'b/c.md': 'call fetchUser\n', 'd.txt': 'nothing\n' });
    fs.writeFileSync(s.abs('wide.txt'), Buffer.from('\ufefffetchUser wide\n', 'utf16le'));
    const before = snapshot(s.abs());
    const wideBefore = fs.readFileSync(s.abs('wide.txt'));
    const input = { query: 'fetch(User)', replacement: 'load$1', is_regex: true, paths: [s.rel()] };
    const dry = expectOk(await callTool('replace_in_files', { ...input, dry_run: true }));
    expectFields(dry.data, { dry_run: true, files_changed: 3, replacements: 4 });
    assert.deepEqual(snapshot(s.abs()), before, 'the dry run changed nothing');
    const done = expectOk(await callTool('replace_in_files', { ...input, expected_total: 4 }));
    expectFields(done.data, { dry_run: false, files_changed: 3, replacements: 4 });
    assert.equal(readText(s.abs('a.ts')), 'loadUser();\r\nloadUser(1);\r\n');
    assert.equal(readText(s.abs('b/c.md')), 'call loadUser\n');
    assert.deepEqual(fs.readFileSync(s.abs('wide.txt')), Buffer.from('\ufeffloadUser wide\n', 'utf16le'));
    // The editor's own Undo Last Change (its question answered Yes) puts every file back byte for byte.
    const asked: string[] = [];
    (await api()).setDialogs({ confirm: (message) => (asked.push(message), Promise.resolve(true)), info: () => undefined });
    expectOk(await vscode.commands.executeCommand<Envelope>('agentFs.undoLast'));
    assert.match(asked[0] ?? '', /replace_in_files|3 files/);
    assert.deepEqual(snapshot(s.abs()), before);
    assert.deepEqual(fs.readFileSync(s.abs('wide.txt')), wideBefore);
  });

  it('refuses a pattern that can match the empty string, and expected_total the files no longer give', async () => {
    const s = scratch('replace-refused', { 'a.txt': 'aaa\n' });
    expectError(await callTool('replace_in_files', { query: 'a*', replacement: 'b', is_regex: true, paths: [s.rel()] }), 'INVALID_PATTERN');
    const conflict = expectError(
      await callTool('replace_in_files', { query: 'a', replacement: 'b', paths: [s.rel()], expected_total: 2 }),
      'CONTENT_CONFLICT',
    );
    assert.equal(conflict.error.details?.replacements, 3);
    assert.equal(readText(s.abs('a.txt')), 'aaa\n');
  });

  it('shows every change in the multi-file diff editor before it is made; declined, nothing changes', async () => {
    const s = scratch('replace-preview', { 'one.ts': 'const fetchUser = 1;\n', 'two/two.ts': 'fetchUser(fetchUser);\n' });
    const before = snapshot(s.abs());
    const input = { query: 'fetchUser', replacement: 'loadUser', paths: [s.rel()] };
    const { preparation, preview } = await (await api()).prepareInvocation('replace_in_files', input);
    assert.ok(preparation.confirmation, 'the change is put to the person');
    assert.match(preparation.confirmation.title, /Replace "fetchUser" in 2 files \(3 replacements\)\?/);
    assert.ok(preview, 'the preview opened');
    // The multi-file diff editor's tab: the preview's title, to which VS Code adds the count of files.
    await eventually(
      () => tabLabels().some((label) => label.startsWith(preview.title)),
      `a tab "${preview.title}" is open: ${tabLabels().join(', ')}`,
    );
    const shown = await Promise.all(
      preview.resources.map(async ([file, left, right]) => ({
        file: file.path,
        before: (await vscode.workspace.openTextDocument(left)).getText(),
        after: (await vscode.workspace.openTextDocument(right)).getText(),
      })),
    );
    assert.deepEqual(shown, [
      { file: vscode.Uri.file(s.abs('one.ts')).path, before: 'const fetchUser = 1;\n', after: 'const loadUser = 1;\n' },
      { file: vscode.Uri.file(s.abs('two/two.ts')).path, before: 'fetchUser(fetchUser);\n', after: 'loadUser(loadUser);\n' },
    ]);
    // Declining is not calling: the card's Skip leaves the call unmade, and the preview wrote nothing.
    assert.deepEqual(snapshot(s.abs()), before);
  });
});
