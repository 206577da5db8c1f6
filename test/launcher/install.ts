/**
 * Installs what the tests need when it is missing: a test host when it is missing or its lockfile changed, and the
 * Debian packages the unit tests or the hosts need. Works offline: everything comes from the npm registry and Debian's
 * packages. Usage: `node out/test/launcher/install.js [1.100|1.139|all|inspector|conformance|clients|unit]` (`unit`: only
 * what the unit tests need, which `npm run unit` installs before it runs them).
 *
 * What code-server needs to install as root, found on this kind of machine:
 * - Debian `libkrb5-dev` (its `kerberos` module compiles against gssapi), `ripgrep` (see HostSpec.ripgrepCache),
 *   and `chromium` to open the workbench;
 * - `npm_config_yes=true`, since a postinstall runs `npx node-gyp` and would otherwise wait for a "yes";
 * - for 4.139.1, Node 24 first on PATH and as `npm_config_nodedir`, so native modules build for the Node that runs it;
 * - none of the outer npm's environment: under `npm test` the nested `npm ci` would inherit `npm_config_*`,
 *   `npm_package_*`, `npm_lifecycle_*` and the user agent naming the outer Node (code-server 4.139.1's postinstall
 *   reads the Node version from `npm_config_user_agent` and refuses Node 20), plus the `node_modules/.bin` folders
 *   npm put first on PATH.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLIENTS, type ClientSpec, HOSTS, hostById, MCP_CONFORMANCE, MCP_INSPECTOR, NODE_24, type HostSpec, type NpmFolder } from './hosts';

const MARKER = '.agentfs-installed';
const CHROMIUM = '/usr/bin/chromium';

/** Who needs a Debian package: the unit tests (and so everything after them), or only the test hosts. */
export type PackageScope = 'unit' | 'hosts';

/**
 * Debian packages, a file that shows each is installed, and who needs it. The unit tests need ripgrep for
 * search_content's ripgrep engine (they fail without it, saying so) and nbformat to validate the notebooks they edit;
 * the hosts need ripgrep too, for HostSpec.ripgrepCache.
 */
const SYSTEM_PACKAGES: readonly { readonly name: string; readonly probe: string; readonly scope: PackageScope }[] = [
  { name: 'libkrb5-dev', probe: '/usr/include/gssapi/gssapi.h', scope: 'hosts' },
  { name: 'ripgrep', probe: '/usr/bin/rg', scope: 'unit' },
  // Jupyter's own notebook validator, the oracle of the notebook tests (test/shared/notebooks.ts).
  { name: 'python3-nbformat', probe: '/usr/lib/python3/dist-packages/nbformat/__init__.py', scope: 'unit' },
  { name: 'chromium', probe: CHROMIUM, scope: 'hosts' },
];

function log(message: string): void {
  process.stdout.write(`[host install] ${message}\n`);
}

function lockHash(folder: NpmFolder): string {
  return createHash('sha256')
    .update(fs.readFileSync(path.join(folder.dir, 'package-lock.json')))
    .digest('hex');
}

/** `npm ci` empties node_modules first, so a marker written last tells a finished install from an interrupted one. */
function isInstalled(folder: NpmFolder): boolean {
  try {
    return fs.readFileSync(path.join(folder.dir, 'node_modules', MARKER), 'utf8').trim() === lockHash(folder);
  } catch {
    return false;
  }
}

function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): void {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: options.cwd, env: options.env ?? process.env });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal ?? 'unknown'}`);
}

/**
 * Installs the Debian packages `scope` needs that are missing (apt-get, as root; otherwise it says what to run). The
 * hosts' scope is every package: a host runs after the unit tests.
 */
export function ensureSystemPackages(scope: PackageScope): void {
  const missing = SYSTEM_PACKAGES.filter((pkg) => scope === 'hosts' || pkg.scope === 'unit')
    .filter((pkg) => !fs.existsSync(pkg.probe))
    .map((pkg) => pkg.name);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    const who = scope === 'unit' ? 'The unit tests need' : 'The test hosts need';
    throw new Error(
      `${who} the Debian packages ${missing.join(', ')}. Install them (sudo apt-get install ${missing.join(' ')}) and run again.`,
    );
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...installEnvironment(), DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', ...missing], { env });
}

/** The environment a nested install may see: this process's, less everything an outer npm run added to it. */
export function installEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE') continue;
    env[key] = value;
  }
  const npmAdded = (entry: string): boolean =>
    entry.split(path.sep).includes('node_modules') && (entry.endsWith(`${path.sep}.bin`) || entry.endsWith('node-gyp-bin'));
  if (env.PATH !== undefined)
    env.PATH = env.PATH.split(path.delimiter)
      .filter((entry) => !npmAdded(entry))
      .join(path.delimiter);
  return env;
}

function npmCi(folder: NpmFolder, env: NodeJS.ProcessEnv): void {
  run('npm', ['ci', '--unsafe-perm', '--no-audit', '--no-fund'], { cwd: folder.dir, env });
  fs.writeFileSync(path.join(folder.dir, 'node_modules', MARKER), `${lockHash(folder)}\n`);
}

/** Installs Node 24 once; returns its binary. */
export function ensureNode24(): string {
  if (!isInstalled(NODE_24)) {
    log('installing Node 24 for the newest host (~55 MB download)');
    npmCi(NODE_24, installEnvironment());
  }
  return NODE_24.bin;
}

/** Installs the MCP Inspector once (and Node 24, which it needs); returns the Node to run it with and its script. */
export function ensureInspector(): { node: string; script: string } {
  ensureNode24();
  if (!isInstalled(MCP_INSPECTOR) || !fs.existsSync(MCP_INSPECTOR.bin)) {
    log("installing the MCP Inspector for the MCP server's tests (once, about 120 packages)");
    const env = installEnvironment();
    env.PATH = `${path.dirname(NODE_24.bin)}${path.delimiter}${env.PATH ?? ''}`;
    npmCi(MCP_INSPECTOR, env);
  }
  return { node: NODE_24.bin, script: MCP_INSPECTOR.bin };
}

/** Installs the MCP conformance suite once (and Node 24, which it needs); returns the Node to run it with and its script. */
export function ensureConformance(): { node: string; script: string } {
  ensureNode24();
  if (!isInstalled(MCP_CONFORMANCE) || !fs.existsSync(MCP_CONFORMANCE.bin)) {
    log("installing the MCP conformance suite for the MCP server's tests (once, about 120 packages)");
    const env = installEnvironment();
    env.PATH = `${path.dirname(NODE_24.bin)}${path.delimiter}${env.PATH ?? ''}`;
    npmCi(MCP_CONFORMANCE, env);
  }
  return { node: NODE_24.bin, script: MCP_CONFORMANCE.bin };
}

/** Installs one agent CLI of the client matrix once (Claude Code's package brings a ~400 MB native executable). */
export function ensureClient(client: ClientSpec): void {
  // ripgrep too: without an rg on PATH opencode downloads one at its start.
  ensureSystemPackages('unit');
  if (isInstalled(client) && fs.existsSync(client.bin)) return;
  const started = Date.now();
  log(`installing ${client.name} ${client.version} into ${path.relative(process.cwd(), client.dir) || '.'} for the client matrix (once)`);
  npmCi(client, installEnvironment());
  if (!fs.existsSync(client.bin)) throw new Error(`Installed ${client.dir}, but ${client.bin} is missing.`);
  log(`${client.name} ${client.version} installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Puts a tarball of Debian's rg where @vscode/ripgrep's postinstall looks before it downloads. */
function seedRipgrepCache(cache: NonNullable<HostSpec['ripgrepCache']>): void {
  // The postinstall runs under npm with this same environment, so it sees the same os.tmpdir().
  const dir = path.join(os.tmpdir(), `vscode-ripgrep-cache-${cache.packageVersion}`);
  const tarball = path.join(dir, cache.asset);
  if (fs.existsSync(tarball)) return;
  fs.mkdirSync(dir, { recursive: true });
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-rg-'));
  try {
    fs.copyFileSync('/usr/bin/rg', path.join(stage, 'rg'));
    fs.chmodSync(path.join(stage, 'rg'), 0o755);
    run('tar', ['-czf', tarball, '-C', stage, 'rg']);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

/** Installs `host` unless an install of its current lockfile is already there. Returns true when it installed. */
export function ensureHost(host: HostSpec): boolean {
  ensureSystemPackages('hosts');
  if (isInstalled(host) && fs.existsSync(host.serverMain)) return false;
  const started = Date.now();
  log(`installing VS Code ${host.vscodeVersion} into ${path.relative(process.cwd(), host.dir) || '.'} (one to two minutes, once)`);
  const env: NodeJS.ProcessEnv = { ...installEnvironment(), npm_config_yes: 'true' };
  if (host.node === 'node-24') {
    ensureNode24();
    env.npm_config_nodedir = NODE_24.home;
    env.PATH = `${path.dirname(NODE_24.bin)}${path.delimiter}${env.PATH ?? ''}`;
  }
  if (host.ripgrepCache) seedRipgrepCache(host.ripgrepCache);
  npmCi(host, env);
  if (!fs.existsSync(host.serverMain)) throw new Error(`Installed ${host.dir}, but ${host.serverMain} is missing.`);
  log(`VS Code ${host.vscodeVersion} installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return true;
}

if (require.main === module) {
  const wanted = process.argv.slice(2);
  try {
    if (wanted.includes('unit')) ensureSystemPackages('unit');
    // The unit tests run the Inspector and the conformance suite: `unit` installs them before mocha starts, so no
    // test's own timeout has to cover a download.
    if (wanted.includes('unit') || wanted.includes('inspector')) ensureInspector();
    if (wanted.includes('unit') || wanted.includes('conformance')) ensureConformance();
    for (const client of CLIENTS) if (wanted.includes('clients') || wanted.includes(client.id)) ensureClient(client);
    const others = new Set<string>(['unit', 'inspector', 'conformance', 'clients', ...CLIENTS.map((client) => client.id)]);
    const hosts = wanted.length === 0 || wanted.includes('all') ? HOSTS : wanted.filter((id) => !others.has(id)).map(hostById);
    for (const host of hosts) if (!ensureHost(host)) log(`VS Code ${host.vscodeVersion} is already installed`);
  } catch (error) {
    process.stderr.write(`[host install] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
