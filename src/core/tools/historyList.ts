import { ToolError } from '../errors';
import type { OperationRecord } from '../history/store';
import { requireHistory, undoneBy } from '../history/undo';
import { isWithin } from '../paths';
import { defineTool, type InputSchema } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Only operations that touched this path (relative to the base directory): the file itself, anything inside this directory, or a directory containing it. Omit for all.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      default: 50,
      description: 'Most operations to return (default 50, at most 200; more is refused with LIMIT_EXCEEDED). total says how many match.',
    },
  },
  additionalProperties: false,
} as const satisfies InputSchema;

export const HISTORY_LIST_CAP = 200;

/** How history_list and the editor's views describe one record. */
export function describeRecord(record: OperationRecord, undone: ReadonlyMap<string, string>): Record<string, unknown> {
  const undoneByOperation = undone.get(record.id);
  return {
    operation_id: record.id,
    time: record.time,
    operation: record.operation,
    summary: record.summary,
    paths: record.paths.map((path) => path.display),
    undo_available: record.undo_available,
    ...(record.unavailable_reason === undefined ? {} : { unavailable_reason: record.unavailable_reason }),
    undone: undoneByOperation !== undefined,
    ...(undoneByOperation === undefined ? {} : { undone_by: undoneByOperation }),
    ...(record.undo_of === undefined ? {} : { undo_of: record.undo_of }),
  };
}

export const historyList = defineTool({
  name: 'history_list',
  title: 'List Change History',
  userDescription: 'List the recorded changes Agent FS tools made, newest first.',
  modelDescription: 'List the changes Agent FS tools made in this workspace, newest first: every successful write, edit, patch, copy, move, delete and undo is recorded as one operation. Use it to review what was changed and to find the operation_id to inspect with agentfs_history_get or to undo with agentfs_undo_operation. path narrows the list to operations that touched that file or directory, something inside it, or a directory containing it. Read-only. Returns data {count, total, truncated, operations: [{operation_id, time, operation, summary, paths, undo_available, unavailable_reason?, undone, undone_by?, undo_of?}]}: undone is true once an undo is in force for it; undo_of names the operation an undo undid. Errors: LIMIT_EXCEEDED (limit above 200), PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE (path leaves the base directory), HISTORY_UNAVAILABLE (this session keeps no history), READ_FAILED.',
  icon: 'history',
  tags: ['read', 'history'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'path' },
  prepare(input) {
    return Promise.resolve({ invocationMessage: input.path === undefined ? 'Listing the change history' : `Listing the change history of ${input.path}` });
  },
  async run(input, context) {
    if (input.limit > HISTORY_LIST_CAP) {
      throw new ToolError('LIMIT_EXCEEDED', `limit ${input.limit} is above the cap of ${HISTORY_LIST_CAP}. Ask for at most ${HISTORY_LIST_CAP}, or narrow the list with path.`);
    }
    const store = requireHistory(context);
    const records = await store.list();
    let matching = records;
    if (input.path !== undefined) {
      const wanted = await context.paths.resolve(input.path, 'path');
      // Touching: the operation changed the path, something inside it, or a directory containing it.
      matching = records.filter((record) => record.paths.some((path) => isWithin(wanted.absolute, path.absolute) || isWithin(path.absolute, wanted.absolute)));
    }
    const undone = undoneBy(records);
    const shown = matching.slice(0, input.limit);
    return {
      count: shown.length,
      total: matching.length,
      truncated: matching.length > shown.length,
      operations: shown.map((record) => describeRecord(record, undone)),
    };
  },
});
