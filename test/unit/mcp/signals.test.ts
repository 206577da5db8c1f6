/**
 * SIGTERM and SIGINT end the server as a client closing it does: a copy in flight is cancelled and rolled back (no
 * destination, no staging folder, nothing recorded), the process exits 0, and its locks are gone from the lock folder.
 * Agent CLIs end their servers this way after every run; a kill -9 is the kill test's (crossProcess.test.ts).
 */
import * as assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { expectOk, makeTempDir, removeTree } from '../helpers';
import { stagingLeft } from '../fs/kills';
import { buildOnce, RUNNER, SERVER } from './serve';
import { Output } from '../../shared/output';

describe('MCP server: SIGTERM and SIGINT', function () {
  let tmp = '';
  let base = '';
  let state = '';
  let locks = '';
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, XDG_STATE_HOME: path.join(tmp, 'xdg') });

  before(function () {
    buildOnce();
    tmp = makeTempDir('agentfs-mcp-signals-');
    base = path.join(tmp, 'base');
    state = path.join(tmp, 'state');
    locks = path.join(tmp, 'xdg', 'agent-fs', 'locks');
    const line = 'an ordinary line of text\n'.repeat(40);
    for (let directory = 0; directory < 100; directory++) {
      const folder = path.join(base, 'tree', `d${directory}`);
      fs.mkdirSync(folder, { recursive: true });
      for (let file = 0; file < 50; file++) fs.writeFileSync(path.join(folder, `f${file}.txt`), `${directory}-${file}\n${line}`);
    }
  });
  after(() => removeTree(tmp));

  /**
   * Starts the server with raw JSON lines, initialized, and returns a way to send a request, its log and a wait on it;
   * `pauseAt` holds it at the first operation on that file until SIGUSR2 (src/node/fs/pausePoints.ts).
   */
  async function start(pauseAt?: string): Promise<{
    child: ChildProcessWithoutNullStreams;
    send: (id: number, method: string, params: object) => void;
    log: () => string;
    logged: (holds: (log: string) => boolean, what: string) => Promise<void>;
  }> {
    const child = spawn(process.execPath, [SERVER, '--root', base, '--state', state], {
      env: { ...env(), ...(pauseAt === undefined ? {} : { AGENTFS_PAUSE_AT: pauseAt }) },
    });
    const log = new Output(child.stderr);
    const out = new Output(child.stdout);
    const send = (id: number, method: string, params: object): void =>
      void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    send(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'signals', version: '1' } });
    await out.until((text) => text.includes('"id":0'), 'the answer to initialize');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return { child, send, log: () => log.text, logged: (holds, what) => log.until(holds, what) };
  }

  function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  function history(): Envelope {
    const listed = spawnSync(process.execPath, [RUNNER, '--root', base, '--state', state, 'history_list', '{}'], {
      encoding: 'utf8',
      env: env(),
    });
    return JSON.parse(listed.stdout) as Envelope;
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} mid-copy: the copy rolls back, the process exits 0, and no lock of it is left`, async function () {
      // The copy is held at a file in the middle of the tree, so the signal comes while it is half done, every time.
      const heldFile = path.join(base, 'tree', 'd50', 'f0.txt');
      const server = await start(heldFile);
      const done = exited(server.child);
      server.send(1, 'tools/call', { name: 'copy_directory', arguments: { source_path: 'tree', destination_path: `copy-${signal}` } });
      await server.logged((log) => log.includes(`paused at ${heldFile}`), 'the copy reaching the held file');
      const staging = fs.readdirSync(base).find((name) => name.includes('.agentfs-copy-'));
      assert.ok(staging !== undefined && fs.readdirSync(path.join(base, staging)).length > 0, 'the copy was half done');
      server.child.kill(signal);
      // Stopping cancels the copy, which goes on from the held file only to roll back at its next step.
      await server.logged((log) => log.includes(`${signal}: stopping`), 'the server stopping');
      server.child.kill('SIGUSR2');
      const { code } = await done;
      assert.equal(code, 0, server.log());
      assert.match(server.log(), new RegExp(`${signal}: stopping`));
      assert.ok(!fs.existsSync(path.join(base, `copy-${signal}`)), 'no destination');
      assert.deepEqual(stagingLeft(base), [], 'no staging folder or temporary file');
      const held = fs.existsSync(locks) ? fs.readdirSync(locks).filter((name) => name.includes(`.${server.child.pid}.`)) : [];
      assert.deepEqual(held, [], 'the lock folder holds nothing of the stopped process');
      assert.equal(expectOk(history(), 'history_list').count, 0, 'nothing recorded');
    });
  }

  it('SIGTERM with nothing in flight exits 0 at once, leaving no lock', async function () {
    const server = await start();
    const done = exited(server.child);
    server.send(1, 'tools/call', { name: 'write_file', arguments: { file_name: 'note.txt', content: 'kept\n' } });
    await server.logged((log) => log.includes('write_file ok'), 'the write done');
    server.child.kill('SIGTERM');
    assert.equal((await done).code, 0);
    assert.equal(fs.readFileSync(path.join(base, 'note.txt'), 'utf8'), 'kept\n');
    const held = fs.existsSync(locks) ? fs.readdirSync(locks).filter((name) => name.includes(`.${server.child.pid}.`)) : [];
    assert.deepEqual(held, []);
    const recorded = expectOk(history(), 'history_list');
    assert.equal(recorded.count, 1);
    fs.rmSync(path.join(base, 'note.txt'));
    fs.rmSync(state, { recursive: true, force: true });
  });
});
