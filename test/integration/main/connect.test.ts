/**
 * "Agent FS: Connect Another Agent…" in a real extension host: the snippet names the installed extension's
 * dist/mcp.js, the base directory and the editor's own history store; the server started from it (as a client
 * would, with the official SDK over stdio) records its changes there, the Activity view refreshes by itself, and
 * the change is undone from the editor.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import { api, expectOk, extension, readText, scratch, workspaceRoot } from '../helpers';

interface Entry {
  readonly command: string;
  readonly args: string[];
}

/** Resolves when `event` fires, fails after `ms`. */
function next(event: vscode.Event<unknown>, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`${what} did not happen within ${ms} ms`));
    }, ms);
    const subscription = event(() => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    });
  });
}

describe("Connect Another Agent: the MCP server on this window's base directory and history", () => {
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers every client; its command line starts dist/mcp.js of the installed extension with --root and --state', async () => {
    const agentfs = await api();
    const info: string[] = [];
    const errors: string[] = [];
    let offered: string[] = [];
    agentfs.setDialogs({
      info: (message) => info.push(message),
      error: (message) => errors.push(message),
      pickConnection: (choices) => {
        offered = choices.map((choice) => choice.id);
        return Promise.resolve('vscode');
      },
    });
    const picked = await vscode.commands.executeCommand<string | undefined>('agentFs.connectAgent');
    assert.deepEqual(errors, []);
    assert.deepEqual(offered, [
      'claude-desktop',
      'lm-studio',
      'cursor',
      'vscode',
      'claude-code',
      'http-server',
      'vscode-http',
      'claude-code-http',
      'http',
    ]);
    const entry = (JSON.parse(picked ?? '{}') as { servers?: Record<string, Entry & { type: string }> }).servers?.['agent-fs'];
    assert.ok(entry, picked);
    assert.equal(entry.type, 'stdio');
    assert.equal(entry.command, 'node');
    const [script, ...flags] = entry.args;
    assert.equal(script, path.join(extension().extensionPath, 'dist', 'mcp.js'));
    assert.ok(fs.existsSync(script ?? ''), 'dist/mcp.js is inside the extension');
    assert.deepEqual(flags.slice(0, 2), ['--root', workspaceRoot()]);
    assert.equal(flags[2], '--state');
    assert.ok(path.relative(workspaceRoot(), flags[3] ?? '').startsWith('..'), 'the history is outside the workspace');
    assert.equal(vscode.window.activeTextEditor?.document.getText(), picked, 'the snippet is shown in an editor');
    assert.match(info.join('\n'), /VS Code \(\.vscode\/mcp\.json\) configuration is open and copied/);

    const line = await vscode.commands.executeCommand<string>('agentFs.connectAgent', 'claude-code');
    assert.match(line, /^claude mcp add agent-fs -- node \S*mcp\.js --root \S+ --state \S+\n$/);

    // Over HTTP: the same server with --http on the folder's port, and the token of the history's state folder.
    const server = await vscode.commands.executeCommand<string>('agentFs.connectAgent', 'http-server');
    const port = /--http 127\.0\.0\.1:(\d+)\n$/.exec(server)?.[1];
    assert.ok(port, server);
    assert.ok(
      server.startsWith(`node ${entry.args.map((word) => (/^[\w@%+=:,./\\-]+$/.test(word) ? word : `'${word}'`)).join(' ')} --http`),
      server,
    );
    const http = await vscode.commands.executeCommand<string>('agentFs.connectAgent', 'vscode-http');
    const over = (JSON.parse(http) as { servers: Record<string, { type: string; url: string; headers: Record<string, string> }> }).servers[
      'agent-fs'
    ];
    assert.equal(over?.type, 'http');
    assert.equal(over.url, `http://127.0.0.1:${port}/mcp`);
    const tokenFile = path.join(flags[3] ?? '', 'mcp-http-token');
    assert.equal(fs.statSync(tokenFile).mode & 0o777, 0o600, 'the token is readable only by its owner');
    assert.equal(over.headers.Authorization, `Bearer ${fs.readFileSync(tokenFile, 'utf8').trim()}`);
  });

  it("changes another agent makes through the snippet's server appear in the Activity view and undo from the editor", async () => {
    const agentfs = await api();
    agentfs.setDialogs({ info: () => undefined, confirm: () => Promise.resolve(true) });
    const text = await vscode.commands.executeCommand<string>('agentFs.connectAgent', 'claude-desktop');
    const entry = (JSON.parse(text) as { mcpServers: Record<string, Entry> }).mcpServers['agent-fs'];
    assert.ok(entry);
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, stderr: 'pipe' });
    const client = new Client({ name: 'another-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      const s = scratch('connect');
      const refreshed = next(agentfs.activity.onDidChangeTreeData, 20000, 'the Activity view refreshing');
      const result = await client.callTool({
        name: 'write_file',
        arguments: { file_name: s.rel('from-agent.txt'), content: 'written by another agent\n' },
      });
      const written = expectOk(result.structuredContent as Envelope);
      assert.equal(readText(s.abs('from-agent.txt')), 'written by another agent\n');
      await refreshed;
      const [session] = await agentfs.activity.getChildren();
      assert.ok(session?.kind === 'session', 'the view lists sessions');
      assert.equal(session.session.origin?.agent, 'another-agent', "the newest session is the other agent's, by its client name");
      const [top] = await agentfs.activity.getChildren(session);
      assert.ok(top?.kind === 'operation', 'the view lists the operation');
      assert.equal(top.record.id, written.data.operation_id, "the other agent's change is the newest in the view");

      const undone = await vscode.commands.executeCommand<Envelope | undefined>('agentFs.history.undo', written.data.operation_id);
      assert.ok(undone);
      expectOk(undone);
      assert.ok(!fs.existsSync(s.abs('from-agent.txt')), 'undone from the editor: the file is gone');
      // And the other agent sees the undo in the same history.
      const listed = await client.callTool({ name: 'history_list', arguments: { limit: 2 } });
      const operations = (expectOk(listed.structuredContent as Envelope).data.operations as { operation: string }[]).map(
        (each) => each.operation,
      );
      assert.deepEqual(operations, ['undo_operation', 'write_file']);
    } finally {
      await client.close();
    }
  });
});
