/**
 * The server over HTTP under load and when a client goes away: 400 calls at once from clients of both revisions all
 * answer as over stdio, and a call whose client gives up is cancelled between steps, leaving nothing behind.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Envelope } from '../../../src/core/envelope';
import { expectOk, removeTree } from '../helpers';
import { type HttpServed, serveHttp } from '../../shared/mcpHttp';
import { buildOnce, SERVER, tempLayout } from './serve';

const CALLS = 400;

interface Served extends HttpServed {
  readonly token: string;
}

/** The shared HTTP server start plus the bearer token it wrote into its state folder. */
async function serve(args: readonly string[], state: string, env: Readonly<Record<string, string>> = {}): Promise<Served> {
  const served = await serveHttp(SERVER, [...args, '--state', state, '--http', '127.0.0.1:0'], { env });
  return { ...served, token: fs.readFileSync(path.join(state, 'mcp-http-token'), 'utf8').trim() };
}

async function connect(served: Served, era: 'modern' | 'legacy'): Promise<Client> {
  const client = new Client(
    { name: `load-${era}`, version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: `Bearer ${served.token}` } } }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Envelope> {
  const result = await client.callTool({ name, arguments: args }, signal ? { signal, timeout: 120_000 } : { timeout: 120_000 });
  return result.structuredContent as Envelope;
}

describe('MCP server over HTTP: load and clients that go away', function () {
  this.timeout(300_000);
  let layout: ReturnType<typeof tempLayout>;
  let served: Served | undefined;
  before(buildOnce);
  beforeEach(() => {
    layout = tempLayout('agentfs-http-load-');
  });
  afterEach(async () => {
    await served?.stop();
    served = undefined;
    removeTree(layout.tmp);
  });

  it(`${CALLS} calls at once from both revisions: every write lands, every read answers its file`, async function () {
    for (let index = 0; index < CALLS / 2; index++) fs.writeFileSync(path.join(layout.base, `in-${index}.txt`), `file ${index}\n`);
    served = await serve(['--root', layout.base], layout.state);
    const modern = await connect(served, 'modern');
    const legacy = await connect(served, 'legacy');
    try {
      const calls = Array.from({ length: CALLS }, (_, index) => {
        const client = index % 2 === 0 ? modern : legacy;
        const half = Math.floor(index / 2);
        return index % 4 < 2
          ? call(client, 'write_file', { file_name: `out-${index}.txt`, content: `written ${index}\n` }).then((envelope) => {
              expectOk(envelope, 'write_file');
            })
          : call(client, 'read_file', { file_name: `in-${half}.txt` }).then((envelope) => {
              assert.equal(expectOk(envelope, 'read_file').content, `file ${half}\n`);
            });
      });
      await Promise.all(calls);
      const written = fs.readdirSync(layout.base).filter((name) => name.startsWith('out-'));
      assert.equal(written.length, CALLS / 2);
      for (const name of written) assert.equal(fs.readFileSync(path.join(layout.base, name), 'utf8'), `written ${/\d+/.exec(name)?.[0]}\n`);
      const history = expectOk(await call(modern, 'history_list', { limit: 1 }), 'history_list');
      assert.equal(history.count, 1);
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`${era === 'modern' ? '2026-07-28' : '2025-11-25'}: a client that gives up on a search cancels it; the server answers the next call`, async function () {
      const line = 'an ordinary line of text that matches nothing in particular\n'.repeat(30);
      for (let directory = 0; directory < 100; directory++) {
        const folder = path.join(layout.base, 'tree', `d${directory}`);
        fs.mkdirSync(folder, { recursive: true });
        for (let file = 0; file < 50; file++) fs.writeFileSync(path.join(folder, `f${file}.txt`), `needle ${directory}-${file}\n${line}`);
      }
      const noTools = path.join(layout.tmp, 'no-tools');
      fs.mkdirSync(noTools);
      // The search is held at a file in the middle of its order, so the client gives up while it is half done, every
      // time; the server must read that while the search waits on the file and its other reads go on.
      const held = path.join(layout.base, 'tree', 'd50', 'f0.txt');
      served = await serve(['--root', layout.base], layout.state, { PATH: noTools, AGENTFS_PAUSE_AT: held });
      const client = await connect(served, era);
      try {
        const controller = new AbortController();
        const search = call(
          client,
          'search_content',
          { query: 'needle 99-49$', is_regex: true, max_results: 200, context_lines: 2 },
          controller.signal,
        );
        await served.logged((log) => log.includes(`paused at ${held}`), 'the search reaching the held file');
        controller.abort();
        await assert.rejects(search);
        await served.logged((log) => /search_content cancelled after \d+ ms/.test(log), 'the search cancelled');
        served.child.kill('SIGUSR2');
        assert.doesNotMatch(served.log(), /search_content ok/);
        const next = expectOk(await call(client, 'search_content', { query: '^needle 7-3$', is_regex: true }), 'search_content');
        assert.equal(next.count, 1);
      } finally {
        await client.close();
      }
    });
  }
});
