/**
 * Agents outside the editor, for specs that need one: the SDK's MCP client over stdio, starting the server the
 * "Connect Another Agent…" command gives, so it records into this window's history as a real agent's would.
 */
import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as vscode from 'vscode';
import type { Envelope } from '../../src/core/envelope';

/** The server entry of the command's Claude Desktop snippet: how an agent starts Agent FS for this window. */
export interface ServerEntry {
  readonly command: string;
  readonly args: string[];
}

export async function snippetServer(): Promise<ServerEntry> {
  const text = await vscode.commands.executeCommand<string>('agentFs.connectAgent', 'claude-desktop');
  const entry = (JSON.parse(text) as { mcpServers: Record<string, ServerEntry> }).mcpServers['agent-fs'];
  assert.ok(entry, text);
  return entry;
}

/** A client named as a real agent names itself (`name`, `version` are what the history records it by). */
export async function connectAgent(name: string, version: string, entry?: ServerEntry): Promise<Client> {
  const server = entry ?? (await snippetServer());
  const client = new Client({ name, version });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, stderr: 'pipe' }));
  return client;
}

/** One tool call's envelope; the timeout is long because a busy machine may run the host and several servers. */
export async function callAgent(client: Client, name: string, args: Record<string, unknown>): Promise<Envelope> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })).structuredContent as Envelope;
}
