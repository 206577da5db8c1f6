/**
 * A home folder as the root, over real stdio and through the runner: the default history folder (and the per-user
 * state directory with the lock folder) lies inside it. The server and the runner start all the same, keep the
 * history outside every root, hide Agent FS's own folders from the tools, and name no flag nobody gave. Each case
 * runs with a private HOME, XDG_RUNTIME_DIR and TMPDIR in a temp folder.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectError, expectOk, makeTempDir, removeTree } from '../helpers';
import { buildOnce, RUNNER, serve, type Served } from './serve';

describe('MCP server and runner: a home folder as root', function () {
  let tmp = '';
  let home = '';
  let runtime = '';
  let env: Record<string, string> = {};
  const served: Served[] = [];

  before(buildOnce);
  beforeEach(function () {
    tmp = makeTempDir('agentfs-home-root-');
    home = path.join(tmp, 'home', 'me');
    runtime = path.join(tmp, 'run');
    fs.mkdirSync(path.join(home, 'project'), { recursive: true });
    fs.mkdirSync(runtime, { mode: 0o700 });
    fs.mkdirSync(path.join(tmp, 'tmp'));
    fs.writeFileSync(path.join(home, 'project', 'a.txt'), 'alpha\n');
    env = { HOME: home, XDG_STATE_HOME: '', XDG_RUNTIME_DIR: runtime, TMPDIR: path.join(tmp, 'tmp') };
  });
  afterEach(async function () {
    for (const each of served.splice(0)) await each.close();
    removeTree(tmp);
  });

  /** Every file under `dir`, relative. */
  function filesUnder(dir: string): string[] {
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  }

  async function checkServes(server: Served): Promise<void> {
    expectOk((await server.call('write_file', { file_name: 'project/a.txt', content: 'changed\n' })).envelope, 'write_file');
    const history = expectOk((await server.call('history_list', {})).envelope, 'history_list');
    assert.equal(history.count, 1, 'the change is recorded');
    assert.ok(
      filesUnder(path.join(runtime, 'agent-fs', 'history')).length > 0,
      'the history lies outside the root, in the runtime directory',
    );
    assert.deepEqual(filesUnder(path.join(home, '.local', 'state', 'agent-fs', 'history')), [], 'and not inside the root');
    // The per-user state directory (with the lock folder) is inside the root: hidden from every tool.
    assert.ok(fs.existsSync(path.join(home, '.local', 'state', 'agent-fs', 'locks')), 'the lock folder is in use');
    const listed = expectOk((await server.call('list_files', { include_ignored: true })).envelope, 'list_files');
    assert.ok(
      !JSON.stringify(listed.files).includes('agent-fs'),
      `list_files shows none of Agent FS's folders: ${JSON.stringify(listed.files)}`,
    );
    const lockFile = filesUnder(path.join(home, '.local', 'state', 'agent-fs', 'locks'))[0];
    assert.ok(lockFile !== undefined);
    for (const [tool, input] of [
      ['read_file', { file_name: `.local/state/agent-fs/locks/${lockFile}` }],
      ['list_directory', { path: '.local/state/agent-fs' }],
      ['delete_directory', { directory_path: '.local/state/agent-fs', recursive: true }],
      ['write_file', { file_name: '.local/state/agent-fs/locks/x', content: 'x' }],
    ] as const) {
      const error = expectError((await server.call(tool, input)).envelope, 'SENSITIVE_PATH_REFUSED', tool);
      assert.doesNotMatch(error.message, /--state/, 'no message names a flag nobody gave');
    }
    assert.ok(fs.existsSync(path.join(home, '.local', 'state', 'agent-fs', 'locks', lockFile)), 'the lock folder is untouched');
    assert.ok(!fs.existsSync(path.join(home, '.local', 'state', 'agent-fs', 'locks', 'x')));
  }

  it('agent-fs-mcp --root ~ starts and serves it, with the history outside', async function () {
    const server = await serve(['--root', home], { env, cwd: home });
    served.push(server);
    assert.doesNotMatch(server.log(), /inside the root/);
    await checkServes(server);
  });

  it('started in ~ without --root (a user-scope configuration), and offered ~ as the client root', async function () {
    const server = await serve([], { env, cwd: path.join(home, 'project'), roots: () => [{ uri: pathToFileURL(home).href }] });
    served.push(server);
    const info = expectOk((await server.call('workspace_info', {})).envelope, 'workspace_info');
    assert.deepEqual(
      (info.roots as { path: string }[]).map((root) => root.path),
      [home],
      "the client's root is served",
    );
    await checkServes(server);
  });

  it('the runner with --root ~ runs, and shares the history with the server on the same folder', async function () {
    const runner = (operation: string, input: unknown): { status: number | null; stdout: string; stderr: string } =>
      spawnSync(process.execPath, [RUNNER, '--root', home, operation, JSON.stringify(input)], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
      });
    const written = runner('write_file', { file_name: 'project/b.txt', content: 'bee\n' });
    assert.equal(written.status, 0, written.stderr + written.stdout);
    assert.equal(fs.readFileSync(path.join(home, 'project', 'b.txt'), 'utf8'), 'bee\n');
    const server = await serve(['--root', home], { env, cwd: home });
    served.push(server);
    const history = expectOk((await server.call('history_list', {})).envelope, 'history_list');
    assert.equal(history.count, 1, "the server lists the runner's change");
  });

  it('--state inside the root is still refused, naming the flag that was given', function () {
    const result = spawnSync(process.execPath, [RUNNER, '--root', home, '--state', path.join(home, 'history'), 'workspace_info', '{}'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--state .* is inside the root/);
  });
});
