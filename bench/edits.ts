/**
 * One line in the middle of a 1 GiB file changed in place: replace_lines and edit_file through the runner (a process
 * per call, as `sed -i` is), with the history off and on (on, with room to keep the old gibibyte: --history-max-bytes),
 * against `sed -i` on the same file, in one run, with each process's peak memory. The file is a copy of the bench's
 * log; each repetition writes another line, so every call really rewrites the file.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Bench, Spec } from './harness';
import { commandPeak } from './memory';

const RUNNER = path.join(__dirname, '..', '..', 'dist', 'cli.js');

export async function run(bench: Bench): Promise<void> {
  if (!bench.wants('edits')) return;
  if (!fs.existsSync(RUNNER)) throw new Error(`${RUNNER} is missing: npm run build first`);
  const directory = path.join(bench.options.dir, 'edits');
  const state = path.join(bench.options.dir, 'state', 'edits');
  fs.rmSync(directory, { recursive: true, force: true });
  fs.rmSync(state, { recursive: true, force: true });
  fs.mkdirSync(directory, { recursive: true });
  const file = path.join(directory, 'big.log');
  fs.copyFileSync(bench.generated.log, file);
  const lines = countNewlines(file);
  const middle = Math.floor(lines / 2);
  let turn = 0;

  const agentfs = (tool: string, history: boolean, operation: string, input: () => Record<string, unknown>): Spec => {
    const flags = history ? ['--state', state, '--history-max-bytes', String(4 * 2 ** 30)] : ['--no-history'];
    const args = (): string[] => [RUNNER, '--root', directory, ...flags, operation, JSON.stringify(input())];
    return {
      tool,
      reference: false,
      run: () => {
        const child = spawnSync(process.execPath, args(), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        const envelope = JSON.parse(child.stdout) as {
          ok: boolean;
          data?: { lines_added?: number; undo_available?: boolean };
          error?: { code: string };
        };
        if (!envelope.ok) throw new Error(`${operation} failed: ${envelope.error?.code ?? child.stderr}`);
        return `${envelope.data?.lines_added ?? 0} line${history ? `, undo ${String(envelope.data?.undo_available)}` : ''}`;
      },
      memory: () => commandPeak(process.execPath, args())(),
    };
  };
  const sed = (script: () => string): Spec => ({
    tool: 'sed -i',
    reference: true,
    run: () => {
      const child = spawnSync('sed', ['-i', script(), file], { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(`sed failed: ${child.stderr}`);
      return '1 line';
    },
    memory: () => commandPeak('sed', ['-i', script(), file])(),
  });

  const replaced = (): string => `line replaced in turn ${++turn}`;
  const workload = 'replace one middle line of a 1 GiB file';
  await bench.measure(workload, [
    agentfs('agentfs replace_lines, history off', false, 'replace_lines', () => ({
      path: 'big.log',
      start_line: middle,
      end_line: middle,
      content: `${replaced()}\n`,
    })),
    agentfs('agentfs replace_lines, history on', true, 'replace_lines', () => ({
      path: 'big.log',
      start_line: middle,
      end_line: middle,
      content: `${replaced()}\n`,
    })),
    sed(() => `${middle}s/.*/${replaced()}/`),
  ]);
  bench.target('replace_lines 1 GiB, history off: ≤ 1.5× sed -i', workload, 'agentfs replace_lines, history off', 'sed', 1.5);
  bench.target('replace_lines 1 GiB, history on: ≤ 2× sed -i', workload, 'agentfs replace_lines, history on', 'sed', 2);

  // edit_file finds its text, which must occur once: the whole file is searched, as sed's substitution reads it all.
  const marker = (): string => `middle marker ${turn}`;
  const current = { text: marker() };
  const next = (): { old: string; new: string } => {
    const old = current.text;
    current.text = `middle marker ${++turn}`;
    return { old, new: current.text };
  };
  const setup = spawnSync('sed', ['-i', `${middle}s/.*/${current.text}/`, file], { encoding: 'utf8' });
  if (setup.status !== 0) throw new Error(`sed failed: ${setup.stderr}`);
  const editWorkload = 'edit_file of one unique line in a 1 GiB file';
  await bench.measure(editWorkload, [
    agentfs('agentfs edit_file, history off', false, 'edit_file', () => {
      const change = next();
      return { path: 'big.log', old_string: change.old, new_string: change.new };
    }),
    agentfs('agentfs edit_file, history on', true, 'edit_file', () => {
      const change = next();
      return { path: 'big.log', old_string: change.old, new_string: change.new };
    }),
    sed(() => {
      const change = next();
      return `s/${change.old}/${change.new}/`;
    }),
  ]);
  bench.target('edit_file 1 GiB, history off: ≤ 1.5× sed -i', editWorkload, 'agentfs edit_file, history off', 'sed', 1.5);
  bench.target('edit_file 1 GiB, history on: ≤ 2× sed -i', editWorkload, 'agentfs edit_file, history on', 'sed', 2);
  bench.figureTarget(
    'edits of a 1 GiB file: peak resident memory under 100 MiB',
    () => bench.peakMiB([workload, editWorkload], 'agentfs'),
    100,
    'MiB',
  );
  fs.rmSync(directory, { recursive: true, force: true });
  fs.rmSync(state, { recursive: true, force: true });
}

function countNewlines(file: string): number {
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let count = 0;
  try {
    for (let read = fs.readSync(fd, buffer); read > 0; read = fs.readSync(fd, buffer)) {
      for (let index = buffer.indexOf(10); index !== -1 && index < read; index = buffer.indexOf(10, index + 1)) count++;
    }
  } finally {
    fs.closeSync(fd);
  }
  return count;
}
