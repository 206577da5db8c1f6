/**
 * Content search: a literal and a regular expression planted in 50 files, ripgrep's fast path and the pure scan; and
 * (`--only content-index`) the same searches repeated after a few changes, over the MCP server with its content index
 * and without it, against rg in the same run, with the content index's build time and memory (contentIndexProbe.ts).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GENERATOR, TOKEN, TOKEN_REGEX } from './generate';
import { type Bench, buildAsShipped, type Spec } from './harness';
import { McpServer } from './mcpClient';
import { median } from './report';

const REPO = path.join(__dirname, '..', '..');
const PROBES = 3;

interface Probe {
  readonly buildMs: number;
  readonly files: number;
  readonly textBytes: number;
  readonly heapBytes: number;
  readonly estimatedBytes: number;
}

function dataOf(text: string): Record<string, unknown> {
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

/** The content index's build time and memory, each in a fresh process, as targets. */
function probes(bench: Bench): void {
  const found: Probe[] = [];
  for (let index = 0; index < PROBES; index++) {
    const result = spawnSync(process.execPath, [path.join(__dirname, 'contentIndexProbe.js'), bench.generated.tree], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`contentIndexProbe failed: ${result.stderr}`);
    found.push(JSON.parse(result.stdout) as Probe);
  }
  const perHundredThousand = (bytes: number, files: number): number => ((bytes / files) * 100_000) / 2 ** 20;
  const first = found[0];
  process.stderr.write(`  content index probes: ${JSON.stringify(found)}\n`);
  const text = first ? perHundredThousand(first.textBytes, first.files) : 0;
  bench.figureTarget(
    `content index build of ${first?.files ?? 0} files, alone, after the path index (median of ${PROBES}) ≤ 60 s`,
    () => median(found.map((probe) => probe.buildMs)),
    60_000,
    'ms',
  );
  bench.figureTarget(
    `content index memory per 100,000 files ≤ the text it indexes (${text.toFixed(0)} MiB)`,
    () => median(found.map((probe) => perHundredThousand(probe.heapBytes, probe.files))),
    text,
    'MiB',
  );
  bench.figureTarget(
    'content index: workspace_info estimate per 100,000 files (informative, limit as above)',
    () => median(found.map((probe) => perHundredThousand(probe.estimatedBytes, probe.files))),
    text,
    'MiB',
  );
}

async function readyContentIndex(server: McpServer): Promise<Record<string, unknown>> {
  for (;;) {
    const info = dataOf(await server.call('workspace_info', {})).content_index as Record<string, unknown> | null;
    if (info === null) throw new Error('the server keeps no content index');
    if (info.state === 'ready') return info;
    if (info.state === 'off') throw new Error(`the content index is off: ${String(info.reason)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Repeated searches after a few changes: the server with its content index, without it, and rg, in one run. */
async function repeated(bench: Bench): Promise<void> {
  const { tree, dir } = bench.generated;
  // The server measured is the current source.
  buildAsShipped();
  probes(bench);
  // A few changes below one folder before every call of every row, rg's included: a file created with the token in
  // it, one renamed, one deleted, and one edited in place.
  const churn = path.join(tree, 'zz-content-churn');
  fs.rmSync(churn, { recursive: true, force: true });
  fs.mkdirSync(churn);
  let step = 0;
  const change = (): void => {
    step++;
    fs.writeFileSync(path.join(churn, `note-${step}.md`), `# ${step}\nconst marker = "${TOKEN}-churn-${step}";\n`);
    if (step > 1) fs.renameSync(path.join(churn, `note-${step - 1}.md`), path.join(churn, `renamed-${step - 1}.md`));
    if (step > 2) fs.rmSync(path.join(churn, `renamed-${step - 2}.md`));
    fs.appendFileSync(path.join(churn, 'edited.md'), `line ${step}\n`);
  };
  const state = path.join(dir, 'state', `content-${Math.random().toString(36).slice(2, 8)}`);
  const server = (...flags: string[]): Promise<McpServer> =>
    McpServer.spawn([path.join(REPO, 'dist', 'mcp.js'), '--root', tree, '--state', state, ...flags]);
  const indexed = await server();
  const plain = await server('--no-content-index');
  try {
    // The first call walks and starts the path index; the content index is read after it.
    const started = performance.now();
    for (const mcp of [indexed, plain]) await mcp.call('search_content', { query: TOKEN, case_sensitive: true });
    const info = await readyContentIndex(indexed);
    process.stderr.write(
      `  content index ready ${(performance.now() - started).toFixed(0)} ms after the first call: ${JSON.stringify(info)}\n`,
    );
    for (const [key, query, isRegex] of [
      ['literal', TOKEN, false],
      ['regex', TOKEN_REGEX, true],
    ] as const) {
      const workload = `MCP, repeated after changes: content ${key}`;
      const input = { query, is_regex: isRegex, case_sensitive: true, max_results: 200 };
      const call = (mcp: McpServer) => async (): Promise<string> => {
        change();
        const data = dataOf(await mcp.call('search_content', input));
        return `${String(data.count)} matches (${String(data.engine)})`;
      };
      const rg: Spec[] = bench.rg
        ? [
            (() => {
              const command = bench.command(`rg --hidden${isRegex ? '' : ' -F'}`, bench.rg, [
                '--hidden',
                ...(isRegex ? [] : ['-F']),
                query,
                tree,
              ]);
              return { ...command, run: () => (change(), command.run()) };
            })(),
          ]
        : [];
      await bench.measure(workload, [
        { tool: 'agentfs-mcp search_content, content index', reference: false, run: call(indexed) },
        { tool: 'agentfs-mcp search_content, --no-content-index', reference: false, run: call(plain) },
        ...rg,
      ]);
      bench.target(
        `repeated ${key} search_content over MCP, content index ≤ ${isRegex ? 0.2 : 0.1}× rg`,
        workload,
        'agentfs-mcp search_content, content index',
        'rg',
        isRegex ? 0.2 : 0.1,
      );
    }
    process.stderr.write(`  content index after the runs: ${JSON.stringify(await readyContentIndex(indexed))}\n`);
  } finally {
    await Promise.all([indexed.close(), plain.close()]);
    fs.rmSync(churn, { recursive: true, force: true });
  }
}

export async function run(bench: Bench): Promise<void> {
  const { tree } = bench.generated;
  for (const [key, query, isRegex] of [
    ['literal', TOKEN, false],
    ['regex', TOKEN_REGEX, true],
  ] as const) {
    if (!bench.wants(key)) continue;
    const workload = `content ${key} (${GENERATOR.tokenFiles} files)`;
    const input = { query, is_regex: isRegex, case_sensitive: true, max_results: 200 };
    const describe = (data: Record<string, unknown>): string => `${String(data.count)} matches (${String(data.engine)})`;
    if (!bench.rg) bench.skip(workload, 'rg', 'not installed (apt-get install ripgrep)');
    await bench.measure(workload, [
      ...(bench.rg ? [bench.ours('agentfs search_content (ripgrep)', 'search_content', input, describe)] : []),
      bench.ours('agentfs search_content (scan)', 'search_content', input, describe, bench.scanSession),
      ...(bench.rg
        ? [bench.command(`rg --hidden${isRegex ? '' : ' -F'}`, bench.rg, ['--hidden', ...(isRegex ? [] : ['-F']), query, tree])]
        : []),
      bench.command(`grep -r${isRegex ? 'E' : 'F'}`, 'grep', [
        '-r',
        isRegex ? '-E' : '-F',
        isRegex ? query.replace('\\d', '[0-9]') : query,
        tree,
      ]),
    ]);
    bench.target(`${key} content search, ripgrep path ≤ 1.5× rg`, workload, 'agentfs search_content (ripgrep)', 'rg', 1.5);
    bench.target(`${key} content search, scan ≤ 5× rg`, workload, 'agentfs search_content (scan)', 'rg', 5);
  }
  if (bench.wants('content-index')) await repeated(bench);
}
