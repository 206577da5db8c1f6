import type { OperationRecord } from '../history/store';
import { confinedPathsOf, requireHistory, requireRecord, undoRecord } from '../history/undo';
import type { Preparation } from '../tool';
import { defineTool, type InputSchema } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    operation_id: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'The id of the operation to undo, from a changing tool\'s operation_id or agentfs_history_list.',
    },
  },
  required: ['operation_id'],
  additionalProperties: false,
} as const satisfies InputSchema;

/** The confirmation both undo tools show: what the undo will put back. */
export function describeUndo(record: OperationRecord): Preparation {
  const paths = record.paths.map((path) => `\`${path.display}\``).join(', ');
  return {
    invocationMessage: `Undoing ${record.summary}`,
    confirmation: {
      title: 'Undo change?',
      message: `Undo ${record.operation} from ${record.time} (operation \`${record.id}\`)? ${paths} will be put back as they were before it. Nothing is changed if any of them was changed since.`,
    },
  };
}

export const undoOperation = defineTool({
  name: 'undo_operation',
  title: 'Undo Change',
  userDescription: 'Undo one recorded change, if nothing changed since.',
  modelDescription: 'Undo one recorded operation: every path it changed is put back exactly as it was before, byte for byte: overwritten or edited files get their old content, deleted files and directory trees are recreated, moved things are moved back, and what it created is removed. Before anything is written, every path is compared with the state the operation left: if any changed since, the whole undo is refused with UNDO_CONFLICT naming the paths, and nothing changes (undo the later operations first). The undo is itself recorded, so undoing the undo redoes the operation. The user is asked to confirm. Returns data {undone_operation_id, undone_operation, summary, restored: [{path, action, state}], operation_id, undo_available} (operation_id is the undo\'s own). Errors: OPERATION_NOT_FOUND, UNDO_CONFLICT (changed since, or already undone), HISTORY_UNAVAILABLE (its content was over the history\'s size cap, or no history in this session), SENSITIVE_PATH_REFUSED, FILE_DIRTY_IN_EDITOR, PATH_OUTSIDE_BASE (the base directory changed since), READ_ONLY_MODE, WORKSPACE_UNTRUSTED, WRITE_FAILED.',
  icon: 'discard',
  tags: ['write', 'history', 'undo'],
  effect: 'destructive',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {  },
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
    return { undone_operation_id: record.id, undone_operation: record.operation, summary: record.summary, restored };
  },
});
