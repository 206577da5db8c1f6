/**
 * Starts VS Code's server and opens its workbench in headless Chromium, the only way to get a real extension host
 * offline. The server ignores extensionDevelopmentPath / extensionTestsPath on its own command line: the extension
 * host starts only when a window connects, and the window takes them from the URL's `payload`.
 *
 * Every launch gets its own port (the server picks a free one: `--port 0`) and its own temp folders, so several can
 * run side by side. `close()` ends the browser and the server's whole process group (the server forks the extension
 * host and other helpers into it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { nodeFor, type HostSpec } from './hosts';

const CHROMIUM = '/usr/bin/chromium';

/** Without the networking flags Chromium keeps dialling Google's hosts, which this offline machine refuses. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export interface Server {
  readonly host: HostSpec;
  readonly port: number;
  readonly origin: string;
  /** Everything the server printed so far (kept for failure reports). */
  output(): string;
  /** Settles when the server process ends. */
  readonly exited: Promise<void>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  readonly host: HostSpec;
  /** Holds the server's data, user data, extensions and logs folders. */
  readonly stateDir: string;
  /** Extra environment for the server; the extension host inherits it. */
  readonly env?: Readonly<Record<string, string>>;
  readonly extraArgs?: readonly string[];
  /** 0 (the default): a free port the server picks itself, so parallel launches never collide. */
  readonly port?: number;
  /** Print the server's output as it comes (npm start). */
  readonly echo?: boolean;
  readonly startTimeoutMs?: number;
}

export async function startServer(options: ServerOptions): Promise<Server> {
  const { host, stateDir } = options;
  const dirs = ['server-data', 'user-data', 'extensions', 'logs'].map((name) => path.join(stateDir, name));
  for (const dir of dirs) fs.mkdirSync(dir, { recursive: true });
  const [serverData, userData, extensions, logs] = dirs as [string, string, string, string];
  const args = [
    host.serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--disable-telemetry',
    '--server-data-dir',
    serverData,
    '--user-data-dir',
    userData,
    '--extensions-dir',
    extensions,
    '--logsPath',
    logs,
    ...host.extraServerArgs,
    ...(options.extraArgs ?? []),
  ];
  // detached: its own process group, so one kill reaches the extension host and every helper it forked.
  const child = spawn(nodeFor(host), args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  let text = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`VS Code server did not start within ${options.startTimeoutMs ?? 60_000} ms:\n${text}`)),
      options.startTimeoutMs ?? 60_000,
    );
    const onData = (chunk: Buffer): void => {
      const piece = chunk.toString();
      text += piece;
      if (options.echo) process.stdout.write(piece);
      const match = /Extension host agent listening on (\d+)/.exec(text);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`VS Code server exited (${code ?? signal ?? 'unknown'}) before listening:\n${text}`));
    });
  }).catch(async (error: unknown) => {
    await killGroup(child, exited);
    throw error;
  });
  return {
    host,
    port,
    origin: `http://127.0.0.1:${port}`,
    output: () => text,
    exited,
    stop: () => killGroup(child, exited),
  };
}

async function killGroup(child: ChildProcess, exited: Promise<void>): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup('SIGTERM');
  const gone = await Promise.race([exited.then(() => true), delay(5_000).then(() => false)]);
  // The server may exit before the helpers it forked: always make sure of the group.
  await delay(gone ? 200 : 0);
  signalGroup('SIGKILL');
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What the workbench should open: a folder, a .code-workspace file, or an empty window. */
export type Target = { readonly folder: string } | { readonly workspace: string } | Record<string, never>;

export interface EditorOptions {
  readonly target: Target;
  readonly extensionDevelopmentPath?: string;
  /** A compiled module exporting `run(): Promise<void>`; its presence puts the window in test mode. */
  readonly extensionTestsPath?: string;
}

/** The workbench URL for `server`, with the payload the window reads its launch arguments from. */
export function editorUrl(server: Server, options: EditorOptions): string {
  const remote = (file: string): string => `vscode-remote://127.0.0.1:${server.port}${file}`;
  const payload: [string, string][] = [];
  if (options.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(options.extensionDevelopmentPath)]);
  if (options.extensionTestsPath) payload.push(['extensionTestsPath', remote(options.extensionTestsPath)]);
  payload.push(['skipWelcome', 'true']);
  const query = new URLSearchParams();
  if ('folder' in options.target) query.set('folder', options.target.folder);
  else if ('workspace' in options.target) query.set('workspace', options.target.workspace);
  else query.set('ew', 'true');
  query.set('payload', JSON.stringify(payload));
  return `${server.origin}/?${query.toString()}`;
}

export interface Editor {
  readonly browser: Browser;
  readonly page: Page;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Receives the workbench's log lines in test mode (`codeAutomationLog`). */
  readonly onLog?: (level: string, message: string) => void;
  /** Receives the test run's exit code (`codeAutomationExit`). */
  readonly onExit?: (code: number, logs: readonly { relativePath: string; contents: string }[]) => void;
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Runs on a page of the server's origin before the workbench loads (to seed the browser's storage). */
  readonly beforeLoad?: (page: Page, origin: string) => Promise<void>;
}

export async function openEditor(url: string, options: OpenOptions = {}): Promise<Editor> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.exposeFunction('codeAutomationLog', (level: unknown, message: unknown) => {
      options.onLog?.(String(level), Array.isArray(message) ? message.map(String).join(' ') : String(message));
    });
    await page.exposeFunction('codeAutomationExit', (code: unknown, logs: unknown) => {
      options.onExit?.(Number(code), Array.isArray(logs) ? (logs as { relativePath: string; contents: string }[]) : []);
    });
    if (options.beforeLoad) {
      const { origin } = new URL(url);
      await page.goto(`${origin}/version`);
      await options.beforeLoad(page, origin);
    }
    await page.goto(url);
    return { browser, page, close: () => browser.close() };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** A fresh folder under the OS temp dir; `remove` deletes it. */
export function tempDir(prefix: string): { readonly path: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { path: dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
