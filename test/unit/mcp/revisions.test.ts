/**
 * Both protocol revisions on one server: the SDK's 2.x client pinned to 2026-07-28 (server/discover, no initialize,
 * questions and roots answered inside the call), its 1.x client on 2025-11-25 (initialize, elicitation and roots/list
 * requests), and raw lines where only raw lines can try what a client should never send.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import type { Envelope } from '../../../src/core/envelope';
import { expectError, expectOk, removeTree } from '../helpers';
import { Output } from '../../shared/output';
import { buildOnce, SERVER, serve, stopChild, tempLayout } from './serve';

interface ModernServed {
  readonly client: ModernClient;
  readonly asked: string[];
  readonly rootsAsked: () => number;
  log(): string;
  call(name: string, args: Record<string, unknown>): Promise<Envelope>;
}

async function serveModern(
  args: readonly string[],
  options: { answer?: 'Yes' | 'No' | 'cancel'; roots?: readonly string[]; mode?: 'pin' | 'auto' } = {},
): Promise<ModernServed> {
  const capabilities: Record<string, object> = {};
  if (options.answer) capabilities.elicitation = { form: {} };
  if (options.roots) capabilities.roots = {};
  const client = new ModernClient(
    { name: 'agentfs-modern-test', version: '2.0.0' },
    { capabilities, versionNegotiation: { mode: options.mode === 'auto' ? 'auto' : { pin: '2026-07-28' } } },
  );
  const asked: string[] = [];
  let rootsAsked = 0;
  const { answer, roots } = options;
  if (answer) {
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return Promise.resolve(answer === 'cancel' ? { action: 'cancel' as const } : { action: 'accept' as const, content: { answer } });
    });
  }
  if (roots) {
    client.setRequestHandler('roots/list', () => {
      rootsAsked++;
      return Promise.resolve({ roots: roots.map((root) => ({ uri: `file://${root}` })) });
    });
  }
  const transport = new ModernStdio({ command: process.execPath, args: [SERVER, ...args], stderr: 'pipe' });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
  });
  await client.connect(transport);
  return {
    client,
    asked,
    rootsAsked: () => rootsAsked,
    log: () => log,
    async call(name, callArgs) {
      const result = await client.callTool({ name, arguments: callArgs });
      const [item] = result.content;
      assert.ok(item && item.type === 'text');
      const envelope = JSON.parse(item.text) as Envelope;
      assert.deepEqual(result.structuredContent, envelope, 'structuredContent is the envelope of the text item');
      assert.equal(result.isError ?? false, !envelope.ok);
      return envelope;
    },
  };
}

describe('MCP server: both protocol revisions', function () {
  let layout: ReturnType<typeof tempLayout>;
  before(buildOnce);
  beforeEach(() => {
    layout = tempLayout('agentfs-revisions-');
    fs.writeFileSync(path.join(layout.base, 'a.txt'), 'alpha\n');
    fs.writeFileSync(path.join(layout.base, 'b.txt'), 'beta\n');
  });
  afterEach(() => removeTree(layout.tmp));

  it('a client that discovers gets 2026-07-28, one that initializes 2025-11-25, and both the same tools', async function () {
    const modern = await serveModern(['--root', layout.base, '--state', layout.state], { mode: 'auto' });
    const legacy = await serve(['--root', layout.base, '--state', layout.state]);
    try {
      assert.equal(modern.client.getProtocolEra(), 'modern');
      assert.equal(modern.client.getNegotiatedProtocolVersion(), '2026-07-28');
      assert.equal(modern.client.getServerVersion()?.name, 'agent-fs');
      assert.equal(legacy.client.getServerVersion()?.name, 'agent-fs');
      const [newer, older] = await Promise.all([modern.client.listTools(), legacy.client.listTools()]);
      assert.deepEqual(newer.tools, older.tools, 'one definition of every tool, whatever the revision');
      const read = await modern.call('read_file', { file_name: 'a.txt' });
      assert.equal(expectOk(read, 'read_file').content, 'alpha\n');
      const written = await modern.call('write_file', { file_name: 'c.txt', content: 'gamma\n' });
      expectOk(written, 'write_file');
      assert.equal(fs.readFileSync(path.join(layout.base, 'c.txt'), 'utf8'), 'gamma\n');
      assert.match(modern.log(), /client agentfs-modern-test 2\.0\.0 \(2026-07-28\)/);
      assert.match(legacy.log(), /client agentfs-test 1\.0\.0 \(2025-11-25\)/);
    } finally {
      await modern.client.close();
      await legacy.close();
    }
  });

  it('2026-07-28: a delete asks inside the call and runs once the person says Yes', async function () {
    const served = await serveModern(['--root', layout.base, '--no-history'], { answer: 'Yes' });
    try {
      const deleted = await served.call('delete_file', { file_name: 'a.txt' });
      assert.equal(expectOk(deleted, 'delete_file').deleted, true);
      assert.equal(served.asked.length, 1);
      assert.match(served.asked[0] ?? '', /^Delete a\.txt\?/);
      assert.equal(fs.existsSync(path.join(layout.base, 'a.txt')), false);
      assert.equal(fs.readFileSync(path.join(layout.base, 'b.txt'), 'utf8'), 'beta\n');
    } finally {
      await served.client.close();
    }
  });

  for (const answer of ['No', 'cancel'] as const) {
    it(`2026-07-28: a delete the person answers with ${answer} is CONFIRMATION_DECLINED and the file stays`, async function () {
      const served = await serveModern(['--root', layout.base, '--no-history'], { answer });
      try {
        const refused = await served.call('delete_file', { file_name: 'a.txt' });
        const error = expectError(refused, 'CONFIRMATION_DECLINED');
        assert.equal(error.details?.reason, answer === 'No' ? 'declined' : 'cancelled');
        assert.equal(fs.readFileSync(path.join(layout.base, 'a.txt'), 'utf8'), 'alpha\n');
      } finally {
        await served.client.close();
      }
    });
  }

  it('2026-07-28: a client that cannot ask, under --confirm require, is refused without a question', async function () {
    const served = await serveModern(['--root', layout.base, '--no-history', '--confirm', 'require']);
    try {
      const refused = await served.call('delete_file', { file_name: 'a.txt' });
      assert.equal(expectError(refused, 'CONFIRMATION_DECLINED').details?.reason, 'unsupported');
      assert.equal(fs.readFileSync(path.join(layout.base, 'a.txt'), 'utf8'), 'alpha\n');
    } finally {
      await served.client.close();
    }
  });

  it("2026-07-28: the client's roots come back inside the first call, once, and narrow the served folder", async function () {
    const inner = path.join(layout.base, 'inner');
    fs.mkdirSync(inner);
    fs.writeFileSync(path.join(inner, 'c.txt'), 'gamma\n');
    const served = await serveModern(['--root', layout.base, '--no-history'], { roots: [inner] });
    try {
      assert.equal(expectOk(await served.call('read_file', { file_name: 'c.txt' }), 'read_file').content, 'gamma\n');
      expectError(await served.call('read_file', { file_name: '../a.txt' }), 'FILE_PATH_OUTSIDE_BASE');
      assert.equal(served.rootsAsked(), 1, 'asked once per connection');
    } finally {
      await served.client.close();
    }
  });

  it('2026-07-28: an answer given for one call does not let another run (raw lines)', async function () {
    const child = spawn(process.execPath, [SERVER, '--root', layout.base, '--no-history'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = new Output(child.stdout);
    const answer = (id: number): Record<string, unknown> | undefined =>
      out
        .lines()
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.id === id);
    const response = async (id: number): Promise<Record<string, unknown>> => {
      await out.until(() => answer(id) !== undefined, `the response with id ${id}`);
      return answer(id) ?? {};
    };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };
    const send = (id: number, method: string, params: Record<string, unknown>): void =>
      void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } })}\n`);
    try {
      send(1, 'server/discover', {});
      assert.ok((await response(1)).result, 'server/discover answers');
      send(2, 'tools/call', { name: 'delete_file', arguments: { file_name: 'a.txt' } });
      const first = (await response(2)).result as { resultType: string; requestState: string; inputRequests: Record<string, unknown> };
      assert.equal(first.resultType, 'input_required');
      assert.ok(first.inputRequests.confirm, 'the question is the confirm input');
      const yes = { confirm: { action: 'accept', content: { answer: 'Yes' } } };
      // The state sealed for a.txt, with a Yes, sent for b.txt: asked again, nothing deleted.
      send(3, 'tools/call', {
        name: 'delete_file',
        arguments: { file_name: 'b.txt' },
        inputResponses: yes,
        requestState: first.requestState,
      });
      const other = (await response(3)).result as { resultType: string };
      assert.equal(other.resultType, 'input_required');
      assert.equal(fs.readFileSync(path.join(layout.base, 'b.txt'), 'utf8'), 'beta\n');
      // A Yes without the state: asked again.
      send(4, 'tools/call', { name: 'delete_file', arguments: { file_name: 'a.txt' }, inputResponses: yes });
      assert.equal(((await response(4)).result as { resultType: string }).resultType, 'input_required');
      // A state that was tampered with: refused by the protocol layer.
      send(5, 'tools/call', {
        name: 'delete_file',
        arguments: { file_name: 'a.txt' },
        inputResponses: yes,
        requestState: `${first.requestState.slice(0, -2)}xx`,
      });
      assert.ok((await response(5)).error, 'a forged state is an error');
      assert.equal(fs.readFileSync(path.join(layout.base, 'a.txt'), 'utf8'), 'alpha\n');
      // The right state with the Yes: the call runs.
      send(6, 'tools/call', {
        name: 'delete_file',
        arguments: { file_name: 'a.txt' },
        inputResponses: yes,
        requestState: first.requestState,
      });
      const done = (await response(6)).result as { resultType: string; structuredContent: Envelope };
      assert.equal(done.resultType, 'complete');
      expectOk(done.structuredContent, 'delete_file');
      assert.equal(fs.existsSync(path.join(layout.base, 'a.txt')), false);
    } finally {
      await stopChild(child);
    }
  });

  it('over HTTP with the token: 2026-07-28 per request and 2025-11-25 in a session, each confirming a delete', async function () {
    const child = spawn(process.execPath, [SERVER, '--root', layout.base, '--state', layout.state, '--http', '127.0.0.1:0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const errors = new Output(child.stderr);
    try {
      await errors.until((log) => /listening on (\S+);/.test(log), 'where it listens');
      const url = /listening on (\S+);/.exec(errors.text)?.[1];
      assert.ok(url, `the server says where it listens:\n${errors.text}`);
      const tokenFile = path.join(layout.state, 'mcp-http-token');
      assert.equal(fs.statSync(tokenFile).mode & 0o777, 0o600, 'only its owner reads the token');
      const token = fs.readFileSync(tokenFile, 'utf8').trim();
      for (const [era, file] of [
        ['modern', 'a.txt'],
        ['legacy', 'b.txt'],
      ] as const) {
        const asked: string[] = [];
        const client = new ModernClient(
          { name: `agentfs-http-${era}`, version: '1.0.0' },
          {
            capabilities: { elicitation: { form: {} } },
            versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
          },
        );
        client.setRequestHandler('elicitation/create', (request) => {
          asked.push(request.params.message);
          return Promise.resolve({ action: 'accept' as const, content: { answer: 'Yes' } });
        });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
        );
        try {
          assert.equal(client.getNegotiatedProtocolVersion(), era === 'modern' ? '2026-07-28' : '2025-11-25');
          assert.equal((await client.listTools()).tools.length > 20, true);
          const result = await client.callTool({ name: 'delete_file', arguments: { file_name: file } });
          expectOk(result.structuredContent as Envelope, 'delete_file');
          assert.equal(asked.length, 1, 'asked once');
          assert.equal(fs.existsSync(path.join(layout.base, file)), false);
        } finally {
          await client.close();
        }
      }
      // Each client is named once it has called (its line comes with its first request).
      await errors.until((log) => /client agentfs-http-modern 1\.0\.0 \(2026-07-28\)/.test(log), 'the 2026 client named');
      await errors.until((log) => /client agentfs-http-legacy 1\.0\.0 \(2025-11-25\)/.test(log), 'the 2025 client named');
    } finally {
      await stopChild(child);
    }
  });
});
