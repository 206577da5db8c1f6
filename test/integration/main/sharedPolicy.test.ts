/**
 * One policy for every agent, in a real extension host: an agent connected by "Connect Another Agent…" (the MCP
 * server its snippet starts, driven by the SDK's client over stdio) is refused what VS Code's settings protect and
 * what has unsaved changes in an editor, from the next call on, without restarting; and the window puts its policy
 * back when something else changes the file.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import { POLICY_FILE_NAME, readPolicyFile } from '../../../src/core/policy/sharedPolicy';
import { api, eventually, readText, scratch, withoutAutoSave, withSetting } from '../helpers';
import { connectAgent, snippetServer } from '../mcpAgents';

interface Connected {
  readonly client: Client;
  /** The --state folder the snippet names: the window's history. */
  readonly state: string;
  call(name: string, args: Record<string, unknown>): Promise<Envelope>;
}

async function connect(): Promise<Connected> {
  const agentfs = await api();
  agentfs.setDialogs({ info: () => undefined });
  const entry = await snippetServer();
  const state = entry.args[entry.args.indexOf('--state') + 1];
  assert.ok(state !== undefined);
  const client = await connectAgent('another-agent', '1.0.0', entry);
  return {
    client,
    state,
    call: async (name, args) => (await client.callTool({ name, arguments: args })).structuredContent as Envelope,
  };
}

/**
 * Waits until a dry run of the write answers `code`, or succeeds (`'ok'`): the window publishes as the setting's or
 * the document's event arrives, a moment after the change. A dry run checks the same rules and changes nothing, so
 * waiting cannot write anything early.
 */
async function until(agent: Connected, args: Record<string, unknown>, code: string): Promise<void> {
  let last: Envelope | undefined;
  await eventually(
    async () => {
      last = await agent.call('write_file', { ...args, dry_run: true });
      return code === 'ok' ? last.ok : !last.ok && last.error.code === code;
    },
    `a dry run answers ${code} (last: ${JSON.stringify(last)})`,
    15_000,
  );
}

describe('One policy: an agent connected by the command follows the editor', function () {
  this.timeout(60_000);
  withoutAutoSave();
  let agent: Connected;

  before(async function () {
    agent = await connect();
  });
  after(async function () {
    await agent.client.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a protected pattern set in VS Code settings is refused to the agent, and lifted again, without restarting it', async function () {
    const s = scratch('policy-protected', { 'secrets/token.txt': 'hunter2\n' });
    const token = { file_name: s.rel('secrets/token.txt'), content: 'leaked\n' };
    // Before the setting, the agent's own defaults do not cover it.
    assert.ok((await agent.call('write_file', { ...token, dry_run: true })).ok);
    await withSetting('protectedPaths', ['secrets/**'], async () => {
      await until(agent, token, 'SENSITIVE_PATH_REFUSED');
      const refused = await agent.call('write_file', token);
      if (refused.ok) assert.fail('the protected file was written');
      assert.equal(refused.error.code, 'SENSITIVE_PATH_REFUSED');
      assert.equal(refused.error.details?.pattern, 'secrets/**');
      assert.match(refused.error.message, /VS Code's agentFs\.protectedPaths, which this MCP server follows/);
      assert.equal(readText(s.abs('secrets/token.txt')), 'hunter2\n', 'nothing was written');
    });
    // The setting taken back: the same agent, not restarted, may write it again.
    await until(agent, token, 'ok');
    assert.ok((await agent.call('write_file', token)).ok);
    assert.equal(readText(s.abs('secrets/token.txt')), 'leaked\n');
  });

  it('a file with unsaved changes in an editor is refused to the agent until it is reverted', async function () {
    const s = scratch('policy-dirty', { 'draft.md': 'saved text\n' });
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(s.abs('draft.md')));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'unsaved words, '));
    assert.ok(document.isDirty);
    const args = { file_name: s.rel('draft.md'), content: 'from the agent\n' };
    await until(agent, args, 'FILE_DIRTY_IN_EDITOR');
    const refused = await agent.call('write_file', args);
    assert.ok(!refused.ok && refused.error.code === 'FILE_DIRTY_IN_EDITOR', JSON.stringify(refused));
    assert.equal(readText(s.abs('draft.md')), 'saved text\n', "the agent did not overwrite the person's work");
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.ok(!document.isDirty);
    await until(agent, args, 'ok');
    assert.ok((await agent.call('write_file', args)).ok);
    assert.equal(readText(s.abs('draft.md')), 'from the agent\n');
  });

  it('the window publishes into the history folder the snippet names, and writes its policy back when something else changes it', async function () {
    const file = path.join(agent.state, POLICY_FILE_NAME);
    const published = readPolicyFile(fs.readFileSync(file, 'utf8')).policy;
    assert.ok(published.roots.length > 0);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"readOnly": false', '"readOnly": "never"'));
    await eventually(
      () => {
        try {
          return readPolicyFile(fs.readFileSync(file, 'utf8')).policy.readOnly === false;
        } catch {
          return false;
        }
      },
      'the window wrote its policy back',
      15_000,
    );
    const back = await agent.call('workspace_info', {});
    assert.ok(back.ok, JSON.stringify(back));
  });
});
