/**
 * What real MCP clients do to calls, sent here over real stdio by the SDK's client: Gemini CLI's `wait_for_previous`
 * on every call, the inputs Codex's stripped schemas allow (no minLength, maxLength, minimum or default reaches its
 * model), and progress tokens on calls that end at once. The server validates everything itself and stays quiet.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOOL_DEFINITIONS } from '../../../src/core/tools';
import { CLIENT_ADDED_PARAMETERS } from '../../../src/node/mcp/server';
import { expectError, expectOk, removeTree } from '../helpers';
import { buildOnce, serve, type Served, tempLayout } from './serve';

describe('MCP server: client dialects', function () {
  let tmp = '';
  let base = '';
  let served: Served | undefined;

  before(buildOnce);
  beforeEach(async function () {
    ({ tmp, base } = tempLayout('agentfs-mcp-dialects-'));
    fs.writeFileSync(path.join(base, 'a.txt'), 'one\ntwo\nthree\n');
    served = await serve(['--root', base, '--no-history']);
  });
  afterEach(async function () {
    await served?.close();
    removeTree(tmp);
  });

  function server(): Served {
    assert.ok(served);
    return served;
  }

  it("accepts and ignores Gemini CLI's wait_for_previous on every tool, reading and writing alike", async function () {
    expectOk((await server().call('read_file', { file_name: 'a.txt', wait_for_previous: true })).envelope, 'read_file');
    expectOk((await server().call('workspace_info', { wait_for_previous: false })).envelope, 'workspace_info');
    expectOk((await server().call('write_file', { file_name: 'b.txt', content: 'new\n', wait_for_previous: true })).envelope, 'write_file');
    assert.equal(fs.readFileSync(path.join(base, 'b.txt'), 'utf8'), 'new\n');
    // No tool has a parameter of that name: the rule never hides one of a tool's own.
    for (const tool of TOOL_DEFINITIONS) {
      const properties = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
      for (const name of Object.keys(CLIENT_ADDED_PARAMETERS)) assert.ok(!(name in properties), `${tool.name} has no ${name} of its own`);
    }
  });

  it('still refuses a misspelt parameter, a misspelt wait_for_previous, and wait_for_previous of another type', async function () {
    const misspelt = expectError((await server().call('read_file', { file_nam: 'a.txt' })).envelope, 'INVALID_INPUT', 'read_file');
    assert.match(misspelt.message, /file_nam/);
    const near = expectError(
      (await server().call('read_file', { file_name: 'a.txt', wait_for_previos: true })).envelope,
      'INVALID_INPUT',
      'read_file',
    );
    assert.match(near.message, /wait_for_previos/);
    const typed = expectError(
      (await server().call('write_file', { file_name: 'c.txt', content: 'x', wait_for_previous: 'yes' })).envelope,
      'INVALID_INPUT',
      'write_file',
    );
    assert.match(typed.message, /wait_for_previous/);
    assert.ok(!fs.existsSync(path.join(base, 'c.txt')), 'the refused write wrote nothing');
  });

  it('refuses what only the keywords Codex strips would have refused, and fills the defaults its model never saw', async function () {
    // minLength, minimum and maxLength do not reach Codex's model: the server checks them itself.
    expectError((await server().call('read_file', { file_name: '' })).envelope, 'INVALID_INPUT', 'read_file');
    expectError((await server().call('read_file', { file_name: 'a.txt', start_line: 0 })).envelope, 'INVALID_INPUT', 'read_file');
    expectError((await server().call('find_file', { file_name: 'x'.repeat(1025) })).envelope, 'INVALID_INPUT', 'find_file');
    expectError(
      (await server().call('replace_lines', { path: 'a.txt', start_line: -1, end_line: 1, content: 'x' })).envelope,
      'INVALID_INPUT',
      'replace_lines',
    );
    assert.equal(fs.readFileSync(path.join(base, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    // Defaults the model cannot see still apply: list_files is recursive, delete_directory is not.
    fs.mkdirSync(path.join(base, 'deep', 'er'), { recursive: true });
    fs.writeFileSync(path.join(base, 'deep', 'er', 'c.txt'), 'c\n');
    const listed = expectOk((await server().call('list_files', {})).envelope, 'list_files');
    assert.ok((listed.files as string[]).includes('deep/er/c.txt'), JSON.stringify(listed.files));
    expectError((await server().call('delete_directory', { directory_path: 'deep' })).envelope, 'DIRECTORY_NOT_EMPTY', 'delete_directory');
    assert.ok(fs.existsSync(path.join(base, 'deep', 'er', 'c.txt')));
  });

  it('sends no progress for calls that end within their first second, even with a progress token', async function () {
    const updates: unknown[] = [];
    for (let index = 0; index < 20; index++) fs.writeFileSync(path.join(base, `f${index}.txt`), `needle ${index}\n`);
    expectOk((await server().call('search_content', { query: 'needle' }, { onprogress: (update) => updates.push(update) })).envelope);
    expectOk((await server().call('list_directory', { recursive: true }, { onprogress: (update) => updates.push(update) })).envelope);
    expectOk(
      (
        await server().call(
          'copy_file',
          { source_path: 'a.txt', destination_path: 'copy.txt' },
          { onprogress: (update) => updates.push(update) },
        )
      ).envelope,
    );
    assert.deepEqual(updates, []);
  });
});
