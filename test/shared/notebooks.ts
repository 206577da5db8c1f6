/**
 * Notebooks written by the tests, in the styles writers use — nbformat 4.0 to 4.5 (ids from 4.5), one- or
 * two-space indentation, LF or CRLF, sorted keys (Jupyter) or not, sources as lists of lines or one string,
 * escaped or raw non-ASCII, with or without a final newline — and every kind of output. `writeNotebook` is this file's
 * own JSON writer (JSON.stringify, then the style's changes), independent of the product's, so that a test can say
 * exactly which bytes an edit must leave: the expected notebook's value written in the same style.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface NotebookStyle {
  readonly minor: 0 | 4 | 5;
  readonly indent: 1 | 2;
  readonly crlf: boolean;
  readonly sorted: boolean;
  readonly sourceAsString: boolean;
  readonly asciiOnly: boolean;
  readonly finalNewline: boolean;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Cell = { [key: string]: Json };
export interface Notebook {
  cells: Cell[];
  metadata: { [key: string]: Json };
  nbformat: number;
  nbformat_minor: number;
}

/** Every combination of the style's options that the edit tests go through (48). */
export function notebookStyles(): NotebookStyle[] {
  const styles: NotebookStyle[] = [];
  for (const minor of [0, 4, 5] as const)
    for (const indent of [1, 2] as const)
      for (const crlf of [false, true])
        for (const sorted of [true, false])
          for (const finalNewline of [true, false]) {
            const variant = styles.length;
            styles.push({ minor, indent, crlf, sorted, finalNewline, sourceAsString: variant % 3 === 1, asciiOnly: variant % 5 === 2 });
          }
  return styles;
}

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function source(text: string, style: NotebookStyle): Json {
  return style.sourceAsString ? text : lines(text);
}

/** A cell's keys in the style's order: sorted, or the order a hand-made writer might use. */
function ordered(cell: Cell, style: NotebookStyle): Cell {
  const order = style.sorted ? Object.keys(cell).sort() : ['cell_type', 'id', 'source', 'metadata', 'execution_count', 'outputs'];
  return Object.fromEntries(order.filter((key) => key in cell).map((key) => [key, cell[key] ?? null]));
}

export function codeCell(text: string, style: NotebookStyle, extra: { id?: string; count?: number | null; outputs?: Json[] } = {}): Cell {
  return ordered(
    {
      cell_type: 'code',
      execution_count: extra.count ?? null,
      ...(style.minor >= 5 && extra.id !== undefined ? { id: extra.id } : {}),
      metadata: {},
      outputs: extra.outputs ?? [],
      source: source(text, style),
    },
    style,
  );
}

export function markdownCell(text: string, style: NotebookStyle, id?: string): Cell {
  return ordered(
    { cell_type: 'markdown', ...(style.minor >= 5 && id !== undefined ? { id } : {}), metadata: {}, source: source(text, style) },
    style,
  );
}

/** A tiny PNG's bytes as nbformat stores them: base64, split into lines. */
const PNG = `${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='}\n`;

/** Four cells: code with stdout, stderr, a result and an image; markdown in three scripts; code with an error; raw. */
export function sampleNotebook(style: NotebookStyle): Notebook {
  const outputs: Json[] = [
    { name: 'stdout', output_type: 'stream', text: ['[0 1 2]\n', 'Grüße, 你好 🎉\n'] },
    { name: 'stderr', output_type: 'stream', text: ['warning: slow\n'] },
    { data: { 'text/html': ['<b>3</b>'], 'text/plain': ['3'] }, execution_count: 1, metadata: {}, output_type: 'execute_result' },
    { data: { 'image/png': PNG, 'text/plain': ['<Figure size 640x480>'] }, metadata: {}, output_type: 'display_data' },
  ];
  const error: Json = {
    ename: 'ZeroDivisionError',
    evalue: 'division by zero',
    output_type: 'error',
    traceback: ['\u001b[0;31m----\u001b[0m', 'Cell In[2], line 1', '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'],
  };
  return {
    cells: [
      codeCell('import numpy as np\nx = np.arange(3)\nprint(x)', style, { id: 'first-cell', count: 1, outputs }),
      markdownCell('# Überschrift\nΚείμενο και 中文\n- item', style, 'notes'),
      codeCell('1/0\n', style, { id: 'boom', count: 2, outputs: [error] }),
      ordered({ cell_type: 'raw', ...(style.minor >= 5 ? { id: 'raw1' } : {}), metadata: {}, source: source('raw text', style) }, style),
    ],
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: style.minor,
  };
}

/** The notebook's bytes in the style. */
export function writeNotebook(notebook: Notebook, style: NotebookStyle): Buffer {
  let text = JSON.stringify(notebook, null, style.indent);
  if (style.asciiOnly) text = text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (style.finalNewline) text += '\n';
  if (style.crlf) text = text.replace(/\n/g, '\r\n');
  return Buffer.from(text, 'utf8');
}

const PYTHON = '/usr/bin/python3';

/**
 * What Jupyter's own validator (Debian's python3-nbformat) says of each file: undefined for a valid notebook, else
 * its message. One interpreter checks them all.
 */
export function jupyterVerdicts(files: readonly string[]): (string | undefined)[] {
  const script = [
    'import json, sys, nbformat',
    'out = []',
    'for name in json.load(sys.stdin):',
    '    try:',
    '        nbformat.validate(nbformat.read(name, as_version=nbformat.NO_CONVERT))',
    '        out.append(None)',
    '    except Exception as error:',
    '        out.append(str(error)[:300])',
    'print(json.dumps(out))',
  ].join('\n');
  const result = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify(files.map((file) => path.resolve(file))), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`nbformat's validator did not run: ${result.stderr}`);
  return (JSON.parse(result.stdout) as (string | null)[]).map((verdict) => verdict ?? undefined);
}

/** Whether nbformat's validator is here (npm test installs python3-nbformat; see test/launcher/install.ts). */
export function hasJupyterValidator(): boolean {
  return fs.existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import nbformat']).status === 0;
}
