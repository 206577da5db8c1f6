/**
 * The configurations "Connect Another Agent…" offers: each one's command line, taken out of the snippet the way its
 * client reads it, starts the real server, which works on the base directory and records into the given history,
 * the one the editor (and here the runner) reads.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  connectSnippets,
  type ConnectSnippet,
  httpPort,
  SERVER_NAME,
  serverCommand,
  type ServerCommand,
  shellWord,
} from '../../../src/core/catalog/connect';
import type { Envelope } from '../../../src/core/envelope';
import { stateToken } from '../../../src/node/mcp/httpToken';
import { expectOk, makeTempDir, removeTree } from '../helpers';
import { packOperations, readPack } from '../packFile';
import { Output } from '../../shared/output';
import { buildOnce, RUNNER, serve, SERVER, stopChild } from './serve';

/** Splits a POSIX shell line of plain and single-quoted words (what shellWord writes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index] ?? '';
    if (char === "'") {
      const end = line.indexOf("'", index + 1);
      assert.ok(end !== -1, `unterminated quote in ${line}`);
      word = (word ?? '') + line.slice(index + 1, end);
      index = end;
    } else if (char === '\\') {
      word = (word ?? '') + (line[++index] ?? '');
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The command line a client takes from its snippet. */
function commandOf(snippet: ConnectSnippet): ServerCommand {
  if (snippet.id === 'claude-code') {
    const words = shellWords(snippet.text.trim());
    assert.deepEqual(words.slice(0, 5), ['claude', 'mcp', 'add', SERVER_NAME, '--']);
    const [command = '', ...args] = words.slice(5);
    return { command, args };
  }
  const parsed = JSON.parse(snippet.text) as {
    mcpServers?: Record<string, ServerCommand>;
    servers?: Record<string, ServerCommand & { type: string }>;
  };
  const entry = snippet.id === 'vscode' ? parsed.servers?.[SERVER_NAME] : parsed.mcpServers?.[SERVER_NAME];
  assert.ok(entry, `${snippet.id}: an entry named ${SERVER_NAME}`);
  if (snippet.id === 'vscode') assert.equal((entry as { type?: string }).type, 'stdio');
  return { command: entry.command, args: entry.args };
}

describe('MCP server: the Connect Another Agent snippets', function () {
  let tmp = '';

  before(buildOnce);
  beforeEach(function () {
    tmp = makeTempDir('agentfs-mcp-connect-');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it('offers Claude Desktop, LM Studio, Cursor, VS Code and Claude Code, each with node, the server, --root and --state', function () {
    const command = serverCommand('/opt/ext/dist/mcp.js', ['/home/me/my project'], '/home/me/.state/history');
    assert.deepEqual(command, {
      command: 'node',
      args: ['/opt/ext/dist/mcp.js', '--root', '/home/me/my project', '--state', '/home/me/.state/history'],
    });
    const snippets = connectSnippets(command, 'linux');
    assert.deepEqual(
      connectSnippets(command, 'linux', { port: 20001, token: 'x'.repeat(20) }).map((snippet) => snippet.id),
      ['claude-desktop', 'lm-studio', 'cursor', 'vscode', 'claude-code', 'http-server', 'vscode-http', 'claude-code-http', 'http'],
    );
    assert.deepEqual(
      snippets.map((snippet) => snippet.id),
      ['claude-desktop', 'lm-studio', 'cursor', 'vscode', 'claude-code'],
    );
    for (const snippet of snippets) assert.deepEqual(commandOf(snippet), command, snippet.id);
    assert.equal(
      snippets.find((snippet) => snippet.id === 'claude-code')?.text,
      "claude mcp add agent-fs -- node /opt/ext/dist/mcp.js --root '/home/me/my project' --state /home/me/.state/history\n",
    );
    assert.match(connectSnippets(command, 'darwin')[0]?.where ?? '', /Library\/Application Support\/Claude/);
    assert.equal(shellWord("it's here", 'linux'), `'it'\\''s here'`);
    assert.equal(shellWord('C:\\Program Files\\x', 'win32'), '"C:\\Program Files\\x"');
    assert.deepEqual(shellWords(shellWord("it's here", 'linux')), ["it's here"]);
  });

  it('the command line of every snippet starts the server on the base directory, recording into the shared history', async function () {
    const base = path.join(tmp, "a project's folder");
    const state = path.join(tmp, 'editor storage', 'history');
    fs.mkdirSync(base, { recursive: true });
    fs.writeFileSync(path.join(base, 'readme.md'), '# hello\n');
    const snippets = connectSnippets(serverCommand(SERVER, [base], state), process.platform);
    for (const snippet of snippets) {
      const served = await serve([], { command: commandOf(snippet), cwd: tmp });
      try {
        const info = expectOk((await served.call('workspace_info', {})).envelope);
        assert.deepEqual(
          (info.roots as { path: string }[]).map((root) => root.path),
          [base],
          snippet.id,
        );
        assert.equal(expectOk((await served.call('read_file', { file_name: 'readme.md' })).envelope).content, '# hello\n');
        expectOk((await served.call('write_file', { file_name: `by-${snippet.id}.txt`, content: snippet.id })).envelope, 'write_file');
        assert.equal(fs.readFileSync(path.join(base, `by-${snippet.id}.txt`), 'utf8'), snippet.id);
      } finally {
        await served.close();
      }
    }
    // One history for all of them, readable by any other host given the same --state.
    const listed = spawnSync(process.execPath, [RUNNER, '--root', base, '--state', state, 'history_list', '{}'], { encoding: 'utf8' });
    const data = expectOk(JSON.parse(listed.stdout) as Parameters<typeof expectOk>[0], 'history_list');
    assert.equal(data.count, snippets.length);
    const recorded = [...packOperations(readPack(state)).values()].filter((operation) => operation.record);
    assert.ok(recorded.length >= snippets.length, `${recorded.length} records in the pack`);
  });

  it('over HTTP: the server line starts it on the folder, and each client entry reaches it with the URL and the token', async function () {
    const base = path.join(tmp, 'project');
    const state = path.join(tmp, 'editor storage', 'history');
    fs.mkdirSync(base, { recursive: true });
    fs.writeFileSync(path.join(base, 'readme.md'), '# hello\n');
    // What the editor does: the state folder's token, made if no server made it, and the folder's port.
    const token = stateToken(state);
    assert.ok(typeof token !== 'string', typeof token === 'string' ? token : '');
    assert.equal(fs.statSync(path.join(state, 'mcp-http-token')).mode & 0o777, 0o600);
    const port = httpPort(state);
    assert.ok(port >= 20000 && port < 30000);
    assert.equal(httpPort(state), port, 'one folder, one port');
    const snippets = connectSnippets(serverCommand(SERVER, [base], state), process.platform, { port, token: token.token });
    const line = snippets.find((snippet) => snippet.id === 'http-server');
    assert.ok(line);
    const [command = '', ...args] = shellWords(line.text.trim());
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const errors = new Output(child.stderr);
    try {
      await errors.until((text) => text.includes('listening on'), 'where it listens');
      const log = errors.text;
      assert.match(
        log,
        new RegExp(`listening on http://127\\.0\\.0\\.1:${port}/mcp; token in ${state.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
      const entries: { id: string; url: string; headers: Record<string, string> }[] = [];
      for (const snippet of snippets) {
        if (snippet.id === 'vscode-http' || snippet.id === 'http') {
          const parsed = JSON.parse(snippet.text) as Record<
            string,
            Record<string, { type: string; url: string; headers: Record<string, string> }>
          >;
          const entry = (snippet.id === 'vscode-http' ? parsed.servers : parsed.mcpServers)?.[SERVER_NAME];
          assert.ok(entry && entry.type === 'http', snippet.id);
          entries.push({ id: snippet.id, url: entry.url, headers: entry.headers });
        } else if (snippet.id === 'claude-code-http') {
          const words = shellWords(snippet.text.trim());
          assert.deepEqual(words.slice(0, 6), ['claude', 'mcp', 'add', '--transport', 'http', SERVER_NAME]);
          assert.equal(words[7], '--header');
          const [name = '', value = ''] = (words[8] ?? '').split(/:\s*/, 2);
          entries.push({ id: snippet.id, url: words[6] ?? '', headers: { [name]: value } });
        }
      }
      assert.deepEqual(
        entries.map((entry) => entry.id),
        ['vscode-http', 'claude-code-http', 'http'],
      );
      for (const entry of entries) {
        const client = new Client({ name: `connect-${entry.id}`, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }));
        try {
          const result = await client.callTool({ name: 'write_file', arguments: { file_name: `by-${entry.id}.txt`, content: entry.id } });
          expectOk(result.structuredContent as Envelope, 'write_file');
          assert.equal(fs.readFileSync(path.join(base, `by-${entry.id}.txt`), 'utf8'), entry.id);
        } finally {
          await client.close();
        }
      }
    } finally {
      await stopChild(child);
    }
  });
});
