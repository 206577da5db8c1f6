// Builds what a release ships: `npm run package` makes all three in the repository's root.
//
//   agent-fs-<version>.vsix      the VS Code extension, through vsce (its vscode:prepublish makes the production build)
//   agent-fs-mcp-<version>.tgz   the npm package agent-fs-mcp: the MCP server and the runner, what `npx` runs
//   agent-fs-<version>.mcpb      the MCP Bundle desktop clients (Claude Desktop) install the server from
//
// `node package.mjs [vsix] [npm] [mcpb] [--out DIR]` builds only those named (default all three) into DIR (default
// the root). The npm package and the bundle are staged in DIR/.package/, never in dist/, which the .vsix ships whole.
//
// The repository's package.json is the extension's manifest; the npm package gets a package.json of its own, written
// here: no dependencies (everything is bundled), nothing run at install, only the bundles and the three documents.
import { packExtension } from '@anthropic-ai/mcpb';
import { createVSIX } from '@vscode/vsce';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPackageBundle, loadCatalog } from './esbuild.mjs';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const KINDS = ['vsix', 'npm', 'mcpb'];

/** The kinds asked for and the folder they go to (resolved where the caller stands), or undefined for a usage error. */
function parseArguments(argv) {
  const outIndex = argv.indexOf('--out');
  const out = outIndex === -1 ? ROOT : argv[outIndex + 1];
  const named = argv.filter((_argument, index) => outIndex === -1 || (index !== outIndex && index !== outIndex + 1));
  if (out === undefined || named.some((kind) => !KINDS.includes(kind))) return undefined;
  return { out: path.resolve(out), kinds: named.length === 0 ? KINDS : named };
}

const request = parseArguments(process.argv.slice(2));
// Every path below, and esbuild.mjs's, is the repository's.
process.chdir(ROOT);

const extension = JSON.parse(readFileSync('package.json', 'utf8'));
const server = JSON.parse(readFileSync('server.json', 'utf8'));

/** The npm package's name (free on npm when chosen), its bins, and where each bin's shim sends it. */
const NPM_NAME = 'agent-fs-mcp';
const BINS = { 'agent-fs-mcp': { file: 'mcp.js' }, 'agent-fs': { file: 'cli.js' } };
const DOCUMENTS = ['README.md', 'LICENSE', 'CHANGELOG.md'];

function npmManifest() {
  return {
    name: NPM_NAME,
    version: extension.version,
    description:
      'Safe, bounded filesystem tools for AI agents over MCP (and from a terminal): read, write, edit, search, copy, move and delete files inside the folders you choose, with confirmations, history and undo.',
    keywords: ['mcp', 'model context protocol', 'mcp server', 'filesystem', 'agent', 'ai', 'llm'],
    license: extension.license,
    // The MCP Registry's proof that whoever publishes server.json owns this package: it must equal server.json's name.
    mcpName: server.name,
    bin: Object.fromEntries(Object.entries(BINS).map(([name, { file }]) => [name, `dist/${file}`])),
    files: [
      'dist/agent-fs.js',
      'dist/pdf.mjs',
      'dist/pdf.worker.mjs',
      'dist/grammars/*.wasm',
      ...Object.values(BINS).map(({ file }) => `dist/${file}`),
      ...DOCUMENTS,
    ],
    engines: { node: extension.engines.node },
  };
}

/** The bundle, a shim per bin and the documents, as the npm package holds them. */
async function stageNpm(staging) {
  rmSync(staging, { recursive: true, force: true });
  await buildPackageBundle(path.join(staging, 'dist'));
  for (const { file } of Object.values(BINS)) chmodSync(path.join(staging, 'dist', file), 0o755);
  for (const document of DOCUMENTS) copyFileSync(document, path.join(staging, document));
  writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(npmManifest(), null, 2)}\n`);
}

/** `npm pack` of the staged package into `out`; returns the tarball's path. */
function packNpm(staging, out) {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', path.resolve(out)], {
      cwd: staging,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  return path.join(out, packed.filename);
}

/** The MCP Bundle's manifest: the server started on the folder the person picks when installing it. */
async function mcpbManifest() {
  const catalog = await loadCatalog();
  // The tools as the server lists them (it asks before destructive calls by default), so the install page shows what
  // the model will be told.
  const naming = catalog.mcpNaming(true);
  return {
    manifest_version: '0.2',
    name: 'agent-fs',
    display_name: extension.displayName,
    version: extension.version,
    description: server.description,
    author: { name: extension.publisher },
    icon: 'icon.png',
    server: {
      type: 'node',
      entry_point: 'server/mcp.js',
      mcp_config: { command: 'node', args: ['${__dirname}/server/mcp.js', '--root', '${user_config.root}'] },
    },
    tools: catalog.TOOL_DEFINITIONS.map((tool) => ({
      name: naming.toolName(tool.name),
      description: catalog.renderText(tool.modelDescription, naming),
    })),
    keywords: ['filesystem', 'files', 'edit', 'search', 'undo'],
    license: extension.license,
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: extension.engines.node } },
    user_config: {
      root: {
        type: 'directory',
        title: 'Folder',
        description: 'The folder the tools work in. Nothing outside it is read or changed.',
        required: true,
      },
    },
  };
}

/** The bundle's folder: its manifest, icon and licence, and the MCP server from the npm staging (no runner). */
async function stageMcpb(staging, npmStaging) {
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, 'server'), { recursive: true });
  for (const file of ['agent-fs.js', 'pdf.mjs', 'pdf.worker.mjs', BINS['agent-fs-mcp'].file])
    copyFileSync(path.join(npmStaging, 'dist', file), path.join(staging, 'server', file));
  cpSync(path.join(npmStaging, 'dist', 'grammars'), path.join(staging, 'server', 'grammars'), { recursive: true });
  copyFileSync('media/icon.png', path.join(staging, 'icon.png'));
  copyFileSync('LICENSE', path.join(staging, 'LICENSE'));
  writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(await mcpbManifest(), null, 2)}\n`);
}

async function main({ out, kinds }) {
  mkdirSync(out, { recursive: true });
  if (kinds.includes('vsix')) {
    // As `vsce package --no-dependencies --allow-missing-repository --no-rewrite-relative-links` (docs/development.md).
    const packagePath = path.resolve(out, `${extension.name}-${extension.version}.vsix`);
    await createVSIX({ packagePath, dependencies: false, allowMissingRepository: true, rewriteRelativeLinks: false });
  }
  if (!kinds.includes('npm') && !kinds.includes('mcpb')) return;
  const npmStaging = path.join(out, '.package', 'npm');
  await stageNpm(npmStaging);
  if (kinds.includes('npm')) console.log(`npm package: ${packNpm(npmStaging, out)}`);
  if (kinds.includes('mcpb')) {
    const staging = path.join(out, '.package', 'mcpb');
    await stageMcpb(staging, npmStaging);
    const mcpb = path.resolve(out, `${extension.name}-${extension.version}.mcpb`);
    // mcpb's pack validates the manifest against its schema first and refuses an invalid one.
    if (!(await packExtension({ extensionPath: staging, outputPath: mcpb, silent: true }))) throw new Error('mcpb pack failed');
    console.log(`MCP Bundle: ${mcpb}`);
  }
}

try {
  if (request === undefined) throw new Error('usage: node package.mjs [vsix] [npm] [mcpb] [--out DIR]');
  await main(request);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
