/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, pinned in test/hosts/mcp-conformance) checks the real
 * server over Streamable HTTP: `node dist/mcp.js --http 127.0.0.1:0 --token-file …`. Each scenario that applies to a
 * tools-only server runs at each protocol revision it belongs to (2025-11-25 with the initialize handshake, 2026-07-28
 * stateless), and each of its checks must pass but for those that need the suite's own fixture tools.
 *
 * The suite's server mode sends no Authorization header and has no option to add one (its only auth scenarios test
 * OAuth clients and authorization servers, not a resource server's bearer check). So the suite talks to a relay on
 * loopback that adds `Authorization: Bearer <token>` and forwards everything else as it came, the Host and Origin
 * headers too, so the DNS rebinding checks reach the server's own Host/Origin guard behind the token check.
 *
 * The suite runs offline in this mode: it talks only to the URL it is given (its GitHub client serves only the
 * tier-check command, which is not used here).
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { ensureConformance } from '../../launcher/install';
import { removeTree } from '../helpers';
import { buildOnce, SERVER, tempLayout } from './serve';
import { type HttpServed, serveHttp } from '../../shared/mcpHttp';

type Revision = '2025-11-25' | '2026-07-28';

interface Check {
  readonly id: string;
  readonly status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  readonly errorMessage?: string;
}

interface Scenario {
  readonly name: string;
  readonly revision: Revision;
  /** Checks that must be there and pass. */
  readonly passes: readonly string[];
  /** Checks that cannot pass here, with why; any other check may warn but must not fail. */
  readonly excused?: Readonly<Record<string, string>>;
}

const NEEDS_FIXTURE = (tool: string): string => `needs the suite's diagnostic tool ${tool}, which a real server does not have`;

/** What of the suite applies to this server, by revision. */
const SCENARIOS: readonly Scenario[] = [
  {
    name: 'server-initialize',
    revision: '2025-11-25',
    passes: ['server-initialize', 'server-session-id-visible-ascii', 'wire-schema-valid'],
  },
  {
    name: 'server-session-lifecycle',
    revision: '2025-11-25',
    passes: ['server-session-initialized-accepted', 'server-session-delete-accepted', 'server-session-terminated-returns-404'],
  },
  {
    name: 'server-sse-multiple-streams',
    revision: '2025-11-25',
    passes: ['server-accepts-multiple-post-streams', 'server-sse-streams-functional'],
  },
  { name: 'ping', revision: '2025-11-25', passes: ['ping', 'wire-schema-valid'] },
  { name: 'tools-list', revision: '2025-11-25', passes: ['tools-list', 'tools-name-format', 'wire-schema-valid'] },
  {
    name: 'dns-rebinding-protection',
    revision: '2025-11-25',
    passes: ['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted'],
  },
  {
    name: 'server-stateless',
    revision: '2026-07-28',
    passes: [
      'sep-2575-request-meta-invalid-missing-meta',
      'sep-2575-request-meta-invalid-missing-protocol-version',
      'sep-2575-request-meta-invalid-missing-client-capabilities',
      'sep-2575-http-server-meta-invalid-400',
      'sep-2575-request-meta-client-info-optional',
      'sep-2575-server-implements-discover',
      'sep-2575-server-identifies-in-result-meta',
      'sep-2575-discover-capabilities-match-handlers',
      'sep-2575-server-unsupported-version-error',
      'sep-2575-http-server-unsupported-version-400',
      'sep-2575-http-server-header-mismatch-400',
      'sep-2575-http-server-method-not-found-404-initialize',
      'sep-2575-http-server-method-not-found-404-ping',
      'sep-2575-http-server-method-not-found-404',
      'sep-2575-server-sends-subscription-ack',
      'sep-2575-server-tags-subscription-id',
      'sep-2575-server-honors-notification-filter',
      'sep-2575-http-server-error-jsonrpc-id',
    ],
    excused: {
      'sep-2575-server-rejects-undeclared-capability': NEEDS_FIXTURE('test_missing_capability'),
      'sep-2575-missing-capability-http-400': NEEDS_FIXTURE('test_missing_capability'),
      'sep-2575-http-server-no-independent-requests-on-stream': NEEDS_FIXTURE('test_streaming_elicitation'),
      'sep-2575-server-no-log-without-loglevel': NEEDS_FIXTURE('test_logging_tool'),
    },
  },
  {
    name: 'tools-list',
    revision: '2026-07-28',
    passes: ['tools-list', 'tools-name-format', 'tools-list-deterministic-order', 'wire-schema-valid'],
  },
  { name: 'server-sse-multiple-streams', revision: '2026-07-28', passes: ['server-accepts-multiple-post-streams'] },
  {
    name: 'caching',
    revision: '2026-07-28',
    passes: ['sep-2549-tools-list-caching-hints', 'sep-2549-ttl-non-negative', 'sep-2549-cache-scope-valid', 'wire-schema-valid'],
    excused: {
      // The server declares neither capability, so "method not found" is the right answer to these.
      'sep-2549-prompts-list-caching-hints': 'lists prompts, and the server has none',
      'sep-2549-resources-list-caching-hints': 'lists resources, and the server has none',
      'sep-2549-resources-templates-list-caching-hints': 'lists resource templates, and the server has none',
    },
  },
  {
    name: 'http-header-validation',
    revision: '2026-07-28',
    passes: [
      'sep-2243-server-reject-invalid-headers',
      'sep-2243-server-reject-error-code',
      'sep-2243-server-accepts-whitespace-header-value',
      'sep-2243-header-name-case-insensitive',
      'wire-schema-valid',
    ],
  },
  { name: 'input-required-result-unsupported-methods', revision: '2026-07-28', passes: ['sep-2322-not-on-unsupported-requests'] },
  {
    name: 'dns-rebinding-protection',
    revision: '2026-07-28',
    passes: ['localhost-host-rebinding-rejected', 'localhost-host-valid-accepted'],
  },
];

const FIXTURE_TOOL = "calls a tool of the suite's reference server (test_* and the like), which this server does not have";

/** The suite's other server scenarios, and why none applies here. */
const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'logging-set-level': 'the server declares no logging capability',
  'completion-complete': 'the server declares no completions',
  'tools-call-simple-text': FIXTURE_TOOL,
  'tools-call-image': FIXTURE_TOOL,
  'tools-call-audio': FIXTURE_TOOL,
  'tools-call-embedded-resource': FIXTURE_TOOL,
  'tools-call-mixed-content': FIXTURE_TOOL,
  'tools-call-with-logging': FIXTURE_TOOL,
  'tools-call-error': FIXTURE_TOOL,
  'tools-call-with-progress': FIXTURE_TOOL,
  'tools-call-sampling': FIXTURE_TOOL,
  'tools-call-elicitation': FIXTURE_TOOL,
  'json-schema-2020-12': FIXTURE_TOOL,
  'elicitation-sep1034-defaults': FIXTURE_TOOL,
  'elicitation-sep1330-enums': FIXTURE_TOOL,
  'server-sse-polling': FIXTURE_TOOL,
  'http-custom-header-server-validation': 'needs tools whose parameters are mapped to x-mcp-header headers; none is',
  'resources-list': 'the server has no resources',
  'resources-read-text': 'the server has no resources',
  'resources-read-binary': 'the server has no resources',
  'resources-templates-read': 'the server has no resources',
  'resources-subscribe': 'the server has no resources',
  'resources-unsubscribe': 'the server has no resources',
  'sep-2164-resource-not-found': 'the server has no resources',
  'sep-2640-skills-directory': 'the skills extension, which the server does not declare',
  'sep-2640-skills-enumeration': 'the skills extension, which the server does not declare',
  'sep-2640-skills-manifest': 'the skills extension, which the server does not declare',
  'prompts-list': 'the server has no prompts',
  'prompts-get-simple': 'the server has no prompts',
  'prompts-get-with-args': 'the server has no prompts',
  'prompts-get-embedded-resource': 'the server has no prompts',
  'prompts-get-with-image': 'the server has no prompts',
  'tasks-lifecycle': 'the tasks extension, which the server does not declare',
  'tasks-capability-negotiation': 'the tasks extension, which the server does not declare',
  'tasks-wire-fields': 'the tasks extension, which the server does not declare',
  'tasks-request-state-removal': 'the tasks extension, which the server does not declare',
  'tasks-mrtr-input': 'the tasks extension, which the server does not declare',
  'tasks-request-headers': 'the tasks extension, which the server does not declare',
  'tasks-dispatch-and-envelope': 'the tasks extension, which the server does not declare',
  'tasks-status-notifications': 'the tasks extension, which the server does not declare',
  'tasks-required-task-error': 'the tasks extension, which the server does not declare',
  'tasks-mrtr-composition': 'the tasks extension, which the server does not declare',
  'input-required-result-basic-elicitation': FIXTURE_TOOL,
  'input-required-result-basic-sampling': FIXTURE_TOOL,
  'input-required-result-basic-list-roots': FIXTURE_TOOL,
  'input-required-result-request-state': FIXTURE_TOOL,
  'input-required-result-multiple-input-requests': FIXTURE_TOOL,
  'input-required-result-multi-round': FIXTURE_TOOL,
  'input-required-result-missing-input-response': FIXTURE_TOOL,
  'input-required-result-non-tool-request': 'gets a prompt of the reference server; the server has no prompts',
  'input-required-result-result-type': FIXTURE_TOOL,
  'input-required-result-tampered-state': FIXTURE_TOOL,
  'input-required-result-capability-check': FIXTURE_TOOL,
  // Passes against any server without the fixture tool (its calls fail), so it would show nothing.
  'input-required-result-ignore-extra-params': FIXTURE_TOOL,
  'input-required-result-validate-input': FIXTURE_TOOL,
};

const TOKEN = 'conformance-token-0123456789abcdef';

interface Relay {
  readonly url: string;
  /** Requests relayed so far. */
  readonly relayed: () => number;
  close(): Promise<void>;
}

/** Relays every request to the server's port with the bearer token added, the response back as it streams. */
async function startRelay(port: number, token: string): Promise<Relay> {
  let relayed = 0;
  const sockets = new Set<import('node:net').Socket>();
  const relay = http.createServer((request, response) => {
    relayed++;
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  });
  relay.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port: own } = relay.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${own}/mcp`,
    relayed: () => relayed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}

describe('MCP server over HTTP: the MCP conformance suite', function () {
  let suite = { node: '', script: '' };
  let tmp = '';
  let server: HttpServed | undefined;
  let relay: Relay | undefined;

  before(async function () {
    this.timeout(600000);
    buildOnce();
    suite = ensureConformance();
    const layout = tempLayout('agentfs-mcp-conformance-');
    tmp = layout.tmp;
    fs.writeFileSync(path.join(layout.base, 'notes.md'), '# notes\n');
    const tokenFile = path.join(tmp, 'token');
    fs.writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    server = await serveHttp(SERVER, ['--http', '127.0.0.1:0', '--token-file', tokenFile, '--root', layout.base, '--state', layout.state]);
    relay = await startRelay(server.port, TOKEN);
  });
  after(async function () {
    await relay?.close();
    await server?.stop();
    removeTree(tmp);
  });

  /** Runs the suite's command line; its own event loop must stay free, since the relay runs in this process. */
  function conformance(args: readonly string[]): Promise<{ status: number | null; output: string }> {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    env.NO_PROXY = env.no_proxy = '127.0.0.1,localhost';
    const child = spawn(suite.node, [suite.script, ...args], { cwd: tmp, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill(), 90_000);
    return new Promise((resolve) =>
      child.once('close', (status) => {
        clearTimeout(timer);
        resolve({ status, output });
      }),
    );
  }

  let runs = 0;

  /** Runs one scenario at one revision against `url`; returns its checks as the suite saved them. */
  async function runScenario(
    name: string,
    revision: Revision,
    url: string,
  ): Promise<{ checks: Check[]; status: number | null; output: string }> {
    const out = path.join(tmp, 'results', String(runs++));
    const { status, output } = await conformance(['server', '--url', url, '--scenario', name, '--spec-version', revision, '-o', out]);
    const [dir, ...more] = fs.existsSync(out) ? fs.readdirSync(out) : [];
    assert.ok(dir !== undefined && more.length === 0, `one result folder for ${name}:\n${output}`);
    const checks = JSON.parse(fs.readFileSync(path.join(out, dir, 'checks.json'), 'utf8')) as Check[];
    return { checks, status, output };
  }

  it('names every server scenario of the pinned suite: run here, or not applicable with a reason', async function () {
    const { status, output } = await conformance(['list', '--server']);
    assert.equal(status, 0, output);
    const listed = [...output.matchAll(/^\s+- (\S+) \[/gm)].map((match) => match[1] ?? '');
    assert.ok(listed.length > 40, `the suite's list:\n${output}`);
    const ran = new Set(SCENARIOS.map((scenario) => scenario.name));
    for (const name of ran) assert.ok(!(name in NOT_APPLICABLE), `${name} is both run and not applicable`);
    assert.deepEqual(
      listed.filter((name) => !ran.has(name) && !(name in NOT_APPLICABLE)),
      [],
      'scenarios this test neither runs nor names as not applicable',
    );
    assert.deepEqual(
      [...ran, ...Object.keys(NOT_APPLICABLE)].filter((name) => !listed.includes(name)),
      [],
      'scenarios this test names that the suite does not have',
    );
  });

  it('gets nothing from the server without the token: the suite alone is refused with 401', async function () {
    assert.ok(server);
    const { checks } = await runScenario('tools-list', '2026-07-28', server.url);
    const listed = checks.find((check) => check.id === 'tools-list');
    assert.equal(listed?.status, 'FAILURE', JSON.stringify(checks, null, 2));
    assert.match(listed.errorMessage ?? '', /Unauthorized|HTTP 401/);
  });

  for (const scenario of SCENARIOS) {
    it(`${scenario.name} at ${scenario.revision}`, async function () {
      assert.ok(relay);
      const before = relay.relayed();
      const { checks, status, output } = await runScenario(scenario.name, scenario.revision, relay.url);
      const report = `${checks.map((check) => `${check.status} ${check.id} ${check.errorMessage ?? ''}`).join('\n')}\n\n${output}`;
      assert.ok(relay.relayed() > before, `the suite's requests went through the relay:\n${report}`);
      for (const id of scenario.passes) {
        const found = checks.filter((check) => check.id === id);
        assert.ok(found.length > 0, `no check ${id}:\n${report}`);
        for (const check of found) assert.equal(check.status, 'SUCCESS', `${id}: ${check.errorMessage ?? ''}\n${report}`);
      }
      const failed = checks.filter((check) => check.status === 'FAILURE' && !(check.id in (scenario.excused ?? {})));
      assert.deepEqual(
        failed.map((check) => `${check.id}: ${check.errorMessage ?? ''}`),
        [],
        report,
      );
      // The suite exits 1 for any failed check, the excused ones too.
      assert.equal(status, checks.some((check) => check.status === 'FAILURE') ? 1 : 0, report);
    });
  }
});
