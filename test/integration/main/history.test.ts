import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import type { OperationChoice } from '../../../src/vscode/dialogs';
import type { ActivityNode } from '../../../src/vscode/history/view';
import { api, callTool, expectError, expectOk, readText, scratch, workspaceRoot } from '../helpers';

interface Shown {
  info: string[];
  error: string[];
  confirms: string[];
  choices: OperationChoice[];
}

/** Answers the history commands' dialogs: confirm with `confirm`, pick the operation `pick` chooses. */
async function injectDialogs(confirm: boolean, pick?: (choices: readonly OperationChoice[]) => string | undefined): Promise<Shown> {
  const shown: Shown = { info: [], error: [], confirms: [], choices: [] };
  (await api()).setDialogs({
    info: (message) => shown.info.push(message),
    error: (message) => shown.error.push(message),
    confirm: (message) => {
      shown.confirms.push(message);
      return Promise.resolve(confirm);
    },
    pickOperation: (choices) => {
      shown.choices.push(...choices);
      return Promise.resolve(pick?.(choices));
    },
  });
  return shown;
}

/** The newest operation: the first of the newest session's, the view grouping operations by session. */
async function topOperation(): Promise<Extract<ActivityNode, { kind: 'operation' }>> {
  const { activity } = await api();
  const [session] = await activity.getChildren();
  assert.ok(session?.kind === 'session', 'the view lists sessions');
  const [first] = await activity.getChildren(session);
  assert.ok(first?.kind === 'operation', 'a session lists its operations');
  return first;
}

function activeDiff(): vscode.TabInputTextDiff | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input : undefined;
}

describe('history: the Activity view, Show Change History and Undo Last Change', () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a change appears in the view at once, with an inline Open Diff that shows before ↔ after', async () => {
    const s = scratch('history-view', { 'notes.md': 'one\ntwo\n' });
    const written = expectOk(await callTool('write_file', { file_name: s.rel('notes.md'), content: 'one\nTWO\n' }));
    assert.equal(typeof written.data.operation_id, 'string');
    assert.equal(written.data.undo_available, true);

    const node = await topOperation();
    assert.equal(node.record.id, written.data.operation_id);
    const item = (await api()).activity.getTreeItem(node);
    assert.equal(item.contextValue, 'agentFs.operation.undoable');
    assert.equal(item.label, `write_file ${s.rel('notes.md')}`);

    const opened = await vscode.commands.executeCommand<string[]>('agentFs.history.openDiff', node);
    assert.equal(opened.length, 2);
    const [before, after] = await Promise.all(opened.map((uri) => vscode.workspace.openTextDocument(vscode.Uri.parse(uri))));
    assert.equal(before?.getText(), 'one\ntwo\n');
    assert.equal(after?.getText(), 'one\nTWO\n');
    const diff = activeDiff();
    assert.ok(diff, 'a diff editor is open');
    assert.equal(diff.original.scheme, 'agentfs-history');
  });

  it('Undo on a view item asks first, restores the file and says what it restored; the undo is listed too', async () => {
    const s = scratch('history-undo', { 'a.txt': 'original\n' });
    expectOk(await callTool('write_file', { file_name: s.rel('a.txt'), content: 'changed\n' }));
    const node = await topOperation();

    const declined = await injectDialogs(false);
    assert.equal(await vscode.commands.executeCommand('agentFs.history.undo', node), undefined);
    assert.equal(declined.confirms.length, 1);
    assert.equal(readText(s.abs('a.txt')), 'changed\n', 'declining changes nothing');

    const shown = await injectDialogs(true);
    const envelope = await vscode.commands.executeCommand<Envelope>('agentFs.history.undo', node);
    expectOk(envelope);
    assert.equal(readText(s.abs('a.txt')), 'original\n');
    assert.equal(shown.info.length, 1);
    assert.match(shown.info[0] ?? '', /a\.txt restored/);

    const undo = await topOperation();
    assert.equal(undo.record.undo_of, node.record.id);
    // The undo is the person's (a command), the write another extension's: each in its own session's group.
    const { activity } = await api();
    const undone = (await Promise.all((await activity.getChildren()).map((group) => activity.getChildren(group))))
      .flat()
      .find((each) => each.kind === 'operation' && each.record.id === node.record.id);
    assert.equal(undone?.kind === 'operation' ? undone.undoneBy : undefined, undo.record.id);
    assert.equal(
      (await api()).activity.getTreeItem(undone as ActivityNode).contextValue,
      'agentFs.operation',
      'an undone operation offers no Undo',
    );
  });

  it('Undo Last Change undoes the newest change, then the one before', async () => {
    const s = scratch('history-last', { 'b.txt': 'v1\n' });
    expectOk(await callTool('write_file', { file_name: s.rel('b.txt'), content: 'v2\n' }));
    expectOk(await callTool('move_file', { source_path: s.rel('b.txt'), destination_path: s.rel('moved/b.txt') }));
    const shown = await injectDialogs(true);
    expectOk(await vscode.commands.executeCommand<Envelope>('agentFs.undoLast'));
    assert.equal(readText(s.abs('b.txt')), 'v2\n');
    assert.ok(!fs.existsSync(s.abs('moved')), 'the directory the move created is gone');
    expectOk(await vscode.commands.executeCommand<Envelope>('agentFs.undoLast'));
    assert.equal(readText(s.abs('b.txt')), 'v1\n');
    assert.match(shown.confirms[0] ?? '', /move_file/);
    assert.equal(shown.info.length, 2);
  });

  it('refuses an undo over a change made since, through the command, and touches nothing', async () => {
    const s = scratch('history-conflict', { 'c.txt': 'mine\n' });
    expectOk(await callTool('write_file', { file_name: s.rel('c.txt'), content: 'model\n' }));
    fs.writeFileSync(s.abs('c.txt'), 'edited by hand\n');
    const shown = await injectDialogs(true);
    const envelope = await vscode.commands.executeCommand<Envelope>('agentFs.undoLast');
    expectError(envelope, 'UNDO_CONFLICT');
    assert.equal(readText(s.abs('c.txt')), 'edited by hand\n');
    assert.equal(shown.error.length, 1);
    assert.match(shown.error[0] ?? '', /c\.txt/);
  });

  it('Show Change History offers the recorded operations and opens the chosen one as a diff', async () => {
    const s = scratch('history-pick', { 'd.md': 'x\n' });
    const deleted = expectOk(await callTool('delete_file', { file_name: s.rel('d.md') }));
    const shown = await injectDialogs(true, (choices) => choices.find((choice) => choice.id === deleted.data.operation_id)?.id);
    const picked = await vscode.commands.executeCommand<string>('agentFs.showHistory');
    assert.equal(picked, deleted.data.operation_id);
    assert.equal(shown.choices[0]?.id, deleted.data.operation_id, 'newest first');
    const diff = activeDiff();
    assert.ok(diff);
    assert.equal((await vscode.workspace.openTextDocument(diff.original)).getText(), 'x\n');
    assert.equal((await vscode.workspace.openTextDocument(diff.modified)).getText(), '');
  });

  it('keeps the history outside the workspace', () => {
    const names = fs.readdirSync(workspaceRoot());
    assert.ok(!names.includes('operations') && !names.includes('blobs') && !names.includes('history'), names.join(', '));
  });
});
