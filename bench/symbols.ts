/**
 * The symbol tools: read_outline of a 5,000-line TypeScript file, warm (the grammar loaded), against the TypeScript
 * compiler parsing the same text in the same process (createSourceFile, the reference); a grammar's first load in a
 * fresh process (grammarProbe.ts); and what a model reads to see one function, with read_file from the top (its
 * pages followed until the function's last line) against read_file with `symbol`, on the code files of the
 * generated workspace.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { invokeOperation, type Session } from '../src/core/invoke';
import { createNodeSession } from '../src/node/host/session';
import { scriptFile } from '../test/shared/symbolCorpus';
import type { Bench } from './harness';

interface Shown {
  readonly name_path: string;
  readonly kind: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly children?: readonly Shown[];
}

const flat = (symbols: readonly Shown[]): Shown[] => symbols.flatMap((symbol) => [symbol, ...flat(symbol.children ?? [])]);

async function data(
  session: Session,
  operation: string,
  input: Record<string, unknown>,
): Promise<{ bytes: number; data: Record<string, unknown> }> {
  const envelope = await invokeOperation(operation, input, session);
  if (!envelope.ok) throw new Error(`${operation} failed: ${envelope.error.code} ${envelope.error.message}`);
  return { bytes: Buffer.byteLength(JSON.stringify(envelope)), data: envelope.data as Record<string, unknown> };
}

/** The bytes of read_file replies from the top, page after page, until `end` is read. */
async function bytesToReach(session: Session, file: string, end: number): Promise<number> {
  let total = 0;
  let start = 1;
  for (;;) {
    const { bytes, data: read } = await data(session, 'read_file', { file_name: file, ...(start > 1 ? { start_line: start } : {}) });
    total += bytes;
    const next = read.next_start_line;
    if (typeof next !== 'number' || (typeof read.end_line === 'number' && read.end_line >= end)) return total;
    start = next;
  }
}

export async function run(bench: Bench): Promise<void> {
  if (!bench.wants('symbols')) return;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-bench-symbols-'));
  try {
    const lines: string[] = [];
    for (let seed = 1; lines.length < 5_000; seed++)
      lines.push(
        ...scriptFile(seed, 'ts')
          .text.replace(/^\uFEFF/, '')
          .split(/\r?\n/),
      );
    const text = `${lines.slice(0, 5_000).join('\n')}\n`;
    fs.writeFileSync(path.join(folder, 'large.ts'), text);
    const session = createNodeSession(folder, {}, { locks: false, ripgrep: false });
    // Warm: the grammar is loaded by this first call, as by a server's first outline.
    await data(session, 'read_outline', { path: 'large.ts' });
    const workload = 'outline of a 5,000-line TypeScript file, warm';
    await bench.measure(workload, [
      {
        tool: 'agentfs read_outline',
        reference: false,
        run: async () => `${String((await data(session, 'read_outline', { path: 'large.ts' })).data.total)} symbols`,
      },
      {
        tool: 'TypeScript createSourceFile',
        reference: true,
        run: () => `${ts.createSourceFile('large.ts', text, ts.ScriptTarget.Latest, true).statements.length} statements`,
      },
    ]);
    bench.timeTarget('outline of a 5,000-line file, warm, < 50 ms', workload, 'agentfs', 50);

    const probe = path.join(__dirname, 'grammarProbe.js');
    const firstLoads: string[][] = [];
    for (const [name, source] of [
      ['TypeScript', 'large.ts'],
      ['Python', 'module.py'],
    ] as const) {
      if (source === 'module.py') fs.writeFileSync(path.join(folder, source), 'class A:\n    def f(self):\n        return 1\n');
      const loads: number[] = [];
      for (let rep = 0; rep < bench.options.reps; rep++) {
        const result = spawnSync(process.execPath, [probe, path.join(folder, source)], { encoding: 'utf8' });
        if (result.status !== 0) throw new Error(`grammarProbe failed: ${result.stderr}`);
        loads.push((JSON.parse(result.stdout) as { first: number }).first);
      }
      loads.sort((a, b) => a - b);
      firstLoads.push([`${name} (${source})`, (loads[0] ?? 0).toFixed(1), (loads[Math.floor(loads.length / 2)] ?? 0).toFixed(1)]);
    }

    const { tree } = bench.generated;
    const treeSession = bench.sessionFor(tree, { history: false });
    const found = await data(treeSession, 'search_files', { pattern: '**/*.{ts,js,py}', max_results: 200 });
    const files = ((found.data.matches ?? []) as { relative_path: string }[]).map((match) => match.relative_path);
    let whole = 0;
    let symbol = 0;
    let measured = 0;
    for (const file of files) {
      const outline = await data(treeSession, 'read_outline', { path: file });
      const target = flat(outline.data.symbols as Shown[]).find((each) => each.kind === 'function' || each.kind === 'method');
      if (!target) continue;
      whole += await bytesToReach(treeSession, file, target.end_line);
      symbol += (await data(treeSession, 'read_file', { file_name: file, symbol: target.name_path })).bytes;
      measured++;
    }
    const mean = (bytes: number): string => (measured === 0 ? '-' : (bytes / measured).toFixed(0));
    process.stdout.write(
      [
        '',
        'Symbols: a grammar’s first load in a fresh process (runtime, grammar and one outline), ms',
        ...firstLoads.map((row) => `  ${row[0]}: min ${row[1]}, median ${row[2]}`),
        '',
        `Symbols: bytes a model reads to see one function, on ${measured} code files of ${path.basename(tree)}`,
        `  read_file from the top, pages followed to the function's end: ${whole} bytes, ${mean(whole)} a file`,
        `  read_file with symbol: ${symbol} bytes, ${mean(symbol)} a file (${whole === 0 ? '-' : ((symbol / whole) * 100).toFixed(1)}%)`,
        '',
      ].join('\n'),
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
