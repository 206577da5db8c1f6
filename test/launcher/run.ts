/**
 * `npm run test:integration`: the integration suite (test/integration/) inside real VS Code extension hosts, on
 * the oldest supported VS Code (1.100) and the newest (1.139), installing them first when missing.
 *
 *   node out/test/launcher/run.js [--host 1.100] [--host 1.139]
 *                             [--only single,multi-root,untrusted,ui,installed,web,locale,agent,agent-untrusted,vscode-mcp,vscode-mcp-http]
 *                             [--grep PATTERN] [--extension DIR] [--vsix FILE] [--screenshot FILE] [--keep]
 *                             [--timeout SECONDS] [--no-install] [--readme-shots] [--lanes N]
 *
 * --extension runs the suite against another copy of the extension (a folder with package.json and dist/), e.g. a
 * deliberately broken build, to see the suite catch it; --vsix does the same for the installed-package launch.
 *
 * Each host runs five launches: the main suite in a one-folder workspace, the multi-root checks in a two-folder
 * .code-workspace, the untrusted-workspace checks, a check driven through the real UI outside test mode (see
 * ui.ts), and a smoke suite against the .vsix that `npm run package` builds, installed into the host with
 * --install-extension (the source tree is not loaded in that window). On 1.139, whose code-server ships Copilot
 * Chat, four more drive Copilot's real agent loop with a scripted model (agent.ts): Agent FS's tools in a trusted
 * and an untrusted folder, and the MCP server through VS Code's own MCP client, over stdio and over HTTP. Prints every launch's VS Code
 * version and counts, and closes with one "N passed, N failed" line. Exit code 0 only when every launch passed.
 *
 * The launches run in two lanes at once (--lanes 1: one after another), each launch's output printed whole when it
 * ends (lanes.ts).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENT_HOSTS, AGENT_SCENARIOS, isAgentScenario, runAgentChecks } from './agent';
import { HOSTS, hostById, nodeFor, REPO_ROOT, type HostSpec } from './hosts';
import { tempDir } from './launch';
import { writeHarness } from './harness';
import { ensureHost } from './install';
import { failedOutcome, finishedOutcome, type Outcome, type SuiteLaunch, type SuiteResult } from './outcome';
import { cleanUpOnSignals, withLaunch } from './session';
import { type Launch, runInLanes } from './lanes';
import { runUiChecks } from './ui';
import { runWebChecks } from './web';
import { localesFor, runLocaleChecks } from './locale';

const MARKER = '[agentfs-it] ';
/**
 * About how long each launch takes on two cores, in seconds (measured 2026-12-07): what the lanes are balanced by.
 * Only the balance depends on it, never a result.
 */
const LAUNCH_SECONDS: Readonly<Record<Scenario, number>> = {
  single: 180,
  'multi-root': 8,
  untrusted: 6,
  ui: 20,
  installed: 8,
  web: 30,
  // Each language's launch (locale.ts's localesFor: six on the newest host, one on the older).
  locale: 25,
  agent: 125,
  'agent-untrusted': 6,
  'vscode-mcp': 25,
  'vscode-mcp-http': 25,
};
const SCENARIOS = ['single', 'multi-root', 'untrusted', 'ui', 'installed', 'web', 'locale', ...AGENT_SCENARIOS] as const;
type Scenario = (typeof SCENARIOS)[number];

interface Options {
  readonly hosts: readonly HostSpec[];
  readonly scenarios: readonly Scenario[];
  readonly screenshot?: string;
  readonly keep: boolean;
  readonly timeoutMs: number;
  readonly install: boolean;
  /** Runs only the suite's tests whose title matches (mocha --grep). */
  readonly grep?: string;
  readonly extension: string;
  /** A .vsix to install in the "installed" launch instead of the one `npm run package` builds. */
  readonly vsix?: string;
  /** Copy the agent-mode screenshots the README shows into media/screenshots/. */
  readonly readmeShots: boolean;
  /** Launches that run at once (lanes.ts); 1 runs them one after another, their output as it comes. */
  readonly lanes: number;
}

function parseArgs(argv: readonly string[]): Options {
  const hosts: HostSpec[] = [];
  let scenarios: Scenario[] = [...SCENARIOS];
  let screenshot: string | undefined;
  let grep: string | undefined;
  let extension = REPO_ROOT;
  let vsix: string | undefined;
  let keep = false;
  let install = true;
  let readmeShots = false;
  let lanes = 2;
  // Generous: a launch normally takes one to four minutes; this only stops one that hangs.
  let timeoutMs = Number(process.env.AGENTFS_IT_TIMEOUT_SECONDS ?? 900) * 1000;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--host') hosts.push(hostById(value()));
    else if (arg === '--only') {
      scenarios = value()
        .split(',')
        .map((name) => {
          if (!(SCENARIOS as readonly string[]).includes(name))
            throw new Error(`Unknown scenario "${name}"; known: ${SCENARIOS.join(', ')}`);
          return name as Scenario;
        });
    } else if (arg === '--screenshot') screenshot = path.resolve(value());
    else if (arg === '--grep') grep = value();
    else if (arg === '--extension') extension = path.resolve(value());
    else if (arg === '--vsix') vsix = path.resolve(value());
    else if (arg === '--keep') keep = true;
    else if (arg === '--no-install') install = false;
    else if (arg === '--readme-shots') readmeShots = true;
    else if (arg === '--timeout') timeoutMs = Number(value()) * 1000;
    else if (arg === '--lanes') lanes = Math.max(1, Number(value()));
    else throw new Error(`Unknown argument "${arg}"`);
  }
  return {
    hosts: hosts.length > 0 ? hosts : HOSTS,
    scenarios,
    screenshot,
    keep,
    timeoutMs,
    install,
    grep,
    extension,
    vsix,
    readmeShots,
    lanes,
  };
}

const COMPILED_SUITE = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');
const BUNDLE = path.join('dist', 'extension.js');

/**
 * Builds the .vsix exactly as a user does (`npm run package`), into `dir`. Packaging runs the production build
 * over dist/; the development build the other launches load is made again afterwards.
 */
function packageExtension(dir: string): string {
  // `npm run package` is `node package.mjs`; `vsix --out DIR` asks it for the .vsix alone, into DIR.
  const npm = spawnSync('npm', ['run', 'package', '--', 'vsix', '--out', dir], { cwd: REPO_ROOT, encoding: 'utf8' });
  const made = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.vsix')) : [];
  const file = made.length === 1 && made[0] !== undefined ? path.join(dir, made[0]) : undefined;
  if (npm.status !== 0 || file === undefined)
    throw new Error(
      `npm run package failed (${npm.status ?? npm.signal ?? 'unknown'}, made ${made.join(', ') || 'no .vsix'}):\n${npm.stdout}\n${npm.stderr}`,
    );
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`node esbuild.mjs failed after packaging:\n${build.stdout}\n${build.stderr}`);
  return file;
}

/** Installs `vsix` into the extensions folder a launch's server will use, with the host's own CLI. */
function installVsix(host: HostSpec, vsix: string, extensionsDir: string): void {
  fs.mkdirSync(extensionsDir, { recursive: true });
  const result = spawnSync(
    nodeFor(host),
    [host.serverMain, '--install-extension', vsix, '--extensions-dir', extensionsDir, '--accept-server-license-terms'],
    { encoding: 'utf8' },
  );
  const output = `${result.stdout}\n${result.stderr}`;
  if (result.status !== 0 || !/successfully installed/i.test(output))
    throw new Error(`--install-extension ${vsix} failed (${result.status ?? result.signal ?? 'unknown'}):\n${output}`);
}

/** Lays out what a scenario's window opens, under the launch's temp folder. */
function prepareScenario(
  scenario: Exclude<Scenario, 'ui' | 'web' | 'locale'>,
  dir: string,
  host: HostSpec,
  vsix: string | undefined,
): { target: { folder: string } | { workspace: string }; env: Record<string, string>; extensionDevelopmentPath?: string } {
  const ws = path.join(dir, 'ws');
  const env = { AGENTFS_IT_SCENARIO: scenario };
  if (scenario === 'multi-root') {
    for (const name of ['alpha', 'beta', 'outside']) fs.mkdirSync(path.join(ws, name), { recursive: true });
    // A folder whose name extends a workspace folder's: containment must compare segments, not prefixes.
    fs.mkdirSync(path.join(ws, 'beta-sibling'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'outside', 'secret.txt'), 'must stay untouched\n');
    fs.writeFileSync(path.join(ws, 'beta-sibling', 'x.txt'), 'must stay untouched\n');
    const workspace = path.join(ws, 'two.code-workspace');
    fs.writeFileSync(workspace, JSON.stringify({ folders: [{ path: 'alpha' }, { path: 'beta' }], settings: {} }, null, 2));
    return { target: { workspace }, env: { ...env, AGENTFS_IT_OUTSIDE: path.join(ws, 'outside') } };
  }
  const folder = path.join(ws, 'project');
  fs.mkdirSync(folder, { recursive: true });
  if (scenario === 'untrusted') fs.writeFileSync(path.join(folder, 'readme.txt'), 'untrusted but readable\n');
  if (scenario === 'installed') {
    if (vsix === undefined) throw new Error('the installed launch needs a .vsix');
    // The same folder startServer gives the server (--extensions-dir), so the window finds the installed copy.
    const extensionsDir = path.join(dir, 'state', 'extensions');
    installVsix(host, vsix, extensionsDir);
    // Test mode needs a development extension; this empty one contributes nothing, so Agent FS comes from the .vsix.
    return {
      target: { folder },
      env: { ...env, AGENTFS_IT_REPO: REPO_ROOT, AGENTFS_IT_EXTENSIONS_DIR: extensionsDir, AGENTFS_IT_VSIX: vsix },
      extensionDevelopmentPath: writeHarness(path.join(dir, 'harness')),
    };
  }
  return { target: { folder }, env };
}

async function runSuite(
  host: HostSpec,
  scenario: Exclude<Scenario, 'ui' | 'web' | 'locale'>,
  options: Options,
  vsix?: string,
): Promise<Outcome> {
  const label = `it ${host.id} ${scenario}`;
  const started = Date.now();
  const say = (line: string): void => void process.stdout.write(`[${label}] ${line}\n`);
  say(
    `VS Code ${host.vscodeVersion} (code-server's server-main.js, extension host on ${host.node === 'self' ? `Node ${process.version}` : 'Node 24'})`,
  );
  const windowLog: string[] = [];
  const launch: SuiteLaunch = { label, vscode: host.vscodeVersion, started, windowLog, say };
  let result: SuiteResult | undefined;
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => {
    onExit = resolve;
  });
  try {
    const exitCode = await withLaunch(
      {
        host,
        label,
        trust: scenario === 'untrusted',
        timeoutMs: options.timeoutMs,
        keep: options.keep,
        prepare: (dir) => {
          const prepared = prepareScenario(scenario, dir, host, vsix);
          return options.grep === undefined ? prepared : { ...prepared, env: { ...prepared.env, AGENTFS_IT_GREP: options.grep } };
        },
        editor: { extensionDevelopmentPath: options.extension, extensionTestsPath: COMPILED_SUITE },
        open: {
          onLog: (_level, message) => {
            if (!message.startsWith(MARKER)) {
              // Kept only to explain a failure: the last lines are enough.
              if (windowLog.push(message) > 200) windowLog.shift();
              return;
            }
            for (const line of message.split('\n')) {
              const text = line.startsWith(MARKER) ? line.slice(MARKER.length) : line;
              if (text.startsWith('RESULT ')) result = JSON.parse(text.slice('RESULT '.length)) as SuiteResult;
              else process.stdout.write(`  ${text}\n`);
            }
          },
          // The workbench calls codeAutomationExit with the test run's exit code once run() settles.
          onExit: (code) => onExit(code),
        },
      },
      () => exited,
      (code) => code === 0 && result !== undefined && result.failed === 0,
    );
    return finishedOutcome(launch, exitCode, result);
  } catch (error) {
    return failedOutcome(launch, error, result);
  }
}

function summarize(outcomes: readonly Outcome[]): number {
  const total = { passed: 0, failed: 0, pending: 0 };
  process.stdout.write('\nintegration results:\n');
  for (const outcome of outcomes) {
    total.passed += outcome.passed;
    total.failed += outcome.failed;
    total.pending += outcome.pending;
    const status = outcome.failed === 0 ? 'ok  ' : 'FAIL';
    process.stdout.write(
      `  ${status} ${outcome.label.padEnd(22)} VS Code ${outcome.vscode.padEnd(8)} ${outcome.passed} passed, ${outcome.failed} failed, ${outcome.pending} pending, ${outcome.seconds} s${outcome.error ? ` (${outcome.error.split('\n')[0] ?? ''})` : ''}\n`,
    );
  }
  // The plain closing line CI reads for the counts.
  process.stdout.write(
    `integration: ${total.passed} passed, ${total.failed} failed${total.pending > 0 ? `, ${total.pending} skipped` : ''}\n`,
  );
  return total.failed === 0 && total.passed > 0 ? 0 : 1;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  cleanUpOnSignals();
  for (const file of [path.join(options.extension, BUNDLE), COMPILED_SUITE]) {
    if (!fs.existsSync(file))
      throw new Error(`${path.relative(REPO_ROOT, file)} is missing: run \`npm run build\` first (npm run test:integration does).`);
  }
  const outcomes: Outcome[] = [];
  const packaged = options.scenarios.includes('installed') && options.vsix === undefined ? tempDir('agentfs-vsix-') : undefined;
  const vsix = options.vsix ?? (packaged ? packageExtension(packaged.path) : undefined);
  if (packaged && vsix)
    process.stdout.write(
      `[host] packaged ${path.relative(REPO_ROOT, vsix) || vsix} (${Math.round(fs.statSync(vsix).size / 1024)} KiB) for the installed launches\n`,
    );
  const launches: Launch<Outcome>[] = [];
  for (const host of options.hosts) {
    if (options.install) ensureHost(host);
    else if (!fs.existsSync(host.serverMain))
      throw new Error(`VS Code ${host.vscodeVersion} is not installed (node out/test/launcher/install.js ${host.id}).`);
    for (const scenario of options.scenarios) {
      const label = `it ${host.id} ${scenario}`;
      const weight = LAUNCH_SECONDS[scenario];
      if (scenario === 'ui')
        launches.push({
          label,
          weight,
          run: () =>
            runUiChecks(host, {
              timeoutMs: options.timeoutMs,
              keep: options.keep,
              screenshot: options.screenshot,
              extension: options.extension,
            }),
        });
      else if (scenario === 'locale')
        for (const locale of localesFor(host))
          launches.push({
            label: `${label} ${locale}`,
            weight,
            run: () =>
              runLocaleChecks(host, locale, {
                timeoutMs: options.timeoutMs,
                keep: options.keep,
                extension: options.extension,
                suite: COMPILED_SUITE,
                ...(options.grep === undefined ? {} : { grep: options.grep }),
              }),
          });
      else if (scenario === 'web')
        launches.push({
          label,
          weight,
          run: () => runWebChecks(host, { timeoutMs: options.timeoutMs, keep: options.keep, extension: options.extension }),
        });
      else if (isAgentScenario(scenario)) {
        if (AGENT_HOSTS.includes(host.id)) launches.push({ label, weight, run: () => runAgentChecks(host, scenario, options) });
      } else launches.push({ label, weight, run: () => runSuite(host, scenario, options, vsix) });
    }
  }
  outcomes.push(...(await runInLanes(launches, options.lanes)));
  packaged?.remove();
  return summarize(outcomes);
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`[host] ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
