/**
 * An extension that contributes nothing. Test mode needs a development extension to load the suite from; a launch
 * that must not load Agent FS from the source tree (the installed .vsix, VS Code's own MCP client) passes this one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Writes the empty extension into `dir` and returns `dir`. */
export function writeHarness(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'agentfs-test-harness', publisher: 'agentfs-test', version: '0.0.0', engines: { vscode: '^1.100.0' } }),
  );
  return dir;
}
