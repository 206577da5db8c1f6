/**
 * How each agent CLI is configured and started for the matrix: a private HOME (and TMPDIR, CODEX_HOME) holding the
 * configuration docs/clients.md gives for that client, the model's address on loopback, every proxy variable at the trap.
 * The server entry is always the built dist/mcp.js under the name `agent-fs`.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import { connectSnippets, serverCommand } from '../../src/core/catalog/connect';
import { clientById, type ClientId, type ClientSpec } from '../launcher/hosts';
import { readmeBlock } from './readme';
import { anthropic, type Dialect, gemini, responses } from './model';

const SERVER_NAME = 'agent-fs';

export interface RunContext {
  /** The private home folder (made, empty). */
  readonly home: string;
  /** The runtime directory ($XDG_RUNTIME_DIR: private, outside the home folder, as a login session has). */
  readonly runtime: string;
  /** The project folder the client is started in. */
  readonly project: string;
  readonly modelUrl: string;
  /** The built dist/mcp.js, in place of the documented example path. */
  readonly server: string;
  readonly prompt: string;
  readonly proxy: Record<string, string>;
  /** The server the test started over Streamable HTTP (its port, state folder and that folder's token). */
  readonly http?: { readonly port: number; readonly state: string; readonly token: string };
}

export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
}

/** A configuration of one client: what a person sets up, and how they start it. */
export interface Configuration {
  readonly id: string;
  /** One line for the test title. */
  readonly title: string;
  /**
   * full: the whole scenario runs, destructive calls confirmed; declined: the client's own answer refuses the delete,
   * and the refusal must name what the person can set (this pattern).
   */
  readonly scenario: 'full' | { readonly declined: RegExp } | 'home';
  /** http: the test starts the server on loopback (its root the project folder) and the client connects by URL. */
  readonly transport: 'stdio' | 'http';
  prepare(context: RunContext): Launch;
  /**
   * After the run, what the client's own log says of the server's questions, where it keeps such a log, and which
   * protocol era the connection was: `modern` (2026-07-28, opened with server/discover) or `legacy` (initialize).
   */
  questions?(context: RunContext): { readonly asked: number; readonly accepted: number; readonly era: 'modern' | 'legacy' };
}

export interface Driver {
  readonly spec: ClientSpec;
  readonly dialect: Dialect;
  readonly configurations: readonly Configuration[];
}

/** What every client run shares: nothing of the real home, the proxy trap, no terminal. */
function baseEnvironment(context: RunContext): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: context.home,
    USERPROFILE: context.home,
    TMPDIR: path.join(context.home, 'tmp'),
    XDG_CONFIG_HOME: path.join(context.home, '.config'),
    XDG_STATE_HOME: path.join(context.home, '.local', 'state'),
    XDG_CACHE_HOME: path.join(context.home, '.cache'),
    XDG_RUNTIME_DIR: context.runtime,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    ...context.proxy,
  };
  fs.mkdirSync(env.TMPDIR ?? '', { recursive: true });
  return env;
}

function command(spec: ClientSpec): { command: string; prefix: string[] } {
  return spec.runWith === 'node' ? { command: process.execPath, prefix: [spec.bin] } : { command: spec.bin, prefix: [] };
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Runs a client's own command (as a person would type it) and returns its output; throws when it fails. */
export function setupCommand(spec: ClientSpec, args: readonly string[], env: Record<string, string>, cwd: string): string {
  const { command: exe, prefix } = command(spec);
  const result = spawnSync(exe, [...prefix, ...args], { env, cwd, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0)
    throw new Error(`${spec.name} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return `${result.stdout}${result.stderr}`;
}

// ---- Claude Code ------------------------------------------------------------------------------------------------

function claudeEnvironment(context: RunContext): Record<string, string> {
  return {
    ...baseEnvironment(context),
    ANTHROPIC_BASE_URL: context.modelUrl,
    ANTHROPIC_API_KEY: 'scripted',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // Every tool up front: by default Claude Code defers MCP tools behind its ToolSearch tool.
    ENABLE_TOOL_SEARCH: 'false',
    // Print mode starts the conversation without a server that is not up within seconds, which a busy machine misses.
    CLAUDE_CODE_MCP_STARTUP_WAIT_MS: '60000',
  };
}

/**
 * The questions Claude Code's log of the server shows: every elicitation it received (in print mode), and those its
 * Elicitation hook accepted. It keeps one log per project under $XDG_CACHE_HOME/claude-cli-nodejs.
 */
function claudeQuestions(context: RunContext): { asked: number; accepted: number; era: 'modern' | 'legacy' } {
  const logs = path.join(context.home, '.cache', 'claude-cli-nodejs');
  let text = '';
  for (const project of fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
    const dir = path.join(logs, project, `mcp-logs-${SERVER_NAME}`);
    for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) text += fs.readFileSync(path.join(dir, file), 'utf8');
  }
  const count = (pattern: RegExp): number => text.split('\n').filter((line) => pattern.test(line)).length;
  return {
    asked: count(/Elicitation request received/),
    accepted: count(/Elicitation resolved by hook: action=accept/),
    // Its SDK notes, on a 2026-07-28 connection only, that it opens no change-notification stream there.
    era: count(/on a modern connection/) > 0 ? 'modern' : 'legacy',
  };
}

function claudeConfiguration(id: string, title: string, hook: boolean, scenario: Configuration['scenario']): Configuration {
  return {
    id,
    title,
    scenario,
    transport: 'stdio',
    questions: claudeQuestions,
    prepare(context) {
      const spec = clientById('claude-code');
      const env = claudeEnvironment(context);
      // The documented line (user scope: without --root the server serves the folder Claude Code works in), and its
      // Elicitation hook where this configuration has the person answer in advance.
      const line = readmeBlock(spec.name, 'sh', context.server).trim().split(/\s+/);
      assert.equal(line[0], 'claude', `the documented line starts with claude: ${line.join(' ')}`);
      setupCommand(spec, line.slice(1), env, context.project);
      if (hook) writeJson(path.join(context.home, '.claude', 'settings.json'), JSON.parse(readmeBlock(spec.name, 'json', context.server)));
      const { command: exe, prefix } = command(spec);
      return {
        command: exe,
        args: [...prefix, '-p', context.prompt, '--output-format', 'stream-json', '--verbose', '--allowedTools', `mcp__${SERVER_NAME}`],
        env,
        cwd: context.project,
      };
    },
  };
}

/**
 * Claude Code connected over Streamable HTTP to a server the test started: an `--mcp-config` file holding the entry
 * "Connect Another Agent…" gives other clients over HTTP (the URL and the bearer token), and the documented Elicitation
 * hook where this configuration has the person answer.
 */
function claudeHttpConfiguration(id: string, title: string, hook: boolean, scenario: Configuration['scenario']): Configuration {
  return {
    id,
    title,
    scenario,
    transport: 'http',
    questions: claudeQuestions,
    prepare(context) {
      const spec = clientById('claude-code');
      assert.ok(context.http, 'an HTTP configuration runs against a server the test started');
      const env = claudeEnvironment(context);
      if (hook) writeJson(path.join(context.home, '.claude', 'settings.json'), JSON.parse(readmeBlock(spec.name, 'json', context.server)));
      const { port, state, token } = context.http;
      const entry = connectSnippets(serverCommand(context.server, [context.project], state), process.platform, { port, token }).find(
        (snippet) => snippet.id === 'http',
      );
      assert.ok(entry, 'the Connect command has an entry for other clients over HTTP');
      const config = path.join(context.home, 'agent-fs-http.json');
      fs.writeFileSync(config, entry.text);
      const { command: exe, prefix } = command(spec);
      return {
        command: exe,
        args: [
          ...prefix,
          '-p',
          context.prompt,
          '--output-format',
          'stream-json',
          '--verbose',
          '--mcp-config',
          config,
          '--strict-mcp-config',
          '--allowedTools',
          `mcp__${SERVER_NAME}`,
        ],
        env,
        cwd: context.project,
      };
    },
  };
}

// ---- Codex CLI ---------------------------------------------------------------------------------------------------

function toml(value: string): string {
  return JSON.stringify(value);
}

/**
 * `server`: 'readme' takes the documented [mcp_servers.agent-fs] table as it is; 'plain' is that server with no flags
 * and no tool approval, to see what Codex does with the question itself.
 */
function codexConfiguration(
  id: string,
  title: string,
  sandbox: string,
  server: 'readme' | 'plain',
  scenario: Configuration['scenario'],
): Configuration {
  return {
    id,
    title,
    scenario,
    transport: 'stdio',
    prepare(context) {
      const spec = clientById('codex');
      const codexHome = path.join(context.home, '.codex');
      fs.mkdirSync(codexHome, { recursive: true });
      const lines = [
        'model = "scripted"',
        'model_provider = "scripted"',
        'approval_policy = "never"',
        `sandbox_mode = ${toml(sandbox)}`,
        'check_for_update_on_startup = false',
        '',
        '[analytics]',
        'enabled = false',
        '',
        '[features]',
        'plugins = false',
        'apps = false',
        '',
        '[model_providers.scripted]',
        'name = "scripted"',
        `base_url = ${toml(`${context.modelUrl}/v1`)}`,
        'wire_api = "responses"',
        'env_key = "SCRIPTED_API_KEY"',
        '',
        server === 'readme'
          ? readmeBlock(spec.name, 'toml', context.server)
          : `[mcp_servers.${SERVER_NAME}]\ncommand = "node"\nargs = [${toml(context.server)}]\n`,
      ];
      fs.writeFileSync(path.join(codexHome, 'config.toml'), lines.join('\n'));
      const { command: exe, prefix } = command(spec);
      return {
        command: exe,
        args: [...prefix, 'exec', '--skip-git-repo-check', context.prompt],
        env: { ...baseEnvironment(context), CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'scripted' },
        cwd: context.project,
      };
    },
  };
}

// ---- Gemini CLI --------------------------------------------------------------------------------------------------

function geminiConfiguration(id: string, title: string, approvalMode: string): Configuration {
  return {
    id,
    title,
    scenario: 'full',
    transport: 'stdio',
    prepare(context) {
      const spec = clientById('gemini-cli');
      const entry = JSON.parse(readmeBlock(spec.name, 'json', context.server)) as Record<string, unknown>;
      writeJson(path.join(context.home, '.gemini', 'settings.json'), {
        ...entry,
        security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      });
      const { command: exe, prefix } = command(spec);
      return {
        command: exe,
        args: [...prefix, '-p', context.prompt, '--approval-mode', approvalMode, '--skip-trust', '--output-format', 'stream-json'],
        env: { ...baseEnvironment(context), GEMINI_API_KEY: 'scripted', GOOGLE_GEMINI_BASE_URL: context.modelUrl },
        cwd: context.project,
      };
    },
  };
}

export const DRIVERS: Readonly<Record<ClientId, Driver>> = {
  'claude-code': {
    spec: clientById('claude-code'),
    dialect: anthropic,
    configurations: [
      claudeConfiguration('hook', 'print mode with the documented line and Elicitation hook: the hook accepts each question', true, 'full'),
      claudeConfiguration('home', 'print mode started in the home folder with the documented line: it is the root', false, 'home'),
      claudeConfiguration('plain', 'print mode without a hook: Claude Code dismisses the question', false, {
        declined: /Elicitation hook.*--confirm never.*--allowedTools/,
      }),
      claudeHttpConfiguration(
        'http-hook',
        'print mode over Streamable HTTP with the Elicitation hook: the hook accepts each question',
        true,
        'full',
      ),
      claudeHttpConfiguration('http-plain', 'print mode over Streamable HTTP without a hook: Claude Code dismisses the question', false, {
        declined: /Elicitation hook.*--confirm never.*--allowedTools/,
      }),
    ],
  },
  codex: {
    spec: clientById('codex'),
    dialect: responses,
    configurations: [
      codexConfiguration(
        'readme',
        'codex exec with the documented entry: --confirm never, the tools approved in Codex',
        'workspace-write',
        'readme',
        'full',
      ),
      codexConfiguration(
        'full-access',
        'codex exec with full access and the server asking: Codex declines the question itself',
        'danger-full-access',
        'plain',
        {
          declined: /--confirm never.*default_tools_approval_mode/,
        },
      ),
    ],
  },
  'gemini-cli': {
    spec: clientById('gemini-cli'),
    dialect: gemini,
    configurations: [
      geminiConfiguration(
        'yolo',
        'gemini -p --approval-mode yolo with the documented entry: Gemini cannot ask; its approval stands in',
        'yolo',
      ),
    ],
  },
};

export interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs the client to its end (or kills it after `timeoutMs`), keeping its output in `logDir`. */
export function runClient(launch: Launch, timeoutMs: number, logDir: string): Promise<Finished> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(launch.command, [...launch.args], { cwd: launch.cwd, env: launch.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      fs.mkdirSync(logDir, { recursive: true });
      fs.writeFileSync(path.join(logDir, 'stdout.txt'), stdout);
      fs.writeFileSync(path.join(logDir, 'stderr.txt'), stderr);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}
