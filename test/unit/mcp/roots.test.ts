/**
 * MCP roots over real stdio: a client's roots replace the default directory, narrow --root but never widen it,
 * changes apply from the next call, and roots that cannot be served are ignored with a log line. Each case checks
 * where the tools reach by what they can read and write, and the disk outside afterwards.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import { assertTree, expectError, expectOk, makeTempDir, removeTree, snapshot } from '../helpers';
import { buildOnce, serve, type Served, waitForLog } from './serve';

describe('MCP server: roots', function () {
  let tmp = '';
  let state = '';
  /** tmp/project/{a.txt, sub/b.txt, other/c.txt}, tmp/elsewhere/d.txt, tmp/cwd/e.txt */
  let project = '';
  let elsewhere = '';
  let cwd = '';
  const served: Served[] = [];

  before(buildOnce);
  beforeEach(function () {
    tmp = makeTempDir('agentfs-mcp-roots-');
    state = path.join(tmp, 'state');
    project = path.join(tmp, 'project');
    elsewhere = path.join(tmp, 'elsewhere');
    cwd = path.join(tmp, 'cwd');
    const files: Record<string, string> = {
      'project/a.txt': 'a',
      'project/sub/b.txt': 'b',
      'project/other/c.txt': 'c',
      'elsewhere/d.txt': 'd',
      'cwd/e.txt': 'e',
    };
    for (const [relative, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(tmp, relative)), { recursive: true });
      fs.writeFileSync(path.join(tmp, relative), content);
    }
  });
  afterEach(async function () {
    for (const each of served.splice(0)) await each.close();
    removeTree(tmp);
  });

  async function start(args: readonly string[], roots: () => Root[]): Promise<Served> {
    const server = await serve(['--state', state, ...args], { cwd, roots });
    served.push(server);
    return server;
  }

  const uri = (directory: string): string => pathToFileURL(directory).href;

  async function baseOf(server: Served): Promise<string[]> {
    const data = expectOk((await server.call('workspace_info', {})).envelope);
    return (data.roots as { path: string }[]).map((root) => root.path);
  }

  it("without --root, the client's roots replace the current directory", async function () {
    const server = await start([], () => [{ uri: uri(elsewhere), name: 'elsewhere' }]);
    assert.deepEqual(await baseOf(server), [elsewhere]);
    assert.equal(expectOk((await server.call('read_file', { file_name: 'd.txt' })).envelope).content, 'd');
    const before = snapshot(tmp);
    expectError((await server.call('read_file', { file_name: path.join(cwd, 'e.txt') })).envelope, 'FILE_PATH_OUTSIDE_BASE');
    expectError(
      (await server.call('write_file', { file_name: path.join(cwd, 'new.txt'), content: 'x' })).envelope,
      'FILE_PATH_OUTSIDE_BASE',
    );
    assertTree(snapshot(tmp), before);
  });

  it('a client without roots, or with an empty list, keeps the default directory', async function () {
    const withoutRoots = await serve(['--state', state], { cwd });
    served.push(withoutRoots);
    assert.deepEqual(await baseOf(withoutRoots), [cwd]);
    const empty = await start(['--root', project], () => []);
    assert.deepEqual(await baseOf(empty), [project]);
  });

  it('with --root, a root inside narrows it; paths outside the narrowed root are refused and nothing changes', async function () {
    const server = await start(['--root', project], () => [{ uri: uri(path.join(project, 'sub')) }]);
    assert.deepEqual(await baseOf(server), [path.join(project, 'sub')]);
    assert.equal(expectOk((await server.call('read_file', { file_name: 'b.txt' })).envelope).content, 'b');
    const before = snapshot(tmp);
    expectError((await server.call('read_file', { file_name: '../a.txt' })).envelope, 'FILE_PATH_OUTSIDE_BASE');
    expectError((await server.call('delete_file', { file_name: path.join(project, 'other', 'c.txt') })).envelope, 'FILE_PATH_OUTSIDE_BASE');
    expectError(
      (await server.call('copy_directory', { source_path: '.', destination_path: '../other/copy' })).envelope,
      'DESTINATION_PATH_OUTSIDE_BASE',
    );
    assertTree(snapshot(tmp), before);
  });

  it('with --root, a root outside is ignored with a log line; when none counts every tool answers DIR_NOT_AVAILABLE', async function () {
    const server = await start(['--root', project], () => [{ uri: uri(elsewhere) }]);
    const before = snapshot(tmp);
    const refused = expectError((await server.call('list_files', {})).envelope, 'DIR_NOT_AVAILABLE');
    assert.match(refused.message, /outside every --root directory/);
    expectError((await server.call('write_file', { file_name: 'x.txt', content: 'x' })).envelope, 'DIR_NOT_AVAILABLE');
    expectError(
      (await server.call('write_file', { file_name: path.join(elsewhere, 'x.txt'), content: 'x' })).envelope,
      'DIR_NOT_AVAILABLE',
    );
    assertTree(snapshot(tmp), before);
    await waitForLog(server, (log) => log.includes(`Ignored the root ${uri(elsewhere)}`), 'the ignored root');
  });

  it('with --root, a root that holds the --root directory leaves it as it is (a client cannot widen)', async function () {
    const server = await start(['--root', project], () => [{ uri: uri(tmp) }]);
    assert.deepEqual(await baseOf(server), [project]);
    const before = snapshot(tmp);
    expectError((await server.call('read_file', { file_name: path.join(elsewhere, 'd.txt') })).envelope, 'FILE_PATH_OUTSIDE_BASE');
    assertTree(snapshot(tmp), before);
  });

  it('roots that are not local directories are ignored with a log line; the rest count', async function () {
    const server = await start(['--root', project], () => [
      { uri: 'https://example.com/repo' },
      { uri: uri(path.join(project, 'missing')) },
      { uri: uri(path.join(project, 'a.txt')) },
      { uri: uri(path.join(project, 'other')) },
    ]);
    assert.deepEqual(await baseOf(server), [path.join(project, 'other')]);
    await waitForLog(server, (log) => log.includes('Ignored the root https://example.com/repo: it is not a file: URI'), 'the https root');
    await waitForLog(server, (log) => /Ignored the root \S*missing: it does not exist/.test(log), 'the missing root');
    await waitForLog(server, (log) => /Ignored the root \S*a\.txt: it is not a directory/.test(log), 'the file root');
  });

  it("several roots serve as a multi-root workspace: a relative path may start with a root's name", async function () {
    const server = await start([], () => [{ uri: uri(path.join(project, 'sub')) }, { uri: uri(elsewhere) }]);
    assert.deepEqual(await baseOf(server), [path.join(project, 'sub'), elsewhere]);
    assert.equal(expectOk((await server.call('read_file', { file_name: 'elsewhere/d.txt' })).envelope).content, 'd');
    assert.equal(expectOk((await server.call('read_file', { file_name: 'b.txt' })).envelope).content, 'b');
    const found = expectOk((await server.call('search_files', { pattern: '*.txt' })).envelope);
    assert.deepEqual(
      (found.matches as { relative_path: string }[]).map((match) => match.relative_path),
      ['elsewhere/d.txt', 'sub/b.txt'],
    );
  });

  it('notifications/roots/list_changed applies from the next call', async function () {
    let current: Root[] = [{ uri: uri(path.join(project, 'sub')) }];
    const server = await start(['--root', project], () => current);
    assert.deepEqual(await baseOf(server), [path.join(project, 'sub')]);
    current = [{ uri: uri(path.join(project, 'other')) }];
    // Until the client says so, the roots it gave stand.
    assert.deepEqual(await baseOf(server), [path.join(project, 'sub')]);
    await server.client.sendRootsListChanged();
    assert.deepEqual(await baseOf(server), [path.join(project, 'other')]);
    expectOk((await server.call('write_file', { file_name: 'new.txt', content: 'n' })).envelope);
    assert.equal(fs.readFileSync(path.join(project, 'other', 'new.txt'), 'utf8'), 'n');
    assert.ok(!fs.existsSync(path.join(project, 'sub', 'new.txt')));
  });

  it('a root that holds the history store is ignored (the tools would reach their own history)', async function () {
    const inside = path.join(elsewhere, 'history');
    const server = await serve(['--state', inside], { cwd, roots: () => [{ uri: uri(elsewhere) }, { uri: uri(project) }] });
    served.push(server);
    assert.deepEqual(await baseOf(server), [project]);
    await waitForLog(
      server,
      (log) => log.includes(`Ignored the root ${elsewhere}: it holds the history store`),
      'the root holding the history',
    );
  });
});
