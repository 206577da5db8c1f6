/**
 * What every bench section uses: the generated workspace, sessions configured as users run Agent FS (history
 * recording on, ignore rules on), round-robin timing, external commands and in-process calls, and the way to rows,
 * targets and the report (results.ts). The command line is options.ts's, peak memory memory.ts's, the MCP client
 * mcpClient.ts's.
 *
 * A section (one module per area, listed in run.ts) adds rows through `Bench.measure` and states its targets
 * through `Bench.target`; every ratio is a median over a median measured in this run, so a machine busy with other
 * work slows both sides of a ratio alike.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { invokeOperation, type Session } from '../src/core/invoke';
import { findRipgrepOnPath } from '../src/node/search/ripgrep';
import { createNodeSession } from '../src/node/host/session';
import type { Durability } from '../src/core/settings';
import { type Generated, GENERATOR } from './generate';
import { McpServer } from './mcpClient';
import { commandPeak, type Memory } from './memory';
import type { Options } from './options';
import { roundRobin, WARM_UPS } from './report';
import { Results } from './results';

export interface Spec {
  readonly tool: string;
  readonly reference: boolean;
  readonly run: () => Promise<string> | string;
  /** One more, unmeasured run that reports its peak memory. */
  readonly memory?: () => Promise<Memory | undefined>;
}

/**
 * Builds the bundles from the current source as they ship (production), for the sections that run the server as a
 * child: every later section's servers run what this leaves in dist/.
 */
export function buildAsShipped(): void {
  const build = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`node esbuild.mjs --production failed: ${build.stderr}`);
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/**
 * An external command, its output piped to this process and read whole (never /dev/null, which ripgrep recognises
 * and answers early). Describes the result by its line count.
 */
function command(executable: string, args: readonly string[], cwd?: string, env?: () => NodeJS.ProcessEnv): () => string {
  return () => {
    const child = spawnSync(executable, args, { cwd, env: env?.(), maxBuffer: 1024 * 1024 * 1024, encoding: 'buffer' });
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

function toolVersion(executable: string): string {
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

/** What a section gets: the workspace, sessions, the reference tools, and the methods that add rows and targets. */
export class Bench {
  private readonly results = new Results();
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

  /**
   * A session over `root` configured like a user's (history on, durability full), with its own history folder under
   * the bench dir.
   */
  sessionFor(root: string, options: { ripgrep?: false; history?: false; durability?: Durability }): Session {
    const state = path.join(this.options.dir, 'state', `${path.basename(root)}-${Math.random().toString(36).slice(2, 8)}`);
    return createNodeSession(root, options.durability === undefined ? {} : { durability: options.durability }, {
      ripgrep: options.ripgrep === false ? false : (this.rg ?? false),
      ...(options.history === false ? {} : { stateDirectory: state }),
    });
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
    this.results.add({ workload, tool, reference: true, times: [], result: '', skipped: why });
  }

  /** A ratio target: our row's median over the reference row's must be at most `limit`. */
  target(label: string, workload: string, ours: string, reference: string, limit: number): void {
    this.results.addTarget({ label, workload, ours, reference, limit });
  }

  /** A time target: our row's median must be at most `limitMs`. */
  timeTarget(label: string, workload: string, ours: string, limitMs: number): void {
    this.results.addTarget({ label, workload, ours, limit: limitMs });
  }

  /** A target on a figure the section computes from its own measurements (e.g. the median of single calls). */
  figureTarget(label: string, value: () => number | undefined, limit: number, unit: 'ms' | '×' | 'MiB'): void {
    this.results.addTarget({ label, workload: '', ours: '', limit, figure: { value, unit } });
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
        this.results.add({ workload, tool: spec.tool, reference: spec.reference, times: [], result: '', skipped: failure });
        continue;
      }
      const memory = spec.memory ? await spec.memory().catch(() => undefined) : undefined;
      this.results.add({ workload, tool: spec.tool, reference: spec.reference, times, result, memory });
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

  /** Our own command, run with the environment `env` gives for each run (a fresh cache folder, say). */
  oursCommand(tool: string, executable: string, args: readonly string[], env: () => NodeJS.ProcessEnv): Spec {
    return { tool, reference: false, run: command(executable, args, undefined, env) };
  }

  async close(): Promise<void> {
    await this.mcpServer?.close().catch(() => undefined);
  }

  /** The median time of the row of `workload` whose tool starts with `tool` (for a section's own figures). */
  medianMs(workload: string, tool: string): number | undefined {
    return this.results.medianOf(workload, tool);
  }

  /** What the row's process added to the memory it held before the call (its `memory` run), in MiB. */
  extraMiB(workload: string, tool: string): number | undefined {
    return this.results.extraMiB(workload, tool);
  }

  /** The highest peak resident memory of the rows of these workloads whose tool starts with `tool`, in MiB. */
  peakMiB(workloads: readonly string[], tool: string): number | undefined {
    return this.results.peakMiB(workloads, tool);
  }

  /** The report of everything measured (results.ts), after the lines that say what ran where. */
  report(): void {
    this.results.report(this.options, this.machine());
  }

  private machine(): string[] {
    const load = (values: readonly number[]): string => values.map((value) => value.toFixed(1)).join(' ');
    return [
      `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}; load average ${load(this.loadAtStart)} at the start, ${load(os.loadavg())} at the end`,
      `Node ${process.version}; ${this.rg ? toolVersion(this.rg) : 'rg not installed'}; ${toolVersion('fdfind')}; ${toolVersion('grep')}; find ${toolVersion('find').replace(/^find \(GNU findutils\) /, '')}`,
      `workspace ${this.generated.tree}: ${GENERATOR.files} files in ${GENERATOR.directories} directories (${GENERATOR.ignoredFiles} in node_modules), log ${GENERATOR.logBytes / 2 ** 30} GiB; ${WARM_UPS} warm-up runs, then ${this.options.reps} repetitions, the tools of a workload taking turns; history recording on, ignore rules on`,
    ];
  }
}
