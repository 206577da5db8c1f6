/**
 * What a model pays for Agent FS, in bytes: every tool's definition (name, description and input schema as JSON, as
 * a client is sent them with every request) beside the MCP filesystem server's, read from its tools/list in the same
 * run, and the reply of each read, list and search tool with default arguments on the generated 100,000-file
 * workspace, each against the 32 KB a reply may take. No timing: the sizes are the same on every run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
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
  const data = envelope.data as { truncated?: unknown; next_offset?: unknown; next_start_line?: unknown; next_cell?: unknown };
  const way =
    data.next_offset !== undefined
      ? 'next_offset'
      : data.next_start_line !== undefined && data.next_start_line !== null
        ? 'next_start_line'
        : typeof data.next_cell === 'number'
          ? 'next_cell'
          : 'no way on given';
  const note = data.truncated === true ? `truncated: ${way}` : '';
  return { bytes: bytes(JSON.stringify(envelope)), note };
}

/**
 * Notebooks as people keep them, written as Jupyter writes them: a short analysis whose plot is an 80 KB PNG, and a
 * long one of 100 executed cells, each printing 40 KB and drawing a 30 KB plot.
 */
function writeNotebooks(dir: string): void {
  const cell = (index: number, source: string, outputs: unknown[]): unknown => ({
    cell_type: 'code',
    execution_count: index + 1,
    id: `cell-${index}`,
    metadata: {},
    outputs,
    source: source.split(/(?<=\n)/),
  });
  const plot = (bytes: number): unknown => ({
    data: {
      'image/png': `${'iVBORw0KGgo'.padEnd(Math.ceil((bytes * 4) / 3), 'A')}\n`,
      'text/plain': ['<Figure size 640x480 with 1 Axes>'],
    },
    metadata: {},
    output_type: 'display_data',
  });
  const notebook = (cells: unknown[]): string =>
    `${JSON.stringify({ cells, metadata: { language_info: { name: 'python' } }, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`;
  fs.writeFileSync(
    path.join(dir, 'analysis.ipynb'),
    notebook([
      cell(0, 'import numpy as np\nimport matplotlib.pyplot as plt\nx = np.linspace(0, 10, 100)\n', []),
      cell(1, 'plt.plot(x, np.sin(x))\nplt.title("sin")\nplt.show()', [plot(80 * 1024)]),
    ]),
  );
  const printed = { name: 'stdout', output_type: 'stream', text: `${'0.1234 '.repeat(14)}\n`.repeat(400) };
  fs.writeFileSync(
    path.join(dir, 'long.ipynb'),
    notebook(
      Array.from({ length: 100 }, (_, index) =>
        cell(index, `result_${index} = run(${index})\nprint(result_${index})`, [printed, plot(30 * 1024)]),
      ),
    ),
  );
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
  const notebooks = fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-bench-notebooks-'));
  writeNotebooks(notebooks);
  const notebookSession = bench.sessionFor(notebooks, { history: false });
  const calls: readonly [string, Record<string, unknown>, Session][] = [
    ['read_file', { file_name: path.basename(log) }, logSession],
    ['read_file', { file_name: 'analysis.ipynb', raw: true }, notebookSession],
    ['read_file', { file_name: 'analysis.ipynb' }, notebookSession],
    ['read_file', { file_name: 'long.ipynb', raw: true }, notebookSession],
    ['read_file', { file_name: 'long.ipynb' }, notebookSession],
    ['read_many_files', { paths: someFiles }, session],
    ['list_files', {}, session],
    ['list_directory', {}, session],
    ['list_directory', { recursive: true }, session],
    ['directory_tree', {}, session],
    ['search_files', { pattern: '**/*.ts' }, session],
    ['find_file', { file_name: 'user controller' }, session],
    ['search_content', { query: 'import' }, session],
    ['read_outline', { path: someFiles[0] ?? '.' }, session],
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
  fs.rmSync(notebooks, { recursive: true, force: true });

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
