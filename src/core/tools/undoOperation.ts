import { object } from '../contract/results';
import { restoredFields, UNDO_FIELDS } from './fields';
import { onlyWhere } from '../naming';
import { codePath, sizeText, timeAgo } from '../changes/consequences';
import type { PathState } from '../history/state';
import type { OperationRecord, PathRecord } from '../history/store';
import { confinedPathsOf, requireHistory, requireRecord } from '../recording/records';
import { undoRecord } from '../recording/undo';
import type { Preparation } from '../tool';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { plural } from '../files/walk';
import { OPERATION_ID } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    operation_id: OPERATION_ID,
  },
  required: ['operation_id'],
  additionalProperties: false,
} as const satisfies InputSchema;

/** What each recorded operation did, as a person says it: "deleting", "it was deleted". */
const WORDS: Readonly<Record<string, { readonly doing: string; readonly done: string }>> = {
  write_file: { doing: 'writing', done: 'written' },
  create_file: { doing: 'creating', done: 'created' },
  create_directory: { doing: 'creating', done: 'created' },
  edit_file: { doing: 'editing', done: 'edited' },
  replace_lines: { doing: 'editing', done: 'edited' },
  insert_lines: { doing: 'editing', done: 'edited' },
  delete_lines: { doing: 'editing', done: 'edited' },
  apply_patch: { doing: 'patching', done: 'patched' },
  edit_notebook: { doing: 'editing', done: 'edited' },
  delete_file: { doing: 'deleting', done: 'deleted' },
  delete_directory: { doing: 'deleting', done: 'deleted' },
  copy_file: { doing: 'copying', done: 'copied' },
  copy_directory: { doing: 'copying', done: 'copied' },
  move_file: { doing: 'moving', done: 'moved' },
  move_directory: { doing: 'moving', done: 'moved' },
};
const UNDO_WORDS = { doing: 'undoing', done: 'undone' };

function isDirectory(state: PathState): boolean {
  return state.type === 'directory';
}

/** "(1.2 KiB)", "(2 files, 3.4 KiB)", "(empty)"; nothing for links and other entries. */
function measure(state: PathState): string {
  if (state.type === 'file') return ` (${sizeText(state.size)})`;
  if (state.type !== 'directory') return '';
  const files = state.entries.filter((entry) => entry.type === 'file');
  if (state.entries.length === 0) return ' (empty)';
  const bytes = files.reduce((sum, entry) => sum + (entry.size ?? 0), 0);
  return ` (${files.length > 0 ? `${plural(files.length, 'file')}, ${sizeText(bytes)}` : plural(state.entries.length, 'entry', 'entries')})`;
}

/**
 * Where a move put things, as the call named it: the record keeps the highest path the move created (a new parent
 * folder), which is not what the person asked for.
 */
function movedTo(record: OperationRecord, destination: PathRecord): string {
  const asked = record.input.destination_path;
  if (typeof asked !== 'string' || asked.startsWith('[')) return destination.display;
  return (
    asked
      .replace(/\/{2,}/g, '/')
      .replace(/^(\.\/)+/, '')
      .replace(/\/$/, '') || destination.display
  );
}

/** A move's two paths: where it came from and where it went. */
function moveOf(record: OperationRecord): { source: PathRecord; destination: PathRecord } | undefined {
  if (!record.operation.startsWith('move_') || record.paths.length !== 2) return undefined;
  const source = record.paths.find((path) => path.before.type !== 'missing' && path.after.type === 'missing');
  const destination = record.paths.find((path) => path.after.type !== 'missing' && path !== source);
  return source && destination ? { source, destination } : undefined;
}

function steps(record: OperationRecord, done: string, when: string): string[] {
  const move = moveOf(record);
  if (move) {
    const { source, destination } = move;
    const directory = isDirectory(source.before);
    const back = `Move ${codePath(movedTo(record, destination), directory)} back to ${codePath(source.display, directory)}, where it was before it was moved ${when}`;
    return [
      destination.before.type === 'missing'
        ? back
        : `${back}, and put back the ${codePath(destination.display, isDirectory(destination.before))} it replaced${measure(destination.before)}`,
    ];
  }
  return record.paths.flatMap((path: PathRecord) => {
    const { before, after } = path;
    if (before.type === 'missing' && after.type === 'missing') return [];
    if (before.type === 'missing')
      return [`Remove ${codePath(path.display, isDirectory(after))}${measure(after)}, which was ${done} ${when}`];
    if (after.type === 'missing')
      return [`Put back ${codePath(path.display, isDirectory(before))}${measure(before)} as it was before it was ${done} ${when}`];
    return [
      `Put back the earlier content of ${codePath(path.display, isDirectory(before))}${measure(before)}, as it was before it was ${done} ${when}`,
    ];
  });
}

/** "build/", "a.txt to b.txt" for a move, "3 paths". */
function targetOf(record: OperationRecord): string {
  const move = moveOf(record);
  if (move) {
    const slash = isDirectory(move.source.before) ? '/' : '';
    return `${move.source.display}${slash} to ${movedTo(record, move.destination)}${slash}`;
  }
  const [only] = record.paths;
  if (only && record.paths.length === 1) return `${only.display}${isDirectory(only.before) || isDirectory(only.after) ? '/' : ''}`;
  return plural(record.paths.length, 'path');
}

/**
 * The confirmation both undo tools show: what the undo will put back, in the person's terms (paths, sizes, how
 * long ago), never the record's id or raw operation name.
 */
export function describeUndo(record: OperationRecord, now: number = Date.now()): Preparation {
  const words = record.undo_of !== undefined ? UNDO_WORDS : (WORDS[record.operation] ?? { doing: 'changing', done: 'changed' });
  const when = timeAgo(record.time, now);
  const target = targetOf(record);
  const list = steps(record, words.done, when);
  const body =
    list.length === 1 ? `${list[0] ?? ''}.` : `The change made ${when} is undone:\n\n${list.map((step) => `- ${step}`).join('\n')}`;
  return {
    invocationMessage: `Undoing ${words.doing} ${target}`,
    confirmation: {
      title: `Undo ${words.doing} ${target}?`,
      message: `${body}\n\nNothing is changed if ${record.paths.length === 1 ? 'it was' : 'any of them was'} changed since. The undo is recorded too, so it can be undone in turn.`,
    },
  };
}

export const undoOperation = defineTool({
  name: 'undo_operation',
  title: 'Undo Change',
  userDescription: 'Undo one recorded change, if nothing changed since.',
  modelDescription: `Undo a recorded change, restoring every path byte for byte; if any changed since, nothing is done (UNDO_CONFLICT). The undo is recorded too.${onlyWhere('confirms', ' The user confirms.')}`,
  icon: 'discard',
  tags: ['write', 'history', 'undo'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {},
  outputSchema: object(UNDO_FIELDS),
  errors: [
    'HISTORY_UNAVAILABLE',
    'OPERATION_NOT_FOUND',
    'UNDO_CONFLICT',
    'SENSITIVE_PATH_REFUSED',
    'FILE_DIRTY_IN_EDITOR',
    'PATH_OUTSIDE_BASE',
    'SYMLINK_OUTSIDE_BASE',
  ],
  async prepare(input, context) {
    return describeUndo(await requireRecord(requireHistory(context), input.operation_id));
  },
  async affects(input, context) {
    const record = await context.history?.get(input.operation_id);
    return record ? confinedPathsOf(record, context) : [];
  },
  async run(input, context) {
    const store = requireHistory(context);
    const record = await requireRecord(store, input.operation_id);
    const restored = await undoRecord(record, context, store);
    return {
      undone_operation_id: record.id,
      undone_operation: record.operation,
      summary: record.summary,
      ...restoredFields(restored),
    };
  },
});
