/**
 * The guards of the MCP server's Streamable HTTP endpoint, met over real HTTP: the bearer token (401, and nothing
 * touched without it), Origin and Host (403, against DNS rebinding), the body bound (413), the token the server keeps
 * in its state folder, and the refusal to serve another machine unless told to. Requests go out with plain fetch,
 * except where fetch cannot send what a test needs (see `rawPost`).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { TOOL_DEFINITIONS } from '../../../src/core/tools';
import { assertTree, expectOk, removeTree, snapshot } from '../helpers';
import { buildOnce, SERVER, tempLayout } from './serve';
import { type HttpServed, mcpHeaders, serveHttp } from '../../shared/mcpHttp';

const TOKEN = 'http-security-token-0123456789abcdef';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
/** One byte of content over the server's bound on a request body (64 MiB), the rest of the request around it. */
const OVERSIZED_BYTES = 64 * 1024 * 1024 + 1;

interface Answer {
  readonly status: number;
  readonly headers: Headers | http.IncomingHttpHeaders;
  readonly text: string;
}

/** A 2026-07-28 request: the per-request `_meta` envelope in the body and the routing headers beside it. */
function modernRequest(method: string, params: Record<string, unknown> = {}, id = 1): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method };
  if (method === 'tools/call' && typeof params.name === 'string') headers['Mcp-Name'] = params.name;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'agentfs-http-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return { headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }) };
}

function initializeBody(id = 1): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'agentfs-http-test', version: '1.0.0' } },
  });
}

interface RpcMessage {
  readonly id?: unknown;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

/** The JSON-RPC message answering `id`, from a JSON body or an SSE stream. */
function messageFor(answer: Answer, id: number): RpcMessage {
  const messages = answer.text.trimStart().startsWith('{')
    ? [JSON.parse(answer.text) as RpcMessage]
    : answer.text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice('data:'.length)) as RpcMessage);
  const found = messages.find((message) => message.id === id);
  assert.ok(found, `no answer to request ${id} in:\n${answer.text}`);
  return found;
}

function headerOf(answer: Answer, name: string): string | undefined {
  const { headers } = answer;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

describe('MCP server over HTTP: token, Origin, Host and size guards', function () {
  let tmp = '';
  let base = '';
  let state = '';
  let tokenFile = '';
  let server: HttpServed | undefined;

  before(buildOnce);
  beforeEach(function () {
    ({ tmp, base, state } = tempLayout('agentfs-mcp-http-'));
    fs.writeFileSync(path.join(base, 'notes.md'), '# notes\n');
    tokenFile = path.join(tmp, 'token');
    fs.writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  });
  afterEach(async function () {
    await server?.stop();
    server = undefined;
    removeTree(tmp);
  });

  async function start(extra: readonly string[] = ['--token-file', tokenFile], env: Record<string, string> = {}): Promise<HttpServed> {
    server = await serveHttp(SERVER, ['--http', '127.0.0.1:0', '--root', base, '--state', state, ...extra], { env });
    return server;
  }

  async function post(body: string, headers: Record<string, string>): Promise<Answer> {
    assert.ok(server);
    const response = await fetch(server.url, { method: 'POST', headers, body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /**
   * A POST over node:http. fetch replaces a Host header with the URL's own, and it gives up on a request whose body
   * the server refused before reading it all (EPIPE) instead of returning the answer it got.
   */
  function rawPost(headers: Record<string, string>, body: string | Buffer): Promise<Answer> {
    assert.ok(server);
    const { port } = server;
    return new Promise((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      });
      // The server may answer and close while the body is still going out; the answer is what counts.
      request.on('error', (error) => setTimeout(() => reject(error), 2000));
      request.end(body);
    });
  }

  async function listTools(token: string): Promise<string[]> {
    const { headers, body } = modernRequest('tools/list');
    const answer = await post(body, mcpHeaders(token, headers));
    assert.equal(answer.status, 200, answer.text);
    const tools = messageFor(answer, 1).result?.tools as { name: string }[] | undefined;
    assert.ok(tools, answer.text);
    return tools.map((tool) => tool.name);
  }

  it('answers 401 to a request with no token, a wrong one, or the right one under another scheme', async function () {
    await start();
    const body = initializeBody();
    const plain = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const answer = await post(body, authorization === undefined ? plain : { ...plain, Authorization: authorization });
      assert.equal(answer.status, 401, `${authorization ?? 'no Authorization'}: ${answer.text}`);
    }
    assert.equal((await post(body, mcpHeaders(TOKEN))).status, 200);
  });

  it('runs nothing for a wrong token: its write_file creates no file, the same call with the token does', async function () {
    await start();
    const before = snapshot(base);
    const { headers, body } = modernRequest('tools/call', {
      name: 'write_file',
      arguments: { file_name: 'sub/new.txt', content: 'written' },
    });
    const refused = await post(body, mcpHeaders('wrong-token', headers));
    assert.equal(refused.status, 401, refused.text);
    assertTree(snapshot(base), before, 'a wrong token changed the disk');
    assert.equal(fs.existsSync(path.join(base, 'sub')), false);

    const accepted = await post(body, mcpHeaders(TOKEN, headers));
    assert.equal(accepted.status, 200, accepted.text);
    expectOk(messageFor(accepted, 1).result?.structuredContent as Envelope, 'write_file');
    assert.equal(fs.readFileSync(path.join(base, 'sub', 'new.txt'), 'utf8'), 'written');
  });

  it('answers 403 to a foreign Origin, even with the token, and serves a loopback one', async function () {
    const { port } = await start();
    const { headers, body } = modernRequest('tools/list');
    const foreign = await post(body, mcpHeaders(TOKEN, { ...headers, Origin: 'http://evil.example' }));
    assert.equal(foreign.status, 403, foreign.text);
    for (const origin of [`http://127.0.0.1:${port}`, 'http://localhost:5173']) {
      const answer = await post(body, mcpHeaders(TOKEN, { ...headers, Origin: origin }));
      assert.equal(answer.status, 200, `${origin}: ${answer.text}`);
    }
  });

  it('answers 403 to a foreign Host (DNS rebinding), even with the token, and serves a loopback one', async function () {
    const { port } = await start();
    const { headers, body } = modernRequest('tools/list');
    for (const host of ['evil.example', `evil.example:${port}`]) {
      const answer = await rawPost(mcpHeaders(TOKEN, { ...headers, Host: host }), body);
      assert.equal(answer.status, 403, `${host}: ${answer.text}`);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const answer = await rawPost(mcpHeaders(TOKEN, { ...headers, Host: host }), body);
      assert.equal(answer.status, 200, `${host}: ${answer.text}`);
    }
  });

  it('answers 413 to a body over the bound and writes nothing of it', async function () {
    await start();
    const before = snapshot(base);
    const content = 'x'.repeat(OVERSIZED_BYTES);
    const { headers, body } = modernRequest('tools/call', { name: 'write_file', arguments: { file_name: 'big.txt', content } });
    const announced = await rawPost(mcpHeaders(TOKEN, headers), body);
    assert.equal(announced.status, 413, announced.text.slice(0, 500));
    // Without a Content-Length the bound has to hold while the body streams in.
    const streamed = await rawPost(mcpHeaders(TOKEN, { ...headers, 'Transfer-Encoding': 'chunked' }), body);
    assert.equal(streamed.status, 413, streamed.text.slice(0, 500));
    assertTree(snapshot(base), before, 'an oversized request changed the disk');
  });

  it('serves initialize (2025-11-25) and tools/list (both revisions) with the token', async function () {
    await start();
    const initialized = await post(initializeBody(), mcpHeaders(TOKEN));
    assert.equal(initialized.status, 200, initialized.text);
    const result = messageFor(initialized, 1).result;
    assert.equal(result?.protocolVersion, LEGACY, initialized.text);
    assert.ok((result?.capabilities as { tools?: unknown } | undefined)?.tools, 'the server declares tools');

    const session = headerOf(initialized, 'mcp-session-id');
    const sessionHeaders: Record<string, string> = { 'MCP-Protocol-Version': LEGACY, ...(session ? { 'Mcp-Session-Id': session } : {}) };
    const notified = await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), mcpHeaders(TOKEN, sessionHeaders));
    assert.equal(notified.status, 202, notified.text);
    const legacyList = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
      mcpHeaders(TOKEN, sessionHeaders),
    );
    assert.equal(legacyList.status, 200, legacyList.text);
    const names = TOOL_DEFINITIONS.map((tool) => tool.name);
    assert.deepEqual(
      (messageFor(legacyList, 2).result?.tools as { name: string }[]).map((tool) => tool.name),
      names,
    );
    assert.deepEqual(await listTools(TOKEN), names);
  });

  it('generates a token once into the state folder, mode 0600, says where, and reuses it on restart', async function () {
    const first = await start([]);
    const file = path.join(state, 'mcp-http-token');
    assert.match(first.log(), new RegExp(`token in ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const token = fs.readFileSync(file, 'utf8').trim();
    assert.ok(token.length >= 32, `a token too long to guess: ${token}`);
    assert.ok(!first.log().includes(token), 'the log does not show the token');
    assert.ok((await listTools(token)).length > 0);
    await first.stop();

    await start([]);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), token, 'the restarted server kept the token');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.ok((await listTools(token)).length > 0);
    const { headers, body } = modernRequest('tools/list');
    assert.equal((await post(body, mcpHeaders('wrong-token', headers))).status, 401);
  });

  it('takes the token from AGENT_FS_MCP_TOKEN, writes no token file, and names the variable, not the token', async function () {
    const served = await start([], { AGENT_FS_MCP_TOKEN: TOKEN });
    assert.ok((await listTools(TOKEN)).length > 0);
    assert.equal(fs.existsSync(path.join(state, 'mcp-http-token')), false);
    assert.match(served.log(), /token in \$AGENT_FS_MCP_TOKEN/);
    assert.ok(!served.log().includes(TOKEN), 'the log does not show the token');
  });

  it('takes the token from --token-file over AGENT_FS_MCP_TOKEN, and names the file, not the token', async function () {
    const served = await start(['--token-file', tokenFile], { AGENT_FS_MCP_TOKEN: 'from-the-environment-0123456789' });
    assert.ok((await listTools(TOKEN)).length > 0);
    const { headers, body } = modernRequest('tools/list');
    assert.equal((await post(body, mcpHeaders('from-the-environment-0123456789', headers))).status, 401);
    assert.ok(served.log().includes(`token in ${tokenFile}`), served.log());
    assert.ok(!served.log().includes(TOKEN), 'the log does not show the token');
    assert.equal(fs.existsSync(path.join(state, 'mcp-http-token')), false);
  });

  it('refuses to serve a non-loopback host without --allow-remote: exit 2 and a message naming the flag', function () {
    for (const host of ['0.0.0.0', '192.0.2.1']) {
      const result = spawnSync(
        process.execPath,
        [SERVER, '--http', `${host}:0`, '--token-file', tokenFile, '--root', base, '--state', state],
        {
          encoding: 'utf8',
          timeout: 30000,
        },
      );
      assert.equal(result.status, 2, `${host}:\n${result.stderr}`);
      assert.match(result.stderr, /--allow-remote/, host);
      assert.doesNotMatch(result.stderr, /listening on/, host);
    }
  });
});
