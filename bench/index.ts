/**
 * The MCP server's path index (src/node/indexes/pathIndex.ts) on the whole tree: the second and later calls of find_file,
 * search_files and list_files, each after a few changes to the tree (a file created, one renamed, one deleted), from
 * a server that keeps the index and from one started with --no-index (every call walks, as the first call does),
 * against fd doing the same walk in the same run; the first call of a fresh server; and the index's build time and
 * memory per 100,000 paths, measured in a fresh process (indexProbe.ts).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Bench, buildAsShipped, type Spec } from './harness';
import { McpServer } from './mcpClient';
import { median } from './report';

const REPO = path.join(__dirname, '..', '..');
const PROBES = 3;

interface Probe {
  readonly buildMs: number;
  readonly paths: number;
  readonly directories: number;
  readonly heapBytes: number;
  readonly rssBytes: number;
  readonly estimatedBytes: number;
}

function dataOf(text: string): Record<string, unknown> {
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

async function readyIndex(server: McpServer): Promise<Record<string, unknown>> {
  for (;;) {
    const info = dataOf(await server.call('workspace_info', {})).path_index as Record<string, unknown> | null;
    if (info === null) throw new Error('the server keeps no path index');
    if (info.state === 'ready') return info;
    if (info.state === 'off') throw new Error(`the path index is off: ${String(info.reason)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function run(bench: Bench): Promise<void> {
  if (!bench.wants('index')) return;
  const { tree } = bench.generated;
  // The server measured is the current source.
  buildAsShipped();

  // The build and the memory first, each in a fresh process, before any server holds watches on the tree.
  const probes: Probe[] = [];
  for (let index = 0; index < PROBES; index++) {
    const result = spawnSync(process.execPath, [path.join(__dirname, 'indexProbe.js'), tree], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`indexProbe failed: ${result.stderr}`);
    probes.push(JSON.parse(result.stdout) as Probe);
  }
  const perHundredThousand = (bytes: number, paths: number): number => ((bytes / paths) * 100_000) / 2 ** 20;
  const paths = probes[0]?.paths ?? 0;
  bench.figureTarget(
    `path index build of ${paths} paths, alone (median of ${PROBES} fresh processes) ≤ 10 s`,
    () => median(probes.map((probe) => probe.buildMs)),
    10_000,
    'ms',
  );
  bench.figureTarget(
    'path index heap per 100,000 paths < 100 MiB',
    () => median(probes.map((probe) => perHundredThousand(probe.heapBytes, probe.paths))),
    100,
    'MiB',
  );
  bench.figureTarget(
    'path index resident memory per 100,000 paths (watches included) < 100 MiB',
    () => median(probes.map((probe) => perHundredThousand(probe.rssBytes, probe.paths))),
    100,
    'MiB',
  );
  bench.figureTarget(
    'path index: workspace_info estimate per 100,000 paths (informative, limit as above)',
    () => median(probes.map((probe) => perHundredThousand(probe.estimatedBytes, probe.paths))),
    100,
    'MiB',
  );

  // Changes below one folder of the tree, made before every call of every row (fd's too): what an agent's edits and
  // the person's between two calls look like.
  const churn = path.join(tree, 'zz-index-churn');
  fs.rmSync(churn, { recursive: true, force: true });
  fs.mkdirSync(churn);
  let step = 0;
  const change = (): void => {
    step++;
    fs.writeFileSync(path.join(churn, `note-${step}.md`), `# ${step}\n`);
    if (step > 1) fs.renameSync(path.join(churn, `note-${step - 1}.md`), path.join(churn, `renamed-${step - 1}.md`));
    if (step > 2) fs.rmSync(path.join(churn, `renamed-${step - 2}.md`));
  };

  const server = (...flags: string[]): Promise<McpServer> =>
    McpServer.spawn([path.join(REPO, 'dist', 'mcp.js'), '--root', tree, '--no-history', ...flags]);
  const first = await server();
  const indexed = await server();
  const walking = await server('--no-index');
  try {
    // The first call of a fresh server walks (its index is built after it).
    let firstMs = performance.now();
    await first.call('find_file', { file_name: 'user controler', max_results: 20 });
    firstMs = performance.now() - firstMs;
    await first.close();
    await indexed.call('find_file', { file_name: 'user controler', max_results: 20 });
    const started = performance.now();
    const info = await readyIndex(indexed);
    const readyMs = performance.now() - started;
    process.stderr.write(`  path index ready ${readyMs.toFixed(0)} ms after the first call: ${JSON.stringify(info)}\n`);

    const fd = (tool: string, args: readonly string[]): Spec[] => {
      if (!bench.hasFd) return [];
      const command = bench.command(tool, 'fdfind', [...args, tree]);
      return [{ ...command, run: () => (change(), command.run()) }];
    };
    const call =
      (mcp: McpServer, operation: string, input: Record<string, unknown>, describe: (data: Record<string, unknown>) => string) =>
      async (): Promise<string> => {
        change();
        return describe(dataOf(await mcp.call(operation, input)));
      };
    const workloads: [string, string, Record<string, unknown>, (data: Record<string, unknown>) => string, string, string[]][] = [
      [
        'MCP, repeated after changes: fuzzy find_file',
        'find_file',
        { file_name: 'user controler', max_results: 20 },
        (data) => `${String(data.count)} shown, ${String(data.match_type)}`,
        "fdfind -H 'user.*contr'",
        ['-H', 'user.*contr'],
      ],
      [
        'MCP, repeated after changes: glob **/*.md',
        'search_files',
        { pattern: '**/*.md', max_results: 200 },
        (data) => `${String(data.total)} paths`,
        'fdfind -H -g *.md',
        ['-H', '-g', '*.md'],
      ],
      [
        'MCP, repeated after changes: recursive list_files (returns 1,000)',
        'list_files',
        { recursive: true, max_results: 1000 },
        (data) => `${String(data.total)} files, ${String(data.ignored_count)} ignored`,
        'fdfind -H -t f .',
        ['-H', '-t', 'f', '.'],
      ],
    ];
    for (const [workload, operation, input, describe, fdTool, fdArgs] of workloads) {
      await bench.measure(workload, [
        { tool: `agentfs-mcp ${operation}, indexed`, reference: false, run: call(indexed, operation, input, describe) },
        { tool: `agentfs-mcp ${operation}, --no-index`, reference: false, run: call(walking, operation, input, describe) },
        ...fd(fdTool, fdArgs),
      ]);
      bench.target(`repeated ${operation} over MCP, indexed ≤ 0.1× fd`, workload, `agentfs-mcp ${operation}, indexed`, 'fdfind', 0.1);
      bench.target(
        `${operation} over MCP walking (as a first call) ≤ 1.5× fd`,
        workload,
        `agentfs-mcp ${operation}, --no-index`,
        'fdfind',
        1.5,
      );
    }
    const fuzzyFd = (): number | undefined => bench.medianMs(workloads[0]?.[0] ?? '', 'fdfind');
    bench.figureTarget(
      'first find_file of a fresh indexed server (one call) ≤ 1.5× fd',
      () => {
        const reference = fuzzyFd();
        return reference === undefined ? undefined : firstMs / reference;
      },
      1.5,
      '×',
    );
    const after = await readyIndex(indexed);
    process.stderr.write(`  path index after the runs: ${JSON.stringify(after)}\n`);
  } finally {
    await Promise.all([indexed.close(), walking.close()]);
    fs.rmSync(churn, { recursive: true, force: true });
  }
}
