/**
 * The npm package agent-fs-mcp as its users get it: packed from the current source by package.mjs (what `npm run
 * package` ships) and installed with `npm install --global --prefix` into an empty folder, offline, once per process.
 * The unit tests check it; the client matrix can start `installedPackage().server` in place of the development
 * build's dist/mcp.js.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../launcher/hosts';
import { installEnvironment } from '../launcher/install';

export interface InstalledPackage {
  /** The tarball, agent-fs-mcp-<version>.tgz. */
  readonly tarball: string;
  /** The folder it was packed in; everything here lives under it and goes when the process ends. */
  readonly dir: string;
  /** The prefix it was installed into, its bins in prefix/bin. */
  readonly prefix: string;
  /** The installed package: prefix/lib/node_modules/agent-fs-mcp. */
  readonly folder: string;
  /** The installed MCP server, dist/mcp.js: `node <server> --root …`. */
  readonly server: string;
  /** An environment for npm and npx: no outer npm run's variables, an empty cache of its own, offline. */
  readonly npmEnv: NodeJS.ProcessEnv;
}

let installed: InstalledPackage | undefined;

function run(command: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Packs and installs the package the first time; later calls return the same install. */
export function installedPackage(): InstalledPackage {
  if (installed) return installed;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-npm-package-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  run(process.execPath, [path.join(REPO_ROOT, 'package.mjs'), 'npm', '--out', dir], REPO_ROOT);
  const tarball = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.tgz'))
    .map((name) => path.join(dir, name));
  if (tarball.length !== 1 || tarball[0] === undefined) throw new Error(`package.mjs npm made ${tarball.length} tarballs in ${dir}`);
  // It has no dependencies, so nothing is fetched: offline, with an empty cache, proves it.
  const npmEnv = {
    ...installEnvironment(),
    npm_config_cache: path.join(dir, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  const prefix = path.join(dir, 'prefix');
  run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', tarball[0]], dir, npmEnv);
  const folder = path.join(prefix, 'lib', 'node_modules', 'agent-fs-mcp');
  installed = { tarball: tarball[0], dir, prefix, folder, server: path.join(folder, 'dist', 'mcp.js'), npmEnv };
  return installed;
}
