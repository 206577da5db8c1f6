/**
 * Small writes. 1,000 sequential writes in process: recorded (history on) with durability full (every change synced
 * before the reply, as users have it) and fast (no syncs), unrecorded; beside the MCP filesystem server over stdio (no
 * sync), a bare `fs.promises.writeFile`, and what a write costs on this disk with each sync of the durable sequence
 * (write and rename; the file fsynced before the rename; its folder fsynced after): the cost of each sync. Each
 * result gives the median single write too, which is what the per-write targets mean. Then 1,000 durable writes
 * from 4 processes at once sharing one history (their syncs overlap: a group commit), against one process doing all
 * of them, and the bare durable sequence from 4 processes.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Durability } from '../src/core/settings';
import { type Bench, ours } from './harness';

/** Writes `content` at `target` as a durable write does at the least, up to `steps`: write, fsync, rename, folder fsync. */
function bareWrite(target: string, content: string, steps: 'rename' | 'file' | 'folder'): void {
  const staging = `${target}.tmp`;
  const fd = fs.openSync(staging, 'w');
  fs.writeSync(fd, content);
  if (steps !== 'rename') fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(staging, target);
  if (steps === 'folder') {
    const folder = fs.openSync(path.dirname(target), 'r');
    fs.fsyncSync(folder);
    fs.closeSync(folder);
  }
}

/** Starts `processes` writer processes (writerProcess.ts), lets them all go at once, and resolves when all are done. */
async function together(
  mode: 'agentfs' | 'node',
  root: string,
  state: string,
  locks: string,
  processes: number,
  each: number,
): Promise<void> {
  const script = path.join(__dirname, 'writerProcess.js');
  const children = Array.from({ length: processes }, (_, index) =>
    spawn(process.execPath, [script, mode, root, state, locks, String(each), `p${index}`], { stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  const said = (child: (typeof children)[number], word: string): Promise<void> =>
    new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.split('\n').includes(word)) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.once('exit', (code) =>
        code === 0 && out.split('\n').includes(word) ? resolve() : reject(new Error(`writer exited ${code}: ${err}`)),
      );
    });
  await Promise.all(children.map((child) => said(child, 'ready')));
  const done = Promise.all(children.map((child) => said(child, 'done')));
  for (const child of children) child.stdin.end('go\n');
  await done;
}

export async function run(bench: Bench): Promise<void> {
  if (!bench.wants('writes')) return;
  const workload = '1,000 small writes';
  const scratch = path.join(bench.options.dir, 'writes');
  const fresh = (name: string): string => {
    const dir = path.join(scratch, name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  /** Per tool, the median single write of each measured run. */
  const singles = new Map<string, number[]>();
  /** Times each of 1,000 writes; the result names their median. */
  const timed =
    (tool: string) =>
    async (write: (index: number) => Promise<unknown> | void): Promise<string> => {
      const times: number[] = [];
      for (let index = 0; index < 1000; index++) {
        const start = process.hrtime.bigint();
        await write(index);
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      times.sort((a, b) => a - b);
      const middle = ((times[499] ?? 0) + (times[500] ?? 0)) / 2;
      singles.set(tool, [...(singles.get(tool) ?? []), middle]);
      return `1000 files, median ${middle.toFixed(2)} ms a write`;
    };
  const single = (tool: string): number | undefined => {
    const runs = [...(singles.get(tool) ?? [])].sort((a, b) => a - b);
    return runs.length === 0 ? undefined : runs[Math.floor(runs.length / 2)];
  };
  const content = (index: number): string => `# Note ${index}\n\nSome text.\n`;
  const writes = (name: string, durability: Durability, history: boolean) => async (): Promise<string> => {
    const session = bench.sessionFor(fresh(`agentfs-${name}`), { ripgrep: false, durability, ...(history ? {} : { history: false }) });
    return timed(name)((index) => ours(session, 'write_file', { file_name: `notes/note-${index}.md`, content: content(index) }, () => ''));
  };
  const bare = (name: string, steps: 'rename' | 'file' | 'folder') => async (): Promise<string> => {
    const dir = fresh(name);
    fs.mkdirSync(path.join(dir, 'notes'));
    return timed(name)((index) => bareWrite(path.join(dir, 'notes', `note-${index}.md`), content(index), steps));
  };
  const mcp = await bench.mcp();
  await bench.measure(workload, [
    { tool: 'agentfs write_file (durability full, history on)', reference: false, run: writes('full', 'full', true) },
    { tool: 'agentfs write_file (durability fast, history on)', reference: false, run: writes('fast', 'fast', true) },
    { tool: 'agentfs write_file (durability full, history off)', reference: false, run: writes('full-off', 'full', false) },
    {
      tool: 'MCP write_file',
      reference: true,
      run: async () => {
        const dir = fresh('mcp');
        fs.mkdirSync(path.join(dir, 'notes'));
        return timed('mcp')((index) =>
          mcp.call('write_file', { path: path.join(dir, 'notes', `note-${index}.md`), content: content(index) }),
        );
      },
    },
    {
      tool: 'fs.promises.writeFile',
      reference: true,
      run: async () => {
        const dir = fresh('node');
        fs.mkdirSync(path.join(dir, 'notes'));
        return timed('node')((index) => fs.promises.writeFile(path.join(dir, 'notes', `note-${index}.md`), content(index)));
      },
    },
    { tool: 'node: write, rename', reference: true, run: bare('rename', 'rename') },
    { tool: 'node: write, fsync, rename', reference: true, run: bare('file', 'file') },
    { tool: 'node: write, fsync, rename, folder fsync', reference: true, run: bare('folder', 'folder') },
  ]);
  // The warm-up runs count too (`singles` has them): each is a full run of 1,000 writes, only unmeasured.
  bench.figureTarget('a recorded write, durability full ≤ 1.5 ms (median of 1,000)', () => single('full'), 1.5, 'ms');
  bench.figureTarget('a recorded write, durability fast ≤ 0.5 ms (median of 1,000)', () => single('fast'), 0.5, 'ms');
  bench.figureTarget(
    'a recorded durable write over the bare durable sequence (median single write)',
    () => {
      const mine = single('full');
      const floor = single('folder');
      return mine === undefined || floor === undefined ? undefined : mine / floor;
    },
    2,
    '×',
  );

  const together4 = '1,000 durable writes from 4 processes at once';
  const locks = path.join(bench.options.dir, 'writes-locks');
  const shared = (name: string, mode: 'agentfs' | 'node', processes: number) => async (): Promise<string> => {
    const root = fresh(name);
    const state = path.join(bench.options.dir, 'state', `${name}-${Math.random().toString(36).slice(2, 8)}`);
    await together(mode, root, state, locks, processes, 1000 / processes);
    return `${processes} × ${1000 / processes} files`;
  };
  await bench.measure(together4, [
    { tool: 'agentfs write_file, 4 processes, one history (durability full)', reference: false, run: shared('four', 'agentfs', 4) },
    { tool: 'agentfs write_file, 1 process (durability full)', reference: false, run: shared('one', 'agentfs', 1) },
    { tool: 'node: write, fsync, rename, folder fsync, 4 processes', reference: true, run: shared('bare-four', 'node', 4) },
  ]);
  bench.figureTarget(
    'group commit: 4 processes at once against 1 process, the same 1,000 durable writes',
    () => {
      const four = bench.medianMs(together4, 'agentfs write_file, 4 processes');
      const one = bench.medianMs(together4, 'agentfs write_file, 1 process');
      return four === undefined || one === undefined ? undefined : four / one;
    },
    1,
    '×',
  );
}
