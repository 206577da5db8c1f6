/**
 * Agent mode in an untrusted workspace (workspace trust on, the folder not trusted). VS Code 1.139 keeps Copilot
 * Chat disabled in Restricted Mode (its manifest declares no untrusted-workspace support), so no agent turn can run
 * at all there: what is left to prove is that Agent FS itself still refuses every change, whoever calls it.
 * (The `when` clauses that hide the writing tools from an agent's request are the same as in read-only mode, which
 * the trusted agent-mode launch checks through a real first request.)
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, callTool, expectError, expectOk, mutatingTools, snapshot, workspaceRoot } from '../helpers';
import { COPILOT_CHAT, scriptedModel } from '../agent/bridge';

describe('Copilot agent mode in an untrusted workspace', function () {
  before(async function () {
    assert.equal(vscode.workspace.isTrusted, false, 'the launcher opened an untrusted folder');
    await api();
    await scriptedModel();
  });

  it('Copilot Chat does not run in Restricted Mode, so no agent reaches the tools', function () {
    assert.equal(vscode.extensions.getExtension(COPILOT_CHAT), undefined, `${COPILOT_CHAT} is disabled in an untrusted workspace`);
  });

  it('a direct call of any tool that changes files is refused, and reading still works', async function () {
    const folder = path.join(workspaceRoot(), 'scn-untrusted');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'from a stranger\n');
    expectOk(await callTool('read_file', { file_name: 'scn-untrusted/notes.txt' }));
    expectError(await callTool('write_file', { file_name: 'scn-untrusted/notes.txt', content: 'changed\n' }), 'WORKSPACE_UNTRUSTED');
    expectError(await callTool('delete_file', { file_name: 'scn-untrusted/notes.txt' }), 'WORKSPACE_UNTRUSTED');
    assert.ok(mutatingTools().length >= 16, 'the manifest hides the changing tools in an untrusted workspace');
    assert.deepEqual(snapshot(folder), { 'notes.txt': 'from a stranger\n' });
  });
});
