/**
 * What a model pays for Agent FS, in bytes: every tool's definition (name, description and input schema as JSON, as
 * a client is sent them with every request) beside the MCP filesystem server's, read from its tools/list in the same
 * run, and the reply of each read, list and search tool with default arguments on the generated 100,000-file
 * workspace, each against the 32 KB a reply may take. No timing: the sizes are the same on every run.
 */
import * as path from 'node:path';
import type { Session } from '../src/core/invoke';
import { invokeOperation } from '../src/core/invoke';
import { definitionBytes } from '../src/core/catalog/manifest';
import { TOOL_DEFINITIONS } from '../src/core/tools';
import type { Bench } from './harness';

const REPLY_BUDGET = 32 * 1024;
const DEFINITIONS_BUDGET = 20_000;
const TOOL_BUDGET = 1_000;

const bytes = (text: string): number => Buffer.byteLength(text);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (row: readonly string[]): string =>
    row.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

async function reply(session: Session, operation: string, input: Record<string, unknown>): Promise<{ bytes: number; note: string }> {
  const envelope = await invokeOperation(operation, input, session);
  if (!envelope.ok) return { bytes: bytes(JSON.stringify(envelope)), note: envelope.error.code };
  const data = envelope.data as { truncated?: unknown; next_offset?: unknown; next_start_line?: unknown };
  const way =
    data.next_offset !== undefined
      ? 'next_offset'
      : data.next_start_line !== undefined && data.next_start_line !== null
        ? 'next_start_line'
        : 'no way on given';
  const note = data.truncated === true ? `truncated: ${way}` : '';
  return { bytes: bytes(JSON.stringify(envelope)), note };
}

export async function run(bench: Bench): Promise<void> {
  if (!bench.wants('context')) return;
  process.stderr.write('  context: definitions and default replies…\n');

  const ours = TOOL_DEFINITIONS.map((tool) => ({ name: tool.name, bytes: definitionBytes(tool) }));
  const { tools } = await (await bench.mcp()).client.listTools();
  const theirs = tools.map((tool) => ({
    name: tool.name,
    bytes: bytes(JSON.stringify({ name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema })),
  }));
  const sum = (list: readonly { bytes: number }[]): number => list.reduce((total, each) => total + each.bytes, 0);
  const definitionRows = [
    ...ours.map((tool) => [`agentfs_${tool.name}`, String(tool.bytes), tool.bytes <= TOOL_BUDGET ? 'met' : 'NOT MET']),
    [`Agent FS, all ${ours.length} tools`, String(sum(ours)), sum(ours) <= DEFINITIONS_BUDGET ? 'met' : 'NOT MET'],
    [`MCP filesystem server, all ${theirs.length} tools`, String(sum(theirs)), ''],
    ['Agent FS per tool (mean)', (sum(ours) / ours.length).toFixed(0), ''],
    ['MCP filesystem server per tool (mean)', (sum(theirs) / Math.max(1, theirs.length)).toFixed(0), ''],
  ];

  const { tree, logs, log } = bench.generated;
  const session = bench.sessionFor(tree, { history: false });
  const logSession = bench.sessionFor(logs, { history: false });
  const someFiles =
    (
      (await invokeOperation('search_files', { pattern: '**/*.ts', max_results: 32 }, session)) as {
        data?: { matches?: { relative_path: string }[] };
      }
    ).data?.matches?.map((match) => match.relative_path) ?? [];
  const calls: readonly [string, Record<string, unknown>, Session][] = [
    ['read_file', { file_name: path.basename(log) }, logSession],
    ['read_many_files', { paths: someFiles }, session],
    ['list_files', {}, session],
    ['list_directory', {}, session],
    ['list_directory', { recursive: true }, session],
    ['directory_tree', {}, session],
    ['search_files', { pattern: '**/*.ts' }, session],
    ['find_file', { file_name: 'user controller' }, session],
    ['search_content', { query: 'import' }, session],
    ['file_info', { path: someFiles[0] ?? '.' }, session],
    ['path_exists', { path: someFiles[0] ?? '.' }, session],
    ['workspace_info', {}, session],
  ];
  const replyRows: string[][] = [];
  for (const [operation, input, callSession] of calls) {
    const measured = await reply(callSession, operation, input);
    const shown = JSON.stringify(input).replace(/"paths":\[[^\]]*\]/, `"paths":[${someFiles.length} files]`);
    replyRows.push([`${operation} ${shown}`, String(measured.bytes), measured.bytes <= REPLY_BUDGET ? 'met' : 'NOT MET', measured.note]);
  }

  process.stdout.write(
    [
      '',
      'Context: definition bytes (name + description + input schema as JSON; budget 1,000 a tool, 20,000 in all)',
      table(['definition', 'bytes', 'budget'], definitionRows),
      '',
      `Context: reply bytes with default arguments on the ${path.basename(tree)} workspace (budget ${REPLY_BUDGET} each)`,
      table(['call', 'bytes', 'budget', 'note'], replyRows),
      '',
    ].join('\n'),
  );
}
