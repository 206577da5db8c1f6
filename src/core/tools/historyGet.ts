import { arrayOf, BOOLEAN, described, object, oneOf, OPEN_OBJECT, optional, STRING } from '../contract/results';
import { OPERATION_FIELDS, SIDE_STATE } from './fields';
import { type ChangeDiff, diffOf, fileChanges } from '../history/changes';
import { describeState } from '../history/state';
import { requireHistory, requireRecord, undoneBy } from '../recording/records';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { describeRecord } from './historyList';
import { OPERATION_ID } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    operation_id: OPERATION_ID,
  },
  required: ['operation_id'],
  additionalProperties: false,
} as const satisfies InputSchema;

/** Diff text one result carries in all; beyond it diffs are left out and the result says so. */
const HISTORY_DIFF_MAX_CHARS = 256 * 1024;

export const historyGet = defineTool({
  name: 'history_get',
  title: 'Show Recorded Change',
  userDescription: 'Show one recorded change with its diff.',
  modelDescription: "One recorded change in full: input, each path before and after, and each text file's diff.",
  icon: 'diff',
  tags: ['read', 'history'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {},
  outputSchema: object({
    ...OPERATION_FIELDS,
    input: described('The call as recorded: paths, flags and numbers; other text as its length.', OPEN_OBJECT),
    affected: arrayOf(object({ path: STRING, before: STRING, after: STRING })),
    changes: arrayOf(
      object({
        path: STRING,
        change: oneOf('added', 'deleted', 'modified', 'type_changed'),
        before: SIDE_STATE,
        after: SIDE_STATE,
        is_binary: BOOLEAN,
        content_recorded: BOOLEAN,
        diff: optional(STRING),
        diff_omitted: optional(STRING),
      }),
    ),
    truncated: described('Some diffs were left out (diff_omitted says why).', BOOLEAN),
  }),
  errors: ['HISTORY_UNAVAILABLE', 'OPERATION_NOT_FOUND'],
  prepare(input, context) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Showing recorded operation {0}', input.operation_id) });
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
      let shown: ChangeDiff = diff;
      if (diff.diff !== undefined) {
        if (diff.diff.length > budget) {
          truncated = true;
          shown = {
            is_binary: false,
            content_recorded: true,
            diff_omitted: `the diffs of this operation exceed ${HISTORY_DIFF_MAX_CHARS} characters in all`,
          };
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
