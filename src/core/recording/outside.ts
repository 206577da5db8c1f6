/**
 * Changes made outside Agent FS — a formatter, a shell command, `git checkout`, the person — seen at the next
 * recorded call on the file: a path the history knows (the state the newest record touching it left) that holds
 * something else now is recorded first, as an operation of its own with origin `outside` (history/origin.ts), before
 * the call's own. So the timeline has no holes: a diff of each change shows that change alone, and an undo meets the
 * outside change as a change since, merging around it (undoPaths.ts).
 *
 * Only files and missing paths are compared (a tree's state is no one file's), and only against a record that says
 * what the path held: the path itself or a directory holding it. Its content is kept like any record's, within the
 * history's byte cap (buildRecord), so a record without it is one that cannot be undone, not a failed call. Seeing an
 * outside change never stops the call: anything that goes wrong here is left out of the history, not reported.
 */
import { contentSize, type StoredContent } from '../history/content';
import { outsideOrigin } from '../history/origin';
import { isComplete, type PathState, sameState, subState } from '../history/state';
import { relativeTo } from '../paths';
import type { ConfinedPath } from '../confinement';
import type { HistoryStore, OperationRecord, PathRecord, Recovery, WriteOptions } from '../history/store';
import { buildRecord } from './build';

/** The operation name of such records: no tool's, so nothing confuses it with a call. */
const OUTSIDE_OPERATION = 'outside_change';

/** What the recorder needs of the call being recorded: its targets as they are now, and the store's settings. */
interface Seen {
  readonly history: HistoryStore;
  readonly targets: readonly ConfinedPath[];
  /** The targets' states now, in the order of `targets`, and the content read for them (by hash). */
  readonly states: readonly PathState[];
  readonly contents: ReadonlyMap<string, StoredContent>;
  readonly maxBytes: number;
  readonly writes: WriteOptions;
  /** Puts right operations a crash left without a record, first: their changes are not outside ones. */
  readonly recover: Recovery;
}

/** Records the targets changed outside Agent FS since their newest record, as one operation; never throws. */
export async function recordOutsideChanges(seen: Seen): Promise<void> {
  try {
    if ((await outsideChanges(seen)).length === 0) return;
    // An operation a crash left without a record may be what changed the file: recorded as itself, it is not outside.
    if ((await seen.history.recoverInterrupted(seen.recover, seen.writes)) > 0 && (await outsideChanges(seen)).length === 0) return;
    const paths = await outsideChanges(seen);
    if (paths.length === 0) return;
    await record(seen, paths);
  } catch {
    // The call goes on: a change the history did not see is no worse than before outside changes were recorded.
  }
}

/** The targets whose state now differs from what their newest record left: each with that state as its before. */
async function outsideChanges({ history, targets, states }: Seen): Promise<PathRecord[]> {
  const comparable = (state: PathState): boolean => (state.type === 'file' || state.type === 'missing') && isComplete(state);
  const candidates = targets.filter((_target, index) => {
    const state = states[index];
    return state !== undefined && comparable(state);
  });
  if (candidates.length === 0) return [];
  const newest = await history.newestTouching(candidates.map((target) => target.absolute));
  const changed: PathRecord[] = [];
  for (const [index, target] of targets.entries()) {
    const now = states[index];
    const record = newest.get(target.absolute);
    if (!now || !record) continue;
    const known = knownState(record, target.absolute);
    if (known && comparable(known) && !sameState(known, now))
      changed.push({ absolute: target.absolute, display: target.display, before: known, after: now });
  }
  return changed;
}

/** What `record` left at `absolute`: its own after state, or the entry inside a directory it recorded. */
function knownState(record: OperationRecord, absolute: string): PathState | undefined {
  const exact = record.paths.find((path) => path.absolute === absolute);
  if (exact) return exact.after;
  const holding = record.paths.find((path) => absolute.startsWith(`${path.absolute}/`));
  return holding ? subState(holding.after, relativeTo(holding.absolute, absolute)) : undefined;
}

/** Reserves and commits the record of `paths`: the content before from the store, the content now as read. */
async function record({ history, contents, maxBytes, writes }: Seen, paths: readonly PathRecord[]): Promise<void> {
  const before = new Map<string, StoredContent>();
  for (const path of paths) {
    if (path.before.type !== 'file' || path.before.hash === undefined) continue;
    const bytes = await history.readBlob(path.before.hash);
    if (bytes) before.set(path.before.hash, bytes);
  }
  const after = new Map<string, StoredContent>();
  for (const path of paths)
    if (path.after.type === 'file' && path.after.hash !== undefined) {
      const content = contents.get(path.after.hash);
      if (content !== undefined) after.set(path.after.hash, content);
    }
  const origin = outsideOrigin();
  const summary = `changed outside Agent FS: ${paths.map((path) => path.display).join(', ')}`;
  const reservation = await history.reserve(
    {
      operation: OUTSIDE_OPERATION,
      summary,
      input: {},
      origin,
      paths: paths.map(({ absolute, display, before: state }) => ({ absolute, display, before: state })),
    },
    before,
    JSON.stringify(paths).length,
    writes,
  );
  try {
    // The change is made already; its record must not be on the disk before what it stands on (the intent, the blobs).
    await reservation.durable;
    const readable = new Map([...before, ...after].map(([hash, content]) => [hash, contentSize(content)] as const));
    const made: OperationRecord = {
      ...buildRecord(reservation.id, OUTSIDE_OPERATION, summary, {}, paths, readable, maxBytes, undefined),
      origin,
    };
    await history.commit(reservation, made, new Map([...before, ...after]), writes);
  } catch (error) {
    await history.cancel(reservation, writes).catch(() => undefined);
    throw error;
  }
}
