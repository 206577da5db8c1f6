/**
 * replace_in_files (`--only replace`) on a copy of the bench tree with a token planted in 1,000 files: replaced back
 * and forth through a warm MCP server (history on, content index ready) against `rg -l0 TOKEN | xargs -0 sed -i
 * s/TOKEN/NEW/g` in the same run, and its dry run against `rg -c TOKEN`; the server's memory above what it held.
 *
 * Every run of either tool replaces whichever of the two tokens the tree holds now with the other, so each finds the
 * tree as the run before left it and does the same work: 1,000 files, one line each.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { random } from './generate';
import { type Bench, buildAsShipped } from './harness';
import { McpServer } from './mcpClient';
import { commandPeak, peakOf } from './memory';

const REPO = path.join(__dirname, '..', '..');
const FILES = 1000;
const TOKENS = ['ORBIT_RENAME_5d2c', 'PULSAR_RENAMED_8e41'] as const;

function dataOf(text: string): Record<string, unknown> {
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

/** What the tree's .gitignore ignores (generate.ts writes it). */
const IGNORED = /^(node_modules|dist|coverage)$|\.log$/;

/** Text files of the tree that every tool searches: not ignored, not hidden, not binary. */
function candidates(root: string, at = '', found: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(root, at), { withFileTypes: true })) {
    if (entry.name.startsWith('.') || IGNORED.test(entry.name)) continue;
    const relative = at === '' ? entry.name : `${at}/${entry.name}`;
    if (entry.isDirectory()) candidates(root, relative, found);
    else if (entry.isFile() && !fs.readFileSync(path.join(root, relative)).includes(0)) found.push(relative);
  }
  return found;
}

/** Appends a line with the first token to FILES files chosen by a seed; the largest file's size. */
function plant(root: string): number {
  const all = candidates(root).sort();
  const pick = random(44);
  const chosen = new Set<string>();
  while (chosen.size < FILES) chosen.add(all[Math.floor(pick() * all.length)] ?? '');
  let largest = 0;
  for (const relative of chosen) {
    fs.appendFileSync(path.join(root, relative), `\nexport const renamed = "${TOKENS[0]}";\n`);
    largest = Math.max(largest, fs.statSync(path.join(root, relative)).size);
  }
  return largest;
}

async function untilIndexed(server: McpServer): Promise<void> {
  for (;;) {
    const info = dataOf(await server.call('workspace_info', {})).content_index as Record<string, unknown> | null;
    if (info === null || info.state === 'off') throw new Error(`no content index: ${JSON.stringify(info)}`);
    if (info.state === 'ready') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function run(bench: Bench): Promise<void> {
  if (!bench.wants('replace')) return;
  const workload = `MCP: replace a token in ${FILES} files`;
  const dryWorkload = `MCP: dry run of replacing a token in ${FILES} files`;
  if (!bench.rg) {
    bench.skip(workload, 'rg | sed', 'rg not installed (apt-get install ripgrep)');
    return;
  }
  const rg = bench.rg;
  buildAsShipped();
  const { dir } = bench.options;
  const copy = path.join(dir, `replace-${Math.random().toString(36).slice(2, 8)}`);
  const state = path.join(dir, 'state', path.basename(copy));
  fs.mkdirSync(copy, { recursive: true });
  // Its contents, through a tree that is itself a link (a bench folder lent another's tree).
  const copied = spawnSync('cp', ['-a', `${bench.generated.tree}/.`, copy], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`cp -a failed: ${copied.stderr}`);
  const server = await McpServer.spawn([path.join(REPO, 'dist', 'mcp.js'), '--root', copy, '--state', state]);
  try {
    const largest = plant(copy);
    // The first call walks the tree and starts the indexes; the runs are of a warm server.
    await server.call('search_content', { query: TOKENS[0], case_sensitive: true });
    await untilIndexed(server);
    let current = 0;
    /** The token the tree holds now and the other, and the tree then holds the other. */
    const flip = (): readonly [string, string] => {
      const from = TOKENS[current] ?? '';
      current = 1 - current;
      return [from, TOKENS[current] ?? ''];
    };
    const ours = async (): Promise<string> => {
      const [from, to] = flip();
      const data = dataOf(await server.call('replace_in_files', { query: from, replacement: to }));
      return `${String(data.replacements)} replacements in ${String(data.files_changed)} files`;
    };
    /** The rg | sed pipeline as `sh` arguments, in the copy wherever it is started (GNU time starts it for its memory). */
    const script = (): readonly string[] => {
      const [from, to] = flip();
      // Paths named: a child's stdin is a pipe, which rg would search instead of the folder.
      return ['-c', `cd "$1" && "$0" -l0 ${from} . | xargs -0 sed -i s/${from}/${to}/g; "$0" -l ${to} . | wc -l`, rg, copy];
    };
    const sed = (): string => {
      const result = spawnSync('sh', script(), { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`rg | sed failed: ${result.stderr}`);
      return `${result.stdout.trim()} files`;
    };
    const pid = server.transport.pid;
    await bench.measure(workload, [
      {
        tool: 'agentfs-mcp replace_in_files',
        reference: false,
        run: ours,
        memory: () => (pid === null ? Promise.resolve(undefined) : peakOf(pid, ours)),
      },
      { tool: 'rg -l0 | xargs -0 sed -i', reference: true, run: sed, memory: () => commandPeak('sh', script())() },
    ]);
    bench.target(`replace a token in ${FILES} files over MCP ≤ 1.0× rg | sed`, workload, 'agentfs-mcp replace_in_files', 'rg -l0', 1.0);
    bench.figureTarget(
      `replace_in_files: the server's memory above what it held ≤ the largest file (${(largest / 1024).toFixed(0)} KiB) + 64 MiB`,
      () => bench.extraMiB(workload, 'agentfs-mcp replace_in_files'),
      largest / 2 ** 20 + 64,
      'MiB',
    );
    const dry = async (): Promise<string> => {
      const data = dataOf(await server.call('replace_in_files', { query: TOKENS[current] ?? '', replacement: 'x', dry_run: true }));
      return `${String(data.replacements)} replacements in ${String(data.files_changed)} files`;
    };
    await bench.measure(dryWorkload, [
      { tool: 'agentfs-mcp replace_in_files dry_run', reference: false, run: dry },
      {
        tool: 'rg -c',
        reference: true,
        run: () => {
          const result = spawnSync(rg, ['-c', TOKENS[current] ?? '', '.'], { cwd: copy, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
          return `${result.stdout.split('\n').filter(Boolean).length} files`;
        },
      },
    ]);
    bench.target(`dry run of the replacement over MCP ≤ 0.5× rg -c`, dryWorkload, 'agentfs-mcp replace_in_files dry_run', 'rg -c', 0.5);
  } finally {
    await server.close().catch(() => undefined);
    fs.rmSync(copy, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  }
}
