import { ToolError } from '../errors';
import type { HistoryStore, OperationRecord } from '../history/store';
import { confinedPathsOf, lastUndoable, requireHistory, undoRecord } from '../history/undo';
import { defineTool, type InputSchema } from '../tool';
import { describeUndo } from './undoOperation';

const inputSchema = { type: 'object', properties: {  }, additionalProperties: false } as const satisfies InputSchema;

/** The operation undo_last would undo now, or the refusal it would give. */
export async function undoLastTarget(store: HistoryStore): Promise<{ target: OperationRecord; skipped: OperationRecord[] }> {
  const { target, skipped } = lastUndoable(await store.list());
  if (target) return { target, skipped };
  if (skipped.length > 0) {
    throw new ToolError('HISTORY_UNAVAILABLE', `Nothing left to undo: the ${skipped.length === 1 ? 'operation' : `${skipped.length} operations`} not yet undone could not be recorded in full (${skipped.map((record) => `${record.id}: ${record.unavailable_reason ?? 'not recorded'}`).join('; ')}).`, {
      history_skipped: skipped.map((record) => record.id),
    });
  }
  throw new ToolError('OPERATION_NOT_FOUND', 'Nothing left to undo: no recorded operation is waiting to be undone. Use agentfs_history_list to see the history.');
}

export const undoLast = defineTool({
  name: 'undo_last',
  title: 'Undo Last Change',
  userDescription: 'Undo the most recent change Agent FS tools made.',
  modelDescription: 'Undo the most recent recorded operation that is not undone yet; calling it again undoes the one before (undos themselves are never picked: undo one with agentfs_undo_operation to redo). Same rules as agentfs_undo_operation: every path must still be as the operation left it, else UNDO_CONFLICT names the paths and nothing changes; the undo is recorded; the user is asked to confirm. Newer operations whose content was over the history\'s size cap cannot be undone and are passed over, listed in history_skipped. Returns data {undone_operation_id, undone_operation, summary, restored: [{path, action, state}], history_skipped: [{operation_id, summary, reason}], operation_id, undo_available}. Errors: OPERATION_NOT_FOUND (nothing left to undo), UNDO_CONFLICT, HISTORY_UNAVAILABLE (only operations over the cap are left, or no history in this session), SENSITIVE_PATH_REFUSED, FILE_DIRTY_IN_EDITOR, READ_ONLY_MODE, WORKSPACE_UNTRUSTED, WRITE_FAILED.',
  icon: 'discard',
  tags: ['write', 'history', 'undo'],
  effect: 'destructive',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: {  },
  async prepare(_input, context) {
    return describeUndo((await undoLastTarget(requireHistory(context))).target);
  },
  async affects(_input, context) {
    if (!context.history) return [];
    const { target } = lastUndoable(await context.history.list());
    return target ? confinedPathsOf(target, context) : [];
  },
  async run(_input, context) {
    const store = requireHistory(context);
    const { target, skipped } = await undoLastTarget(store);
    const restored = await undoRecord(target, context, store);
    return {
      undone_operation_id: target.id,
      undone_operation: target.operation,
      summary: target.summary,
      restored,
      history_skipped: skipped.map((record) => ({ operation_id: record.id, summary: record.summary, reason: record.unavailable_reason ?? 'not recorded' })),
    };
  },
});
