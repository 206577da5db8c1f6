/**
 * The built bundles the unit tests start as users do (the MCP server and the runner), and their one build per run:
 * mocha's global setup (environment.ts) builds them before any test; a file run on its own still gets them built.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO = path.join(__dirname, '..', '..', '..');
export const SERVER = path.join(REPO, 'dist', 'mcp.js');
export const RUNNER = path.join(REPO, 'dist', 'cli.js');

/** Set (and inherited by mocha's workers) once this run's build is done. */
const BUILT = 'AGENTFS_UNIT_BUNDLES_BUILT';

/** Builds dist/ from the current source (node esbuild.mjs), once per run. */
export function buildBundles(): void {
  if (process.env[BUILT] === '1') return;
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, encoding: 'utf8' });
  assert.equal(build.status, 0, `node esbuild.mjs failed:\n${build.stdout}\n${build.stderr}`);
  assert.ok(fs.existsSync(SERVER) && fs.existsSync(RUNNER), 'dist/mcp.js and dist/cli.js were built');
  process.env[BUILT] = '1';
}
