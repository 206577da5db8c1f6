import { arrayOf, INTEGER, object } from '../contract/results';
import { OPERATION_FIELDS, PAGE } from './fields';
import { toolRef } from '../naming';
import { agentText, matchesAgent, type Origin } from '../history/origin';
import type { OperationRecord } from '../history/store';
import { requireHistory, undoneBy } from '../recording/records';
import { isWithin } from '../paths';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { OFFSET, pathParameter } from './parameters';

const HISTORY_LIST_CAP = 200;

/** Paths one operation lists (a replacement across a project changes a thousand); path_count then gives them all. */
const PATHS_SHOWN = 20;

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('Only changes to this path.'),
    limit: { type: 'integer', minimum: 1, default: 50, description: `At most ${HISTORY_LIST_CAP}.` },
    offset: OFFSET,
    agent: { type: 'string', description: 'Only this agent or label.' },
    session: { type: 'string', description: 'Only this session.' },
  },
  additionalProperties: false,
} as const satisfies InputSchema;

/** How history_list and the editor's views describe one record. */
export function describeRecord(record: OperationRecord, undone: ReadonlyMap<string, string>, cut: Readonly<Record<string, number>> = {}) {
  const undoneByOperation = undone.get(record.id);
  return {
    operation_id: record.id,
    time: record.time,
    operation: record.operation,
    summary: record.summary,
    paths: record.paths.slice(0, PATHS_SHOWN).map((path) => path.display),
    ...(record.paths.length > PATHS_SHOWN ? { path_count: record.paths.length } : {}),
    undo_available: record.undo_available,
    ...(record.unavailable_reason === undefined ? {} : { unavailable_reason: record.unavailable_reason }),
    undone: undoneByOperation !== undefined,
    ...(undoneByOperation === undefined ? {} : { undone_by: undoneByOperation }),
    ...(record.undo_of === undefined ? {} : { undo_of: record.undo_of }),
    ...originFields(record.origin),
    ...(record.origin && cut[record.origin.session] !== undefined ? { session_cut: cut[record.origin.session] } : {}),
  };
}

/** Who made a change, as history_list shows it; nothing for a record written before origins were kept. */
function originFields(origin: Origin | undefined) {
  if (!origin) return {};
  return {
    host: origin.host,
    agent: agentText(origin),
    session: origin.session,
    ...(origin.label === undefined ? {} : { label: origin.label }),
  };
}

export const historyList = defineTool({
  name: 'history_list',
  title: 'List Change History',
  userDescription: 'List the recorded changes Agent FS tools made, newest first.',
  modelDescription: `Recorded changes, newest first: ids, summaries, sessions; one in full: ${toolRef('history_get')}.`,
  icon: 'history',
  tags: ['read', 'history'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'path' },
  outputSchema: object({ count: INTEGER, total: INTEGER, ...PAGE, operations: arrayOf(object(OPERATION_FIELDS)) }),
  errors: ['HISTORY_UNAVAILABLE'],
  caps: { limit: { cap: HISTORY_LIST_CAP, advice: `Ask for at most ${HISTORY_LIST_CAP}, or narrow the list with path.` } },
  checkInput(_input, context) {
    requireHistory(context);
  },
  prepare(input, context) {
    return Promise.resolve({
      invocationMessage:
        input.path === undefined
          ? context.l10n.t('Listing the change history')
          : context.l10n.t('Listing the change history of {0}', input.path),
    });
  },
  async run(input, context, paths) {
    const store = requireHistory(context);
    const records = await store.list();
    let matching = records;
    const wanted = paths.path;
    const { agent, session } = input;
    if (agent !== undefined) matching = matching.filter((record) => matchesAgent(record.origin, agent));
    if (session !== undefined) matching = matching.filter((record) => record.origin?.session === session);
    if (wanted !== undefined) {
      // Touching: the operation changed the path, something inside it, or a directory containing it.
      matching = matching.filter((record) =>
        record.paths.some((path) => isWithin(wanted.absolute, path.absolute) || isWithin(path.absolute, wanted.absolute)),
      );
    }
    const undone = undoneBy(records);
    const cut = await store.cutSessions();
    const offset = input.offset ?? 0;
    const shown = matching.slice(offset, offset + input.limit);
    const end = offset + shown.length;
    return {
      count: shown.length,
      total: matching.length,
      truncated: end < matching.length,
      ...(end < matching.length ? { next_offset: end } : {}),
      operations: shown.map((record) => describeRecord(record, undone, cut)),
    };
  },
});
