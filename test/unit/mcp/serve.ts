/**
 * What the MCP tests share: the built dist/mcp.js started as a child process and driven by the official SDK's Client
 * over real stdio, as MCP clients run it. No part of the protocol is mocked.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  type ClientCapabilities,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
  type Root,
} from '@modelcontextprotocol/sdk/types.js';
import type { Envelope } from '../../../src/core/envelope';
import { makeTempDir } from '../helpers';
import { buildBundles } from '../bundles';
import { checkEnvelope } from '../../shared/results';
import { Output } from '../../shared/output';

import { SERVER } from '../bundles';
export { REPO, RUNNER, SERVER } from '../bundles';

/** A temp folder with `base` (the root to serve, made) and `state` (a history folder beside it, not made). */
export function tempLayout(prefix: string): { tmp: string; base: string; state: string } {
  const tmp = makeTempDir(prefix);
  const base = path.join(tmp, 'base');
  fs.mkdirSync(base);
  return { tmp, base, state: path.join(tmp, 'state') };
}

/**
 * Stops a server started with spawn and waits until it has exited. A stopping server still writes into its state
 * folder (the saved path index, deferred history deletions), so a test removes that folder only after this.
 */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.kill()) await exited;
}

/** The bundles built from the current source (bundles.ts): done once per run, before any test. */
export const buildOnce = buildBundles;

export interface ServeOptions {
  readonly cwd?: string;
  /** The environment `env` is added to; default: this process's. */
  readonly baseEnv?: NodeJS.ProcessEnv;
  readonly env?: Readonly<Record<string, string>>;
  /** Answers elicitation requests; when absent the client declares no elicitation capability. */
  readonly elicit?: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /** The client's roots; when absent the client declares no roots capability. */
  readonly roots?: () => Root[];
  /** The client's name and version (its clientInfo); default agentfs-test 1.0.0. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** The command to start instead of `node dist/mcp.js` (the Connect command's snippets). */
  readonly command?: { readonly command: string; readonly args: readonly string[] };
}

export interface Served {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** Everything the server wrote to stderr so far. */
  log(): string;
  /** Every elicitation request the server sent, in order. */
  readonly elicitations: ElicitRequest['params'][];
  /** Calls a tool; returns the raw result and the envelope it carries, after checking that the two copies agree. */
  call(
    name: string,
    args: unknown,
    options?: { signal?: AbortSignal; onprogress?: (progress: { progress: number; total?: number; message?: string }) => void },
  ): Promise<{ result: CallToolResult; envelope: Envelope }>;
  close(): Promise<void>;
  /** Lets the server go on from a pause point (AGENTFS_PAUSE_AT, src/node/fs/pausePoints.ts). */
  resume(): void;
  /**
   * Resolves once `predicate` holds for the log, checked at every line the server writes (no deadline but mocha's);
   * rejects, with the log, if the server's stderr closes first.
   */
  logged(predicate: (log: string) => boolean, what: string): Promise<void>;
}

/** Checks the result shape every tools/call must have and returns its envelope (an image item after it is left to the caller). */
function envelopeOf(result: CallToolResult): Envelope {
  // The envelope's text first; only read_file of an image adds an item, the image.
  const [item, ...rest] = result.content;
  assert.ok(rest.length === 0 || (rest.length === 1 && rest[0]?.type === 'image'), 'one text item, then at most one image');
  assert.ok(item && item.type === 'text', 'the content item is text');
  const fromText = JSON.parse(item.text) as Envelope;
  assert.deepEqual(result.structuredContent, fromText, 'structuredContent is the envelope of the text item');
  assert.equal(result.isError, !fromText.ok, 'isError is true exactly when ok is false');
  checkEnvelope(fromText);
  return fromText;
}

export async function serve(args: readonly string[], options: ServeOptions = {}): Promise<Served> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.baseEnv ?? process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, options.env);
  const command = options.command ?? { command: process.execPath, args: [SERVER, ...args] };
  const transport = new StdioClientTransport({ command: command.command, args: [...command.args], cwd: options.cwd, env, stderr: 'pipe' });
  const { stderr } = transport;
  assert.ok(stderr, "the server's stderr is piped");
  const log = new Output(stderr);
  const capabilities: ClientCapabilities = {};
  if (options.elicit) capabilities.elicitation = { form: {} };
  if (options.roots) capabilities.roots = { listChanged: true };
  const client = new Client(options.clientInfo ?? { name: 'agentfs-test', version: '1.0.0' }, { capabilities });
  const elicitations: ElicitRequest['params'][] = [];
  const { elicit, roots } = options;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitations.push(request.params);
      return elicit(request.params);
    });
  }
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => Promise.resolve({ roots: roots() }));
  await client.connect(transport);
  // Listed first, so the SDK's client validates every call's structuredContent against the tool's outputSchema.
  await client.listTools();
  return {
    client,
    transport,
    log: () => log.text,
    elicitations,
    async call(name, args, callOptions = {}) {
      const result = (await client.callTool({ name, arguments: args as Record<string, unknown> }, CallToolResultSchema, {
        timeout: 120_000,
        ...(callOptions.signal ? { signal: callOptions.signal } : {}),
        ...(callOptions.onprogress ? { onprogress: callOptions.onprogress } : {}),
      })) as CallToolResult;
      return { result, envelope: envelopeOf(result) };
    },
    close: () => client.close(),
    resume() {
      const { pid } = transport;
      assert.ok(pid !== null, 'the server is running');
      process.kill(pid, 'SIGUSR2');
    },
    logged: (predicate, what) => log.until(predicate, `${what} in the server's log`),
  };
}

/** Resolves once `predicate` holds for the server's log (its lines arrive asynchronously on stderr). */
export function waitForLog(served: Served, predicate: (log: string) => boolean, what: string): Promise<void> {
  return served.logged(predicate, what);
}
