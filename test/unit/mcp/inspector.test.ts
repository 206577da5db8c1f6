/**
 * A second MCP client, one this project did not write: the MCP Inspector's CLI mode (on the MCP SDK 2.x, while the
 * server is built on 1.x) starts dist/mcp.js over stdio, lists the tools and calls them. Installed once into
 * test/hosts/mcp-inspector; it runs on the hosts' Node 24, as it needs Node 22 or later.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { TOOL_DEFINITIONS } from '../../../src/core/tools';
import { ensureInspector } from '../../launcher/install';
import { expectError, expectOk, removeTree } from '../helpers';
import { buildOnce, SERVER, tempLayout } from './serve';

describe('MCP server: the MCP Inspector as a client', function () {
  let inspector = { node: '', script: '' };
  let tmp = '';
  let base = '';

  before(function () {
    this.timeout(600000);
    buildOnce();
    inspector = ensureInspector();
  });
  beforeEach(function () {
    ({ tmp, base } = tempLayout('agentfs-mcp-inspector-'));
    fs.writeFileSync(path.join(base, 'notes.md'), '# notes\n');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  /**
   * `mcp-inspector --cli node dist/mcp.js <server args> --method …`: its stdout is the result as JSON. It exits 0,
   * or 5 for a result with isError true (and says so on stderr).
   */
  function inspect(serverArgs: readonly string[], method: readonly string[], status = 0): unknown {
    const result = spawnSync(inspector.node, [inspector.script, '--cli', process.execPath, SERVER, ...serverArgs, '--method', ...method], {
      cwd: tmp,
      encoding: 'utf8',
      timeout: 60000,
    });
    assert.equal(result.status, status, `the inspector's exit code:\n${result.stdout}\n${result.stderr}`);
    return JSON.parse(result.stdout);
  }

  it('lists every tool with its schema and annotations', function () {
    const listed = inspect(['--root', base, '--no-history'], ['tools/list']) as {
      tools: { name: string; inputSchema: unknown; annotations?: { readOnlyHint?: boolean } }[];
    };
    assert.deepEqual(
      listed.tools.map((tool) => tool.name),
      TOOL_DEFINITIONS.map((tool) => tool.name),
    );
    for (const tool of listed.tools) {
      const definition = TOOL_DEFINITIONS.find((each) => each.name === tool.name);
      assert.deepEqual(tool.inputSchema, definition?.inputSchema, tool.name);
      assert.equal(tool.annotations?.readOnlyHint, definition?.effect === 'read', tool.name);
    }
  });

  it('calls tools: a read, a write that lands on disk, and a refusal as an isError result', function () {
    type Result = { structuredContent: Envelope; isError?: boolean; content: { text: string }[] };
    const call = (args: readonly string[], status = 0): Result =>
      inspect(['--root', base, '--state', path.join(tmp, 'state')], ['tools/call', '--tool-name', ...args], status) as Result;
    const read = call(['read_file', '--tool-arg', 'file_name=notes.md']);
    assert.equal(expectOk(read.structuredContent, 'read_file').content, '# notes\n');
    assert.deepEqual(JSON.parse(read.content[0]?.text ?? ''), read.structuredContent);
    assert.notEqual(read.isError, true);

    const written = call(['write_file', '--tool-arg', 'file_name=sub/new.txt', '--tool-arg', 'content=from the inspector']);
    expectOk(written.structuredContent, 'write_file');
    assert.equal(fs.readFileSync(path.join(base, 'sub', 'new.txt'), 'utf8'), 'from the inspector');

    const refused = call(['read_file', '--tool-arg', 'file_name=../outside.txt'], 5);
    expectError(refused.structuredContent, 'FILE_PATH_OUTSIDE_BASE', 'read_file');
    assert.equal(refused.isError, true);
  });
});
