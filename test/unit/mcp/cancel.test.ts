/**
 * Cancellation and progress over real stdio: a client that aborts a request sends notifications/cancelled; the
 * server stops the call between steps with the editor's guarantees (a cancelled copy leaves no destination and no
 * staging directory) and goes on serving. A request with a progress token gets rising progress notifications.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { assertTree, expectOk, makeTempDir, removeTree, snapshot } from '../helpers';
import { buildOnce, serve, type Served, waitForLog } from './serve';

const DIRECTORIES = 200;
const FILES_PER_DIRECTORY = 50;

/** Every path below `root` whose name marks an Agent FS staging or temporary file. */
function stagingLeftovers(root: string): string[] {
  const found: string[] = [];
  const visit = (directory: string): void => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.name.includes('.agentfs-')) found.push(full);
      if (entry.isDirectory()) visit(full);
    }
  };
  visit(root);
  return found;
}

describe('MCP server: cancellation and progress', function () {
  let tmp = '';
  let base = '';
  let state = '';
  let served: Served | undefined;

  before(function () {
    buildOnce();
    tmp = makeTempDir('agentfs-mcp-cancel-');
    base = path.join(tmp, 'base');
    state = path.join(tmp, 'state');
    // 10,000 files: enough that a search or a copy takes far longer than a cancellation's round trip.
    const line = 'an ordinary line of text that matches nothing in particular\n';
    for (let directory = 0; directory < DIRECTORIES; directory++) {
      const dir = path.join(base, 'tree', `d${String(directory).padStart(3, '0')}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let file = 0; file < FILES_PER_DIRECTORY; file++)
        fs.writeFileSync(path.join(dir, `f${file}.txt`), `needle ${directory}-${file}\n${line.repeat(30)}`);
    }
  });
  after(function () {
    removeTree(tmp);
  });
  afterEach(async function () {
    await served?.close();
    served = undefined;
  });

  /**
   * The scan engine (no ripgrep on PATH), whose steps the core controls, so a cancelled search stops mid-way; `pauseAt`
   * stops the server at the first operation on that file (src/node/fs/pausePoints.ts) until it is resumed.
   */
  async function start(pauseAt?: string): Promise<Served> {
    const noTools = path.join(tmp, 'no-tools');
    fs.mkdirSync(noTools, { recursive: true });
    served = await serve(['--root', base, '--state', state], {
      env: { PATH: noTools, ...(pauseAt === undefined ? {} : { AGENTFS_PAUSE_AT: pauseAt }) },
    });
    return served;
  }

  it('cancelling mid-search stops the search between steps; the server answers the next call', async function () {
    // The search is held at a file in the middle of its order, so the cancellation reaches it mid-way every time:
    // the server must read it while the search waits on that file and its other reads go on.
    const held = path.join(base, 'tree', 'd100', 'f0.txt');
    const server = await start(held);
    const controller = new AbortController();
    const call = server.call(
      'search_content',
      { query: 'needle 199-49$', is_regex: true, max_results: 200, context_lines: 2 },
      { signal: controller.signal },
    );
    await waitForLog(server, (log) => log.includes(`paused at ${held}`), 'the search reaching the held file');
    controller.abort();
    await assert.rejects(call, (error: unknown) => error instanceof Error && /abort/i.test(`${error.name} ${error.message}`));
    await waitForLog(server, (log) => /search_content cancelled after \d+ ms/.test(log), 'the search cancelled');
    server.resume();
    assert.doesNotMatch(server.log(), /search_content ok/);
    const data = expectOk(
      (await server.call('search_content', { query: '^needle 7-3$', is_regex: true, max_results: 5 })).envelope,
      'search_content',
    );
    assert.equal(data.engine, 'scan');
    assert.equal(data.count, 1);
  });

  it('cancelling mid-copy leaves no destination and no staging directory; the source and the history are untouched', async function () {
    // The copy is held at a file in the middle of the tree: the cancellation comes while it is half done, every time.
    const held = path.join(base, 'tree', 'd100', 'f0.txt');
    const server = await start(held);
    // The history's own folder is left out: the call's reservation (a journal line, then its withdrawal) may leave it
    // made; that it keeps no record and no content is checked below.
    const before = snapshot(tmp, ['state']);
    const controller = new AbortController();
    const messages: string[] = [];
    const call = server.call(
      'copy_directory',
      { source_path: 'tree', destination_path: 'copy/of/tree' },
      { signal: controller.signal, onprogress: (update) => messages.push(update.message ?? '') },
    );
    await waitForLog(server, (log) => log.includes(`paused at ${held}`), 'the copy reaching the held file');
    const staged = fs.readdirSync(path.join(base, 'copy', 'of')).find((name) => name.includes('.agentfs-copy-'));
    assert.ok(staged !== undefined && fs.readdirSync(path.join(base, 'copy', 'of', staged)).length > 0, 'the copy was half done');
    controller.abort();
    await assert.rejects(call, (error: unknown) => error instanceof Error && /abort/i.test(`${error.name} ${error.message}`));
    // The copy waits on the held file; once the server has read the cancellation it may go on, and stops at its next step.
    await waitForLog(server, (log) => /copy_directory: the client cancelled it after \d+ ms/.test(log), 'the cancellation read');
    server.resume();
    await waitForLog(server, (log) => /copy_directory cancelled after \d+ ms/.test(log), 'the copy cancelled');
    assert.ok(
      messages.every((message) => /^copy_directory: \d+( of \d+)? [a-z ]+$/.test(message)),
      `progress, where any came, named what was done: ${messages.join(' | ')}`,
    );
    assert.ok(!fs.existsSync(path.join(base, 'copy')), 'no destination, nor the parents made for it');
    assert.deepEqual(stagingLeftovers(tmp), [], 'no staging directory or temporary file left');
    assertTree(snapshot(tmp, ['state']), before, 'the source and everything else are as they were');
    assert.equal(expectOk((await server.call('history_list', {})).envelope).count, 0, 'a cancelled call records nothing');
    for (const kept of ['operations', 'blobs']) {
      const folder = path.join(state, kept);
      assert.deepEqual(fs.existsSync(folder) ? fs.readdirSync(folder) : [], [], `nothing in the history's ${kept}`);
    }
    expectOk((await server.call('path_exists', { path: 'tree/d000/f0.txt' })).envelope, 'path_exists');
  });

  it('a request with a progress token gets notifications whose progress only rises, each naming the phase', async function () {
    // The server is quiet for a call's first second and then says how far it got at most every 100 ms: the copy is
    // held twice, each time until that much has passed, so two notifications are due however fast the machine.
    const copies = 2;
    for (let copy = 0; copy < copies; copy++) fs.cpSync(path.join(base, 'tree'), path.join(base, 'wide', `t${copy}`), { recursive: true });
    const first = path.join(base, 'wide', 't0', 'd100', 'f0.txt');
    const second = path.join(base, 'wide', 't1', 'd100', 'f0.txt');
    const server = await start([first, second].join(path.delimiter));
    const updates: { progress: number; message?: string }[] = [];
    let notified: () => void = () => undefined;
    const call = server.call(
      'copy_directory',
      { source_path: 'wide', destination_path: 'copied' },
      {
        onprogress: (update) => {
          updates.push(update);
          notified();
        },
      },
    );
    const pass = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    await waitForLog(server, (log) => log.includes(`paused at ${first}`), 'the copy reaching the first held file');
    await pass(1_100);
    // Due once the first second has passed: sent during the hold (other files of the copy went on) or after it.
    const firstNotice = new Promise<void>((resolve) => {
      notified = resolve;
      if (updates.length > 0) resolve();
    });
    server.resume();
    await waitForLog(server, (log) => log.includes(`paused at ${second}`), 'the copy reaching the second held file');
    await firstNotice;
    await pass(200);
    server.resume();
    const { envelope } = await call;
    assert.equal(expectOk(envelope, 'copy_directory').files, copies * DIRECTORIES * FILES_PER_DIRECTORY);
    assert.ok(updates.length >= 2, `progress notifications: ${JSON.stringify(updates)}`);
    for (let index = 1; index < updates.length; index++)
      assert.ok((updates[index]?.progress ?? 0) > (updates[index - 1]?.progress ?? 0), 'progress rises');
    for (const update of updates) assert.match(update.message ?? '', /^copy_directory: \d+( of \d+)? (directories read|files copied)$/);
    assert.equal(fs.readdirSync(path.join(base, 'copied', 't0')).length, DIRECTORIES);
  });
});
