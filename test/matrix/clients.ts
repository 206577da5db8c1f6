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
import { anthropic, chatCompletions, type Dialect, gemini, responses } from './model';

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
  /** After the run, what the client's own log says of the server's questions, where it keeps such a log. */
  questions?(context: RunContext): { readonly asked: number; readonly accepted: number };
}

export interface Driver {
  readonly spec: ClientSpec;
  readonly dialect: Dialect;
  readonly configurations: readonly Configuration[];
  /** A tool's input schema as the model gets it, from the one the server lists: what the client changes on the way. */
  readonly schemaSent: (listed: unknown) => unknown;
  /**
   * The MCP revision the client speaks, and where its own log records the one it spoke in a run (read afterwards);
   * absent where the client keeps no record of it.
   */
  readonly revision?: { readonly speaks: string; read(context: RunContext, finished: Finished): string | undefined };
}

/** The revision in the server's own line about its client, `client <name> <version> (<revision>)`, in a log. */
function revisionServerLogged(log: string): string | undefined {
  return /agent-fs-mcp: client \S+ \S* \((\d{4}-\d{2}-\d{2})\)/.exec(log)?.[1];
}

/** The text of every file under `dir` whose path relative to it matches `pattern` (none when there is no `dir`). */
function logsUnder(dir: string, pattern: RegExp): string {
  if (!fs.existsSync(dir)) return '';
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((relative) => pattern.test(relative))
    .map((relative) => fs.readFileSync(path.join(dir, relative), 'utf8'))
    .join('\n');
}

/** Every subschema of `schema` changed by `change` (which sees it with its own subschemas already changed). */
function eachSchema(schema: unknown, change: (node: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => eachSchema(item, change));
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, eachSchema(value, change)]));
  return change(node);
}

const unchanged = (listed: unknown): unknown => listed;

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
function claudeQuestions(context: RunContext): { asked: number; accepted: number } {
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
      return claudePrint(spec, context, env, []);
    },
  };
}

/** `claude -p` on the scenario's prompt, streaming JSON, with Agent FS's tools allowed by name; `extra` adds flags. */
function claudePrint(spec: ClientSpec, context: RunContext, env: Record<string, string>, extra: readonly string[]): Launch {
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
      ...extra,
      '--allowedTools',
      `mcp__${SERVER_NAME}`,
    ],
    env,
    cwd: context.project,
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
      return claudePrint(spec, context, env, ['--mcp-config', config, '--strict-mcp-config']);
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
        env: {
          ...baseEnvironment(context),
          CODEX_HOME: codexHome,
          SCRIPTED_API_KEY: 'scripted',
          // Its errors as by default, and the server's stderr lines, which it logs at info.
          RUST_LOG: 'error,codex_rmcp_client::stdio_server_launcher=info',
        },
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
        // DEBUG: its debug log on stderr, which holds the server's stderr lines.
        env: { ...baseEnvironment(context), GEMINI_API_KEY: 'scripted', GOOGLE_GEMINI_BASE_URL: context.modelUrl, DEBUG: '1' },
        cwd: context.project,
      };
    },
  };
}

/** Codex leaves these out of every schema it sends (the server checks them). */
const CODEX_DROPPED = new Set(['minLength', 'maxLength', 'minimum', 'default']);

/** What Gemini CLI adds to every tool's schema (and passes on to the server as an argument). */
const GEMINI_WAIT_FOR_PREVIOUS = {
  type: 'boolean',
  description:
    'Set to true to wait for all previously requested tools in this turn to complete before starting. Set to false (or omit) to run in parallel. Use true when this tool depends on the output of previous tools.',
};

// ---- GitHub Copilot CLI ------------------------------------------------------------------------------------------

function copilotEnvironment(context: RunContext, spec: ClientSpec): Record<string, string> {
  return {
    ...baseEnvironment(context),
    ...spec.env,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_TYPE: 'openai',
    COPILOT_PROVIDER_BASE_URL: `${context.modelUrl}/v1`,
    // Copilot masks the key wherever it appears in what it prints: a one-letter key would mask that letter everywhere.
    COPILOT_PROVIDER_API_KEY: 'scripted-model-key',
    COPILOT_MODEL: 'scripted',
  };
}

/**
 * `server`: 'readme' adds the server with the documented `copilot mcp add` line; 'plain' adds it with no flags, to see
 * what Copilot does with the server's question itself.
 */
function copilotConfiguration(id: string, title: string, server: 'readme' | 'plain', scenario: Configuration['scenario']): Configuration {
  return {
    id,
    title,
    scenario,
    transport: 'stdio',
    prepare(context) {
      const spec = clientById('copilot-cli');
      const env = copilotEnvironment(context, spec);
      const line =
        server === 'readme'
          ? readmeBlock(spec.name, 'sh', context.server).trim().split(/\s+/)
          : ['copilot', 'mcp', 'add', SERVER_NAME, '--', 'node', context.server];
      assert.equal(line[0], 'copilot', `the documented line starts with copilot: ${line.join(' ')}`);
      setupCommand(spec, line.slice(1), env, context.project);
      const { command: exe, prefix } = command(spec);
      return {
        command: exe,
        args: [...prefix, '-p', context.prompt, `--allow-tool=${SERVER_NAME}`, '--output-format', 'json', '--no-auto-update', '--no-color'],
        env,
        cwd: context.project,
      };
    },
  };
}

/** Copilot moves these out of a schema into the description, as `<description>\n\n{minLength: 1, maxLength: 64}`. */
const COPILOT_MOVED = new Set(['minLength', 'maxLength', 'minimum', 'minItems']);

function copilotSchema(listed: unknown): unknown {
  return eachSchema(listed, (node) => {
    const moved = Object.entries(node).filter(([key, value]) => COPILOT_MOVED.has(key) && typeof value === 'number');
    if (moved.length === 0) return node;
    const kept = Object.fromEntries(Object.entries(node).filter(([key]) => !moved.some(([gone]) => gone === key)));
    const said = `{${moved.map(([key, value]) => `${key}: ${String(value)}`).join(', ')}}`;
    return { ...kept, description: typeof node.description === 'string' ? `${node.description}\n\n${said}` : said };
  });
}

// ---- opencode ----------------------------------------------------------------------------------------------------

/**
 * At every start opencode installs @opencode-ai/plugin (of its own version) into its config folder from the registry,
 * unless the folder's lock already lists it. The folder gets what that install leaves: the package, from the test
 * host's install, and a package.json and lock that name it.
 */
function givePluginPackage(spec: ClientSpec, configDir: string): void {
  const lock = JSON.parse(fs.readFileSync(path.join(spec.dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dependencies?: Record<string, string> }>;
  };
  const dependencies = { '@opencode-ai/plugin': spec.version };
  assert.equal(lock.packages['']?.dependencies?.['@opencode-ai/plugin'], spec.version, `${spec.dir} pins the plugin of opencode's version`);
  writeJson(path.join(configDir, 'package.json'), { dependencies });
  const installed = Object.entries(lock.packages).filter(([key]) => key !== '' && key !== `node_modules/${spec.packageName}`);
  writeJson(path.join(configDir, 'package-lock.json'), {
    name: 'opencode',
    lockfileVersion: 3,
    requires: true,
    packages: { '': { dependencies }, ...Object.fromEntries(installed) },
  });
  const modules = path.join(configDir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(path.join(spec.dir, 'node_modules'))) {
    if (entry.startsWith('.') || entry === spec.packageName) continue;
    fs.symlinkSync(path.join(spec.dir, 'node_modules', entry), path.join(modules, entry));
  }
}

function opencodeConfiguration(id: string, title: string): Configuration {
  return {
    id,
    title,
    scenario: 'full',
    transport: 'stdio',
    prepare(context) {
      const spec = clientById('opencode');
      const configDir = path.join(context.home, '.config', 'opencode');
      const entry = JSON.parse(readmeBlock(spec.name, 'json', context.server)) as Record<string, unknown>;
      writeJson(path.join(configDir, 'opencode.json'), {
        ...entry,
        provider: {
          scripted: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Scripted model',
            options: { baseURL: `${context.modelUrl}/v1`, apiKey: 'scripted' },
            models: { scripted: { name: 'Scripted' } },
          },
        },
      });
      givePluginPackage(spec, configDir);
      const { command: exe, prefix } = command(spec);
      return {
        command: exe,
        args: [...prefix, 'run', '--format', 'json', '--model', 'scripted/scripted', context.prompt],
        env: {
          ...baseEnvironment(context),
          ...spec.env,
          // Offline: no model list, update check, share link or language server from the internet.
          OPENCODE_DISABLE_MODELS_FETCH: '1',
          OPENCODE_DISABLE_AUTOUPDATE: '1',
          OPENCODE_DISABLE_SHARE: '1',
          OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        },
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
    schemaSent: unchanged,
    revision: {
      speaks: '2026-07-28',
      // Its log of each MCP server (in its cache folder) records the revision agreed on.
      read: (context) =>
        /negotiatedProtocolVersion\\?":\\?"(\d{4}-\d{2}-\d{2})/.exec(
          logsUnder(path.join(context.home, '.cache', 'claude-cli-nodejs'), /mcp-logs-agent-fs\/.*\.jsonl$/),
        )?.[1],
    },
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
    schemaSent: (listed) =>
      eachSchema(listed, (node) => {
        const kept = Object.fromEntries(Object.entries(node).filter(([key]) => !CODEX_DROPPED.has(key)));
        return kept.type === 'object' && kept.properties === undefined ? { ...kept, properties: {} } : kept;
      }),
    revision: { speaks: '2025-06-18', read: (_context, finished) => revisionServerLogged(finished.stderr) },
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
    schemaSent: (listed) => {
      const schema = listed as { properties?: Record<string, unknown> };
      return { ...schema, properties: { ...schema.properties, wait_for_previous: GEMINI_WAIT_FOR_PREVIOUS } };
    },
    revision: { speaks: '2025-06-18', read: (_context, finished) => revisionServerLogged(finished.stderr) },
  },
  'copilot-cli': {
    spec: clientById('copilot-cli'),
    dialect: chatCompletions,
    configurations: [
      copilotConfiguration(
        'readme',
        'copilot -p with the documented line: --confirm never, the tools allowed with --allow-tool',
        'readme',
        'full',
      ),
      copilotConfiguration('plain', 'copilot -p with the server asking: Copilot declines the question itself', 'plain', {
        declined: /copilot -p.*--confirm never.*--allow-tool=agent-fs/,
      }),
    ],
    schemaSent: copilotSchema,
    revision: {
      speaks: '2026-07-28',
      // Its log records the revision of each server it connects to.
      read: (context) =>
        /protocol_version: ProtocolVersion\(\\?"(\d{4}-\d{2}-\d{2})/.exec(
          logsUnder(path.join(context.home, '.copilot', 'logs'), /\.log$/),
        )?.[1],
    },
  },
  opencode: {
    spec: clientById('opencode'),
    dialect: chatCompletions,
    configurations: [
      opencodeConfiguration('readme', 'opencode run with the documented entry: opencode cannot ask; its permission (allow) stands in'),
    ],
    schemaSent: unchanged,
    // No revision: opencode keeps nothing of the server's stderr and logs nothing of the handshake.
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
    // A process group of its own: some clients run their program as a child that outlives a killed parent (Copilot's
    // loader), and what a client leaves running (a server it did not end) goes with the group at the end.
    const child = spawn(launch.command, [...launch.args], {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Nothing of the group is left.
      }
    };
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(killGroup, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup();
      fs.mkdirSync(logDir, { recursive: true });
      fs.writeFileSync(path.join(logDir, 'stdout.txt'), stdout);
      fs.writeFileSync(path.join(logDir, 'stderr.txt'), stderr);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}
