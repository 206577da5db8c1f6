/**
 * What every bench section uses: the generated workspace, sessions configured as users run Agent FS (history
 * recording on, ignore rules on), round-robin timing, peak memory, targets, and the report (a plain table on the
 * terminal, the same as markdown in results.md and, with --docs, in docs/benchmarks.md's block).
 *
 * A section (one module per area, listed in run.ts) adds rows through `Bench.measure` and states its targets
 * through `Bench.target`; every ratio is a median over a median measured in this run, so a machine busy with other
 * work slows both sides of a ratio alike.
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
import { type Generated, GENERATOR } from './generate';
import { markdownTable, median, plainTable, roundRobin, timedCells, updateDocBlock, WARM_UPS } from './report';

export interface Options {
  readonly dir: string;
  readonly reps: number;
  /** Workload keys to run (each section names its keys); undefined: all. */
  readonly only: readonly string[] | undefined;
  readonly output: string | undefined;
  /** Also write the markdown report into docs/benchmarks.md between the bench markers. */
  readonly docs: boolean;
  /** Print the markdown report instead of the plain table. */
  readonly markdown: boolean;
}

/** Where the generated workspace lives when neither --dir nor AGENTFS_BENCH_DIR says: the OS temp folder. */
export function defaultDirectory(): string {
  return process.env.AGENTFS_BENCH_DIR
    ? path.resolve(process.env.AGENTFS_BENCH_DIR)
    : path.join(os.tmpdir(), `afs-benchmark-v${GENERATOR.version}`);
}

export function parseOptions(argv: readonly string[]): Options {
  let dir = defaultDirectory();
  let reps = 5;
  let only: string[] | undefined;
  let output: string | undefined;
  let docs = false;
  let markdown = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--docs') docs = true;
    else if (argument === '--markdown') markdown = true;
    else {
      const value = argv[++index];
      if (value === undefined)
        throw new Error(`${argument ?? ''} needs a value (--dir DIR, --reps N, --only a,b, --output FILE; flags: --docs, --markdown)`);
      if (argument === '--dir') dir = path.resolve(value);
      else if (argument === '--reps') reps = Math.max(1, parseInt(value, 10));
      else if (argument === '--only') only = value.split(',');
      else if (argument === '--output') output = path.resolve(value);
      else throw new Error(`Unknown argument ${argument ?? ''}`);
    }
  }
  return { dir, reps, only, output, docs, markdown };
}

interface Row {
  readonly workload: string;
  readonly tool: string;
  readonly reference: boolean;
  readonly times: number[];
  /** What came back (matches, lines, entries): a check that the tools did comparable work. */
  readonly result: string;
  readonly memory?: Memory;
  readonly skipped?: string;
}

/** Peak resident memory of one run: of the whole process (`peakKiB`) and, in-process, above what it held before. */
export interface Memory {
  readonly peakKiB: number;
  readonly extraKiB?: number;
}

export interface Spec {
  readonly tool: string;
  readonly reference: boolean;
  readonly run: () => Promise<string> | string;
  /** One more, unmeasured run that reports its peak memory. */
  readonly memory?: () => Promise<Memory | undefined>;
}

interface Target {
  readonly label: string;
  readonly workload: string;
  /** Prefix of our row's tool name. */
  readonly ours: string;
  /** Prefix of the reference row's tool name; absent: `limit` is a time in ms. */
  readonly reference?: string;
  readonly limit: number;
  /** A figure the section measured itself (say, the median single call), with its unit; then the rows are not used. */
  readonly figure?: { readonly value: () => number | undefined; readonly unit: 'ms' | '×' | 'MiB' };
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/** Peak-memory bookkeeping through /proc (Linux): VmHWM is reset through clear_refs, then read after the call. */
function memoryStatus(pid: number | 'self'): { rss: number; hwm: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => parseInt(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 'NaN', 10);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** The peak memory of `pid` while `run` runs, and how much of it is above what the process held before. */
export async function peakOf(pid: number | 'self', run: () => Promise<unknown>): Promise<Memory | undefined> {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    return undefined;
  }
  const before = memoryStatus(pid);
  await run();
  const after = memoryStatus(pid);
  return before && after ? { peakKiB: after.hwm, extraKiB: Math.max(0, after.hwm - before.rss) } : undefined;
}

const hasTimeTool = fs.existsSync('/usr/bin/time');

/** The maximum resident size of one run of an external command (GNU time), the whole process. */
export function commandPeak(executable: string, args: readonly string[]): () => Promise<Memory | undefined> {
  return () => {
    if (!hasTimeTool) return Promise.resolve(undefined);
    const result = spawnSync('/usr/bin/time', ['-f', '%M', executable, ...args], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
    const kib = parseInt(result.stderr.trim().split('\n').pop() ?? '', 10);
    return Promise.resolve(Number.isFinite(kib) ? { peakKiB: kib } : undefined);
  };
}

/**
 * An external command, its output piped to this process and read whole (never /dev/null, which ripgrep recognises
 * and answers early). Describes the result by its line count.
 */
export function command(executable: string, args: readonly string[], cwd?: string): () => string {
  return () => {
    const child = spawnSync(executable, args, { cwd, maxBuffer: 1024 * 1024 * 1024, encoding: 'buffer' });
    if (child.error) throw child.error;
    if (child.status !== 0 && child.status !== 1) throw new Error(`${executable} exited ${child.status}: ${child.stderr.toString()}`);
    let lines = 0;
    for (let index = child.stdout.indexOf(10); index !== -1; index = child.stdout.indexOf(10, index + 1)) lines++;
    return `${lines} lines`;
  };
}

export function available(executable: string): boolean {
  return spawnSync(executable, ['--version'], { encoding: 'utf8' }).status === 0;
}

export function toolVersion(executable: string): string {
  const result = spawnSync(executable, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? (result.stdout.split('\n')[0] ?? '').trim() : 'not installed';
}

/** One call of an operation, in-process, through the pipeline every host uses; throws when it fails. */
export async function ours(
  session: Session,
  operation: string,
  input: Record<string, unknown>,
  describe: (data: Record<string, unknown>) => string,
): Promise<string> {
  const envelope = await invokeOperation(operation, input, session);
  if (!envelope.ok) throw new Error(`${operation} failed: ${envelope.error.code} ${envelope.error.message}`);
  return describe(envelope.data as Record<string, unknown>);
}

/** The MCP filesystem server as a child over stdio, driven by the MCP SDK: its times include the JSON-RPC trip. */
export class McpServer {
  private constructor(
    readonly client: Client,
    readonly transport: StdioClientTransport,
  ) {}

  static start(allowed: readonly string[]): Promise<McpServer> {
    return McpServer.spawn([require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), ...allowed]);
  }

  /** Any stdio MCP server run by Node with `args`, behind the same client and transport (bench/mcp.ts: Agent FS's). */
  static async spawn(args: readonly string[]): Promise<McpServer> {
    // The client's default 10 MiB message cap is below a directory_tree of this workspace: raised, so the server is
    // measured doing the work rather than refused by its client.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...args],
      stderr: 'ignore',
      maxBufferSize: 1024 * 1024 * 1024,
    });
    const client = new Client({ name: 'agentfs-bench', version: '1.0.0' });
    await client.connect(transport);
    return new McpServer(client, transport);
  }

  /** Whether the server still answers (a reference that crashed on one workload is restarted for the next). */
  async answers(): Promise<boolean> {
    if (this.transport.pid === null) return false;
    try {
      await this.client.listTools();
      return true;
    } catch {
      return false;
    }
  }

  async call(name: string, args: Record<string, unknown>): Promise<string> {
    const result = (await this.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as {
      content?: { type: string; text?: string }[];
      isError?: boolean;
    };
    const text = (result.content ?? []).map((part) => part.text ?? '').join('');
    if (result.isError) throw new Error(`MCP ${name} failed: ${text.slice(0, 300)}`);
    return text;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** What a section gets: the workspace, sessions, the reference tools, and the methods that add rows and targets. */
export class Bench {
  private readonly rows: Row[] = [];
  private readonly targets: Target[] = [];
  private mcpServer: McpServer | undefined;
  readonly rg: string | undefined = findRipgrepOnPath();
  readonly hasFd = available('fdfind');
  /**
   * Agent FS as the editor and the runner have it by default: history recorded (in a state folder outside the
   * workspace), ignore rules on, ripgrep for content search where there is one.
   */
  readonly session: Session;
  /** The same without ripgrep: search_content's pure scan. */
  readonly scanSession: Session;
  private readonly loadAtStart = os.loadavg();

  constructor(
    readonly options: Options,
    readonly generated: Generated,
  ) {
    // History folders of earlier runs: every run starts with empty histories, as a new user would.
    fs.rmSync(path.join(options.dir, 'state'), { recursive: true, force: true });
    this.session = this.sessionFor(generated.tree, {});
    this.scanSession = this.sessionFor(generated.tree, { ripgrep: false });
  }

  /** A session over `root` configured like a user's (history on), with its own history folder under the bench dir. */
  sessionFor(root: string, options: { ripgrep?: false; history?: false }): Session {
    const state = path.join(this.options.dir, 'state', `${path.basename(root)}-${Math.random().toString(36).slice(2, 8)}`);
    return createNodeSession(
      root,
      {},
      { ripgrep: options.ripgrep === false ? false : (this.rg ?? false), ...(options.history === false ? {} : { stateDirectory: state }) },
    );
  }

  wants(key: string): boolean {
    return this.options.only === undefined || this.options.only.includes(key);
  }

  /** The shared MCP filesystem server, started on first use and restarted if it died. */
  async mcp(): Promise<McpServer> {
    if (this.mcpServer && (await this.mcpServer.answers())) return this.mcpServer;
    await this.mcpServer?.close().catch(() => undefined);
    this.mcpServer = await McpServer.start([this.generated.tree, this.generated.logs, this.options.dir]);
    return this.mcpServer;
  }

  skip(workload: string, tool: string, why: string): void {
    this.rows.push({ workload, tool, reference: true, times: [], result: '', skipped: why });
  }

  /** A ratio target: our row's median over the reference row's must be at most `limit`. */
  target(label: string, workload: string, ours: string, reference: string, limit: number): void {
    this.targets.push({ label, workload, ours, reference, limit });
  }

  /** A time target: our row's median must be at most `limitMs`. */
  timeTarget(label: string, workload: string, ours: string, limitMs: number): void {
    this.targets.push({ label, workload, ours, limit: limitMs });
  }

  /** A target on a figure the section computes from its own measurements (e.g. the median of single calls). */
  figureTarget(label: string, value: () => number | undefined, limit: number, unit: 'ms' | '×' | 'MiB'): void {
    this.targets.push({ label, workload: '', ours: '', limit, figure: { value, unit } });
  }

  /**
   * Times the tools of one workload round-robin (each repetition runs every tool once), so a burst of load from
   * elsewhere on a shared machine falls on all of them rather than on whichever ran then.
   */
  async measure(workload: string, specs: readonly Spec[]): Promise<void> {
    const timed = await roundRobin(
      specs.map((spec) => spec.run),
      this.options.reps,
      { onStart: (index) => process.stderr.write(`  ${workload}: ${specs[index]?.tool ?? ''}…\n`) },
    );
    for (const [index, spec] of specs.entries()) {
      const { times = [], result = '', failure } = timed[index] ?? {};
      if (failure !== undefined) {
        this.rows.push({ workload, tool: spec.tool, reference: spec.reference, times: [], result: '', skipped: failure });
        continue;
      }
      const memory = spec.memory ? await spec.memory().catch(() => undefined) : undefined;
      this.rows.push({ workload, tool: spec.tool, reference: spec.reference, times, result, memory });
    }
  }

  /**
   * An in-process row: one operation with one input through `session` (default: the user-configured one). Its peak
   * memory is measured in a fresh process (memoryProbe.ts) configured the same way.
   */
  ours(
    tool: string,
    operation: string,
    input: Record<string, unknown>,
    describe: (data: Record<string, unknown>) => string,
    session: Session = this.session,
  ): Spec {
    const root = session.host?.workspaceFolders[0]?.path ?? this.generated.tree;
    const probe = [
      path.join(__dirname, 'memoryProbe.js'),
      root,
      path.join(this.options.dir, 'state', 'probe'),
      operation,
      JSON.stringify(input),
      ...(session.contentSearcher ? [] : ['--no-ripgrep']),
    ];
    return {
      tool,
      reference: false,
      run: () => ours(session, operation, input, describe),
      memory: () => {
        const result = spawnSync(process.execPath, probe, { encoding: 'utf8' });
        return Promise.resolve(result.status === 0 ? (JSON.parse(result.stdout) as Memory) : undefined);
      },
    };
  }

  /** A reference row running an external command. */
  command(tool: string, executable: string, args: readonly string[]): Spec {
    return { tool, reference: true, run: command(executable, args), memory: commandPeak(executable, args) };
  }

  async close(): Promise<void> {
    await this.mcpServer?.close().catch(() => undefined);
  }

  /** The highest peak resident memory of the rows of these workloads whose tool starts with `tool`, in MiB. */
  peakMiB(workloads: readonly string[], tool: string): number | undefined {
    const peaks = this.rows
      .filter((row) => workloads.includes(row.workload) && row.tool.startsWith(tool) && row.memory !== undefined)
      .map((row) => (row.memory?.peakKiB ?? 0) / 1024);
    return peaks.length === 0 ? undefined : Math.max(...peaks);
  }

  /** The median time of the row of `workload` whose tool starts with `tool` (for a section's own figures). */
  medianMs(workload: string, tool: string): number | undefined {
    return this.medianOf(workload, tool);
  }

  private medianOf(workload: string, tool: string): number | undefined {
    const row = this.rows.find((each) => each.workload === workload && each.tool.startsWith(tool) && each.times.length > 0);
    return row ? median(row.times) : undefined;
  }

  private machine(): string[] {
    const load = (values: readonly number[]): string => values.map((value) => value.toFixed(1)).join(' ');
    return [
      `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}; load average ${load(this.loadAtStart)} at the start, ${load(os.loadavg())} at the end`,
      `Node ${process.version}; ${this.rg ? toolVersion(this.rg) : 'rg not installed'}; ${toolVersion('fdfind')}; ${toolVersion('grep')}; find ${toolVersion('find').replace(/^find \(GNU findutils\) /, '')}`,
      `workspace ${this.generated.tree}: ${GENERATOR.files} files in ${GENERATOR.directories} directories (${GENERATOR.ignoredFiles} in node_modules), log ${GENERATOR.logBytes / 2 ** 30} GiB; ${WARM_UPS} warm-up runs, then ${this.options.reps} repetitions, the tools of a workload taking turns; history recording on, ignore rules on`,
    ];
  }

  private targetRows(): { label: string; measured: string; limit: string; met: boolean | undefined }[] {
    return this.targets.map((target) => {
      if (target.figure) {
        const value = target.figure.value();
        const unit = target.figure.unit;
        const shown = (figure: number): string =>
          unit === 'ms' ? `${figure.toFixed(2)} ms` : unit === 'MiB' ? `${figure.toFixed(1)} MiB` : `${figure.toFixed(2)}×`;
        return {
          label: target.label,
          measured: value === undefined ? 'not measured' : shown(value),
          limit: shown(target.limit),
          met: value === undefined ? undefined : value <= target.limit,
        };
      }
      const mine = this.medianOf(target.workload, target.ours);
      const theirs = target.reference === undefined ? undefined : this.medianOf(target.workload, target.reference);
      const limit = target.reference === undefined ? `${target.limit} ms` : `${target.limit}×`;
      if (mine === undefined || (target.reference !== undefined && theirs === undefined))
        return { label: target.label, measured: 'not measured', limit, met: undefined };
      const value = theirs === undefined ? mine : mine / theirs;
      return {
        label: target.label,
        measured: theirs === undefined ? `${value.toFixed(1)} ms` : `${value.toFixed(2)}×`,
        limit,
        met: value <= target.limit,
      };
    });
  }

  /** The report: the plain table to the terminal (or markdown with --markdown), markdown to results.md (and docs/benchmarks.md). */
  report(): void {
    const formatMemory = (memory: Memory | undefined): string => {
      if (!memory) return '';
      const mib = (kib: number): string => (kib < 1024 ? `${kib} KiB` : `${(kib / 1024).toFixed(1)} MiB`);
      return memory.extraKiB === undefined ? mib(memory.peakKiB) : `${mib(memory.peakKiB)} (+${mib(memory.extraKiB)})`;
    };
    const header = ['workload', 'tool', 'min ms', 'median ms', '× fastest reference', 'peak RSS', 'result'];
    const table = timedCells(
      this.rows,
      (row) => [formatMemory(row.memory), row.result],
      (row) => `skipped: ${row.skipped ?? 'no run'}`,
    );
    const targets = this.targetRows();
    const verdict = (met: boolean | undefined): string => (met === undefined ? '–' : met ? 'met' : 'NOT MET');
    const targetTable = targets.map((target) => [target.label, target.measured, target.limit, verdict(target.met)]);
    const targetHeader = ['target', 'measured', 'limit', 'verdict'];
    const markdown = [
      `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\`:`,
      '',
      ...this.machine().map((line) => `- ${line}`),
      '',
      markdownTable(header, table, [false, false, true, true, true, true, false]),
      '',
      markdownTable(targetHeader, targetTable, [false, true, true, false]),
      '',
      'Peak RSS: of the whole process, for external tools by GNU time; for Agent FS one call in a fresh Node process (bench/memoryProbe.ts), in parentheses what the call added to what the process held before it.',
    ].join('\n');
    const plain = [...this.machine(), '', plainTable(header, table), '', plainTable(targetHeader, targetTable)].join('\n');
    process.stdout.write(`${this.options.markdown ? markdown : plain}\n`);
    const output = this.options.output ?? path.join(this.options.dir, 'results.md');
    fs.writeFileSync(output, `${markdown}\n`);
    process.stderr.write(`\nWritten to ${output}\n`);
    if (this.options.docs) updateDocs(markdown);
    const missed = targets.filter((target) => target.met === false).length;
    process.stderr.write(`${targets.length - missed} of ${targets.length} targets met${missed > 0 ? `, ${missed} not` : ''}\n`);
  }
}

export const DOCS_BEGIN = '<!-- bench:begin (npm run bench -- --docs rewrites this block) -->';
export const DOCS_END = '<!-- bench:end -->';

/** Replaces the benchmark block of docs/benchmarks.md with `markdown`. */
function updateDocs(markdown: string): void {
  updateDocBlock(markdown, path.join(__dirname, '..', '..', 'docs', 'benchmarks.md'), DOCS_BEGIN, DOCS_END);
}
