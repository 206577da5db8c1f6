/**
 * A notebook as read_file shows it: its cells in order, each with its source as numbered lines and its outputs
 * summed up (text cut with a note, errors by name and the traceback's last lines, images and other data by type and
 * size), within a byte budget that cuts between cells and says where to go on.
 */
import { ToolError } from '../errors';
import { humanSize } from '../read/bytes';
import { cellLanguage, type CellJson, joinSource, notebookLanguage, type ParsedNotebook } from './model';

/** How much of one output's text a read shows; the rest is one raw read away. */
const OUTPUT_TEXT_CHARS = 1_000;
/** The traceback lines an error shows: the last ones say where and why. */
const TRACEBACK_LINES = 6;

export interface CellRange {
  readonly first: number;
  readonly last: number | undefined;
}

/** The `cells` parameter: "3", "3-5" or "3-" (0-based indexes, inclusive). */
export function parseCellRange(value: string | undefined): CellRange | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$/.exec(value);
  if (!match)
    throw new ToolError('INVALID_INPUT', `cells "${value}" is not a cell range: give "3", "3-5" or "3-" (0-based indexes).`, {
      field: 'cells',
    });
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : match[3] ? Number(match[3]) : undefined;
  if (last !== undefined && last < first)
    throw new ToolError('INVALID_INPUT', `cells "${value}" ends before it starts.`, { field: 'cells' });
  return { first, last };
}

type Output = Record<string, unknown>;

function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… [${text.length - limit} more characters; raw: true shows all]`;
}

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

/** How big an output's data is: an image's decoded bytes (nbformat stores them base64), else its characters. */
function dataSize(mime: string, value: string): string {
  if (!mime.startsWith('image/') || mime === 'image/svg+xml') return `${value.length.toLocaleString('en-US')} characters`;
  const base64 = value.replace(/\s/g, '');
  return humanSize(Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0));
}

/** One output as a few small fields. */
function summarise(output: Output): Output {
  const type = String(output.output_type);
  if (type === 'stream') return { type, name: output.name, text: cut(joinSource(output.text), OUTPUT_TEXT_CHARS) };
  if (type === 'error') {
    const traceback = Array.isArray(output.traceback) ? output.traceback.map((line) => String(line).replace(ANSI, '')) : [];
    const lines = traceback.join('\n').split('\n');
    return { type, ename: output.ename, evalue: output.evalue, traceback: lines.slice(-TRACEBACK_LINES).join('\n') };
  }
  const data = (output.data ?? {}) as Record<string, unknown>;
  const text = data['text/plain'];
  const others = Object.entries(data)
    .filter(([mime]) => mime !== 'text/plain')
    .map(([mime, value]) => `${mime}, ${dataSize(mime, joinSource(value))} (not shown)`);
  return {
    type,
    ...(text === undefined ? {} : { text: cut(joinSource(text), OUTPUT_TEXT_CHARS) }),
    ...(others.length > 0 ? { data: others } : {}),
  };
}

/** A source as numbered lines ("1: import os"); the numbers are not part of the source. */
function numbered(source: string): string {
  const lines = source.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line, index) => `${index + 1}: ${line}`).join('\n');
}

function omitted(cell: CellJson): Output[] {
  const count = cell.outputs?.length ?? 0;
  return count === 0 ? [] : [{ type: 'omitted', count }];
}

function cellView(cell: CellJson, index: number, language: string): Output {
  const own = cellLanguage(cell, language);
  return {
    index,
    ...(cell.id === undefined ? {} : { id: cell.id }),
    kind: cell.cell_type,
    ...(cell.cell_type === 'code' && own !== language ? { language: own } : {}),
    source: numbered(joinSource(cell.source)),
    ...(cell.cell_type === 'code'
      ? { execution_count: cell.execution_count ?? null, outputs: (cell.outputs ?? []).map((output) => summarise(output)) }
      : {}),
  };
}

export interface NotebookRead {
  readonly format: 'notebook';
  readonly nbformat: string;
  readonly language: string;
  readonly total_cells: number;
  readonly cells: readonly Output[];
  readonly truncated: boolean;
  readonly next_cell: number | null;
}

/** The cells `range` asks for that fit in `maxBytes` (as JSON); always at least one, cut itself if it must be. */
export function notebookView(notebook: ParsedNotebook, range: CellRange | undefined, maxBytes: number): NotebookRead {
  const { json } = notebook;
  const total = json.cells.length;
  const first = range?.first ?? 0;
  if (first > 0 && first >= total) {
    throw new ToolError(
      'INVALID_INPUT',
      `cells starts at ${first}, but the notebook has ${total} cell${total === 1 ? '' : 's'} (indexes 0-${total - 1}).`,
      {
        field: 'cells',
        total_cells: total,
      },
    );
  }
  const last = Math.min(range?.last ?? total - 1, total - 1);
  const language = notebookLanguage(json);
  const cells: Output[] = [];
  let used = 0;
  let index = first;
  for (; index <= last; index++) {
    const cell = json.cells[index];
    if (!cell) break;
    const view = cellView(cell, index, language);
    const size = new TextEncoder().encode(JSON.stringify(view)).length;
    if (cells.length > 0 && used + size > maxBytes) break;
    // A cell too big for the budget alone still comes, its source cut and its outputs only counted.
    cells.push(size > maxBytes ? { ...view, source: cut(String(view.source), maxBytes / 2), outputs: omitted(cell) } : view);
    used += size;
  }
  return {
    format: 'notebook',
    nbformat: `${json.nbformat}.${json.nbformat_minor}`,
    language,
    total_cells: total,
    cells,
    truncated: index <= last,
    next_cell: index <= last ? index : null,
  };
}
