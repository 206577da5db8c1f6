/**
 * Entry point of the integration suite, loaded by VS Code's extension host as `extensionTestsPath` (the shape of
 * vscode-extension-samples' test index). Which spec folders run depends on the window the launcher opened
 * (AGENTFS_IT_SCENARIO, inherited from the server's environment): one folder, two folders, or an untrusted folder.
 *
 * The workbench forwards everything the extension host logs, mixed with its own chatter; every line the suite
 * prints starts with MARKER so the launcher can show the suite's output alone, and the closing RESULT line carries
 * the counts it reports.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';

export const MARKER = '[agentfs-it] ';

/** Spec folders (under out/test/integration/) per scenario. */
const FOLDERS: Readonly<Record<string, readonly string[]>> = {
  single: ['main', 'tools'],
  'multi-root': ['multiRoot'],
  untrusted: ['untrusted'],
  installed: ['installed'],
  locale: ['locale'],
  agent: ['agent'],
  'agent-untrusted': ['agentUntrusted'],
  'vscode-mcp': ['vscodeMcp'],
  'vscode-mcp-http': ['vscodeMcp'],
};

function say(...args: unknown[]): void {
  console.log(
    MARKER +
      format(...args)
        .split('\n')
        .join(`\n${MARKER}`),
  );
}

function specFiles(folder: string): string[] {
  const dir = path.join(__dirname, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => path.join(dir, name));
}

export function run(): Promise<void> {
  const scenario = process.env.AGENTFS_IT_SCENARIO ?? 'single';
  const folders = FOLDERS[scenario];
  say(
    `VS Code ${vscode.version} (${vscode.env.appName}, ui kind ${vscode.UIKind[vscode.env.uiKind]}), scenario ${scenario}, trusted ${vscode.workspace.isTrusted}`,
  );
  if (!folders) return Promise.reject(new Error(`Unknown AGENTFS_IT_SCENARIO "${scenario}".`));

  // The spec reporter writes through Base.consoleLog; prefix it so its lines stand out from the workbench's.
  Mocha.reporters.Base.consoleLog = say;
  // A test that cannot run fails, saying why: none is left pending.
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 120_000, slow: 2_000, forbidPending: true });
  if (process.env.AGENTFS_IT_GREP) mocha.grep(process.env.AGENTFS_IT_GREP);
  for (const file of folders.flatMap(specFiles)) mocha.addFile(file);

  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const stats = runner.stats;
        say(
          `RESULT ${JSON.stringify({ vscode: vscode.version, scenario, passed: stats?.passes ?? 0, failed: stats?.failures ?? failures, pending: stats?.pending ?? 0 })}`,
        );
        if (failures > 0) reject(new Error(`${failures} integration tests failed.`));
        else if ((stats?.passes ?? 0) === 0) reject(new Error('No integration test ran.'));
        else resolve();
      });
    } catch (error) {
      say('The suite could not start:', error);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
