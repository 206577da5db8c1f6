/**
 * The MCP server over Streamable HTTP, as its HTTP clients meet it: `node dist/mcp.js --http 127.0.0.1:0 …` started
 * as a child process, its port taken from the line it writes to stderr once it listens. Shared by the unit tests,
 * the client matrix and the VS Code launches, which each start the server their client connects to.
 */
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { Output } from './output';

export interface HttpServed {
  /** `http://127.0.0.1:PORT/mcp`, the port the server reports. */
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  log(): string;
  /** Resolves once `predicate` holds for the log, checked at every line; rejects, with the log, if the server exits first. */
  logged(predicate: (log: string) => boolean, what: string): Promise<void>;
  /** Ends the server and resolves once it has exited. */
  stop(): Promise<void>;
}

const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/;

/**
 * Starts `server` (the built dist/mcp.js) with `args`, which carry `--http`, and resolves once it listens; rejects
 * when it exits first.
 */
export async function serveHttp(
  server: string,
  args: readonly string[],
  options: {
    readonly env?: Readonly<Record<string, string>>;
    readonly cwd?: string;
    /** A file that receives the log as it is written, for a reader in another process (a VS Code test). */
    readonly logFile?: string;
  } = {},
): Promise<HttpServed> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  // A token in the test runner's own environment would decide which token the server takes.
  delete env.AGENT_FS_MCP_TOKEN;
  Object.assign(env, options.env);
  const child = spawn(process.execPath, [server, ...args], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
    if (options.logFile !== undefined) fs.appendFileSync(options.logFile, chunk);
  });
  assert.ok(child.stderr, "the server's stderr is piped");
  const output = new Output(child.stderr);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not report its port within 120 s:\n${log}`)), 120_000);
    const check = (): void => {
      const match = LISTENING.exec(log);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    };
    child.stderr?.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal ?? 'unknown'}) before it listened:\n${log}`));
    });
  });
  assert.ok(port > 0, `a real port, not ${port}`);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    child,
    log: () => log,
    logged: (predicate, what) => output.until(predicate, `${what} in the server's log`),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}

/** The headers every request of an HTTP client of the server carries. */
export function mcpHeaders(token: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${token}`,
    ...extra,
  };
}
