import { diffOf, fileChanges } from '../history/changes';
import { describeState } from '../history/state';
import { requireHistory, requireRecord, undoneBy } from '../history/undo';
import { defineTool, type InputSchema } from '../tool';
import { describeRecord } from './historyList';

const inputSchema = {
  type: 'object',
  properties: {
    operation_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'The operation\'s id, as operation_id in a changing tool\'s result or in agentfs_history_list.',
    },
  },
  required: ['operation_id'],
  additionalProperties: false,
} as const satisfies InputSchema;

/** Diff text one result carries in all; beyond it diffs are left out and the result says so. */
export const HISTORY_DIFF_MAX_CHARS = 256 * 1024;

export const historyGet = defineTool({
  name: 'history_get',
  title: 'Show Recorded Change',
  userDescription: 'Show one recorded change with its diff.',
  modelDescription: 'Show one recorded operation in full: its input (file content left out), each affected path\'s state before and after, and every changed file with a unified diff (git style, a/ and b/ names) where both sides are text the history kept; is_binary is true for binary content, content_recorded is false where the content was over the history\'s size cap. Use it to review exactly what a change did before undoing it. Read-only. Returns data {operation_id, time, operation, summary, paths, undo_available, unavailable_reason?, undone, undone_by?, undo_of?, input, affected: [{path, before, after}], changes: [{path, change: added|deleted|modified|type_changed, before: {type, hash, size}, after, is_binary, content_recorded, diff?, diff_omitted?}], truncated}. Diffs beyond 256 KiB in all are left out (truncated true). Errors: OPERATION_NOT_FOUND (unknown or pruned id), INVALID_INPUT, HISTORY_UNAVAILABLE (no history in this session), READ_FAILED.',
  icon: 'diff',
  tags: ['read', 'history'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {  },
  prepare(input) {
    return Promise.resolve({ invocationMessage: `Showing recorded operation ${input.operation_id}` });
  },
  async run(input, context) {
    const store = requireHistory(context);
    const record = await requireRecord(store, input.operation_id);
    const undone = undoneBy(await store.list());
    let budget = HISTORY_DIFF_MAX_CHARS;
    let truncated = false;
    const changes = [];
    for (const change of fileChanges(record)) {
      const diff = await diffOf(store, record, change);
      let shown: Record<string, unknown> = { ...diff };
      if (diff.diff !== undefined) {
        if (diff.diff.length > budget) {
          truncated = true;
          shown = { is_binary: false, content_recorded: true, diff_omitted: `the diffs of this operation exceed ${HISTORY_DIFF_MAX_CHARS} characters in all` };
        } else budget -= diff.diff.length;
      }
      changes.push({
        path: change.path,
        change: change.change,
        before: change.before,
        after: change.after,
        ...shown,
      });
    }
    return {
      ...describeRecord(record, undone),
      input: record.input,
      affected: record.paths.map((path) => ({ path: path.display, before: describeState(path.before), after: describeState(path.after) })),
      changes,
      truncated,
    };
  },
});
