/**
 * The records of the history as the history tools and the editor ask for them: the store itself, one record by id,
 * which records an undo has undone, the one undo_last undoes, and a record's paths confined anew.
 */
import { ToolError } from '../errors';
import { toolRef } from '../naming';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import type { HistoryStore, OperationRecord } from '../history/store';

/** Which records an undo has undone: undone id → the undo's id. An undo that was itself undone no longer counts. */
export function undoneBy(records: readonly OperationRecord[]): Map<string, string> {
  const undos = new Map<string, string[]>();
  const oldestFirst = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const record of oldestFirst)
    for (const undid of new Set([...(record.undo_of === undefined ? [] : [record.undo_of]), ...(record.undo_of_all ?? [])]))
      undos.set(undid, [...(undos.get(undid) ?? []), record.id]);
  const result = new Map<string, string>();
  const memo = new Map<string, boolean>();
  const isUndone = (id: string, depth: number): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    // Undone when the newest undo of it is in force, i.e. not undone itself.
    const candidates = undos.get(id) ?? [];
    const active = depth > 1000 ? undefined : [...candidates].reverse().find((undo) => !isUndone(undo, depth + 1));
    if (active !== undefined) result.set(id, active);
    memo.set(id, active !== undefined);
    return active !== undefined;
  };
  for (const record of records) isUndone(record.id, 0);
  return result;
}

/**
 * The operation undo_last undoes, and the newer ones it passed over because their content was not recorded. Changes
 * seen made outside Agent FS are not Agent FS's to undo last: they stay, and the undo merges around them.
 */
export function lastUndoable(records: readonly OperationRecord[]): { target?: OperationRecord; skipped: OperationRecord[] } {
  const undone = undoneBy(records);
  const skipped: OperationRecord[] = [];
  for (const record of records) {
    if (record.undo_of !== undefined || undone.has(record.id) || record.origin?.host === 'outside') continue;
    if (record.undo_available) return { target: record, skipped };
    skipped.push(record);
  }
  return { skipped };
}

/** Finds a record or answers OPERATION_NOT_FOUND. */
export async function requireRecord(store: HistoryStore, id: string): Promise<OperationRecord> {
  const record = await store.get(id);
  if (!record) {
    throw new ToolError(
      'OPERATION_NOT_FOUND',
      `No recorded operation has the id "${id}". Use ${toolRef('history_list')} to see the recorded operations (old ones are pruned beyond agentFs.history.maxOperations).`,
      { operation_id: id },
    );
  }
  return record;
}

/** The store, or HISTORY_UNAVAILABLE when this session keeps none. */
export function requireHistory(context: ToolContext): HistoryStore {
  if (!context.history)
    throw new ToolError(
      'HISTORY_UNAVAILABLE',
      'This session keeps no history (the runner was started with --no-history), so there is nothing to list or undo.',
    );
  return context.history;
}

/** The affected paths of a record, confined anew: the base directory may have changed since it was recorded. */
export async function confinedPathsOf(record: OperationRecord, context: ToolContext): Promise<ConfinedPath[]> {
  const paths: ConfinedPath[] = [];
  for (const path of record.paths) paths.push(await context.paths.resolve(path.absolute, 'path'));
  return paths;
}
