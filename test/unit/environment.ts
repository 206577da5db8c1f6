/**
 * Loaded by mocha before any test (.mocharc.json, `require`), in every worker of a parallel run.
 *
 * The unit tests' process (and every process it starts) reads no git configuration of this machine's: what the
 * finding tools leave out follows the user's global excludes file, and a developer's own (a `*.log` there) must
 * not change what a test expects.
 *
 * The bundles the tests start (dist/mcp.js, dist/cli.js) are built from the current source once per run, in the
 * main process before any worker starts (mocha's global setup): one build, so that no test starts a server while
 * another worker's build writes it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './bundles';

export function mochaGlobalSetup(): void {
  buildBundles();
}

const config = fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-unit-xdg-'));
process.env.XDG_CONFIG_HOME = config;
process.env.GIT_CONFIG_GLOBAL = path.join(config, 'gitconfig');
process.env.GIT_CONFIG_NOSYSTEM = '1';
process.on('exit', () => fs.rmSync(config, { recursive: true, force: true }));
