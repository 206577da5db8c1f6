import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import { api, callTool, expectFields, expectOk, readText, scratch, workspaceRoot } from '../helpers';

/** Dialog answers recorded by the injected Dialogs (VS Code refuses modal dialogs inside a test run). */
interface Shown {
  info: string[];
  error: string[];
}

async function injectDialogs(answers: { folder?: vscode.Uri; tool?: string; input?: string }): Promise<Shown> {
  const shown: Shown = { info: [], error: [] };
  (await api()).setDialogs({
    pickFolder: () => Promise.resolve(answers.folder),
    pickTool: (choices) => {
      assert.ok(
        choices.some((choice) => choice.name === answers.tool),
        `${answers.tool ?? '(none)'} is offered`,
      );
      return Promise.resolve(answers.tool);
    },
    editInput: (_tool, prefilled) => {
      assert.doesNotThrow(() => JSON.parse(prefilled) as unknown, 'the prefilled input is JSON');
      return Promise.resolve(answers.input);
    },
    info: (message) => shown.info.push(message),
    error: (message) => shown.error.push(message),
  });
  return shown;
}

async function resetBaseDirectory(): Promise<void> {
  await vscode.workspace.getConfiguration('agentFs').update('baseDirectory', undefined, vscode.ConfigurationTarget.Workspace);
}

describe('commands', () => {
  afterEach(resetBaseDirectory);

  it('Select Base Directory… writes the picked folder into the setting, and the tools follow', async () => {
    const s = scratch('select', { 'picked/p.txt': 'p' });
    const shown = await injectDialogs({ folder: vscode.Uri.file(s.abs('picked')) });
    await vscode.commands.executeCommand('agentFs.selectBaseDirectory');
    assert.equal(vscode.workspace.getConfiguration('agentFs').get('baseDirectory'), s.rel('picked'));
    assert.equal(shown.info.length, 1);
    expectFields(expectOk(await callTool('read_file', { file_name: 'p.txt' })).data, { content: 'p' });
  });

  it('Select Base Directory… refuses a folder outside the workspace and keeps the setting', async () => {
    const outside = path.dirname(workspaceRoot());
    const shown = await injectDialogs({ folder: vscode.Uri.file(outside) });
    await vscode.commands.executeCommand('agentFs.selectBaseDirectory');
    assert.equal(vscode.workspace.getConfiguration('agentFs').get('baseDirectory'), '');
    assert.equal(shown.error.length, 1);
    assert.match(shown.error[0] ?? '', /not inside a workspace folder/);
  });

  it('Show Base Directory names the folder the tools reach', async () => {
    const shown = await injectDialogs({});
    await vscode.commands.executeCommand('agentFs.showBaseDirectory');
    assert.equal(shown.info.length, 1);
    assert.ok(shown.info[0]?.includes(workspaceRoot()), shown.info[0]);
  });

  it('Run Tool… runs the picked tool with the edited input through invokeTool and shows the envelope', async () => {
    const s = scratch('runtool');
    await injectDialogs({
      tool: 'agentfs_write_file',
      input: JSON.stringify({ file_name: s.rel('from-command.txt'), content: 'via Run Tool' }),
    });
    const shownText = await vscode.commands.executeCommand<string | undefined>('agentFs.runTool');
    assert.ok(shownText, 'the command returns what it shows');
    expectFields(expectOk(JSON.parse(shownText) as Envelope).data, { created: true });
    assert.equal(readText(s.abs('from-command.txt')), 'via Run Tool');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'the result is shown in an editor');
    assert.equal(editor.document.uri.scheme, 'agentfs-result');
    assert.deepEqual(JSON.parse(editor.document.getText()), JSON.parse(shownText));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Run Tool… does nothing when the input is cancelled, and says so when it is not JSON', async () => {
    const s = scratch('runtool-cancel');
    await injectDialogs({ tool: 'agentfs_create_directory', input: undefined });
    assert.equal(await vscode.commands.executeCommand('agentFs.runTool'), undefined);
    const shown = await injectDialogs({ tool: 'agentfs_create_directory', input: '{ not json' });
    assert.equal(await vscode.commands.executeCommand('agentFs.runTool'), undefined);
    assert.equal(shown.error.length, 1);
    assert.deepEqual(fs.readdirSync(s.abs()), []);
  });

  it('Run Tool… takes the operation and input as arguments too', async () => {
    const s = scratch('runtool-args', { 'a.txt': 'arg' });
    const shownText = await vscode.commands.executeCommand<string>(
      'agentFs.runTool',
      'read_file',
      JSON.stringify({ file_name: s.rel('a.txt') }),
    );
    expectFields(expectOk(JSON.parse(shownText) as Envelope).data, { content: 'arg' });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Show Log opens the call log', async () => {
    await vscode.commands.executeCommand('agentFs.showLog');
  });
});
