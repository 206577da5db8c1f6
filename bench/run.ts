/**
 * `npm run bench [-- --dir DIR] [--reps N] [--only a,b]`: times the Agent FS core in-process (Node adapter) against
 * the reference tools on one generated workspace (generate.ts), in one run, and prints min / median and each row's
 * ratio to the fastest reference of its workload (median over median). Workloads and targets: README "Benchmark".
 *
 * External commands run with their output piped to this process and read whole (never /dev/null, which ripgrep
 * recognises and answers early). The MCP filesystem server runs as a child over stdio, driven by the MCP SDK, so its
 * times include the JSON-RPC round trip, as they do for every client of it. Each measurement is preceded by an
 * unmeasured warm-up, so all tools read from a warm page cache.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { invokeOperation, type Session } from '../src/core/invoke';
import { findRipgrepOnPath } from '../src/node/ripgrep';
import { createNodeSession } from '../src/node/session';
import { ensureGenerated, type Generated, GENERATOR, TOKEN, TOKEN_REGEX } from './generate';

interface Options {
  dir: string;
  reps: number;
  only: string[] | undefined;
  output: string | undefined;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { dir: path.join(os.tmpdir(), `afs-benchmark-v${GENERATOR.version}`), reps: 5, only: undefined, output: undefined };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const value = argv[index + 1];
    if (argument === '--dir' && value) options.dir = path.resolve(value);
    else if (argument === '--reps' && value) options.reps = Math.max(1, parseInt(value, 10));
    else if (argument === '--only' && value) options.only = value.split(',');
    else if (argument === '--output' && value) options.output = path.resolve(value);
    else continue;
    index++;
  }
  return options;
}

interface Row {
  readonly workload: string;
  readonly tool: string;
  readonly reference: boolean;
  readonly times: number[];
  /** What came back (matches, lines, entries): a check that the tools did comparable work. */
  readonly result: string;
  readonly memoryKiB?: number;
  readonly skipped?: string;
}

const rows: Row[] = [];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Unmeasured runs first: they warm the page cache and, for the in-process core, the JIT. */
const WARM_UPS = 3;

interface Spec {
  readonly workload: string;
  readonly tool: string;
  readonly reference: boolean;
  readonly run: () => Promise<string> | string;
  readonly memory?: () => Promise<number | undefined>;
}

/**
 * Times the tools of one workload round-robin (each repetition runs every tool once), so a burst of load from
 * elsewhere on a shared machine falls on all of them rather than on whichever ran then.
 */
async function measureGroup(specs: readonly Spec[], reps: number): Promise<void> {
  const state = specs.map((spec) => ({ spec, times: [] as number[], result: '', failure: undefined as string | undefined }));
  const failed = (error: unknown): string => (error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error));
  for (const each of state) {
    process.stderr.write(`  ${each.spec.workload}: ${each.spec.tool}…\n`);
    try {
      const first = Date.now();
      each.result = await each.spec.run();
      // A slow tool needs no JIT warm-up to speak of; one run warms its cache.
      if (Date.now() - first < 2000) for (let index = 1; index < WARM_UPS; index++) each.result = await each.spec.run();
    } catch (error) {
      each.failure = failed(error);
    }
  }
  for (let index = 0; index < reps; index++) {
    for (const each of state) {
      // A slow tool gets fewer repetitions, so one run of the whole bench stays within minutes.
      if (each.failure !== undefined || (each.times.length >= 3 && each.times.reduce((sum, time) => sum + time, 0) > 30_000)) continue;
      try {
        const start = process.hrtime.bigint();
        each.result = await each.spec.run();
        each.times.push(Number(process.hrtime.bigint() - start) / 1e6);
      } catch (error) {
        each.failure = failed(error);
      }
    }
  }
  for (const { spec, times, result, failure } of state) {
    if (failure !== undefined) {
      rows.push({ workload: spec.workload, tool: spec.tool, reference: spec.reference, times: [], result: '', skipped: failure });
      continue;
    }
    rows.push({ workload: spec.workload, tool: spec.tool, reference: spec.reference, times, result, memoryKiB: spec.memory ? await spec.memory() : undefined });
  }
}

function command(executable: string, args: readonly string[], cwd?: string): () => string {
  return () => {
    const child = spawnSync(executable, args, { cwd, maxBuffer: 1024 * 1024 * 1024, encoding: 'buffer' });
    if (child.error) throw child.error;
    if (child.status !== 0 && child.status !== 1) throw new Error(`${executable} exited ${child.status}: ${child.stderr.toString()}`);
    let lines = 0;
    for (let index = child.stdout.indexOf(10); index !== -1; index = child.stdout.indexOf(10, index + 1)) lines++;
    return `${lines} lines`;
  };
}

function available(executable: string): boolean {
  return spawnSync(executable, ['--version'], { encoding: 'utf8' }).status === 0;
}

async function ours(session: Session, operation: string, input: Record<string, unknown>, describe: (data: Record<string, unknown>) => string): Promise<string> {
  const envelope = await invokeOperation(operation, input, session);
  if (!envelope.ok) throw new Error(`${operation} failed: ${envelope.error.code} ${envelope.error.message}`);
  return describe(envelope.data as Record<string, unknown>);
}

/** Peak-memory bookkeeping through /proc (Linux): resetting VmHWM, then reading it after the call. */
function memoryStatus(pid: number | 'self'): { rss: number; hwm: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => parseInt(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 'NaN', 10);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

function resetPeak(pid: number | 'self'): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function extraPeakKiB(pid: number | 'self', run: () => Promise<unknown>): Promise<number | undefined> {
  if (!resetPeak(pid)) return undefined;
  const before = memoryStatus(pid);
  await run();
  const after = memoryStatus(pid);
  return before && after ? Math.max(0, after.hwm - before.rss) : undefined;
}

class McpServer {
  private constructor(
    readonly client: Client,
    readonly transport: StdioClientTransport,
    private readonly allowed: readonly string[],
  ) {}

  static async start(allowed: readonly string[]): Promise<McpServer> {
    const entry = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
    // The client's default 10 MiB message cap is below a directory_tree of this workspace (about 33 MB): raised, so
    // the server is measured doing the work rather than refused by its client.
    const transport = new StdioClientTransport({ command: process.execPath, args: [entry, ...allowed], stderr: 'ignore', maxBufferSize: 1024 * 1024 * 1024 });
    const client = new Client({ name: 'agentfs-bench', version: '1.0.0' });
    await client.connect(transport);
    return new McpServer(client, transport, allowed);
  }

  /** A fresh server if this one died (a reference that crashes on one workload still runs the others). */
  async alive(): Promise<McpServer> {
    if (this.transport.pid !== null) {
      try {
        await this.client.listTools();
        return this;
      } catch {
        // Restart below.
      }
    }
    await this.close().catch(() => undefined);
    return McpServer.start(this.allowed);
  }

  async call(name: string, args: Record<string, unknown>): Promise<string> {
    const result = (await this.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as { content?: { type: string; text?: string }[]; isError?: boolean };
    const text = (result.content ?? []).map((part) => part.text ?? '').join('');
    if (result.isError) throw new Error(`MCP ${name} failed: ${text.slice(0, 300)}`);
    return text;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

function toolVersion(executable: string): string {
  const result = spawnSync(executable, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? (result.stdout.split('\n')[0] ?? '').trim() : 'not installed';
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const wants = (name: string): boolean => options.only === undefined || options.only.includes(name);
  const started = Date.now();
  const generated: Generated = ensureGenerated(options.dir, (message) => process.stderr.write(`${message}\n`));
  process.stderr.write(`Workspace: ${generated.tree} (${generated.reused ? 'reused' : `generated in ${((Date.now() - started) / 1000).toFixed(0)} s`})\n`);

  const rg = findRipgrepOnPath();
  const fast = createNodeSession(generated.tree, {}, { ripgrep: rg ?? false });
  const scan = createNodeSession(generated.tree, {}, { ripgrep: false });
  const logs = createNodeSession(generated.logs, {}, { ripgrep: false });
  const hasFd = available('fdfind');
  let mcp = await McpServer.start([generated.tree, generated.logs, options.dir]);
  const { reps } = options;

  let pending: Spec[] = [];
  const add = (workload: string, tool: string, reference: boolean, run: () => Promise<string> | string, memory?: () => Promise<number | undefined>): Promise<void> => {
    pending.push({ workload, tool, reference, run, memory });
    return Promise.resolve();
  };
  const flush = async (): Promise<void> => {
    const specs = pending;
    pending = [];
    if (specs.length > 0) await measureGroup(specs, reps);
  };
  const skip = (workload: string, tool: string, why: string): void => {
    rows.push({ workload, tool, reference: true, times: [], result: '', skipped: why });
  };

  if (wants('glob')) {
    const workload = 'glob **/*.md';
    await add(workload, 'agentfs search_files', false, () => ours(fast, 'search_files', { pattern: '**/*.md', max_results: 200 }, (data) => `${String(data.total)} paths`));
    if (hasFd) await add(workload, 'fdfind -H -g *.md', true, command('fdfind', ['-H', '-g', '*.md', generated.tree]));
    else skip(workload, 'fdfind', 'not installed (apt-get install fd-find)');
    await add(workload, 'MCP search_files', true, async () => `${countLines(await mcp.call('search_files', { path: generated.tree, pattern: '**/*.md' }))} lines`);
  }

  await flush();
  if (wants('fuzzy')) {
    const workload = 'fuzzy file name';
    await add(workload, 'agentfs find_file "user controler"', false, () => ours(fast, 'find_file', { file_name: 'user controler', max_results: 20 }, (data) => `${String(data.count)} shown, ${String(data.match_type)}`));
    if (hasFd) await add(workload, "fdfind -H 'user.*contr'", true, command('fdfind', ['-H', 'user.*contr', generated.tree]));
    else skip(workload, 'fdfind', 'not installed (apt-get install fd-find)');
  }

  await flush();
  for (const [name, query, isRegex] of [
    ['literal', TOKEN, false],
    ['regex', TOKEN_REGEX, true],
  ] as const) {
    await flush();
    if (!wants(name)) continue;
    const workload = `content ${name} (${GENERATOR.tokenFiles} files)`;
    const input = { query, is_regex: isRegex, case_sensitive: true, max_results: 200 };
    const describe = (data: Record<string, unknown>): string => `${String(data.count)} matches (${String(data.engine)})`;
    if (rg) await add(workload, 'agentfs search_content (ripgrep)', false, () => ours(fast, 'search_content', input, describe));
    await add(workload, 'agentfs search_content (scan)', false, () => ours(scan, 'search_content', input, describe));
    if (rg) await add(workload, `rg --hidden${isRegex ? '' : ' -F'}`, true, command(rg, ['--hidden', ...(isRegex ? [] : ['-F']), query, generated.tree]));
    else skip(workload, 'rg', 'not installed (apt-get install ripgrep)');
    await add(workload, `grep -r${isRegex ? 'E' : 'F'}`, true, command('grep', ['-r', isRegex ? '-E' : '-F', isRegex ? query.replace('\\d', '[0-9]') : query, generated.tree]));
  }

  await flush();
  if (wants('tail')) {
    mcp = await mcp.alive();
    const workload = 'tail 100 lines of 1 GiB log';
    const input = { file_name: 'app.log', tail_lines: 100 };
    await add(
      workload,
      'agentfs read_file tail_lines',
      false,
      () => ours(logs, 'read_file', input, (data) => `${countLines(String(data.content)) - 1} lines`),
      () => extraPeakKiB('self', () => ours(logs, 'read_file', input, () => '')),
    );
    const timeTool = fs.existsSync('/usr/bin/time');
    await add(
      workload,
      'tail -n 100',
      true,
      command('tail', ['-n', '100', generated.log]),
      () => {
        if (!timeTool) return Promise.resolve(undefined);
        const result = spawnSync('/usr/bin/time', ['-f', '%M', 'tail', '-n', '100', generated.log], { encoding: 'utf8' });
        const kib = parseInt(result.stderr.trim().split('\n').pop() ?? '', 10);
        return Promise.resolve(Number.isFinite(kib) ? kib : undefined);
      },
    );
    const pid = mcp.transport.pid;
    await add(
      workload,
      'MCP read_text_file tail',
      true,
      async () => `${countLines((await mcp.call('read_text_file', { path: generated.log, tail: 100 })).trimEnd())} lines`,
      () => (pid === null ? Promise.resolve(undefined) : extraPeakKiB(pid, () => mcp.call('read_text_file', { path: generated.log, tail: 100 }))),
    );
  }

  await flush();
  if (wants('list')) {
    mcp = await mcp.alive();
    const workload = 'full recursive listing';
    const describe = (data: Record<string, unknown>): string => `${String(data.total)} entries, ${String(data.ignored_count)} ignored`;
    await add(workload, 'agentfs list_directory (gitignore on)', false, () =>
      ours(fast, 'list_directory', { recursive: true, include_hidden: true, max_entries: 1000 }, describe),
    );
    await add(workload, 'agentfs list_directory include_ignored', false, () =>
      ours(fast, 'list_directory', { recursive: true, include_hidden: true, include_ignored: true, max_entries: 1000 }, describe),
    );
    await add(workload, 'find', true, command('find', [generated.tree]));
    await add(workload, 'MCP directory_tree', true, async () => `${(await mcp.call('directory_tree', { path: generated.tree })).length} chars`);
  }

  await flush();
  if (wants('writes')) {
    mcp = await mcp.alive();
    const workload = '1000 sequential small writes';
    const scratch = path.join(options.dir, 'writes');
    const fresh = (name: string): string => {
      const dir = path.join(scratch, name);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    };
    await add(workload, 'agentfs write_file', false, async () => {
      const session = createNodeSession(fresh('agentfs'), {}, { ripgrep: false });
      for (let index = 0; index < 1000; index++) await ours(session, 'write_file', { file_name: `notes/note-${index}.md`, content: `# Note ${index}\n\nSome text.\n` }, () => '');
      return '1000 files';
    });
    await add(workload, 'MCP write_file', true, async () => {
      const dir = fresh('mcp');
      fs.mkdirSync(path.join(dir, 'notes'));
      for (let index = 0; index < 1000; index++) await mcp.call('write_file', { path: path.join(dir, 'notes', `note-${index}.md`), content: `# Note ${index}\n\nSome text.\n` });
      return '1000 files';
    });
  }
  await flush();
  await mcp.close();

  report(options, generated, rg);
}

/** The median of the row whose tool starts with `tool` in `workload` (a prefix of its name). */
function medianOf(workload: string, tool: string): number | undefined {
  const row = rows.find((each) => each.workload.startsWith(workload) && each.tool.startsWith(tool) && each.times.length > 0);
  return row ? median(row.times) : undefined;
}

/** Issue 4's targets, each as a ratio (or time) from this run, and whether it was met. */
function targets(): string[] {
  const lines = ['| target | measured | met |', '|---|---:|---|'];
  const ratio = (label: string, workload: string, ours: string, reference: string, limit: number): void => {
    const mine = medianOf(workload, ours);
    const theirs = medianOf(workload, reference);
    if (mine === undefined || theirs === undefined) lines.push(`| ${label} | not measured | – |`);
    else lines.push(`| ${label} | ${(mine / theirs).toFixed(2)}× | ${mine / theirs <= limit ? 'yes' : 'no'} |`);
  };
  ratio('glob search ≤ 1.5× fd', 'glob', 'agentfs', 'fdfind', 1.5);
  ratio('literal content search, fast path ≤ 1.5× rg', 'content literal', 'agentfs search_content (ripgrep)', 'rg', 1.5);
  ratio('literal content search, fallback ≤ 5× rg', 'content literal', 'agentfs search_content (scan)', 'rg', 5);
  ratio('regex content search, fast path ≤ 1.5× rg', 'content regex', 'agentfs search_content (ripgrep)', 'rg', 1.5);
  ratio('regex content search, fallback ≤ 5× rg', 'content regex', 'agentfs search_content (scan)', 'rg', 5);
  ratio('recursive listing ≤ 2× find (gitignore on)', 'full recursive', 'agentfs list_directory (gitignore', 'find', 2);
  ratio('recursive listing ≤ 2× find (include_ignored)', 'full recursive', 'agentfs list_directory include', 'find', 2);
  const tail = rows.find((row) => row.workload.startsWith('tail') && row.tool.startsWith('agentfs') && row.times.length > 0);
  if (tail) {
    const time = median(tail.times);
    lines.push(`| tail of the 1 GiB log < 50 ms | ${time.toFixed(1)} ms | ${time < 50 ? 'yes' : 'no'} |`);
    if (tail.memoryKiB !== undefined) lines.push(`| … with < 64 MiB extra memory | ${tail.memoryKiB} KiB | ${tail.memoryKiB < 64 * 1024 ? 'yes' : 'no'} |`);
  }
  ratio('ahead of the MCP server: glob', 'glob', 'agentfs', 'MCP', 1);
  ratio('ahead of the MCP server: tail', 'tail', 'agentfs', 'MCP', 1);
  ratio('ahead of the MCP server: listing', 'full recursive', 'agentfs list_directory (gitignore', 'MCP', 1);
  ratio('ahead of the MCP server: writes', '1000', 'agentfs', 'MCP', 1);
  return lines;
}

function report(options: Options, generated: Generated, rg: string | undefined): void {
  const machine = [
    `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}`,
    `Node ${process.version}; ${rg ? toolVersion(rg) : 'rg not installed'}; ${toolVersion('fdfind')}; ${toolVersion('grep')}`,
    `workspace ${generated.tree}: ${GENERATOR.files} files in ${GENERATOR.directories} directories (${GENERATOR.ignoredFiles} in node_modules), log ${GENERATOR.logBytes / 2 ** 30} GiB; ${WARM_UPS} warm-up runs, then ${options.reps} repetitions, the tools of a workload taking turns`,
  ];
  const lines = ['| workload | tool | min ms | median ms | × fastest reference | peak extra memory | result |', '|---|---|---:|---:|---:|---:|---|'];
  for (const workload of [...new Set(rows.map((row) => row.workload))]) {
    const group = rows.filter((row) => row.workload === workload);
    const references = group.filter((row) => row.reference && row.times.length > 0).map((row) => median(row.times));
    const fastest = references.length > 0 ? Math.min(...references) : undefined;
    for (const row of group) {
      if (row.skipped !== undefined) {
        lines.push(`| ${workload} | ${row.tool} | – | – | – | – | skipped: ${row.skipped} |`);
        continue;
      }
      const med = median(row.times);
      const ratio = fastest === undefined ? '–' : `${(med / fastest).toFixed(2)}×`;
      const memory = row.memoryKiB === undefined ? '' : row.memoryKiB < 1024 ? `${row.memoryKiB} KiB` : `${(row.memoryKiB / 1024).toFixed(1)} MiB`;
      lines.push(`| ${workload} | ${row.tool} | ${Math.min(...row.times).toFixed(1)} | ${med.toFixed(1)} | ${ratio} | ${memory} | ${row.result} |`);
    }
  }
  const text = `${machine.map((line) => `- ${line}`).join('\n')}\n\n${lines.join('\n')}\n\n${targets().join('\n')}\n`;
  process.stdout.write(text);
  const output = options.output ?? path.join(options.dir, 'results.md');
  fs.writeFileSync(output, text);
  process.stderr.write(`\nWritten to ${output}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
