import { arrayOf, BOOLEAN, INTEGER, nullable, object, oneOf, STRING } from '../contract/results';
import { DRY_RUN_DIFF, HASH } from './fields';
import { codePath, undoSentence } from '../changes/consequences';
import { checkHashFormat, describeLines, diffForResult, fencedDiff, needsConfirmation, sameBytes } from '../edit/editing';
import { contentHash } from '../files/hashing';
import { ToolError } from '../errors';
import { withPathLocks } from '../files/locks';
import type { CellRef, NotebookEdit } from '../notebook/changes';
import { planNotebookEdit, writeNotebookEdit } from '../notebook/edit';
import type { InputOf, InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { DRY_RUN, EXPECTED_HASH, pathParameter } from './parameters';

/** More edits than this in one call is refused: past it, rewriting the notebook says it better. */
const EDITS_CAP = 100;

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('Notebook.'),
    // The items' shape is checked by itemOf (each property spelt out here would cost the definition ~300 bytes).
    edits: { type: 'array', items: { type: 'object' }, description: 'In order, all or none.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
  },
  required: ['path', 'edits'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

const ACTIONS = ['edit', 'insert', 'delete', 'move', 'clear_outputs'] as const;

/** One item of `edits` once its properties' types are checked. */
interface Item {
  readonly action: (typeof ACTIONS)[number];
  readonly cell?: unknown;
  readonly old_string?: string;
  readonly new_string?: string;
  readonly source?: string;
  readonly kind?: 'code' | 'markdown' | 'raw';
  readonly position?: 'before' | 'after';
  readonly to?: number;
}

/** Each property an item may have, and the values it takes. */
const PROPERTY_TYPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  action: (value) => (ACTIONS as readonly unknown[]).includes(value),
  cell: () => true,
  old_string: (value) => typeof value === 'string',
  new_string: (value) => typeof value === 'string',
  source: (value) => typeof value === 'string',
  kind: (value) => value === 'code' || value === 'markdown' || value === 'raw',
  position: (value) => value === 'before' || value === 'after',
  to: (value) => typeof value === 'number' && Number.isInteger(value),
};

function itemOf(value: unknown, field: string): Item {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(field, `${field} must be an object {action, cell, …}.`);
  const item = value as Record<string, unknown>;
  if (item.action === undefined) throw invalid(`${field}.action`, `${field} needs an action: ${ACTIONS.join(', ')}.`);
  for (const [key, property] of Object.entries(item)) {
    const check = PROPERTY_TYPES[key];
    if (!check) throw invalid(`${field}.${key}`, `${field} has "${key}", which no edit takes.`);
    if (!check(property))
      throw invalid(
        `${field}.${key}`,
        `${field}.${key} ${key === 'action' ? `must be one of ${ACTIONS.join(', ')}` : 'has the wrong type'}.`,
      );
  }
  return item as unknown as Item;
}

function invalid(field: string, message: string): ToolError {
  return new ToolError('INVALID_INPUT', message, { field });
}

function cellRefOf(value: unknown, field: string): CellRef {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw invalid(field, `${field} must be a cell's id or its 0-based index.`);
}

/** Which parameters each action takes; any other one is refused rather than silently ignored. */
const TAKES: Record<Item['action'], readonly string[]> = {
  edit: ['cell', 'source', 'old_string', 'new_string'],
  insert: ['cell', 'position', 'source', 'kind'],
  delete: ['cell'],
  move: ['cell', 'to'],
  clear_outputs: ['cell'],
};

/** One item as the notebook room takes it, its parameters checked against its action. */
function editOf(item: Item, index: number): NotebookEdit {
  const field = `edits[${index}]`;
  const extra = Object.keys(item).find((key) => key !== 'action' && !TAKES[item.action].includes(key));
  if (extra !== undefined)
    throw invalid(`${field}.${extra}`, `${field}: ${item.action} takes ${TAKES[item.action].join(', ')}, not ${extra}.`);
  const cell = item.cell === undefined ? undefined : cellRefOf(item.cell, `${field}.cell`);
  const need = (ok: boolean, what: string): void => {
    if (!ok) throw invalid(field, `${field}: ${item.action} needs ${what}.`);
  };
  switch (item.action) {
    case 'edit': {
      need(cell !== undefined, 'cell');
      const pair = item.old_string !== undefined || item.new_string !== undefined;
      need(pair !== (item.source !== undefined), 'either source (the whole new source) or old_string and new_string');
      if (pair)
        need(
          item.old_string !== undefined && item.old_string !== '' && item.new_string !== undefined,
          'a non-empty old_string and a new_string',
        );
      return {
        action: 'edit',
        cell: cell ?? 0,
        source: item.source,
        old_string: item.old_string,
        new_string: item.new_string,
      };
    }
    case 'insert':
      need(item.source !== undefined, 'source (the new cell\'s text; "" for an empty cell)');
      return {
        action: 'insert',
        cell,
        position: item.position ?? 'after',
        source: item.source ?? '',
        kind: item.kind ?? 'code',
      };
    case 'delete':
      need(cell !== undefined, 'cell');
      return { action: 'delete', cell: cell ?? 0 };
    case 'move':
      need(cell !== undefined && item.to !== undefined, 'cell and to (the index it moves to)');
      return { action: 'move', cell: cell ?? 0, to: item.to ?? 0 };
    case 'clear_outputs':
      return { action: 'clear_outputs', cell };
  }
}

function editsOf(input: Input): NotebookEdit[] {
  checkHashFormat(input.expected_hash);
  if (input.edits.length === 0) throw invalid('edits', 'edits is empty: give at least one {action, cell, …}.');
  return input.edits.map((item, index) => editOf(itemOf(item, `edits[${index}]`), index));
}

/** Which cells the call deletes, as a confirmation names them. */
function deletedCells(done: readonly { action: string; index: number | null; id: string | null }[]): string[] {
  return done
    .filter((each) => each.action === 'delete')
    .map((each) => (each.id === null ? `cell ${each.index}` : `cell ${each.index} (id ${each.id})`));
}

export const editNotebook = defineTool({
  name: 'edit_notebook',
  title: 'Edit Notebook',
  userDescription: "Change a Jupyter notebook's cells: their source, new, deleted or moved cells, outputs cleared.",
  modelDescription:
    'Change cells. edits: [{action, cell (id or index), ...}]: edit (source, or old_string and new_string), insert (source, kind code|markdown|raw, position before|after; no cell: at the end), delete, move (to: index), clear_outputs (no cell: all). Inserts create a missing notebook.',
  icon: 'notebook',
  tags: ['write', 'edit', 'notebook'],
  effect: 'write',
  announcesChanges: true,
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema: object({
    path: STRING,
    dry_run: BOOLEAN,
    changed: BOOLEAN,
    total_cells: INTEGER,
    edits: arrayOf(
      object({ action: oneOf('edit', 'insert', 'delete', 'move', 'clear_outputs'), index: nullable(INTEGER), id: nullable(STRING) }),
    ),
    previous_hash: nullable(HASH),
    content_hash: HASH,
    ...DRY_RUN_DIFF,
  }),
  errors: [
    'FILE_NOT_FOUND',
    'FILE_NOT_FILE',
    'LIMIT_EXCEEDED',
    'CONTENT_CONFLICT',
    'SENSITIVE_PATH_REFUSED',
    'FILE_DIRTY_IN_EDITOR',
    'NO_MATCH',
    'MULTIPLE_MATCHES',
    'NOTEBOOK_INVALID',
    'CELL_NOT_FOUND',
  ],
  caps: { edits: { cap: EDITS_CAP, advice: 'Split them over several calls.' } },
  async prepare(input, context, { path }) {
    const { l10n } = context;
    const invocationMessage = input.dry_run ? l10n.t('Previewing an edit of {0}', path.display) : l10n.t('Editing {0}', path.display);
    if (input.dry_run) return { invocationMessage };
    const plan = await planNotebookEdit(context, path, editsOf(input), input.expected_hash);
    const deleted = deletedCells(plan.done);
    if (deleted.length === 0 && !needsConfirmation(context, plan.change)) return { invocationMessage };
    const lines = describeLines(plan.change, l10n);
    return {
      invocationMessage,
      confirmation: {
        title:
          deleted.length === 0
            ? l10n.t('Edit {0}?', path.display)
            : deleted.length === 1
              ? l10n.t('Delete a cell of {0}?', path.display)
              : l10n.t('Delete {0} cells of {1}?', deleted.length, path.display),
        message: `${
          deleted.length > 0
            ? l10n.t('{0} deletes {1}; its sources change: {2}.', codePath(path.display), deleted.join(', '), lines)
            : l10n.t('{0} changes: {1}.', codePath(path.display), lines)
        } ${undoSentence(context, plan.stat?.size)}\n\n${fencedDiff(plan.change.diff)}`,
      },
    };
  },
  async run(input, context, { path }) {
    const edits = editsOf(input);
    return withPathLocks([path.absolute], async () => {
      const plan = await planNotebookEdit(context, path, edits, input.expected_hash);
      const changed = plan.before === undefined || !sameBytes(plan.before, plan.after);
      const written = changed && !input.dry_run ? await writeNotebookEdit(context, path, plan) : undefined;
      return {
        path: path.display,
        dry_run: input.dry_run,
        changed,
        total_cells: plan.totalCells,
        edits: written?.done ?? plan.done,
        previous_hash: plan.previousHash,
        content_hash: written?.hash ?? contentHash(plan.after),
        ...(input.dry_run ? diffForResult(plan.change) : {}),
      };
    });
  },
});
