/**
 * The MCP Bundle (.mcpb) desktop clients install the server from: built by package.mjs, it passes the official
 * tool's `mcpb validate`, and, unpacked as a client unpacks it, starts the way Claude Desktop starts it: the
 * manifest's mcp_config resolved by the same package's getMcpConfigForManifest, with the folder the person picked.
 */
import { GRAMMAR_FILES } from '../../src/core/symbols/languages';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getMcpConfigForManifest, hasRequiredConfigMissing, type McpbManifestAny } from '@anthropic-ai/mcpb';
import JSZip from 'jszip';
import { expectOk, makeTempDir, removeTree } from './helpers';
import { REPO, serve } from './mcp/serve';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

describe('MCP Bundle: built, validated, and started as a desktop client starts it', function () {
  let tmp = '';
  let unpacked = '';
  let manifest: McpbManifestAny;
  let base = '';

  before(async function () {
    this.timeout(300_000);
    tmp = makeTempDir('agentfs-mcpb-');
    const built = spawnSync(process.execPath, ['package.mjs', 'mcpb', '--out', tmp], { cwd: REPO, encoding: 'utf8' });
    assert.equal(built.status, 0, `node package.mjs mcpb failed:\n${built.stdout}\n${built.stderr}`);
    const zip = await JSZip.loadAsync(fs.readFileSync(path.join(tmp, `agent-fs-${VERSION}.mcpb`)));
    unpacked = path.join(tmp, 'unpacked');
    for (const file of Object.values(zip.files)) {
      if (file.dir) continue;
      fs.mkdirSync(path.dirname(path.join(unpacked, file.name)), { recursive: true });
      fs.writeFileSync(path.join(unpacked, file.name), await file.async('nodebuffer'));
    }
    manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8')) as McpbManifestAny;
    base = path.join(tmp, 'picked folder');
    fs.mkdirSync(base);
  });
  after(function () {
    removeTree(tmp);
  });

  it('holds the manifest, the icon, the licence and the MCP server with pdf.js and the grammars beside it', function () {
    const files = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? files(full) : [path.relative(unpacked, full).split(path.sep).join('/')];
      });
    assert.deepEqual(
      files(unpacked).sort(),
      [
        'LICENSE',
        'icon.png',
        'manifest.json',
        'server/agent-fs.js',
        ...['web-tree-sitter.wasm', ...GRAMMAR_FILES].map((file) => `server/grammars/${file}`),
        'server/mcp.js',
        'server/pdf.mjs',
        'server/pdf.worker.mjs',
      ].sort(),
    );
  });

  it('passes `mcpb validate`, and is the same version as the extension', function () {
    const validate = spawnSync(path.join(REPO, 'node_modules', '.bin', 'mcpb'), ['validate', path.join(unpacked, 'manifest.json')], {
      encoding: 'utf8',
    });
    assert.equal(validate.status, 0, `${validate.stdout}\n${validate.stderr}`);
    assert.equal(manifest.version, VERSION);
    assert.equal(manifest.server.type, 'node');
    assert.deepEqual(manifest.user_config?.root && { type: manifest.user_config.root.type, required: manifest.user_config.root.required }, {
      type: 'directory',
      required: true,
    });
  });

  it('starts nothing until the person picks a folder', async function () {
    assert.equal(hasRequiredConfigMissing({ manifest, userConfig: {} }), true);
    assert.equal(
      await getMcpConfigForManifest({ manifest, extensionPath: unpacked, systemDirs: {}, userConfig: {}, pathSeparator: path.sep }),
      undefined,
    );
  });

  it("serves the picked folder: lists the manifest's tools as the manifest describes them and writes a file", async function () {
    const config = await getMcpConfigForManifest({
      manifest,
      extensionPath: unpacked,
      systemDirs: {},
      userConfig: { root: base },
      pathSeparator: path.sep,
    });
    assert.ok(config, 'a configuration once the folder is given');
    assert.deepEqual(config.args, [path.join(unpacked, 'server', 'mcp.js'), '--root', base]);
    // The desktop client runs `node` with the Node it ships; here, this one.
    assert.equal(config.command, 'node');
    const args = config.args ?? [];
    const served = await serve(args, {
      env: { XDG_STATE_HOME: path.join(tmp, 'state'), ...config.env },
      command: { command: process.execPath, args },
    });
    try {
      const { tools } = await served.client.listTools();
      assert.deepEqual(
        tools.map((tool) => ({ name: tool.name, description: tool.description })),
        manifest.tools,
      );
      expectOk(
        (await served.call('write_file', { file_name: 'from-desktop.txt', content: 'installed from a file\n' })).envelope,
        'write_file',
      );
      assert.equal(fs.readFileSync(path.join(base, 'from-desktop.txt'), 'utf8'), 'installed from a file\n');
    } finally {
      await served.close();
    }
  });
});
