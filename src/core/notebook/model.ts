/**
 * A Jupyter notebook as its text stands: the parsed value, and where in the text each cell and each of a cell's
 * values lies, so that an edit can replace exactly the characters it changes and leave every other one as it was.
 * Offsets are in UTF-16 code units of the decoded text (what jsonc-parser reports).
 */
import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser';
import { ToolError } from '../errors';

/** The parts of a notebook's JSON that the tools read; anything else is kept as it is and never looked at. */
export interface NotebookJson {
  readonly nbformat: number;
  readonly nbformat_minor: number;
  readonly metadata: Record<string, unknown>;
  readonly cells: readonly CellJson[];
}

export type CellKind = 'code' | 'markdown' | 'raw';

export interface CellJson {
  readonly cell_type: CellKind;
  readonly id?: string;
  readonly metadata: Record<string, unknown>;
  readonly source: string | readonly string[];
  readonly execution_count?: number | null;
  readonly outputs?: readonly Record<string, unknown>[];
}

/** One cell of the text: where its object lies, and its values' nodes. */
interface CellSpan {
  readonly node: Node;
  readonly json: CellJson;
  /** The value of a property of the cell's object, where it has one. */
  value(key: string): Node | undefined;
}

export interface ParsedNotebook {
  readonly text: string;
  readonly json: NotebookJson;
  /** The `cells` array's node. */
  readonly cellsNode: Node;
  readonly cells: readonly CellSpan[];
}

function invalid(display: string, why: string): ToolError {
  return new ToolError(
    'NOTEBOOK_INVALID',
    `${display} is not a valid Jupyter notebook: ${why}. Nothing was changed. Read it with raw: true to see its JSON.`,
    { path: display },
  );
}

/** Joins a multiline string as nbformat stores it: a string, or a list of lines that each keep their newline. */
export function joinSource(source: unknown): string {
  if (typeof source === 'string') return source;
  return Array.isArray(source) ? source.filter((line): line is string => typeof line === 'string').join('') : '';
}

/**
 * The notebook in `text`, checked only as far as the tools rely on: strict JSON, version 4, a `cells` array of
 * objects. Whether it is valid nbformat is the schema's to say (schema.ts), before anything is written.
 */
export function parseNotebook(text: string, display: string): ParsedNotebook {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(display, `its JSON does not parse (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(display, 'it is not a JSON object');
  const json = value as Partial<NotebookJson>;
  if (json.nbformat !== 4) throw invalid(display, `it is nbformat ${String(json.nbformat)}; only version 4 notebooks are read as cells`);
  if (!Array.isArray(json.cells)) throw invalid(display, 'it has no "cells" list');
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  const cellsNode = root && findNodeAtLocation(root, ['cells']);
  if (!cellsNode || cellsNode.type !== 'array') throw invalid(display, 'it has no "cells" list');
  const cells = (cellsNode.children ?? []).map((node, index): CellSpan => {
    const cell: unknown = json.cells?.[index];
    if (node.type !== 'object' || typeof cell !== 'object' || cell === null) throw invalid(display, `cell ${index} is not an object`);
    return { node, json: cell as CellJson, value: (key) => findNodeAtLocation(node, [key]) };
  });
  return { text, json: json as NotebookJson, cellsNode, cells };
}

/** The notebook's own language: the kernel's language (language_info.name, else kernelspec.language), or python. */
export function notebookLanguage(json: NotebookJson): string {
  const info = json.metadata.language_info as { name?: unknown } | undefined;
  const spec = json.metadata.kernelspec as { language?: unknown } | undefined;
  const name = typeof info?.name === 'string' ? info.name : typeof spec?.language === 'string' ? spec.language : undefined;
  return name ?? 'python';
}

/** A cell's language: its own where VS Code recorded one that differs from the notebook's, else the notebook's. */
export function cellLanguage(cell: CellJson, notebook: string): string {
  if (cell.cell_type === 'markdown') return 'markdown';
  if (cell.cell_type === 'raw') return 'raw';
  const vscode = cell.metadata.vscode as { languageId?: unknown } | undefined;
  return typeof vscode?.languageId === 'string' ? vscode.languageId : notebook;
}
