/**
 * 1,000 small sequential writes, with history recorded (as users have it) and, for comparison, without; beside the
 * MCP filesystem server over stdio and a bare `fs.promises.writeFile` (no temporary file, no checks, no history).
 * Each result also gives the median of the 1,000 single writes, which is what the "≤ 1 ms a write" target means.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Bench, ours } from './harness';

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
    async (write: (index: number) => Promise<unknown>): Promise<string> => {
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
  const writes = (history: boolean) => async (): Promise<string> => {
    const session = bench.sessionFor(fresh(history ? 'agentfs' : 'agentfs-no-history'), {
      ripgrep: false,
      ...(history ? {} : { history: false }),
    });
    return timed(history ? 'on' : 'off')((index) =>
      ours(session, 'write_file', { file_name: `notes/note-${index}.md`, content: content(index) }, () => ''),
    );
  };
  const mcp = await bench.mcp();
  await bench.measure(workload, [
    { tool: 'agentfs write_file (history on)', reference: false, run: writes(true) },
    { tool: 'agentfs write_file (history off)', reference: false, run: writes(false) },
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
  ]);
  bench.target('writes (history on): ahead of the MCP server, all 1,000', workload, 'agentfs write_file (history on)', 'MCP', 1);
  // The warm-up runs count too (`singles` has them): each is a full run of 1,000 writes, only unmeasured.
  bench.figureTarget('a write with history ≤ 1 ms (median of 1,000)', () => single('on'), 1, 'ms');
  bench.figureTarget(
    'a write with history: ahead of the MCP server (median single write)',
    () => {
      const mine = single('on');
      const theirs = single('mcp');
      return mine === undefined || theirs === undefined ? undefined : mine / theirs;
    },
    1,
    '×',
  );
}
