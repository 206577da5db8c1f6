import { diffOf, fileChanges } from '../history/changes';
import { describeState } from '../history/state';
import { requireHistory, requireRecord, undoneBy } from '../history/undo';
import { defineTool } from '../tool';
import { describeRecord } from './historyList';

interface Input {
  operation_id: string;
}

/** Diff text one result carries in all; beyond it diffs are left out and the result says so. */
export const HISTORY_DIFF_MAX_CHARS = 256 * 1024;

export const historyGet = defineTool<Input>({
  name: 'history_get',
  effect: 'read',
  failureCode: 'READ_FAILED',
  parameters: ['operation_id'],
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
