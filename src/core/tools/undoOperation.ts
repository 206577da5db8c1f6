import { object } from '../contract/results';
import { countPhrase, type Localizer } from '../ports/l10n';
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
import { OPERATION_ID } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    operation_id: OPERATION_ID,
  },
  required: ['operation_id'],
  additionalProperties: false,
} as const satisfies InputSchema;

/**
 * What each recorded operation did, as a person says it, in the person's language: the action as a noun phrase for
 * the title ("deleting", "削除") and as a participle for the steps ("it was deleted"). Each is its own key, so a
 * language may say them differently; the calls name their keys as literals (test/unit/l10n.test.ts finds them).
 */
interface Words {
  readonly doing: string;
  readonly done: string;
}

function wordsOf(operation: string, l10n: Localizer): Words {
  switch (operation) {
    case 'write_file':
      return { doing: l10n.t('writing'), done: l10n.t('written') };
    case 'create_file':
    case 'create_directory':
      return { doing: l10n.t('creating'), done: l10n.t('created') };
    case 'edit_file':
    case 'replace_lines':
    case 'insert_lines':
    case 'delete_lines':
    case 'edit_notebook':
      return { doing: l10n.t('editing'), done: l10n.t('edited') };
    case 'apply_patch':
      return { doing: l10n.t('patching'), done: l10n.t('patched') };
    case 'delete_file':
    case 'delete_directory':
      return { doing: l10n.t('deleting'), done: l10n.t('deleted') };
    case 'copy_file':
    case 'copy_directory':
      return { doing: l10n.t('copying'), done: l10n.t('copied') };
    case 'move_file':
    case 'move_directory':
      return { doing: l10n.t('moving'), done: l10n.t('moved') };
    default:
      return { doing: l10n.t('changing'), done: l10n.t('changed') };
  }
}

function isDirectory(state: PathState): boolean {
  return state.type === 'directory';
}

/** " (1.2 KiB)", " (2 files, 3.4 KiB)", " (empty)"; nothing for links and other entries. */
function measure(state: PathState, l10n: Localizer): string {
  if (state.type === 'file') return ` (${sizeText(state.size, l10n)})`;
  if (state.type !== 'directory') return '';
  const files = state.entries.filter((entry) => entry.type === 'file');
  if (state.entries.length === 0) return ` (${l10n.t('empty')})`;
  const bytes = files.reduce((sum, entry) => sum + (entry.size ?? 0), 0);
  return ` (${
    files.length > 0
      ? `${countPhrase(l10n, files.length, '1 file', '{0} files')}, ${sizeText(bytes, l10n)}`
      : countPhrase(l10n, state.entries.length, '1 entry', '{0} entries')
  })`;
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

function steps(record: OperationRecord, done: string, when: string, l10n: Localizer): string[] {
  const move = moveOf(record);
  if (move) {
    const { source, destination } = move;
    const directory = isDirectory(source.before);
    const from = codePath(movedTo(record, destination), directory);
    const to = codePath(source.display, directory);
    if (destination.before.type === 'missing')
      return [l10n.t('Move {0} back to {1}, where it was before it was moved {2}', from, to, when)];
    return [
      l10n.t(
        'Move {0} back to {1}, where it was before it was moved {2}, and put back the {3} it replaced{4}',
        from,
        to,
        when,
        codePath(destination.display, isDirectory(destination.before)),
        measure(destination.before, l10n),
      ),
    ];
  }
  return record.paths.flatMap((path: PathRecord) => {
    const { before, after } = path;
    if (before.type === 'missing' && after.type === 'missing') return [];
    if (before.type === 'missing')
      return [l10n.t('Remove {0}{1}, which was {2} {3}', codePath(path.display, isDirectory(after)), measure(after, l10n), done, when)];
    const shown = codePath(path.display, isDirectory(before));
    if (after.type === 'missing')
      return [l10n.t('Put back {0}{1} as it was before it was {2} {3}', shown, measure(before, l10n), done, when)];
    return [l10n.t('Put back the earlier content of {0}{1}, as it was before it was {2} {3}', shown, measure(before, l10n), done, when)];
  });
}

/** "build/", "a.txt to b.txt" for a move, "3 paths". */
function targetOf(record: OperationRecord, l10n: Localizer): string {
  const move = moveOf(record);
  if (move) {
    const slash = isDirectory(move.source.before) ? '/' : '';
    return l10n.t('{0} to {1}', `${move.source.display}${slash}`, `${movedTo(record, move.destination)}${slash}`);
  }
  const [only] = record.paths;
  if (only && record.paths.length === 1) return `${only.display}${isDirectory(only.before) || isDirectory(only.after) ? '/' : ''}`;
  return countPhrase(l10n, record.paths.length, '1 path', '{0} paths');
}

/**
 * The confirmation both undo tools show: what the undo will put back, in the person's terms (paths, sizes, how
 * long ago) and language, never the record's id or raw operation name.
 */
export function describeUndo(record: OperationRecord, l10n: Localizer, now: number = Date.now()): Preparation {
  const words = record.undo_of !== undefined ? { doing: l10n.t('undoing'), done: l10n.t('undone') } : wordsOf(record.operation, l10n);
  const when = timeAgo(record.time, l10n, now);
  const target = targetOf(record, l10n);
  const list = steps(record, words.done, when, l10n);
  const body =
    list.length === 1
      ? l10n.t('{0}.', list[0] ?? '')
      : `${l10n.t('The change made {0} is undone:', when)}\n\n${list.map((step) => `- ${step}`).join('\n')}`;
  const after = l10n.t(
    'Changes made since in other lines are kept; if any overlap this change, nothing is changed. The undo is recorded too, so it can be undone in turn.',
  );
  return {
    invocationMessage: l10n.t('Undoing {0} {1}', words.doing, target),
    confirmation: { title: l10n.t('Undo {0} {1}?', words.doing, target), message: `${body}\n\n${after}` },
  };
}

export const undoOperation = defineTool({
  name: 'undo_operation',
  title: 'Undo Change',
  userDescription: 'Undo one recorded change, keeping later changes to other lines.',
  modelDescription: `Undo a recorded change byte for byte, keeping later edits to other lines (overlaps: UNDO_CONFLICT).${onlyWhere('confirms', ' The user confirms.')}`,
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
    return describeUndo(await requireRecord(requireHistory(context), input.operation_id), context.l10n);
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
