/** 1,000 small sequential writes, with history recorded (as users have it) and, for comparison, without. */
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
  const writes = (history: boolean) => async (): Promise<string> => {
    const session = bench.sessionFor(fresh(history ? 'agentfs' : 'agentfs-no-history'), { ripgrep: false, ...(history ? {} : { history: false }) });
    for (let index = 0; index < 1000; index++) await ours(session, 'write_file', { file_name: `notes/note-${index}.md`, content: `# Note ${index}\n\nSome text.\n` }, () => '');
    return '1000 files';
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
        for (let index = 0; index < 1000; index++) await mcp.call('write_file', { path: path.join(dir, 'notes', `note-${index}.md`), content: `# Note ${index}\n\nSome text.\n` });
        return '1000 files';
      },
    },
  ]);
  bench.target('writes (history on): ahead of the MCP server', workload, 'agentfs write_file (history on)', 'MCP', 1);
  bench.timeTarget('1,000 writes with history ≤ 1 ms each', workload, 'agentfs write_file (history on)', 1000);
}
