import { arrayOf, described, object, STRING } from '../contract/results';
import { restoredFields, UNDO_FIELDS } from './fields';
import { toolRef } from '../naming';
import { ToolError } from '../errors';
import type { HistoryStore, OperationRecord } from '../history/store';
import { confinedPathsOf, lastUndoable, requireHistory } from '../recording/records';
import { undoRecord } from '../recording/undo';
import { describeSessionUndo, requireSessionTargets, sessionSummary, sessionTargets, undoSession } from '../recording/sessionUndo';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { describeUndo } from './undoOperation';

const inputSchema = {
  type: 'object',
  properties: {
    session: { type: 'string', description: 'A session id.' },
  },
  additionalProperties: false,
} as const satisfies InputSchema;

/** The operation undo_last would undo now, or the refusal it would give. */
export async function undoLastTarget(store: HistoryStore): Promise<{ target: OperationRecord; skipped: OperationRecord[] }> {
  const { target, skipped } = lastUndoable(await store.list());
  if (target) return { target, skipped };
  if (skipped.length > 0) {
    throw new ToolError(
      'HISTORY_UNAVAILABLE',
      `Nothing left to undo: the ${skipped.length === 1 ? 'operation' : `${skipped.length} operations`} not yet undone could not be recorded in full (${skipped.map((record) => `${record.id}: ${record.unavailable_reason ?? 'not recorded'}`).join('; ')}).`,
      {
        history_skipped: skipped.map((record) => record.id),
      },
    );
  }
  throw new ToolError(
    'OPERATION_NOT_FOUND',
    `Nothing left to undo: no recorded operation is waiting to be undone. Use ${toolRef('history_list')} to see the history.`,
  );
}

/** What a session's undo cannot reach: its oldest changes, when the history's limits cut them. */
async function cutNote(store: HistoryStore, session: string): Promise<string> {
  const cut = (await store.cutSessions())[session];
  return cut === undefined ? '' : `; its ${cut} oldest were pruned by the history's limits and stay as they are`;
}

export const undoLast = defineTool({
  name: 'undo_last',
  title: 'Undo Last Change',
  userDescription: 'Undo the most recent change Agent FS tools made.',
  modelDescription: `Undo the latest change not yet undone (again: the one before), or with session all that session's changes. Rules as ${toolRef('undo_operation')}.`,
  icon: 'discard',
  tags: ['write', 'history', 'undo'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: {},
  outputSchema: object({
    ...UNDO_FIELDS,
    history_skipped: described(
      'Newer operations passed over because they cannot be undone.',
      arrayOf(object({ operation_id: STRING, summary: STRING, reason: STRING })),
    ),
  }),
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
    const store = requireHistory(context);
    if (input.session !== undefined)
      return describeSessionUndo(input.session, await requireSessionTargets(store, input.session), context.l10n);
    return describeUndo((await undoLastTarget(store)).target, context.l10n);
  },
  async affects(input, context) {
    if (!context.history) return [];
    const records = await context.history.list();
    const targets = input.session === undefined ? [lastUndoable(records).target] : sessionTargets(records, input.session);
    const paths = [];
    for (const target of targets) if (target) paths.push(...(await confinedPathsOf(target, context)));
    return paths;
  },
  async run(input, context) {
    const store = requireHistory(context);
    if (input.session !== undefined) {
      const { undone, restored } = await undoSession(input.session, context, store);
      const newest = undone[0];
      return {
        undone_operation_id: newest?.id ?? '',
        undone_operation: newest?.operation ?? '',
        summary: `${sessionSummary(input.session, undone)}${await cutNote(store, input.session)}`,
        ...restoredFields(restored),
        history_skipped: [],
        undone_operation_ids: undone.map((record) => record.id),
        session: input.session,
      };
    }
    const { target, skipped } = await undoLastTarget(store);
    const restored = await undoRecord(target, context, store);
    return {
      undone_operation_id: target.id,
      undone_operation: target.operation,
      summary: target.summary,
      ...restoredFields(restored),
      history_skipped: skipped.map((record) => ({
        operation_id: record.id,
        summary: record.summary,
        reason: record.unavailable_reason ?? 'not recorded',
      })),
    };
  },
});
