import type { OperationRecord } from '../history/store';
import { confinedPathsOf, requireHistory, requireRecord, undoRecord } from '../history/undo';
import type { Preparation } from '../tool';
import type { InputSchema } from '../schema';
import { defineTool } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    operation_id: { type: 'string', minLength: 1, maxLength: 64, description: 'The operation_id.' },
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
  modelDescription: 'Undo a recorded change: every path is restored byte for byte. If any path changed since, nothing is done (UNDO_CONFLICT). The undo is recorded too. The user confirms.',
  icon: 'discard',
  tags: ['write', 'history', 'undo'],
  effect: 'destructive',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {},
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
