/**
 * `npm run bench:host [-- --dir DIR] [--reps N] [--only glob,fuzzy,list,literal,read,tail,tiny,index] [--docs]`: the
 * read, search and list workloads of the bench inside a real VS Code extension host (1.139, the launcher of
 * test/launcher/), on the same generated workspace (generate.ts, AGENTFS_BENCH_DIR or --dir), beside VS Code's own APIs
 * in the same host. The window opens the tree and the folder of the 1 GiB log as a two-folder workspace; suite.ts
 * does the timing in the extension host and hands its rows back through the window's log.
 *
 * Prints the rows, the per-call figures (Agent FS's own cost of a tiny call beside a bare workspace.fs.stat; VS
 * Code's own invokeTool round trip) and the targets; writes results-host.md to the bench folder and, with
 * --docs, into the host block of docs/benchmarks.md. Not a test: nothing here fails on a slow figure.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hostById, REPO_ROOT } from '../../test/launcher/hosts';
import { ensureHost } from '../../test/launcher/install';
import { cleanUpOnSignals, withLaunch } from '../../test/launcher/session';
import { ensureGenerated } from '../generate';
import { defaultDirectory } from '../options';
import { markdownTable, median, plainTable, timedCells, updateDocBlock } from '../report';
import type { HostRow } from './suite';

const MARKER = '[agentfs-bench] ';
const SUITE = path.join(REPO_ROOT, 'out', 'bench', 'host', 'suite.js');
export const DOCS_HOST_BEGIN = '<!-- bench-host:begin (npm run bench:host -- --docs rewrites this block) -->';
export const DOCS_HOST_END = '<!-- bench-host:end -->';

interface Options {
  readonly dir: string;
  readonly reps: number;
  readonly only: string | undefined;
  readonly docs: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  let dir = defaultDirectory();
  let reps = 5;
  let only: string | undefined;
  let docs = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--docs') {
      docs = true;
      continue;
    }
    const value = argv[++index];
    if (value === undefined) throw new Error(`${argument ?? ''} needs a value (--dir DIR, --reps N, --only a,b; flag: --docs)`);
    if (argument === '--dir') dir = path.resolve(value);
    else if (argument === '--reps') reps = Math.max(1, parseInt(value, 10));
    else if (argument === '--only') only = value;
    else throw new Error(`Unknown argument ${argument ?? ''}`);
  }
  return { dir, reps, only, docs };
}

interface Result {
  readonly vscode: string;
  readonly node: string;
  readonly rows: readonly HostRow[];
}

function medianOf(rows: readonly HostRow[], workload: string, tool: string): number | undefined {
  const row = rows.find((each) => each.workload.startsWith(workload) && each.tool.startsWith(tool) && each.times.length > 0);
  return row ? median(row.times) : undefined;
}

function report(result: Result, options: Options, started: Date): void {
  const machine = [
    `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}; load average ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')} at the end`,
    `VS Code ${result.vscode} (code-server's server, headless Chromium), extension host on Node ${result.node}; the extension as built in dist/`,
    `workspace: ${options.dir}/tree and ${options.dir}/logs as two folders; 3 warm-up runs, then ${options.reps} repetitions taking turns (the one-at-a-time walk: 1); tiny calls: the median of 200`,
  ];
  const header = ['workload', 'tool', 'min ms', 'median ms', '× fastest reference', 'result'];
  const table = timedCells(
    result.rows,
    (row) => [row.result],
    (row) => `failed: ${row.skipped ?? 'no run'}`,
  );
  const rows = result.rows;
  const tiny = 'tiny call';
  const api = medianOf(rows, tiny, 'agentfs path_exists (extension API)');
  const tool = medianOf(rows, tiny, 'agentfs path_exists (invokeTool)');
  const stat = medianOf(rows, tiny, 'workspace.fs.stat');
  // Agent FS's own cost of a call is bounded by the whole of a tiny one through the API: its file-system work is in
  // there too (node:fs calls of microseconds on the local disk), so nothing is subtracted that could hide a cost.
  const figures: string[][] = [];
  if (api !== undefined)
    figures.push([
      "Agent FS's own cost of a tiny call: path_exists through the extension API, its file-system calls included",
      `${api.toFixed(2)} ms`,
    ]);
  if (stat !== undefined) figures.push(['a bare workspace.fs.stat of the same file, for comparison', `${stat.toFixed(2)} ms`]);
  if (api !== undefined && tool !== undefined)
    figures.push([
      "VS Code's own round trip of vscode.lm.invokeTool: the same call through invokeTool minus through the API",
      `${(tool - api).toFixed(2)} ms`,
    ]);
  const ratio = (workload: string, ours: string, reference: string): number | undefined => {
    const mine = medianOf(rows, workload, ours);
    const theirs = medianOf(rows, workload, reference);
    return mine === undefined || theirs === undefined ? undefined : mine / theirs;
  };
  const verdict = (value: number | undefined, limit: number): string => (value === undefined ? '–' : value <= limit ? 'met' : 'NOT MET');
  const glob = ratio('glob', 'agentfs search_files (extension API)', 'workspace.findFiles');
  const fuzzy = medianOf(rows, 'fuzzy', 'agentfs find_file (extension API)');
  const fuzzyTool = medianOf(rows, 'fuzzy', 'agentfs find_file (invokeTool)');
  const targets = [
    [
      'glob search_files ≤ 1.5× workspace.findFiles',
      glob === undefined ? 'not measured' : `${glob.toFixed(2)}×`,
      '1.5×',
      verdict(glob, 1.5),
    ],
    [
      'fuzzy find_file < 1 s (extension API)',
      fuzzy === undefined ? 'not measured' : `${fuzzy.toFixed(0)} ms`,
      '1000 ms',
      verdict(fuzzy, 1000),
    ],
    [
      'fuzzy find_file < 1 s (invokeTool)',
      fuzzyTool === undefined ? 'not measured' : `${fuzzyTool.toFixed(0)} ms`,
      '1000 ms',
      verdict(fuzzyTool, 1000),
    ],
    ...(['glob **/*.md', 'fuzzy file name', 'recursive list_files (returns 1,000)'] as const).map((name) => {
      const value = ratio(`repeated after changes: ${name}`, 'agentfs', 'workspace.findFiles');
      return [
        `repeated ${name} (path index, after changes) ≤ 0.1× workspace.findFiles`,
        value === undefined ? 'not measured' : `${value.toFixed(2)}×`,
        '0.1×',
        verdict(value, 0.1),
      ];
    }),
    ["Agent FS's own per-call cost < 2 ms", api === undefined ? 'not measured' : `${api.toFixed(2)} ms`, '2 ms', verdict(api, 2)],
  ];
  const markdown = [
    `Measured ${started.toISOString().slice(0, 10)} with \`npm run bench:host\`:`,
    '',
    ...machine.map((line) => `- ${line}`),
    '',
    markdownTable(header, table, [false, false, true, true, true, false]),
    '',
    markdownTable(['figure', 'value'], figures, [false, true]),
    '',
    markdownTable(['target', 'measured', 'limit', 'verdict'], targets, [false, true, true, false]),
  ].join('\n');
  process.stdout.write(
    `\n${[...machine, '', plainTable(header, table), '', plainTable(['figure', 'value'], figures), '', plainTable(['target', 'measured', 'limit', 'verdict'], targets)].join('\n')}\n`,
  );
  const output = path.join(options.dir, 'results-host.md');
  fs.writeFileSync(output, `${markdown}\n`);
  process.stderr.write(`\nWritten to ${output}\n`);
  if (options.docs) updateDocBlock(markdown, path.join(REPO_ROOT, 'docs', 'benchmarks.md'), DOCS_HOST_BEGIN, DOCS_HOST_END);
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  cleanUpOnSignals();
  for (const file of [path.join(REPO_ROOT, 'dist', 'extension.js'), SUITE]) {
    if (!fs.existsSync(file))
      throw new Error(
        `${path.relative(REPO_ROOT, file)} is missing: run \`npm run build\` and \`tsc -p .\` first (npm run bench:host does both).`,
      );
  }
  const host = hostById('1.139');
  ensureHost(host);
  const generated = ensureGenerated(options.dir, (message) => process.stderr.write(`${message}\n`));
  const started = new Date();
  let result: Result | undefined;
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => {
    onExit = resolve;
  });
  const code = await withLaunch(
    {
      host,
      label: 'bench host',
      trust: true,
      // A generous bound for a run on a busy machine; it only stops one that hangs.
      timeoutMs: 60 * 60 * 1000,
      prepare: (dir) => {
        const workspace = path.join(dir, 'bench.code-workspace');
        // Nothing in the tree changes during the bench: no need for VS Code to watch 100,000 files meanwhile.
        fs.writeFileSync(
          workspace,
          JSON.stringify(
            { folders: [{ path: generated.tree }, { path: generated.logs }], settings: { 'files.watcherExclude': { '**': true } } },
            null,
            2,
          ),
        );
        return {
          target: { workspace },
          env: { AGENTFS_BENCH_REPS: String(options.reps), ...(options.only ? { AGENTFS_BENCH_ONLY: options.only } : {}) },
        };
      },
      editor: { extensionDevelopmentPath: REPO_ROOT, extensionTestsPath: SUITE },
      open: {
        onLog: (_level, message) => {
          if (!message.startsWith(MARKER)) return;
          for (const line of message.split('\n')) {
            const text = line.startsWith(MARKER) ? line.slice(MARKER.length) : line;
            if (text.startsWith('RESULT ')) result = JSON.parse(text.slice('RESULT '.length)) as Result;
            else process.stderr.write(`${text}\n`);
          }
        },
        onExit: (exitCode) => onExit(exitCode),
      },
    },
    () => exited,
    (exitCode) => exitCode === 0 && result !== undefined,
  );
  if (!result) throw new Error(`the host bench printed no result (exit code ${code})`);
  report(result, options, started);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench:host: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
