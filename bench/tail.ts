/** The last 100 lines of the 1 GiB log: a ranged read from the end, in time and memory. */
import { countLines, type Bench } from './harness';
import { peakOf } from './memory';

export async function run(bench: Bench): Promise<void> {
  if (!bench.wants('tail')) return;
  const workload = 'tail 100 lines of 1 GiB log';
  const { log, logs } = bench.generated;
  const session = bench.sessionFor(logs, { ripgrep: false });
  const mcp = await bench.mcp();
  const pid = mcp.transport.pid;
  const mcpTail = (): Promise<string> => mcp.call('read_text_file', { path: log, tail: 100 });
  await bench.measure(workload, [
    bench.ours(
      'agentfs read_file tail_lines',
      'read_file',
      { file_name: 'app.log', tail_lines: 100 },
      (data) => `${countLines(String(data.content)) - 1} lines`,
      session,
    ),
    bench.command('tail -n 100', 'tail', ['-n', '100', log]),
    {
      tool: 'MCP read_text_file tail',
      reference: true,
      run: async () => `${countLines((await mcpTail()).trimEnd())} lines`,
      memory: () => (pid === null ? Promise.resolve(undefined) : peakOf(pid, mcpTail)),
    },
  ]);
  bench.timeTarget('tail of the 1 GiB log < 50 ms', workload, 'agentfs', 50);
  bench.target('tail: ahead of the MCP server', workload, 'agentfs', 'MCP', 1);
}
