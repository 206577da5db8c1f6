/**
 * `npm start`: Agent FS in a real VS Code (1.100's server, installed on first use), on a demo workspace made under
 * the OS temp dir, served on 127.0.0.1 until Ctrl-C. Open the printed URL in a browser.
 *
 *   node out/test/launcher/start.js [--host 1.100|1.139] [--port N]
 *
 * The URL carries the extension as a development extension (the workbench reads it from `payload`), so the
 * editor runs the freshly built dist/extension.js. The demo folder and the server's state are removed on exit.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createDemoWorkspace } from './demo';
import { hostById, REPO_ROOT } from './hosts';
import { ensureHost } from './install';
import { editorUrl, startServer, tempDir, type Server } from './launch';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const host = hostById(option('--host') ?? '1.100');
  const port = option('--port');
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist', 'extension.js')))
    throw new Error('dist/extension.js is missing: run `npm run build` first (npm start does).');
  ensureHost(host);

  const temp = tempDir('agentfs-demo-');
  const workspace = createDemoWorkspace(path.join(temp.path, 'demo'));
  const tmp = path.join(temp.path, 't');
  fs.mkdirSync(tmp);
  let server: Server | undefined;
  let stopping = false;
  const stop = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server?.stop();
    temp.remove();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  try {
    server = await startServer({
      host,
      stateDir: path.join(temp.path, 'state'),
      env: { TMPDIR: tmp },
      port: port === undefined ? 0 : Number(port),
      // The demo folder is ours: no trust prompt.
      extraArgs: ['--disable-workspace-trust'],
    });
  } catch (error) {
    temp.remove();
    throw error;
  }
  void server.exited.then(() => {
    if (stopping) return;
    process.stderr.write(`[start] the VS Code server stopped:\n${server?.output().slice(-2000) ?? ''}\n`);
    void stop(1);
  });
  const url = editorUrl(server, { target: { folder: workspace }, extensionDevelopmentPath: REPO_ROOT });
  process.stdout.write(
    [
      '',
      `Agent FS is running in VS Code ${host.vscodeVersion}, on a demo workspace: ${workspace}`,
      '',
      'Open this address in a browser on this machine:',
      '',
      `  ${url}`,
      '',
      'Then try "Agent FS: Run Tool…" from the command palette (F1). Press Ctrl-C here to stop;',
      'the demo workspace and the editor state are removed then.',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
