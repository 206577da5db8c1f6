/**
 * Agent FS's MCP server (dist/mcp.js, history on) against the official MCP filesystem server, each a child driven
 * over stdio by the same SDK client: the workloads both servers can do, with the JSON-RPC round trip in every time.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Bench, buildAsShipped, countLines, type Spec } from './harness';
import { McpServer } from './mcpClient';
import { peakOf } from './memory';

const REPO = path.join(__dirname, '..', '..');

/**
 * Calls a few milliseconds long are timed ten at a time: on a shared machine one call's time is mostly the
 * scheduler's; ten in a row show the servers' own difference.
 */
const BATCH = 10;

async function batch(call: () => Promise<string>): Promise<string> {
  let last = '';
  for (let index = 0; index < BATCH; index++) last = await call();
  return last;
}

/** The envelope's data of one of our calls (McpServer.call already threw for isError). */
function dataOf(text: string): Record<string, unknown> {
  return (JSON.parse(text) as { data: Record<string, unknown> }).data;
}

export async function run(bench: Bench): Promise<void> {
  const keys = ['mcp-glob', 'mcp-list', 'mcp-tail', 'mcp-range', 'mcp-writes', 'mcp-latency'];
  if (!keys.some((key) => bench.wants(key)) && !bench.wants('mcp')) return;
  const wants = (key: string): boolean => bench.wants('mcp') || bench.wants(key);
  const { tree, logs, log } = bench.generated;
  const { dir } = bench.options;
  // The server measured is the current source.
  buildAsShipped();

  const scratch = path.join(dir, 'writes');
  const ourWrites = path.join(scratch, 'agentfs-mcp');
  const theirWrites = path.join(scratch, 'mcp');
  const tiny = path.join(scratch, 'tiny');
  for (const folder of [ourWrites, theirWrites, tiny]) fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(tiny, 'tiny.txt'), 'a tiny file\n');
  const state = path.join(dir, 'state', `mcp-${Math.random().toString(36).slice(2, 8)}`);
  const ours = await McpServer.spawn([
    path.join(REPO, 'dist', 'mcp.js'),
    '--root',
    tree,
    '--root',
    logs,
    '--root',
    scratch,
    '--state',
    state,
  ]);
  // The same server without syncs, for the writes: what durability costs over MCP.
  const oursFast = wants('mcp-writes')
    ? await McpServer.spawn([path.join(REPO, 'dist', 'mcp.js'), '--root', scratch, '--state', `${state}-fast`, '--durability', 'fast'])
    : undefined;
  const theirs = await bench.mcp();
  const oursPid = ours.transport.pid;
  const row = (tool: string, call: () => Promise<string>, describe: (text: string) => string): Spec => ({
    tool,
    reference: false,
    run: async () => describe(await call()),
    memory: () => (oursPid === null ? Promise.resolve(undefined) : peakOf(oursPid, call)),
  });
  const reference = (tool: string, call: () => Promise<string>, describe: (text: string) => string): Spec => {
    const pid = theirs.transport.pid;
    return {
      tool,
      reference: true,
      run: async () => describe(await call()),
      memory: () => (pid === null ? Promise.resolve(undefined) : peakOf(pid, call)),
    };
  };
  const ahead = (workload: string, what: string): void =>
    bench.target(`MCP ${what}: Agent FS ahead of the official server`, workload, 'agentfs-mcp', 'official', 1);

  try {
    if (wants('mcp-glob')) {
      const workload = 'MCP: glob **/*.md';
      await bench.measure(workload, [
        row(
          'agentfs-mcp search_files',
          () => ours.call('search_files', { pattern: '**/*.md', path: tree, max_results: 200 }),
          (text) => `${String(dataOf(text).total)} paths`,
        ),
        reference(
          'official search_files',
          () => theirs.call('search_files', { path: tree, pattern: '**/*.md' }),
          (text) => `${countLines(text)} lines`,
        ),
      ]);
      ahead(workload, 'glob');
    }
    if (wants('mcp-list')) {
      const workload = 'MCP: recursive listing';
      await bench.measure(workload, [
        row(
          'agentfs-mcp list_directory',
          () => ours.call('list_directory', { path: tree, recursive: true, include_hidden: true, max_entries: 1000 }),
          (text) => `${String(dataOf(text).total)} entries`,
        ),
        reference(
          'official directory_tree',
          () => theirs.call('directory_tree', { path: tree }),
          (text) => `${text.length} chars`,
        ),
      ]);
      ahead(workload, 'listing');
    }
    if (wants('mcp-tail')) {
      const workload = `MCP: tail 100 lines of 1 GiB log (${BATCH} calls)`;
      await bench.measure(workload, [
        row(
          'agentfs-mcp read_file tail_lines',
          () => batch(() => ours.call('read_file', { file_name: log, tail_lines: 100 })),
          (text) => `${countLines(String(dataOf(text).content)) - 1} lines`,
        ),
        reference(
          'official read_text_file tail',
          () => batch(() => theirs.call('read_text_file', { path: log, tail: 100 })),
          (text) => `${countLines(text.trimEnd())} lines`,
        ),
      ]);
      ahead(workload, 'tail');
    }
    if (wants('mcp-range')) {
      // The official server reads ranges from the start (head) or the end (tail) only: the first 1,000 lines.
      const workload = `MCP: first 1,000 lines of 1 GiB log (${BATCH} calls)`;
      await bench.measure(workload, [
        // max_bytes at its cap: the 1,000 lines whole (about 80 KB), past read_file's default 20 KiB budget.
        row(
          'agentfs-mcp read_file start_line/end_line',
          () => batch(() => ours.call('read_file', { file_name: log, start_line: 1, end_line: 1000, max_bytes: 256 * 1024 })),
          (text) => `${countLines(String(dataOf(text).content)) - 1} lines`,
        ),
        reference(
          'official read_text_file head',
          () => batch(() => theirs.call('read_text_file', { path: log, head: 1000 })),
          (text) => `${countLines(text.trimEnd())} lines`,
        ),
      ]);
      ahead(workload, 'ranged read');
    }
    if (wants('mcp-writes')) {
      const workload = 'MCP: 1,000 small writes';
      const writes =
        (server: McpServer, folder: string, input: (index: number) => Record<string, unknown>) => async (): Promise<string> => {
          fs.rmSync(folder, { recursive: true, force: true });
          fs.mkdirSync(path.join(folder, 'notes'), { recursive: true });
          for (let index = 0; index < 1000; index++) await server.call('write_file', input(index));
          return '1000 files';
        };
      const content = (index: number): string => `# Note ${index}\n\nSome text.\n`;
      const fastWrites = path.join(scratch, 'agentfs-mcp-fast');
      await bench.measure(workload, [
        {
          tool: 'agentfs-mcp write_file (history on, durability full)',
          reference: false,
          run: writes(ours, ourWrites, (index) => ({
            file_name: path.join(ourWrites, 'notes', `note-${index}.md`),
            content: content(index),
          })),
        },
        ...(oursFast
          ? [
              {
                tool: 'agentfs-mcp write_file (history on, durability fast)',
                reference: false,
                run: writes(oursFast, fastWrites, (index) => ({
                  file_name: path.join(fastWrites, 'notes', `note-${index}.md`),
                  content: content(index),
                })),
              },
            ]
          : []),
        {
          tool: 'official write_file',
          reference: true,
          run: writes(theirs, theirWrites, (index) => ({
            path: path.join(theirWrites, 'notes', `note-${index}.md`),
            content: content(index),
          })),
        },
      ]);
      ahead(workload, 'writes (durability full, against none)');
    }
    if (wants('mcp-latency')) {
      const workload = 'MCP: 1,000 tiny reads (latency)';
      const file = path.join(tiny, 'tiny.txt');
      const calls = (call: () => Promise<string>) => async (): Promise<string> => {
        for (let index = 0; index < 1000; index++) await call();
        return '1000 calls';
      };
      await bench.measure(workload, [
        { tool: 'agentfs-mcp read_file', reference: false, run: calls(() => ours.call('read_file', { file_name: file })) },
        { tool: 'official read_text_file', reference: true, run: calls(() => theirs.call('read_text_file', { path: file })) },
      ]);
      ahead(workload, 'tiny-call latency');
    }
  } finally {
    await ours.close();
    await oursFast?.close();
  }
}
