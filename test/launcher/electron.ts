/**
 * `npm run test:electron`: the same integration suite in desktop VS Code through @vscode/test-electron, which
 * downloads VS Code (so it needs internet; on an offline machine use `npm run test:integration`).
 *
 *   node out/test/launcher/electron.js [VERSION ...]     (default: 1.100.3 and stable)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { REPO_ROOT } from './hosts';
import { tempDir } from './launch';

const SUITE = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');

async function runScenario(version: string, scenario: 'single' | 'multi-root' | 'untrusted'): Promise<void> {
  const temp = tempDir('agentfs-electron-');
  try {
    const ws = path.join(temp.path, 'ws');
    let target: string;
    const env: Record<string, string> = { AGENTFS_IT_SCENARIO: scenario };
    if (scenario === 'multi-root') {
      for (const name of ['alpha', 'beta', 'beta-sibling', 'outside']) fs.mkdirSync(path.join(ws, name), { recursive: true });
      fs.writeFileSync(path.join(ws, 'outside', 'secret.txt'), 'must stay untouched\n');
      fs.writeFileSync(path.join(ws, 'beta-sibling', 'x.txt'), 'must stay untouched\n');
      target = path.join(ws, 'two.code-workspace');
      fs.writeFileSync(target, JSON.stringify({ folders: [{ path: 'alpha' }, { path: 'beta' }] }));
      env.AGENTFS_IT_OUTSIDE = path.join(ws, 'outside');
    } else {
      target = path.join(ws, 'project');
      fs.mkdirSync(target, { recursive: true });
      if (scenario === 'untrusted') fs.writeFileSync(path.join(target, 'readme.txt'), 'untrusted but readable\n');
    }
    process.stdout.write(`[electron ${version} ${scenario}]\n`);
    await runTests({
      version,
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: SUITE,
      extensionTestsEnv: env,
      launchArgs: [target, '--disable-extensions', ...(scenario === 'untrusted' ? [] : ['--disable-workspace-trust'])],
    });
  } finally {
    temp.remove();
  }
}

async function main(): Promise<void> {
  const versions = process.argv.slice(2);
  for (const version of versions.length > 0 ? versions : ['1.100.3', 'stable']) {
    for (const scenario of ['single', 'multi-root', 'untrusted'] as const) await runScenario(version, scenario);
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED/.test(message)
    ? ' (desktop VS Code cannot be downloaded here; `npm run test:integration` runs the suite offline)'
    : '';
  process.stderr.write(`[electron] ${message}${offline}\n`);
  process.exitCode = 1;
});
