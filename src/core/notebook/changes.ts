/**
 * The cell edits of edit_notebook, as changes to the notebook's text: each edit replaces exactly the characters of
 * the values it changes (a cell's source, its outputs, a cell's whole object when inserted, moved or deleted), so
 * that everything else — other cells, metadata, indentation, key order, the final newline — stays byte for byte.
 * Edits apply in order, each to the notebook the one before left, and each is also given as an EditorStep, the same
 * change for a notebook open in the editor (ports/notebooks.ts).
 */
import type { Node } from 'jsonc-parser';
import { ToolError } from '../errors';
import { applyRegions, findMatches } from '../edit/match';
import type { EditorStep } from '../ports/notebooks';
import { cellLanguage, type CellKind, joinSource, notebookLanguage, type ParsedNotebook, parseNotebook } from './model';
import { detectStyle, indentAt, jsonString, type JsonStyle, sourceLines, writeJson } from './style';

export type CellRef = string | number;

export type NotebookEdit =
  | {
      readonly action: 'edit';
      readonly cell: CellRef;
      readonly source?: string;
      readonly old_string?: string;
      readonly new_string?: string;
    }
  | {
      readonly action: 'insert';
      readonly cell?: CellRef;
      readonly position: 'before' | 'after';
      readonly source: string;
      readonly kind: CellKind;
    }
  | { readonly action: 'delete'; readonly cell: CellRef }
  | { readonly action: 'move'; readonly cell: CellRef; readonly to: number }
  | { readonly action: 'clear_outputs'; readonly cell?: CellRef };

/** What one edit did, as the result reports it: the cell's index after it (before it, for a delete) and its id. */
export interface EditDone {
  readonly action: NotebookEdit['action'];
  readonly index: number | null;
  readonly id: string | null;
}

export interface EditedNotebook {
  readonly notebook: ParsedNotebook;
  readonly done: readonly EditDone[];
  readonly steps: readonly EditorStep[];
}

function splice(text: string, start: number, end: number, replacement: string): string {
  return text.slice(0, start) + replacement + text.slice(end);
}

const end = (node: Node): number => node.offset + node.length;

/** The index of the cell `ref` names: an id, or a 0-based index (also written as a string, where no id is that). */
function resolveCell(notebook: ParsedNotebook, ref: CellRef, field: string): number {
  const { cells } = notebook;
  const byId = typeof ref === 'string' ? cells.findIndex((cell) => cell.json.id === ref) : -1;
  if (byId !== -1) return byId;
  const index = typeof ref === 'number' ? ref : /^\d+$/.test(ref) ? Number(ref) : undefined;
  if (index !== undefined && Number.isInteger(index) && index >= 0 && index < cells.length) return index;
  const ids = cells.map((cell, at) => cell.json.id ?? `#${at}`);
  const listed = ids.length > 12 ? `${ids.slice(0, 12).join(', ')}, …` : ids.join(', ');
  throw new ToolError(
    'CELL_NOT_FOUND',
    `${field}: no cell ${JSON.stringify(ref)} in this notebook of ${cells.length} cell${cells.length === 1 ? '' : 's'} (indexes 0-${Math.max(0, cells.length - 1)}${ids.some((id) => !id.startsWith('#')) ? `; ids ${listed}` : ''}). Read the notebook again for its cells.`,
    { field, cell: ref, total_cells: cells.length },
  );
}

/** A cell's new source from an `edit`: the whole source, or old_string → new_string with edit_file's matching. */
function editedSource(before: string, edit: Extract<NotebookEdit, { action: 'edit' }>, field: string): string {
  if (edit.source !== undefined) return edit.source;
  const oldString = edit.old_string ?? '';
  const result = findMatches(before, oldString, edit.new_string ?? '');
  if (result.stage === 'none') {
    const best = result.candidates[0];
    const nearest = best
      ? ` The nearest text is at lines ${best.start_line}-${best.end_line} of the cell (similarity ${best.similarity}):\n${best.lines.map((line) => `${line.line}: ${line.text}`).join('\n')}`
      : '';
    throw new ToolError('NO_MATCH', `${field}.old_string was not found in the cell, neither exactly nor ignoring indentation.${nearest}`, {
      field: `${field}.old_string`,
      candidates: result.candidates,
    });
  }
  if (result.regions.length > 1) {
    throw new ToolError(
      'MULTIPLE_MATCHES',
      `${field}.old_string matches ${result.regions.length} times in the cell (lines ${result.regions.map((region) => region.line).join(', ')}). Include more of the cell so it matches once, or give the whole new source.`,
      { field: `${field}.old_string`, match_count: result.regions.length },
    );
  }
  return applyRegions(before, result.regions);
}

/** A cell's source written where its old one stood, in the same form (a string, or a list of lines). */
function writeSource(text: string, node: Node, source: string, style: JsonStyle): string {
  const written = node.type === 'string' ? jsonString(source, style) : writeJson(sourceLines(source), style, indentAt(text, node.offset));
  return splice(text, node.offset, end(node), written);
}

/** A new cell's object, with its keys in the notebook's order and an id where the notebook's version has them. */
function newCell(
  notebook: ParsedNotebook,
  edit: Extract<NotebookEdit, { action: 'insert' }>,
  style: JsonStyle,
  id: string | undefined,
): Record<string, unknown> {
  const values: Record<string, unknown> = {
    cell_type: edit.kind,
    ...(edit.kind === 'code' ? { execution_count: null } : {}),
    ...(id === undefined ? {} : { id }),
    metadata: {},
    ...(edit.kind === 'code' ? { outputs: [] } : {}),
    source: style.sourceAsLines ? sourceLines(edit.source) : edit.source,
  };
  const order = style.sortKeys
    ? Object.keys(values).sort()
    : (notebook.cells[0]?.node.children ?? []).map((child) => String(child.children?.[0]?.value));
  const keys = [...order.filter((key) => key in values), ...Object.keys(values).filter((key) => !order.includes(key))];
  return Object.fromEntries(keys.map((key) => [key, values[key]]));
}

/** An id no cell of the notebook has, as nbformat makes them (eight hex digits). */
function freshId(notebook: ParsedNotebook): string {
  const taken = new Set(notebook.cells.map((cell) => cell.json.id));
  for (;;) {
    const id = globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 8);
    if (!taken.has(id)) return id;
  }
}

/** `cellText` (a cell's object as written at the cells' indentation) placed at `index` of the cells list. */
function placeCell(notebook: ParsedNotebook, index: number, cellText: (indent: string) => string, style: JsonStyle): string {
  const { text, cellsNode } = notebook;
  const children = cellsNode.children ?? [];
  const listIndent = indentAt(text, cellsNode.offset);
  const indent = style.unit === undefined ? '' : listIndent + style.unit;
  const next = children[index];
  const previous = children[index - 1];
  const separator = style.unit === undefined ? style.comma : `,${style.newline}${indent}`;
  if (next) return splice(text, next.offset, next.offset, cellText(indentAt(text, next.offset)) + separator);
  if (previous) return splice(text, end(previous), end(previous), separator + cellText(indentAt(text, previous.offset)));
  const opened =
    style.unit === undefined ? `[${cellText('')}]` : `[${style.newline}${indent}${cellText(indent)}${style.newline}${listIndent}]`;
  return splice(text, cellsNode.offset, end(cellsNode), opened);
}

/** The text without the cell at `index`, and the separator before or after it. */
function removeCell(notebook: ParsedNotebook, index: number): string {
  const { text, cellsNode } = notebook;
  const children = cellsNode.children ?? [];
  const cell = children[index];
  if (!cell) return text;
  const previous = children[index - 1];
  const next = children[index + 1];
  if (previous) return splice(text, end(previous), end(cell), '');
  if (next) return splice(text, cell.offset, next.offset, '');
  return splice(text, cellsNode.offset, end(cellsNode), '[]');
}

/** Outputs emptied and the execution count reset, for a code cell that has either. */
function clearOutputs(notebook: ParsedNotebook, index: number): string {
  const cell = notebook.cells[index];
  if (!cell || cell.json.cell_type !== 'code') return notebook.text;
  const changes = [
    { node: cell.value('outputs'), value: '[]' },
    { node: cell.value('execution_count'), value: 'null' },
  ].filter(
    (change): change is { node: Node; value: string } =>
      change.node !== undefined && notebook.text.slice(change.node.offset, end(change.node)) !== change.value,
  );
  return changes
    .sort((a, b) => b.node.offset - a.node.offset)
    .reduce((text, change) => splice(text, change.node.offset, end(change.node), change.value), notebook.text);
}

/** Applies `edits` in order to `parsed`; refuses (and changes nothing) at the first that cannot be made. */
export function applyNotebookEdits(parsed: ParsedNotebook, display: string, edits: readonly NotebookEdit[]): EditedNotebook {
  let notebook = parsed;
  const style = detectStyle(notebook);
  const done: EditDone[] = [];
  const steps: EditorStep[] = [];
  for (const [position, edit] of edits.entries()) {
    const field = `edits[${position}]`;
    const next = applyOne(notebook, edit, field, style, steps);
    notebook = parseNotebook(next.text, display);
    const cell = next.index === null ? undefined : notebook.cells[next.index];
    done.push({ action: edit.action, index: next.index ?? next.removed ?? null, id: cell?.json.id ?? next.removedId ?? null });
  }
  return { notebook, done, steps };
}

interface OneEdit {
  readonly text: string;
  /** The index of the cell the edit leaves changed or placed; null where it removed one or touched several. */
  readonly index: number | null;
  readonly removed?: number;
  readonly removedId?: string;
}

function applyOne(notebook: ParsedNotebook, edit: NotebookEdit, field: string, style: JsonStyle, steps: EditorStep[]): OneEdit {
  const total = notebook.cells.length;
  switch (edit.action) {
    case 'edit': {
      const index = resolveCell(notebook, edit.cell, `${field}.cell`);
      const cell = notebook.cells[index];
      const node = cell?.value('source');
      if (!cell || !node) throw new ToolError('NOTEBOOK_INVALID', `Cell ${index} has no source.`, { field });
      const source = editedSource(joinSource(cell.json.source), edit, field);
      steps.push({ kind: 'source', index, source });
      return { text: writeSource(notebook.text, node, source, style), index };
    }
    case 'insert': {
      const anchor = edit.cell === undefined ? undefined : resolveCell(notebook, edit.cell, `${field}.cell`);
      const index = anchor === undefined ? (edit.position === 'before' ? 0 : total) : edit.position === 'before' ? anchor : anchor + 1;
      const id = notebook.json.nbformat_minor >= 5 ? freshId(notebook) : undefined;
      const cell = newCell(notebook, edit, style, id);
      const language = edit.kind === 'code' ? notebookLanguage(notebook.json) : edit.kind;
      steps.push({
        kind: 'insert',
        index,
        cell: { kind: edit.kind, language, source: edit.source },
      });
      return { text: placeCell(notebook, index, (indent) => writeJson(cell, style, indent), style), index };
    }
    case 'delete': {
      const index = resolveCell(notebook, edit.cell, `${field}.cell`);
      steps.push({ kind: 'delete', index });
      return { text: removeCell(notebook, index), index: null, removed: index, removedId: notebook.cells[index]?.json.id };
    }
    case 'move': {
      const from = resolveCell(notebook, edit.cell, `${field}.cell`);
      if (!Number.isInteger(edit.to) || edit.to < 0 || edit.to >= total) {
        throw new ToolError('INVALID_INPUT', `${field}.to must be an index from 0 to ${total - 1}: where the cell ends up.`, {
          field: `${field}.to`,
        });
      }
      const node = notebook.cells[from]?.node;
      if (!node || from === edit.to) return { text: notebook.text, index: from };
      const raw = notebook.text.slice(node.offset, end(node));
      const without = parseNotebook(removeCell(notebook, from), '');
      steps.push({ kind: 'move', from, to: edit.to });
      return { text: placeCell(without, edit.to, () => raw, style), index: edit.to };
    }
    case 'clear_outputs': {
      const indexes =
        edit.cell === undefined ? notebook.cells.map((_cell, index) => index) : [resolveCell(notebook, edit.cell, `${field}.cell`)];
      let text = notebook.text;
      for (const index of [...indexes].reverse()) {
        const cleared = clearOutputs(parseNotebook(text, ''), index);
        if (cleared !== text) steps.push({ kind: 'clear_outputs', index });
        text = cleared;
      }
      return { text, index: edit.cell === undefined ? null : (indexes[0] ?? null) };
    }
  }
}

/** The cells' sources as one text, for a diff a person can read: each cell under a header line naming it. */
export function sourcesView(notebook: ParsedNotebook): string {
  const language = notebookLanguage(notebook.json);
  return notebook.cells
    .map((cell, index) => {
      const source = joinSource(cell.json.source);
      const header = `# %% [${cell.json.id ?? index}] ${cellLanguage(cell.json, language)}`;
      return `${header}\n${source}${source === '' || source.endsWith('\n') ? '' : '\n'}`;
    })
    .join('');
}
