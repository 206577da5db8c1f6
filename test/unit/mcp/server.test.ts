/**
 * The MCP server (dist/mcp.js) over real stdio with the SDK's Client: the tool list against the definitions, the
 * envelope of every operation against the runner's on the same tree, flags, and protocol errors.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Envelope } from '../../../src/core/envelope';
import { operationOf } from '../../../src/core/catalog/manifest';
import { renderText } from '../../../src/core/naming';
import { serverNaming } from '../../../src/node/mcp/server';
import { findTool, generatedManifestStrings, languageModelTools, TOOL_DEFINITIONS } from '../../../src/core/tools';
import { assertTree, expectError, expectOk, makeTempDir, removeTree, snapshot } from '../helpers';
import { FIXTURES, IMAGES } from '../imageFixtures';
import { checkEnvelope } from '../../shared/results';
import { buildOnce, REPO, RUNNER, serve, SERVER, stopChild, tempLayout, waitForLog } from './serve';
import { Output } from '../../shared/output';

/** The editor's manifest entries, as package.json holds them (generated from the same definitions). */
const MANIFEST_TOOLS = languageModelTools();
/** A manifest string as an English-speaking person reads it: package.json's `%key%`, resolved by package.nls.json. */
const MANIFEST_STRINGS = generatedManifestStrings();
const english = (value: string): string => MANIFEST_STRINGS[/^%(.+)%$/.exec(value)?.[1] ?? ''] ?? value;

describe('MCP server: tools and flags', function () {
  let tmp = '';
  let base = '';
  let state = '';

  before(buildOnce);
  beforeEach(function () {
    ({ tmp, base, state } = tempLayout('agentfs-mcp-'));
    fs.writeFileSync(path.join(base, 'a.txt'), 'alpha\n');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it("tools/list names every operation with the editor's schema, description, title and annotations true to its effect", async function () {
    const served = await serve(['--root', base, '--no-history']);
    try {
      const { tools } = await served.client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        MANIFEST_TOOLS.map((tool) => operationOf(tool.name)),
      );
      assert.equal(tools.length, TOOL_DEFINITIONS.length);
      for (const tool of tools) {
        const manifest = MANIFEST_TOOLS.find((each) => operationOf(each.name) === tool.name);
        const definition = findTool(tool.name);
        assert.ok(manifest && definition, tool.name);
        assert.deepEqual(tool.inputSchema, manifest.inputSchema, `${tool.name}: inputSchema`);
        // The editor's description, with tools named as this server names them (naming.ts): the same text otherwise.
        assert.equal(tool.description, renderText(definition.modelDescription, serverNaming('elicit')), `${tool.name}: description`);
        // The English title the editor shows (the MCP server has no display language to follow).
        assert.equal(tool.title, english(manifest.displayName));
        assert.notEqual(tool.title, manifest.displayName, `${tool.name}: a title, not a manifest key`);
        const annotations = tool.annotations ?? {};
        assert.equal(annotations.title, tool.title);
        assert.equal(annotations.openWorldHint, false, `${tool.name}: openWorldHint`);
        assert.equal(annotations.readOnlyHint, definition.effect === 'read', `${tool.name}: readOnlyHint`);
        // Destructive: may replace or remove what exists; only a tool that merely adds is not.
        assert.equal(
          annotations.destructiveHint,
          definition.effect !== 'read' && definition.additive !== true,
          `${tool.name}: destructiveHint`,
        );
        assert.equal(annotations.idempotentHint, definition.idempotent, `${tool.name}: idempotentHint`);
        if (definition.effect === 'read') assert.equal(annotations.idempotentHint, true, `${tool.name}: a read is idempotent`);
      }
      for (const name of ['edit_file', 'insert_lines', 'undo_last'])
        assert.equal(tools.find((tool) => tool.name === name)?.annotations?.idempotentHint, false, name);
      for (const name of ['delete_file', 'write_file', 'edit_file', 'move_file'])
        assert.equal(tools.find((tool) => tool.name === name)?.annotations?.destructiveHint, true, name);
      const additive = tools
        .filter((tool) => tool.annotations?.readOnlyHint === false && tool.annotations.destructiveHint === false)
        .map((tool) => tool.name);
      assert.deepEqual(new Set(additive), new Set(['create_file', 'create_directory']));
    } finally {
      await served.close();
    }
  });

  it('--read-only lists only the read tools, and a hidden tool called anyway answers READ_ONLY_MODE and changes nothing', async function () {
    const served = await serve(['--root', base, '--read-only', '--no-history']);
    try {
      const { tools } = await served.client.listTools();
      const reads = TOOL_DEFINITIONS.filter((tool) => tool.effect === 'read').map((tool) => tool.name);
      assert.deepEqual(new Set(tools.map((tool) => tool.name)), new Set(reads));
      const before = snapshot(tmp);
      const { envelope } = await served.call('delete_file', { file_name: 'a.txt' });
      expectError(envelope, 'READ_ONLY_MODE', 'delete_file');
      assertTree(snapshot(tmp), before);
      expectOk((await served.call('read_file', { file_name: 'a.txt' })).envelope, 'read_file');
    } finally {
      await served.close();
    }
  });

  it('apply_patch takes a V4A patch: a section placed by its "@@" line, a move, CRLF kept; undo_last puts it back', async function () {
    fs.writeFileSync(path.join(base, 'prog.txt'), 'f1\nx\nf2\nx\n');
    fs.writeFileSync(path.join(base, 'win.txt'), 'one\r\ntwo\r\n');
    const before = snapshot(base);
    const patch = [
      '*** Begin Patch',
      '*** Update File: prog.txt',
      '@@ f2',
      '-x',
      '+X',
      '*** Update File: win.txt',
      '*** Move to: moved/win.txt',
      ' one',
      '-two',
      '+TWO',
      '*** End Patch',
    ].join('\n');
    const served = await serve(['--root', base, '--state', state]);
    try {
      const data = expectOk((await served.call('apply_patch', { patch })).envelope, 'apply_patch');
      assert.deepEqual(
        (data.files as { path: string; action: string; hunks: { line: number }[] }[]).map((file) => [
          file.path,
          file.action,
          file.hunks[0]?.line,
        ]),
        [
          ['prog.txt', 'modify', 4],
          ['win.txt', 'move', 1],
        ],
      );
      assert.equal(fs.readFileSync(path.join(base, 'prog.txt'), 'utf8'), 'f1\nx\nf2\nX\n');
      assert.deepEqual(fs.readFileSync(path.join(base, 'moved', 'win.txt')), Buffer.from('one\r\nTWO\r\n'));
      assert.equal(fs.existsSync(path.join(base, 'win.txt')), false);
      expectOk((await served.call('undo_last', {})).envelope, 'undo_last');
      assertTree(snapshot(base), before);
    } finally {
      await served.close();
    }
  });

  it("bad input is the runner's INVALID_INPUT envelope; an unknown tool is a JSON-RPC error (-32602); the server goes on", async function () {
    const served = await serve(['--root', base, '--no-history']);
    try {
      for (const args of [{ file_name: 42 }, {}, { file_name: 'a.txt', bogus: true }, undefined]) {
        const { envelope } = await served.call('read_file', args);
        const runner = spawnSync(process.execPath, [RUNNER, '--root', base, '--no-history', 'read_file', JSON.stringify(args ?? {})], {
          encoding: 'utf8',
        });
        assert.deepEqual(envelope, JSON.parse(runner.stdout), `same envelope for ${JSON.stringify(args)}`);
        expectError(envelope, 'INVALID_INPUT', 'read_file');
      }
      await assert.rejects(
        served.client.callTool({ name: 'format_disk', arguments: {} }),
        (error: unknown) => error instanceof McpError && error.code === -32602 && /format_disk/.test(error.message),
      );
      await assert.rejects(
        served.client.callTool({ name: 'agentfs_read_file', arguments: { file_name: 'a.txt' } }),
        (error: unknown) => error instanceof McpError && error.code === -32602,
      );
      assert.equal(expectOk((await served.call('read_file', { file_name: 'a.txt' })).envelope).content, 'alpha\n');
    } finally {
      await served.close();
    }
  });

  it('malformed lines get a JSON-RPC error with id null, and the server keeps serving on the same stream (stdout: JSON-RPC only)', async function () {
    const child = spawn(process.execPath, [SERVER, '--root', base, '--no-history'], { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const errors = new Output(child.stderr);
      const out = new Output(child.stdout);
      const send = (text: string): void => void child.stdin.write(`${text}\n`);
      const answers = (id: number | null): Record<string, unknown>[] =>
        out
          .lines()
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.id === id);
      const response = async (id: number | null, count = 1): Promise<Record<string, unknown>> => {
        await out.until(() => answers(id).length >= count, `response ${count} with id ${String(id)}`);
        return answers(id)[count - 1] ?? {};
      };
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      );
      await response(1);
      // No notifications/initialized, as some clients skip it: the server still names its client, at the first call.
      send('this is not json {');
      const parseError = (await response(null)).error as { code: number; message: string };
      assert.equal(parseError.code, -32700);
      assert.match(parseError.message, /Parse error/);
      send(JSON.stringify({ hello: 'world' }));
      assert.equal(((await response(null, 2)).error as { code: number }).code, -32600);
      send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method', params: {} }));
      assert.equal(((await response(2)).error as { code: number }).code, -32601);
      send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_file', arguments: 'not an object' } }));
      assert.equal(((await response(3)).error as { code: number }).code, -32602);
      send(
        JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'read_file', arguments: { file_name: 'a.txt' } } }),
      );
      const result = (await response(4)).result as { structuredContent: Envelope; isError: boolean };
      assert.equal(result.isError, false);
      assert.equal(expectOk(result.structuredContent, 'read_file').content, 'alpha\n');
      assert.equal(child.exitCode, null, 'the server is still running');
      for (const line of out.lines())
        assert.equal((JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc, '2.0', `stdout carries only JSON-RPC messages: ${line}`);
      assert.equal(errors.text.match(/agent-fs-mcp: client raw 1 \(2025-06-18\)/g)?.length, 1, errors.text);
    } finally {
      await stopChild(child);
    }
  });

  it('--help and --version print to stdout and exit 0; bad flags and a history inside the root exit 2 with nothing on stdout', function () {
    const run = (...args: string[]): { status: number | null; stdout: string; stderr: string } =>
      spawnSync(process.execPath, [SERVER, ...args], { encoding: 'utf8', input: '' });
    const help = run('--help');
    assert.equal(help.status, 0);
    assert.match(help.stdout, /--confirm elicit\|never\|require/);
    const version = run('--version');
    assert.equal(version.status, 0);
    assert.equal(
      version.stdout.trim(),
      `agent-fs-mcp ${(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version}`,
    );
    for (const args of [['--confirm', 'sometimes'], ['--bogus'], ['--root'], ['--root', base, '--state', path.join(base, '.history')]]) {
      const result = run(...args);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.equal(result.stdout, '', 'stdout carries only the protocol');
      assert.match(result.stderr, /agent-fs-mcp/);
    }
    assert.ok(!fs.existsSync(path.join(base, '.history')));
  });

  it('logs every call to stderr with its outcome, never its input', async function () {
    const served = await serve(['--root', base, '--state', state]);
    try {
      await served.call('write_file', { file_name: 'secret-name.txt', content: 'private words' });
      await served.call('read_file', { file_name: 'missing.txt' });
      await waitForLog(served, (log) => /read_file FILE_NOT_FOUND in \d+ ms/.test(log), 'the read logged');
      assert.match(served.log(), /write_file ok in \d+ ms/);
      assert.doesNotMatch(served.log(), /private words|secret-name/);
    } finally {
      await served.close();
    }
  });
});

/** Ids and times differ between two runs, and who made each change (host, agent, session); everything else must not. */
function normalise(envelopes: readonly Envelope[]): unknown[] {
  const ids = new Map<string, string>();
  const text = JSON.stringify(envelopes)
    .replace(/"host":"(mcp|runner)","agent":"[^"]*","session":"[^"]*"/g, '"host":"<host>","agent":"<agent>","session":"<session>"')
    .replace(/\b[0-9a-z]{9}-[0-9a-z]{4}-[0-9a-z]{4}\b/g, (id) => {
      if (!ids.has(id)) ids.set(id, `<id ${ids.size + 1}>`);
      return ids.get(id) ?? id;
    })
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>');
  return JSON.parse(text) as unknown[];
}

type Step = readonly [operation: string, input: (earlier: readonly Envelope[]) => unknown];

const idOf = (earlier: readonly Envelope[], index: number): string => {
  const envelope = earlier[index];
  assert.ok(envelope?.ok, `step ${index} did not succeed`);
  return String((envelope.data as { operation_id?: unknown }).operation_id);
};

/** Every operation once (and a few refusals), in an order where each step has something to work on. */
const STEPS: readonly Step[] = [
  ['workspace_info', () => ({})],
  ['list_files', () => ({})],
  ['list_directory', () => ({ recursive: true })],
  ['directory_tree', () => ({})],
  ['path_exists', () => ({ path: 'dir/b.txt' })],
  ['file_info', () => ({ path: 'a.txt' })],
  ['read_file', () => ({ file_name: 'a.txt' })],
  ['read_many_files', () => ({ paths: ['a.txt', 'dir/b.txt', 'missing.txt'] })],
  ['find_file', () => ({ file_name: 'notes' })],
  ['search_files', () => ({ pattern: '**/*.md' })],
  ['search_content', () => ({ query: 'beta' })],
  ['write_file', () => ({ file_name: 'new/c.txt', content: 'gamma\n' })], // 11
  ['create_file', () => ({ path: 'd.txt', content: 'one\ntwo\nthree\n' })],
  ['edit_file', () => ({ path: 'd.txt', old_string: 'two', new_string: 'TWO' })],
  ['replace_lines', () => ({ path: 'd.txt', start_line: 1, end_line: 1, content: 'ONE' })],
  ['insert_lines', () => ({ path: 'd.txt', position: 'end', content: 'four' })],
  ['delete_lines', () => ({ path: 'd.txt', start_line: 3, end_line: 3 })],
  ['apply_patch', () => ({ patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-alpha\n+ALPHA\n' })],
  ['copy_file', () => ({ source_path: 'a.txt', destination_path: 'copies/a.txt' })],
  ['move_file', () => ({ source_path: 'copies/a.txt', destination_path: 'moved/a.txt' })],
  ['create_directory', () => ({ directory_name: 'empty/inner' })],
  ['copy_directory', () => ({ source_path: 'dir', destination_path: 'dir-copy' })],
  ['move_directory', () => ({ source_path: 'dir-copy', destination_path: 'dir-moved' })],
  ['delete_file', () => ({ file_name: 'new/c.txt' })], // 23
  ['delete_directory', () => ({ directory_path: 'dir-moved', recursive: true })],
  ['history_list', () => ({})],
  ['history_get', (earlier) => ({ operation_id: idOf(earlier, 11) })],
  ['undo_operation', (earlier) => ({ operation_id: idOf(earlier, 23) })],
  ['undo_last', () => ({})],
  ['read_file', () => ({ file_name: 'missing.txt' })],
  ['write_file', () => ({ file_name: '../outside.txt', content: 'escape' })],
  ['edit_file', () => ({ path: 'd.txt', old_string: 42 })],
  ['delete_directory', () => ({ directory_path: 'docs' })],
  // A notebook of nbformat 4.4, whose new cells get no ids: both sides write the same bytes.
  ['create_file', () => ({ path: 'nb.ipynb', content: '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}\n' })],
  [
    'edit_notebook',
    () => ({
      path: 'nb.ipynb',
      edits: [
        { action: 'insert', source: 'x = 1' },
        { action: 'insert', kind: 'markdown', source: '# X', cell: 0, position: 'before' },
      ],
    }),
  ],
  ['read_file', () => ({ file_name: 'nb.ipynb' })],
  // The symbol tools, on a Python file: the outline, the references (whole words on both sides), the edit.
  ['create_file', () => ({ path: 'tool.py', content: 'def beta():\n    return 1\n' })],
  ['read_outline', () => ({ path: 'tool.py' })],
  ['find_references', () => ({ path: 'tool.py', symbol: 'beta' })],
  ['edit_symbol', () => ({ path: 'tool.py', symbol: 'beta', action: 'replace', text: 'def beta():\n    return 2' })],
  // A replacement across a folder's files: its dry run, then the change.
  ['replace_in_files', () => ({ query: 'beta', replacement: 'BETA', paths: ['docs', 'dir'], dry_run: true })],
  ['replace_in_files', () => ({ query: 'beta', replacement: 'BETA', paths: ['docs', 'dir'] })],
];

describe('MCP server: images, and no problems after edits', function () {
  let tmp = '';
  let base = '';
  before(buildOnce);
  beforeEach(function () {
    ({ tmp, base } = tempLayout('agentfs-mcp-image-'));
    fs.mkdirSync(path.join(base, 'img'));
    for (const { file } of FIXTURES) fs.copyFileSync(path.join(IMAGES, file), path.join(base, 'img', file));
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it("read_file of a PNG, JPEG, GIF or WebP reaches the client as image content with the file's bytes, its size in the envelope", async function () {
    const served = await serve(['--root', base, '--no-history']);
    try {
      for (const { file, mimeType, width, height } of FIXTURES) {
        const { result, envelope } = await served.call('read_file', { file_name: `img/${file}` });
        assert.equal(result.content.length, 2, file);
        const image = result.content[1];
        assert.ok(image?.type === 'image', `${file}: the second item is an image`);
        assert.equal(image.mimeType, mimeType);
        assert.deepEqual(Buffer.from(image.data, 'base64'), fs.readFileSync(path.join(base, 'img', file)), `${file}: the bytes`);
        const data = expectOk(envelope, 'read_file');
        assert.deepEqual([data.mime_type, data.width, data.height], [mimeType, width, height]);
        assert.equal('base64' in data, false, 'the bytes are not in the JSON too');
      }
      // A text file stays one text item; so does a refusal.
      fs.writeFileSync(path.join(base, 'a.txt'), 'alpha\n');
      assert.equal((await served.call('read_file', { file_name: 'a.txt' })).result.content.length, 1);
      const refused = await served.call('read_file', { file_name: `img/${FIXTURES[0]?.file ?? ''}`, start_line: 2 });
      assert.equal(refused.result.content.length, 1);
      expectError(refused.envelope, 'INVALID_INPUT');
      assert.equal(expectOk((await served.call('workspace_info', {})).envelope).read_images, true);
    } finally {
      await served.close();
    }
  });

  it('an edit answers no problems report: only the editor has language services to ask, and workspace_info says so', async function () {
    fs.writeFileSync(path.join(base, 'bad.ts'), 'export const n = 1;\n');
    const served = await serve(['--root', base, '--no-history']);
    try {
      const edited = expectOk(
        (await served.call('edit_file', { path: 'bad.ts', old_string: '= 1', new_string: ": number = 'x'" })).envelope,
      );
      assert.equal('problems' in edited, false);
      assert.equal(expectOk((await served.call('workspace_info', {})).envelope).problems_after_edits, false);
    } finally {
      await served.close();
    }
  });
});

describe('MCP server: the same envelopes as the runner', function () {
  this.timeout(180000);
  let tmp = '';
  before(buildOnce);
  beforeEach(function () {
    tmp = makeTempDir('agentfs-mcp-same-');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  /** The same tree at the same path for each side, and a fresh history. */
  function fixture(): { base: string; state: string } {
    const base = path.join(tmp, 'base');
    const state = path.join(tmp, 'state');
    removeTree(base);
    removeTree(state);
    const files: Record<string, string> = {
      'a.txt': 'alpha\n',
      'dir/b.txt': 'beta\n',
      'dir/sub/c.txt': 'gamma beta\n',
      'docs/notes.md': '# Notes\n',
      'docs/readme.md': 'beta readme\n',
    };
    for (const [relative, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(base, relative)), { recursive: true });
      fs.writeFileSync(path.join(base, relative), content);
    }
    return { base, state };
  }

  it("every operation called once gives the runner's envelope (ids and times aside) and leaves the same disk", async function () {
    const covered = new Set(STEPS.map(([operation]) => operation));
    assert.deepEqual(
      [...TOOL_DEFINITIONS.map((tool) => tool.name)].filter((name) => !covered.has(name)),
      [],
      'every operation has a step',
    );

    let { base, state } = fixture();
    const byRunner: Envelope[] = [];
    for (const [operation, input] of STEPS) {
      const result = spawnSync(process.execPath, [RUNNER, '--root', base, '--state', state, operation, JSON.stringify(input(byRunner))], {
        encoding: 'utf8',
      });
      const envelope = JSON.parse(result.stdout) as Envelope;
      checkEnvelope(envelope);
      byRunner.push(envelope);
    }
    const runnerDisk = snapshot(base);

    ({ base, state } = fixture());
    const byServer: Envelope[] = [];
    const served = await serve(['--root', base, '--state', state, '--confirm', 'never']);
    try {
      for (const [operation, input] of STEPS) byServer.push((await served.call(operation, input(byServer))).envelope);
    } finally {
      await served.close();
    }
    assertTree(snapshot(base), runnerDisk, 'the disk after the MCP calls is the disk after the runner calls');

    // workspace_info names its host and its path and content indexes (the server keeps them, the runner walks and
    // reads every call): the fields that must differ.
    type HostFields = { host?: unknown; path_index?: { state?: unknown } | null; content_index?: { state?: unknown } | null };
    const hostOf = (envelope: Envelope | undefined): HostFields => (envelope?.ok ? (envelope.data as HostFields) : {});
    assert.equal(hostOf(byRunner[0]).host, 'runner');
    assert.equal(hostOf(byServer[0]).host, 'mcp');
    assert.equal(hostOf(byRunner[0]).path_index, null);
    assert.ok(hostOf(byServer[0]).path_index?.state !== undefined, 'the server reports its path index');
    assert.equal(hostOf(byRunner[0]).content_index, null);
    assert.ok(hostOf(byServer[0]).content_index?.state !== undefined, 'the server reports its content index');
    for (const envelope of [byRunner[0], byServer[0]]) {
      if (!envelope?.ok) continue;
      delete (envelope.data as HostFields).host;
      delete (envelope.data as HostFields).path_index;
      delete (envelope.data as HostFields).content_index;
    }
    // search_content names the engine that read the files: the server's content index has its scan read only the
    // candidates where the runner runs ripgrep over every file; the matches, pages and counts must still agree.
    for (const envelope of [...byRunner, ...byServer]) {
      if (envelope.ok && envelope.operation === 'search_content') {
        const data = envelope.data as { engine?: unknown };
        assert.ok(data.engine === 'ripgrep' || data.engine === 'scan', String(data.engine));
        delete data.engine;
      }
    }

    const [runner, server] = [normalise(byRunner), normalise(byServer)];
    for (const [index, [operation]] of STEPS.entries()) assert.deepEqual(server[index], runner[index], `step ${index}: ${operation}`);
    assert.ok(byServer.filter((envelope) => envelope.ok).length >= TOOL_DEFINITIONS.length, 'the steps succeed where they should');
    // The last delete_directory, of a directory that is not empty and without recursive.
    expectError(byServer[STEPS.map(([operation]) => operation).lastIndexOf('delete_directory')] as Envelope, 'DIRECTORY_NOT_EMPTY');
  });
});
