/**
 * The npm package agent-fs-mcp as a user meets it: packed by package.mjs, installed into an empty prefix offline,
 * and run through its bins, through `npx file:<tarball>` and as the MCP Registry entry (server.json) says to start it,
 * over stdio and over HTTP, on this machine's Node and on Node 24. It must read PDFs from the install: pdf.js is not
 * in the bundle but beside it.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Envelope } from '../../src/core/envelope';
import { TOOL_DEFINITIONS } from '../../src/core/tools';
import { ensureNode24 } from '../launcher/install';
import { makePdf } from '../shared/documents';
import { serveHttp } from '../shared/mcpHttp';
import { type InstalledPackage, installedPackage } from '../shared/npmPackage';
import { GRAMMAR_FILES } from '../../src/core/symbols/languages';
import { expectOk, makeTempDir, removeTree } from './helpers';
import { REPO, serve, type Served } from './mcp/serve';

/**
 * What `npx -y agent-fs-mcp` downloads: the bundle and pdf.js (1.3 MB packed) and the parsers' WebAssembly of the
 * symbol tools (tree-sitter's runtime and thirteen grammars, 2 MB packed, C++ and C# the largest). The issue that
 * brought the grammars set the package at 4 MB at most.
 */
const MAX_TARBALL_BYTES = 4_000_000;
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

interface RegistryArgument {
  readonly type: 'positional' | 'named';
  readonly name?: string;
  readonly value?: string;
  readonly valueHint?: string;
  readonly default?: string;
}

interface RegistryPackage {
  readonly registryType: string;
  readonly identifier: string;
  readonly version: string;
  readonly transport: { readonly type: string; readonly url?: string; readonly headers?: readonly { name: string; value?: string }[] };
  readonly packageArguments?: readonly RegistryArgument[];
  readonly environmentVariables?: readonly { name: string }[];
}

const SERVER_JSON = JSON.parse(fs.readFileSync(path.join(REPO, 'server.json'), 'utf8')) as {
  name: string;
  version: string;
  packages: RegistryPackage[];
};

function entry(transport: string): RegistryPackage {
  const found = SERVER_JSON.packages.find((each) => each.transport.type === transport);
  assert.ok(found, `server.json has a package entry over ${transport}`);
  return found;
}

/**
 * The arguments a registry client puts after the package: each argument's fixed value, else what the person gave for
 * it (keyed by its valueHint, or its flag without dashes), else its default.
 */
function commandLine(registryPackage: RegistryPackage, given: Readonly<Record<string, string>>): string[] {
  return (registryPackage.packageArguments ?? []).flatMap((argument) => {
    const key = argument.valueHint ?? argument.name?.replace(/^-+/, '') ?? '';
    const value = argument.value ?? given[key] ?? argument.default;
    assert.ok(value !== undefined, `a value for ${key}`);
    return argument.type === 'named' ? [argument.name ?? '', value] : [value];
  });
}

/** A URL or header template with its {variables} filled in; one left unfilled fails. */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_whole, name: string) => {
    const value = values[name];
    assert.ok(value !== undefined, `a value for {${name}} in ${template}`);
    return value;
  });
}

function spawnText(
  command: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(command, args, { encoding: 'utf8', timeout: 60_000, ...(env ? { env } : {}) });
}

describe('npm package agent-fs-mcp: packed, installed and run as its users run it', function () {
  let pkg: InstalledPackage;
  let tmp = '';
  let base = '';
  /** The history goes under the test's folder, not the user's state folder. */
  let env: Record<string, string> = {};

  before(function () {
    this.timeout(600_000);
    pkg = installedPackage();
  });
  beforeEach(function () {
    tmp = makeTempDir('agentfs-npm-package-');
    base = path.join(tmp, 'base');
    fs.mkdirSync(base);
    fs.writeFileSync(path.join(base, 'two.pdf'), makePdf([['Hello from the package'], ['Γειά σου κόσμε']]));
    env = { XDG_STATE_HOME: path.join(tmp, 'state') };
  });
  afterEach(function () {
    removeTree(tmp);
  });

  /** Lists the tools, writes a file (checked on disk) and reads the PDF's second page. */
  async function exercise(served: Served): Promise<void> {
    const { tools } = await served.client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      TOOL_DEFINITIONS.map((tool) => tool.name),
    );
    expectOk((await served.call('write_file', { file_name: 'notes/hello.md', content: '# hello\n' })).envelope, 'write_file');
    assert.equal(fs.readFileSync(path.join(base, 'notes', 'hello.md'), 'utf8'), '# hello\n');
    const pdf = expectOk((await served.call('read_file', { file_name: 'two.pdf', pages: '2' })).envelope, 'read_file');
    assert.equal(pdf.content, '--- page 2 ---\nΓειά σου κόσμε\n');
    // The grammars load from beside the installed bundle.
    fs.writeFileSync(path.join(base, 'tool.py'), 'class Tool:\n    def run(self):\n        pass\n');
    const outline = expectOk((await served.call('read_outline', { path: 'tool.py' })).envelope, 'read_outline');
    assert.equal(
      JSON.stringify(outline.symbols),
      JSON.stringify([
        {
          name_path: 'Tool',
          kind: 'class',
          start_line: 1,
          end_line: 3,
          children: [{ name_path: 'Tool/run', kind: 'method', start_line: 2, end_line: 3 }],
        },
      ]),
    );
  }

  it(`is one tarball of at most ${MAX_TARBALL_BYTES} bytes: the bundle, two bin shims, pdf.js, the grammars and three documents`, function () {
    const size = fs.statSync(pkg.tarball).size;
    assert.ok(size <= MAX_TARBALL_BYTES, `${path.basename(pkg.tarball)} is ${size} bytes`);
    assert.equal(path.basename(pkg.tarball), `agent-fs-mcp-${VERSION}.tgz`);
    const listed = spawnText('tar', ['-tzf', pkg.tarball]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(
      listed.stdout.trim().split('\n').sort(),
      [
        'package/CHANGELOG.md',
        'package/LICENSE',
        'package/README.md',
        'package/dist/agent-fs.js',
        'package/dist/cli.js',
        ...['web-tree-sitter.wasm', ...GRAMMAR_FILES].map((file) => `package/dist/grammars/${file}`),
        'package/dist/mcp.js',
        'package/dist/pdf.mjs',
        'package/dist/pdf.worker.mjs',
        'package/package.json',
      ].sort(),
    );
  });

  it("depends on nothing, runs nothing at install, and is the package server.json's entries name", function () {
    const manifest = JSON.parse(fs.readFileSync(path.join(pkg.folder, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'scripts'])
      assert.equal(manifest[field], undefined, field);
    assert.equal(manifest.name, 'agent-fs-mcp');
    assert.equal(manifest.version, VERSION);
    assert.deepEqual(manifest.bin, { 'agent-fs-mcp': 'dist/mcp.js', 'agent-fs': 'dist/cli.js' });
    assert.deepEqual(manifest.engines, { node: '>=20' });
    assert.equal(manifest.mcpName, SERVER_JSON.name, "the MCP Registry's proof of ownership: mcpName is server.json's name");
    assert.equal(SERVER_JSON.version, VERSION);
    for (const registryPackage of SERVER_JSON.packages) {
      assert.equal(registryPackage.registryType, 'npm');
      assert.equal(registryPackage.identifier, manifest.name);
      assert.equal(registryPackage.version, VERSION);
    }
  });

  it('puts both bins on the prefix: --version from each, and the runner writes and reads a PDF', function () {
    const server = spawnText(path.join(pkg.prefix, 'bin', 'agent-fs-mcp'), ['--version']);
    assert.deepEqual([server.status, server.stdout], [0, `agent-fs-mcp ${VERSION}\n`], server.stderr);
    const runner = spawnText(path.join(pkg.prefix, 'bin', 'agent-fs'), ['--version']);
    assert.deepEqual([runner.status, runner.stdout], [0, `agent-fs ${VERSION}\n`], runner.stderr);
    const agentFs = (...args: string[]): Envelope => {
      const result = spawnText(path.join(pkg.prefix, 'bin', 'agent-fs'), ['--root', base, '--no-history', ...args]);
      assert.equal(result.stderr, '');
      return JSON.parse(result.stdout) as Envelope;
    };
    expectOk(agentFs('write_file', '{"file_name":"runner.txt","content":"from the runner\\n"}'), 'write_file');
    assert.equal(fs.readFileSync(path.join(base, 'runner.txt'), 'utf8'), 'from the runner\n');
    assert.equal(expectOk(agentFs('read_file', '{"file_name":"two.pdf","pages":"1"}')).content, '--- page 1 ---\nHello from the package\n');
  });

  it("serves MCP over stdio from the installed bin, started with server.json's stdio arguments", async function () {
    const args = commandLine(entry('stdio'), { root: base });
    assert.deepEqual(args, ['--root', base, '--confirm', 'elicit']);
    const served = await serve(args, { env, command: { command: path.join(pkg.prefix, 'bin', 'agent-fs-mcp'), args } });
    try {
      await exercise(served);
    } finally {
      await served.close();
    }
  });

  it('serves MCP from `npx --yes file:<tarball>`, which runs the bin named like the package', async function () {
    // A bare path is taken for a command to run, and a relative one resolved against another folder: file: and absolute.
    const args = ['--yes', `file:${pkg.tarball}`, ...commandLine(entry('stdio'), { root: base })];
    const served = await serve(args, { cwd: tmp, baseEnv: pkg.npmEnv, env, command: { command: 'npx', args } });
    try {
      await exercise(served);
    } finally {
      await served.close();
    }
  });

  it("serves Streamable HTTP as server.json's HTTP entry says: its arguments, URL template and Authorization header", async function () {
    const http = entry('streamable-http');
    const token = 'a-registry-client-token-0123456789';
    const variables = Object.fromEntries((http.environmentVariables ?? []).map(({ name }) => [name, token]));
    assert.deepEqual(Object.keys(variables), ['AGENT_FS_MCP_TOKEN']);
    // Port 0: any free one; the URL is then filled in with the port the server reports.
    const served = await serveHttp(pkg.server, commandLine(http, { port: '0', root: base }), { env: { ...env, ...variables } });
    const client = new Client({ name: 'agentfs-registry-http', version: '1.0.0' });
    try {
      const url = fill(http.transport.url ?? '', { port: String(served.port) });
      assert.equal(url, served.url);
      const headers = Object.fromEntries((http.transport.headers ?? []).map(({ name, value }) => [name, fill(value ?? '', variables)]));
      assert.deepEqual(headers, { Authorization: `Bearer ${token}` });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      const { tools } = await client.listTools();
      assert.equal(tools.length, TOOL_DEFINITIONS.length);
      const result = await client.callTool({ name: 'write_file', arguments: { file_name: 'over-http.txt', content: 'http\n' } });
      expectOk(result.structuredContent as Envelope, 'write_file');
      assert.equal(fs.readFileSync(path.join(base, 'over-http.txt'), 'utf8'), 'http\n');
    } finally {
      await client.close();
      await served.stop();
    }
  });

  it('runs on Node 24 too: the installed server over stdio, and the bins through `env node`', async function () {
    this.timeout(600_000);
    const node24 = ensureNode24();
    const args = [pkg.server, '--root', base];
    const served = await serve(args, { env, command: { command: node24, args } });
    try {
      await exercise(served);
    } finally {
      await served.close();
    }
    // The bins start whichever `node` is first on PATH, as `#!/usr/bin/env node` says.
    const path24 = { ...process.env, PATH: `${path.dirname(node24)}${path.delimiter}${process.env.PATH ?? ''}` };
    assert.match(spawnText('node', ['--version'], path24).stdout, /^v24\./);
    const read = spawnText(
      path.join(pkg.prefix, 'bin', 'agent-fs'),
      ['--root', base, '--no-history', 'read_file', '{"file_name":"two.pdf"}'],
      path24,
    );
    assert.equal(read.stderr, '');
    assert.equal(
      expectOk(JSON.parse(read.stdout) as Envelope).content,
      '--- page 1 ---\nHello from the package\n--- page 2 ---\nΓειά σου κόσμε\n',
    );
  });
});
