/**
 * The client matrix: Claude Code, Codex CLI, Gemini CLI, GitHub Copilot CLI and opencode, each the real CLI from npm
 * (pinned in test/hosts/), each configured as docs/clients.md says and started in a project folder, each driving the
 * built dist/mcp.js for a scripted model on 127.0.0.1 in that client's own wire format, over stdio, and for Claude Code
 * also over Streamable HTTP to a server the test starts on loopback. Nothing may leave loopback: every proxy variable
 * points at a trap (loopback itself is exempt, NO_PROXY), and a request reaching it fails the run. Each run is checked
 * on the disk (the tree the scenario must leave, the file outside the base untouched), on what the model received
 * (every result's envelope, in order, and each tool's description and schema as the client passes them on) and, where
 * the client logs it, on the MCP revision it spoke. Each client's full documented stdio setup runs a second time with
 * the server of the npm package, packed and installed into an empty prefix as its users install it.
 *
 *   npm run test:matrix                          all clients (installs each once; Claude Code's package is ~400 MB)
 *   AGENTFS_MATRIX=codex npm run test:matrix     one client (claude-code, codex, gemini-cli, copilot-cli, opencode;
 *                                                comma-separated)
 *
 * Each run writes what the model was offered and received to out/matrix/<client>-<configuration>.json.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TOOL_DEFINITIONS } from '../../src/core/tools';
import { stateToken } from '../../src/node/mcp/httpToken';
import { CLIENTS } from '../launcher/hosts';
import { ensureClient } from '../launcher/install';
import { type HttpServed, serveHttp } from '../shared/mcpHttp';
import { installedPackage } from '../shared/npmPackage';
import { makeTempDir, removeTree } from '../unit/helpers';
import { buildOnce, REPO, serve, SERVER } from '../unit/mcp/serve';
import { type Configuration, DRIVERS, type Driver, type RunContext, runClient, setupCommand } from './clients';
import { type OfferedTool, startModel, type Turn } from './model';
import {
  checkResults,
  clientNames,
  declinedScenario,
  END_TREE,
  fullScenario,
  isAgentFsTool,
  layOut,
  OUTSIDE_FILE,
  homeScenario,
  scriptOf,
  START_TREE,
  treeOf,
} from './scenario';
import { readmeSetup } from './readme';
import { startTrap } from './trap';

const RUN_TIMEOUT_MS = 240_000;
const REPORT_DIR = path.join(REPO, 'out', 'matrix');
const wanted = (process.env.AGENTFS_MATRIX ?? '').split(',').filter((each) => each !== '');

/** Bytes the model pays for one tool: its name, description and schema as the client sent them. */
function definitionBytes(tool: { name: string; description: string; schema: unknown }): number {
  return Buffer.byteLength(tool.name) + Buffer.byteLength(tool.description) + Buffer.byteLength(JSON.stringify(tool.schema));
}

/** Runs one configuration of one client against `server`: the build's dist/mcp.js, or the installed package's. */
async function runConfiguration(driver: Driver, configuration: Configuration, tmp: string, server: string): Promise<void> {
  const home = path.join(tmp, 'home');
  const runtime = path.join(tmp, 'run');
  const inHome = configuration.scenario === 'home';
  const project = inHome ? home : path.join(tmp, 'work', 'project');
  const outside = path.join(tmp, 'work', 'outside');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(runtime, { mode: 0o700 });
  layOut(project, outside);
  const { scenario } = configuration;
  const steps = scenario === 'full' ? fullScenario() : scenario === 'home' ? homeScenario() : declinedScenario(scenario.declined);
  const prompt = `Client matrix: ${configuration.id}`;
  const trap = await startTrap();
  const model = await startModel(driver.dialect, scriptOf(steps, prompt), isAgentFsTool);
  let http: { readonly served: HttpServed; readonly state: string; readonly token: string } | undefined;
  try {
    if (configuration.transport === 'http') {
      // As the editor's Connect command does: the state folder's token, which the server started on it takes too.
      const state = path.join(tmp, 'state');
      const token = stateToken(state);
      if (typeof token === 'string') assert.fail(token);
      const served = await serveHttp(server, ['--http', '127.0.0.1:0', '--root', project, '--state', state]);
      http = { served, state, token: token.token };
    }
    const context: RunContext = {
      home,
      runtime,
      project,
      modelUrl: model.url,
      server,
      prompt,
      proxy: trap.environment(),
      ...(http ? { http: { port: http.served.port, state: http.state, token: http.token } } : {}),
    };
    const launch = configuration.prepare(context);
    launch.env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${launch.env.PATH ?? ''}`;
    const finished = await runClient(launch, RUN_TIMEOUT_MS, path.join(tmp, 'logs'));
    const diagnosis = `${driver.spec.name} (${configuration.id}) exited ${finished.code ?? finished.signal} after ${finished.ms} ms\n--- stdout (end)\n${finished.stdout.slice(-4000)}\n--- stderr (end)\n${finished.stderr.slice(-4000)}`;
    const first = model.firstTurn();
    const last = model.lastTurn();
    const firstRequest = model.requests.find((request) => request.turn === first);
    const revision = driver.revision?.read(context, finished);
    writeReport(
      driver,
      configuration,
      first,
      last,
      finished.ms,
      model.requests.length,
      JSON.stringify(firstRequest?.body ?? null),
      http?.served.log(),
      revision,
    );
    assert.deepEqual(trap.seen, [], `requests outside loopback:\n${diagnosis}`);
    assert.deepEqual(model.failures, [], `the script could not go on:\n${diagnosis}`);
    assert.ok(first, `the model never got the Agent FS tools:\n${diagnosis}`);
    const names = clientNames(first.tools);
    for (const [index, listed] of serverTools.entries()) {
      const offered: OfferedTool | undefined = first.tools.find((tool) => tool.name === names.get(listed.name));
      // A server started with --confirm never (some configurations here) promises no confirmation in its descriptions.
      const asListed = [listed.description, serverToolsNeverConfirming[index]?.description];
      assert.ok(
        offered !== undefined && asListed.includes(offered.description),
        `${listed.name}: the description the server lists reaches the model unchanged: ${offered?.description ?? 'not offered'}`,
      );
      assert.deepEqual(
        offered.schema,
        driver.schemaSent(listed.inputSchema),
        `${listed.name}: the schema as ${driver.spec.name} passes it on`,
      );
    }
    if (driver.revision) assert.equal(revision, driver.revision.speaks, `the MCP revision ${driver.spec.name} spoke, as it logged it`);
    checkResults(steps, last);
    assert.equal(finished.code, 0, diagnosis);
    const questions = configuration.questions?.(context);
    if (questions) {
      // The server asks before each confirmed step; only a full run has them answered Yes.
      const asked = steps.filter((step) => step.confirmed === true).length;
      assert.deepEqual(
        questions,
        { asked, accepted: scenario === 'full' ? asked : 0 },
        `the questions the client's log shows:\n${diagnosis}`,
      );
    }
    if (scenario === 'home') {
      assert.equal(fs.readFileSync(path.join(home, 'notes.md'), 'utf8'), '# Notes\n');
      assert.ok(
        Object.keys(treeOf(path.join(runtime, 'agent-fs', 'history'))).length > 0,
        'the history outside the home folder holds the change',
      );
      assert.ok(!fs.existsSync(path.join(home, '.local', 'state', 'agent-fs', 'history')), 'no history inside the home folder');
    } else assert.deepEqual(treeOf(project), scenario === 'full' ? END_TREE : START_TREE, 'the project folder afterwards');
    assert.equal(fs.readFileSync(path.join(outside, OUTSIDE_FILE.name), 'utf8'), OUTSIDE_FILE.content, 'the file outside the base');
  } finally {
    await http?.served.stop();
    if (http) fs.writeFileSync(path.join(tmp, 'mcp-http.log'), http.served.log());
    await model.close();
    await trap.close();
  }
}

function writeReport(
  driver: Driver,
  configuration: Configuration,
  first: Turn | undefined,
  last: Turn | undefined,
  ms: number,
  requests: number,
  firstRequest: string,
  httpLog: string | undefined,
  revision: string | undefined,
): void {
  const ours = (first?.tools ?? []).filter((tool) => isAgentFsTool(tool.name));
  const refusal = last?.results.find((result) => /FILE_PATH_OUTSIDE_BASE|CONFIRMATION_DECLINED/.test(result.text));
  const report = {
    client: driver.spec.name,
    version: driver.spec.version,
    configuration: configuration.id,
    // The MCP revision it spoke, as its own log says (absent where it keeps no record).
    revision,
    ms,
    requests,
    // The whole first request as the client sent it: what a tool list costs besides the definitions themselves.
    firstRequestBytes: Buffer.byteLength(firstRequest),
    tools: ours.map((tool) => ({ name: tool.name, bytes: definitionBytes(tool) })),
    toolCount: ours.length,
    definitionBytes: ours.reduce((sum, tool) => sum + definitionBytes(tool), 0),
    otherTools: (first?.tools ?? []).filter((tool) => !isAgentFsTool(tool.name)).map((tool) => tool.name),
    refusal,
    results: last?.results ?? [],
    transport: configuration.transport,
    // Over HTTP, what the server logged of each connection and request: the protocol revision the client spoke.
    ...(httpLog === undefined ? {} : { serverLog: httpLog.split('\n').filter((line) => line.trim() !== '') }),
  };
  fs.mkdirSync(REPORT_DIR, { recursive: true });
  fs.writeFileSync(path.join(REPORT_DIR, `${driver.spec.id}-${configuration.id}.json`), `${JSON.stringify(report, null, 2)}\n`);
}

interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: unknown;
}

/** The tools as the server lists them (the SDK's client over stdio): what each client should pass on. */
let serverTools: readonly ListedTool[] = [];
/** The same from a server started with --confirm never, in the same order. */
let serverToolsNeverConfirming: readonly ListedTool[] = [];

describe('Client matrix: real agent CLIs, a scripted model on loopback, dist/mcp.js', function () {
  before(async function () {
    this.timeout(120_000);
    buildOnce();
    const tmp = makeTempDir('agentfs-matrix-list-');
    const started = (args: string[]): Parameters<typeof serve>[1] => ({ command: { command: process.execPath, args: [SERVER, ...args] } });
    try {
      const served = await serve([], started(['--root', tmp, '--no-history']));
      serverTools = (await served.client.listTools()).tools;
      await served.close();
      const neverConfirming = await serve([], started(['--root', tmp, '--no-history', '--confirm', 'never']));
      serverToolsNeverConfirming = (await neverConfirming.client.listTools()).tools;
      await neverConfirming.close();
    } finally {
      removeTree(tmp);
    }
    assert.equal(serverTools.length, TOOL_DEFINITIONS.length);
  });

  for (const spec of CLIENTS) {
    if (wanted.length > 0 && !wanted.includes(spec.id)) continue;
    const driver = DRIVERS[spec.id];
    describe(`${spec.name} ${spec.version}`, function () {
      this.timeout(RUN_TIMEOUT_MS + 60_000);
      before(function () {
        // One install per machine; Claude Code's native executable makes its package the big one.
        this.timeout(900_000);
        ensureClient(spec);
      });

      it('is the pinned version, the one docs/clients.md says it tested', function () {
        assert.equal(readmeSetup(spec.name, SERVER).version, spec.version, "docs/clients.md's tested version");
        const versionTmp = makeTempDir('agentfs-matrix-version-');
        try {
          const env = { PATH: process.env.PATH ?? '', HOME: versionTmp, TMPDIR: versionTmp, CODEX_HOME: versionTmp, ...spec.env };
          const output = setupCommand(spec, ['--version'], env, versionTmp);
          assert.ok(output.includes(spec.version), output);
        } finally {
          removeTree(versionTmp);
        }
      });

      const once = async (configuration: Configuration, server: () => string): Promise<void> => {
        const tmp = makeTempDir(`agentfs-matrix-${spec.id}-`);
        let passed = false;
        try {
          await runConfiguration(driver, configuration, tmp, server());
          passed = true;
        } finally {
          // A failed run keeps its folder (logs, home, project) for a look; a passed one leaves nothing.
          if (passed || process.env.CI !== undefined) removeTree(tmp);
          else process.stderr.write(`kept ${tmp}\n`);
        }
      };
      // Codex's copy of the server's stderr now and then lacks the server's line about its client (every other line
      // there, and the server writes it; twice in about ten runs), which is where the revision is read: such a run is
      // run once more, and every other failure stands.
      const run = async (configuration: Configuration, server: () => string): Promise<void> => {
        try {
          await once(configuration, server);
        } catch (error) {
          if (!(error instanceof assert.AssertionError && error.message.startsWith(`the MCP revision ${spec.name} spoke`))) throw error;
          process.stderr.write(`${spec.name} (${configuration.id}): no revision in its log; run once more\n`);
          await once(configuration, server);
        }
      };
      for (const configuration of driver.configurations) {
        it(configuration.title, () => run(configuration, () => SERVER));
      }
      // The same documented setup served by the npm package as users install it (npm pack, npm install -g into an
      // empty prefix, offline): the whole scenario once per client, over stdio.
      for (const configuration of driver.configurations.filter((each) => each.scenario === 'full' && each.transport === 'stdio')) {
        it(`${configuration.title}, served by the installed npm package`, function () {
          this.timeout(RUN_TIMEOUT_MS + 180_000);
          return run(configuration, () => installedPackage().server);
        });
      }
    });
  }
});
