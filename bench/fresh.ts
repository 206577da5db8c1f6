/**
 * A fresh MCP server's first moments, as agents meet them (a server per session): `tools/list` answered after spawn,
 * and the first find_file and the first search_files of a server started again on the state folder of one that ran
 * before (history on, its saved path index there), after files were added while none ran — called at once after the
 * tool list, and THINK_MS after it, as a client whose model takes its first turn; and, in a warm server, find_file
 * with a new query each call. Against fd in the same run (the same walks: bench/index.ts's commands).
 * Each first call is its own server: REPS fresh servers per figure, medians reported.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Bench, Spec } from './harness';
import { McpServer, OFFICIAL_SERVER } from './mcpClient';
import { median } from './report';

const REPO = path.join(__dirname, '..', '..');

/** A model's first turn between the tool list and the first call, shorter than any real one (seconds). */
const THINK_MS = 1000;

/** Names an agent looks for, each asked once per cycle: more than a listing's memo keeps (a new query each call). */
const QUERIES = [
  'user controler',
  'report final',
  'index helper',
  'config loader',
  'auth service',
  'readme',
  'session store',
  'payment gateway',
  'router test',
  'logger util',
  'cache manager',
  'schema validator',
  'order model',
  'notification worker',
  'image resize',
  'api client',
];

function dataOf(text: string): Record<string, unknown> {
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

/**
 * When the answer to the next tools/list reaches the client: read off the SDK client's transport as the message
 * arrives, before the client validates it (the SDK's client compiles a validator for every output schema then).
 */
function answerArrival(server: McpServer): () => number | undefined {
  let arrived: number | undefined;
  const deliver = server.transport.onmessage;
  server.transport.onmessage = (message) => {
    if (arrived === undefined && 'result' in message && Array.isArray((message.result as { tools?: unknown }).tools))
      arrived = performance.now();
    deliver?.(message);
  };
  return () => arrived;
}

async function readyIndex(server: McpServer): Promise<void> {
  for (;;) {
    const info = dataOf(await server.call('workspace_info', {})).path_index as Record<string, unknown> | null;
    if (info?.state === 'ready' || info?.state === 'off' || info === null) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function run(bench: Bench): Promise<void> {
  if (!bench.wants('fresh')) return;
  const { tree } = bench.generated;
  const reps = Math.max(3, bench.options.reps);
  const state = path.join(bench.options.dir, 'state', `fresh-${Math.random().toString(36).slice(2, 8)}`);
  const added = path.join(tree, 'zz-fresh-added');
  fs.rmSync(added, { recursive: true, force: true });
  const args = [path.join(REPO, 'dist', 'mcp.js'), '--root', tree, '--state', state];
  let step = 0;
  /** Files added (and one folder) while no server runs. */
  const addWhileStopped = (): void => {
    step++;
    fs.mkdirSync(path.join(added, `batch-${step}`), { recursive: true });
    for (let index = 0; index < 3; index++) fs.writeFileSync(path.join(added, `batch-${step}`, `added-${index}.md`), `# ${step}\n`);
  };

  // One server runs first, builds its index and saves it when it stops.
  const first = await McpServer.spawn(args);
  await first.call('find_file', { file_name: 'user controler', max_results: 20 });
  await readyIndex(first);
  await first.close();

  /** Spawn to the tools/list answer reaching the client, and to the client's listTools resolving (it compiles validators). */
  const listMs: number[] = [];
  const listedMs: number[] = [];
  const findMs: number[] = [];
  const searchMs: number[] = [];
  const thoughtFindMs: number[] = [];
  const thoughtSearchMs: number[] = [];
  const firstCall = async (operation: string, input: Record<string, unknown>, into: number[], thinkMs = 0): Promise<void> => {
    addWhileStopped();
    const spawned = performance.now();
    const server = await McpServer.spawn(args);
    const arrived = answerArrival(server);
    await server.client.listTools();
    listMs.push((arrived() ?? Number.NaN) - spawned);
    listedMs.push(performance.now() - spawned);
    if (thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, thinkMs));
    const started = performance.now();
    await server.call(operation, input);
    into.push(performance.now() - started);
    // Let it take in what it found before it stops and saves, as a session would.
    await readyIndex(server);
    await server.close();
  };
  for (let rep = 0; rep < reps; rep++) {
    const find = { file_name: QUERIES[rep % QUERIES.length] ?? 'readme', max_results: 20 };
    const search = { pattern: '**/*.md', max_results: 200 };
    await firstCall('find_file', find, findMs);
    await firstCall('search_files', search, searchMs);
    await firstCall('find_file', find, thoughtFindMs, THINK_MS);
    await firstCall('search_files', search, thoughtSearchMs, THINK_MS);
  }
  const listing = (values: readonly number[]): string => values.map((ms) => ms.toFixed(0)).join(', ');
  process.stderr.write(
    `  fresh servers: tools/list answered ${listing(listMs)} ms after spawn (listTools resolved ${listing(listedMs)} ms); ` +
      `first find_file ${listing(findMs)} ms, ${THINK_MS} ms later ${listing(thoughtFindMs)} ms; ` +
      `first search_files ${listing(searchMs)} ms, ${THINK_MS} ms later ${listing(thoughtSearchMs)} ms\n`,
  );

  // Spawn to tools/list against what the platform allows: the official filesystem server the same way (its client
  // and transport alike), and Node starting and doing nothing (node -e '').
  const spawnToList = (serverArgs: readonly string[]) => async (): Promise<string> => {
    const server = await McpServer.spawn(serverArgs);
    const { tools } = await server.client.listTools();
    await server.close();
    return `${tools.length} tools`;
  };
  const startup = 'spawn to tools/list (server started, initialized, tools listed)';
  await bench.measure(startup, [
    { tool: 'agentfs-mcp (saved index)', reference: false, run: spawnToList(args) },
    { tool: 'official filesystem server', reference: true, run: spawnToList([OFFICIAL_SERVER, tree]) },
    bench.command("node -e '' (Node alone, no server)", process.execPath, ['-e', '']),
  ]);

  // One runner call, as a script or an agent's shell makes it (a process per call, history on), against Node starting
  // and doing nothing: with the compile cache the user's cache folder keeps, and with none (a fresh HOME, as in CI).
  const runnerCall = 'one runner call: agent-fs path_exists, history on (process start to exit)';
  const runnerArgs = [path.join(REPO, 'dist', 'cli.js'), '--root', tree, '--state', state, 'path_exists', '{"path":"package.json"}'];
  const freshHomes = fs.mkdtempSync(path.join(bench.options.dir, 'fresh-homes-'));
  try {
    await bench.measure(runnerCall, [
      bench.oursCommand('agent-fs path_exists (compile cache warm)', process.execPath, runnerArgs, () => process.env),
      // A new home each run: the cache is neither there to read nor left by the run before (it writes one at exit).
      bench.oursCommand('agent-fs path_exists (no compile cache)', process.execPath, runnerArgs, () => {
        const home = fs.mkdtempSync(path.join(freshHomes, 'home-'));
        return { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') };
      }),
      bench.command("node -e '' (Node alone)", process.execPath, ['-e', '']),
    ]);
  } finally {
    fs.rmSync(freshHomes, { recursive: true, force: true });
  }
  const overNode = (workload: string, tool: string) => (): number | undefined => {
    const ours = bench.medianMs(workload, tool);
    const node = bench.medianMs(workload, "node -e ''");
    return ours === undefined || node === undefined ? undefined : ours - node;
  };
  bench.figureTarget(
    'one runner call, compile cache warm: at most 80 ms over Node starting',
    overNode(runnerCall, 'agent-fs path_exists (compile cache warm)'),
    80,
    'ms',
  );
  bench.figureTarget(
    'one runner call, no compile cache (a fresh home, as in CI): informative, under 400 ms over Node starting',
    overNode(runnerCall, 'agent-fs path_exists (no compile cache)'),
    400,
    'ms',
  );

  // find_file with a new query each call, in a warm server, and fd asked the same each time.
  const warm = await McpServer.spawn(args);
  try {
    await warm.call('find_file', { file_name: 'warm up', max_results: 20 });
    await readyIndex(warm);
    let ours = 0;
    let theirs = 0;
    const workload = 'MCP, a new query each call: fuzzy find_file';
    const fdQuery = (query: string): string => query.split(' ').join('.*');
    const specs: Spec[] = [
      {
        tool: 'agentfs-mcp find_file, indexed, new query',
        reference: false,
        run: async () => {
          const query = QUERIES[ours++ % QUERIES.length] ?? '';
          return `${String(dataOf(await warm.call('find_file', { file_name: query, max_results: 20 })).count)} shown`;
        },
      },
    ];
    if (bench.hasFd) {
      const commands = QUERIES.map((query) => bench.command(`fdfind -H '${fdQuery(query)}'`, 'fdfind', ['-H', fdQuery(query), tree]));
      specs.push({
        tool: 'fdfind -H (the query as a regex)',
        reference: true,
        run: () => commands[theirs++ % commands.length]?.run() ?? '',
      });
    }
    // Each row's queries are new to it for the first QUERIES.length runs; more repetitions cycle (a memo keeps 4).
    await bench.measure(workload, specs);
    bench.target('find_file with a new query each call, indexed ≤ 0.1× fd', workload, 'agentfs-mcp find_file, indexed', 'fdfind', 0.1);
    // The walks the first calls stand for, by fd: its fuzzy-name search and its glob (bench/index.ts's).
    const references = 'fd, the walks of the first calls above';
    if (bench.hasFd) {
      await bench.measure(references, [
        bench.command("fdfind -H 'user.*contr'", 'fdfind', ['-H', 'user.*contr', tree]),
        bench.command('fdfind -H -g *.md', 'fdfind', ['-H', '-g', '*.md', tree]),
      ]);
    }
    const ratio = (values: number[], fdTool: string) => (): number | undefined => {
      const reference = bench.medianMs(references, fdTool);
      return reference === undefined || values.length === 0 ? undefined : median(values) / reference;
    };
    bench.figureTarget(
      "tools/list answered after spawn: at most 50 ms over Node starting (node -e '')",
      () => {
        const node = bench.medianMs(startup, "node -e ''");
        return node === undefined || listMs.length === 0 ? undefined : median(listMs) - node;
      },
      50,
      'ms',
    );
    bench.target('spawn to tools/list: ahead of the official server', startup, 'agentfs-mcp', 'official', 1);
    bench.figureTarget(
      'first find_file of a fresh server, called at once after tools/list, saved index, files added meanwhile ≤ 1.0× fd',
      ratio(findMs, "fdfind -H 'user"),
      1,
      '×',
    );
    bench.figureTarget(
      'first search_files of a fresh server, called at once after tools/list, saved index, files added meanwhile ≤ 1.0× fd',
      ratio(searchMs, 'fdfind -H -g'),
      1,
      '×',
    );
    bench.figureTarget(
      `the same first find_file, ${THINK_MS} ms after tools/list (a model's first turn) ≤ 0.3× fd`,
      ratio(thoughtFindMs, "fdfind -H 'user"),
      0.3,
      '×',
    );
    bench.figureTarget(
      `the same first search_files, ${THINK_MS} ms after tools/list ≤ 0.3× fd`,
      ratio(thoughtSearchMs, 'fdfind -H -g'),
      0.3,
      '×',
    );
  } finally {
    await warm.close();
    fs.rmSync(added, { recursive: true, force: true });
  }
}
