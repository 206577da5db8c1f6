/**
 * What a bench run found: its rows (one per workload and tool) and its targets, and the report made of them — a plain
 * table on the terminal, the same as markdown in results.md and, with --docs, in docs/benchmarks.md's block.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Memory } from './memory';
import type { Options } from './options';
import { markdownTable, median, plainTable, timedCells, updateDocBlock } from './report';

export interface Row {
  readonly workload: string;
  readonly tool: string;
  readonly reference: boolean;
  readonly times: number[];
  /** What came back (matches, lines, entries): a check that the tools did comparable work. */
  readonly result: string;
  readonly memory?: Memory;
  readonly skipped?: string;
}

export interface Target {
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

export class Results {
  private readonly rows: Row[] = [];
  private readonly targets: Target[] = [];

  add(row: Row): void {
    this.rows.push(row);
  }

  addTarget(target: Target): void {
    this.targets.push(target);
  }

  /** What the row of `workload` whose tool starts with `tool` added to the memory its process held before, in MiB. */
  extraMiB(workload: string, tool: string): number | undefined {
    const row = this.rows.find((each) => each.workload === workload && each.tool.startsWith(tool));
    return row?.memory?.extraKiB === undefined ? undefined : row.memory.extraKiB / 1024;
  }

  /** The highest peak resident memory of the rows of these workloads whose tool starts with `tool`, in MiB. */
  peakMiB(workloads: readonly string[], tool: string): number | undefined {
    const peaks = this.rows
      .filter((row) => workloads.includes(row.workload) && row.tool.startsWith(tool) && row.memory !== undefined)
      .map((row) => (row.memory?.peakKiB ?? 0) / 1024);
    return peaks.length === 0 ? undefined : Math.max(...peaks);
  }

  /** The median time of the row of `workload` whose tool starts with `tool`. */
  medianOf(workload: string, tool: string): number | undefined {
    const row = this.rows.find((each) => each.workload === workload && each.tool.startsWith(tool) && each.times.length > 0);
    return row ? median(row.times) : undefined;
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

  /**
   * The report: the plain table to the terminal (or markdown with --markdown), markdown to results.md (and
   * docs/benchmarks.md), each after the lines that say what ran where (`machine`).
   */
  report(options: Options, machine: readonly string[]): void {
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
      ...machine.map((line) => `- ${line}`),
      '',
      markdownTable(header, table, [false, false, true, true, true, true, false]),
      '',
      markdownTable(targetHeader, targetTable, [false, true, true, false]),
      '',
      'Peak RSS: of the whole process, for external tools by GNU time; for Agent FS one call in a fresh Node process (bench/memoryProbe.ts), in parentheses what the call added to what the process held before it.',
    ].join('\n');
    const plain = [...machine, '', plainTable(header, table), '', plainTable(targetHeader, targetTable)].join('\n');
    process.stdout.write(`${options.markdown ? markdown : plain}\n`);
    const output = options.output ?? path.join(options.dir, 'results.md');
    fs.writeFileSync(output, `${markdown}\n`);
    process.stderr.write(`\nWritten to ${output}\n`);
    if (options.docs) updateDocs(markdown);
    const missed = targets.filter((target) => target.met === false).length;
    const unmeasured = targets.filter((target) => target.met === undefined).length;
    const met = targets.length - missed - unmeasured;
    process.stderr.write(
      `${met} of ${targets.length} targets met${missed > 0 ? `, ${missed} not` : ''}${unmeasured > 0 ? `, ${unmeasured} not measured` : ''}\n`,
    );
  }
}

const DOCS_BEGIN = '<!-- bench:begin (npm run bench -- --docs rewrites this block) -->';
const DOCS_END = '<!-- bench:end -->';

/** Replaces the benchmark block of docs/benchmarks.md with `markdown`. */
function updateDocs(markdown: string): void {
  updateDocBlock(markdown, path.join(__dirname, '..', '..', 'docs', 'benchmarks.md'), DOCS_BEGIN, DOCS_END);
}
