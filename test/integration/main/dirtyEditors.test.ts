import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { callTool, eventually, expectError, expectOk, readText, scratch, withoutAutoSave } from '../helpers';

/** A person's unsaved work is never overwritten; a clean open editor follows the file. */
describe('open editors', () => {
  withoutAutoSave();
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a file with unsaved changes is refused (FILE_DIRTY_IN_EDITOR) by every kind of write', async () => {
    const s = scratch('dirty', { 'a.txt': 'on disk\n' });
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(s.abs('a.txt')));
    await vscode.window.showTextDocument(document);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), 'unsaved ');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(document.isDirty, 'the document has unsaved changes');
    expectError(await callTool('edit_file', { path: s.rel('a.txt'), old_string: 'on disk', new_string: 'x' }), 'FILE_DIRTY_IN_EDITOR');
    expectError(await callTool('write_file', { file_name: s.rel('a.txt'), content: 'x' }), 'FILE_DIRTY_IN_EDITOR');
    expectError(await callTool('delete_file', { file_name: s.rel('a.txt') }), 'FILE_DIRTY_IN_EDITOR');
    expectError(await callTool('delete_directory', { directory_path: s.rel(), recursive: true }), 'FILE_DIRTY_IN_EDITOR');
    // A replacement across files is refused whole, naming the file, whatever else it would change.
    const across = expectError(
      await callTool('replace_in_files', { query: 'on disk', replacement: 'x', paths: [s.rel()] }),
      'FILE_DIRTY_IN_EDITOR',
    );
    assert.equal(across.error.details?.path, s.rel('a.txt'));
    assert.equal(readText(s.abs('a.txt')), 'on disk\n');
    assert.equal(document.getText(), 'unsaved on disk\n');
  });

  it('a clean open editor shows the new content after the write', async () => {
    const s = scratch('clean', { 'b.txt': 'before\n' });
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(s.abs('b.txt')));
    await vscode.window.showTextDocument(document);
    expectOk(await callTool('edit_file', { path: s.rel('b.txt'), old_string: 'before', new_string: 'after' }));
    await eventually(() => document.getText() === 'after\n', 'the editor shows the new content');
    assert.equal(document.isDirty, false);
  });
});
