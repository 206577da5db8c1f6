import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  callTool,
  contributedTools,
  expectError,
  expectFields,
  expectOk,
  minimalInput,
  mutatingTools,
  snapshot,
  TOOL_PREFIX,
  workspaceRoot,
} from '../helpers';

/**
 * The launcher opens this folder with workspace trust enabled and never grants it (the trust prompt is a modal,
 * which a test run refuses), so the window stays in restricted mode.
 */
describe('untrusted workspace', () => {
  it('is really untrusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it('runs the read tools', async () => {
    expectFields(expectOk(await callTool('read_file', { file_name: 'readme.txt' })).data, { content: 'untrusted but readable\n' });
    expectFields(expectOk(await callTool('path_exists', { path: 'readme.txt' })).data, { path_type: 'file' });
    expectFields(expectOk(await callTool('list_files', {})).data, { files: ['readme.txt'] });
  });

  it('answers WORKSPACE_UNTRUSTED for every tool that changes files, and changes nothing', async () => {
    const before = snapshot(workspaceRoot());
    assert.ok(mutatingTools().length >= 7, 'the mutating tools carry a when clause');
    for (const tool of mutatingTools()) {
      expectError(await callTool(tool.name.slice(TOOL_PREFIX.length), minimalInput(tool.inputSchema)), 'WORKSPACE_UNTRUSTED');
    }
    expectError(await callTool('write_file', { file_name: 'readme.txt', content: 'overwritten' }), 'WORKSPACE_UNTRUSTED');
    expectError(await callTool('delete_file', { file_name: 'readme.txt' }), 'WORKSPACE_UNTRUSTED');
    assert.deepEqual(snapshot(workspaceRoot()), before);
  });

  it('lets every tool without a when clause run: each tool that refuses here is one the manifest hides', async () => {
    const hidden = new Set(mutatingTools().map((tool) => tool.name));
    for (const tool of contributedTools().filter((each) => !hidden.has(each.name))) {
      const envelope = await callTool(tool.name.slice(TOOL_PREFIX.length), minimalInput(tool.inputSchema));
      assert.ok(
        envelope.ok || envelope.error.code !== 'WORKSPACE_UNTRUSTED',
        `${tool.name} refuses an untrusted workspace but has no when clause hiding it`,
      );
    }
  });
});
