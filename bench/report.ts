/**
 * What the in-process bench (harness.ts) and the extension-host bench (host/) share and that needs neither Node's
 * child processes nor VS Code: round-robin timing, medians, the two table formats and the blocks of docs/benchmarks.md.
 */
import * as fs from 'node:fs';

/** Unmeasured runs first: they warm the page cache and, for code in this process, the JIT. */
export const WARM_UPS = 3;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export interface Timed {
  readonly times: number[];
  /** What the last run returned (matches, lines, entries): a check that the tools did comparable work. */
  readonly result: string;
  /** The first line of the error that stopped the tool's runs, if one did. */
  readonly failure?: string;
}

/**
 * Times `runs` round-robin: each repetition runs every one once, so a burst of load from elsewhere on a shared
 * machine falls on all of them rather than on whichever ran then. Each first gets WARM_UPS unmeasured runs (one, for
 * a run slower than 2 s); one whose measured runs already took more than `budgetMs` (at least 3 of them) stops early.
 */
export async function roundRobin(
  runs: readonly (() => Promise<string> | string)[],
  reps: number,
  options: { budgetMs?: number; onStart?: (index: number) => void } = {},
): Promise<Timed[]> {
  const budget = options.budgetMs ?? 30_000;
  const state = runs.map(() => ({ times: [] as number[], result: '', failure: undefined as string | undefined }));
  const failed = (error: unknown): string => (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
  for (const [index, run] of runs.entries()) {
    const each = state[index];
    if (!each) continue;
    options.onStart?.(index);
    try {
      const first = performance.now();
      each.result = await run();
      if (performance.now() - first < 2000) for (let warm = 1; warm < WARM_UPS; warm++) each.result = await run();
    } catch (error) {
      each.failure = failed(error);
    }
  }
  for (let rep = 0; rep < reps; rep++) {
    for (const [index, run] of runs.entries()) {
      const each = state[index];
      if (!each || each.failure !== undefined || (each.times.length >= 3 && each.times.reduce((sum, time) => sum + time, 0) > budget))
        continue;
      try {
        const start = performance.now();
        each.result = await run();
        each.times.push(performance.now() - start);
      } catch (error) {
        each.failure = failed(error);
      }
    }
  }
  return state;
}

export interface TimedRow {
  readonly workload: string;
  readonly tool: string;
  readonly reference: boolean;
  readonly times: readonly number[];
  readonly result: string;
  readonly skipped?: string;
}

/**
 * The table cells of timed rows, workload by workload: [workload, tool, min, median, × the workload's fastest
 * reference] then `extra(row)` — or, for a row that did not run, dashes and why.
 */
export function timedCells<R extends TimedRow>(
  rows: readonly R[],
  extra: (row: R) => readonly string[],
  why: (row: R) => string,
): string[][] {
  const cells: string[][] = [];
  for (const workload of [...new Set(rows.map((row) => row.workload))]) {
    const group = rows.filter((row) => row.workload === workload);
    const references = group.filter((row) => row.reference && row.times.length > 0).map((row) => median(row.times));
    const fastest = references.length > 0 ? Math.min(...references) : undefined;
    for (const row of group) {
      if (row.skipped !== undefined || row.times.length === 0) {
        cells.push([
          workload,
          row.tool,
          '–',
          '–',
          '–',
          ...extra(row)
            .map(() => '–')
            .slice(1),
          why(row),
        ]);
        continue;
      }
      const med = median(row.times);
      cells.push([
        workload,
        row.tool,
        Math.min(...row.times).toFixed(1),
        med.toFixed(1),
        fastest === undefined ? '–' : `${(med / fastest).toFixed(2)}×`,
        ...extra(row),
      ]);
    }
  }
  return cells;
}

export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], right: readonly boolean[]): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `|${header.map((_, index) => (right[index] ? '---:' : '---')).join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

export function plainTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (row: readonly string[]): string =>
    row
      .map((text, index) => text.padEnd(widths[index] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** Replaces the block of `file` between the markers `begin` and `end` with `markdown`; both must be there already. */
export function updateDocBlock(markdown: string, file: string, begin: string, end: string): void {
  const text = fs.readFileSync(file, 'utf8');
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`${file} has no block between "${begin}" and "${end}"`);
  fs.writeFileSync(file, `${text.slice(0, from + begin.length)}\n${markdown}\n${text.slice(to)}`);
  process.stderr.write(`Updated ${file}\n`);
}
