/**
 * How one path of an undo meets the path as it is now: as the operation left it (the undo puts the before state
 * back), changed since in lines the change did not touch (the undo writes the merge: history/merge.ts), or changed
 * in a way the undo must not overwrite (a conflict, named). Only a text file the operation changed and that is still
 * a file is merged; anything else changed since (created, deleted, replaced, binary, too large, a directory) is a
 * conflict, as it always was.
 */
import { contentHash } from '../files/hashing';
import { fileRef } from '../encoding/fileText';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { type ChangeKind, fileChanges } from '../history/changes';
import { type LineConflict, type LineSpan, MERGE_MAX_BYTES, mergeUndo, type UndoMerge } from '../history/merge';
import { describeState, type PathState, sameState } from '../history/state';
import type { HistoryStore, OperationRecord, PathRecord } from '../history/store';

export const CONFLICT_WORDS: Readonly<Record<ChangeKind, string>> = {
  added: 'created since',
  deleted: 'deleted since',
  modified: 'changed since',
  type_changed: 'replaced by another kind of entry since',
};

/** One file an undo cannot put back: its path, what happened to it, and where a merge found overlaps, the lines. */
export interface PathConflict {
  readonly path: string;
  readonly change: string;
  readonly lines?: readonly LineConflict[];
}

type PathOutcome =
  | { readonly kind: 'as-left' }
  | { readonly kind: 'merged'; readonly bytes: Uint8Array; readonly state: PathState }
  | { readonly kind: 'conflict'; readonly conflicts: readonly PathConflict[] };

/** One path an undo takes back: the operation's record of it, where it is, and how it is now. */
interface PathToUndo {
  readonly record: OperationRecord;
  readonly path: PathRecord;
  readonly confined: ConfinedPath;
  readonly now: PathNow;
}

/** The path as it is now: its state, and its bytes by hash when a merge asks for them (undefined if not at hand). */
interface PathNow {
  readonly state: PathState;
  bytes(hash: string): Promise<Uint8Array | undefined>;
}

/**
 * Whether the path is as the operation left it, or can be merged, or conflicts. `words` words a conflict (who
 * changed it since, for a session's undo).
 */
export async function resolvePath(
  target: PathToUndo,
  context: ToolContext,
  store: HistoryStore,
  words: (kind: ChangeKind) => string = (kind) => CONFLICT_WORDS[kind],
): Promise<PathOutcome> {
  const { path, confined, now } = target;
  if (sameState(now.state, path.after)) return { kind: 'as-left' };
  const merged = await tryMerge(target, context, store);
  if (merged && 'bytes' in merged) {
    const mode = now.state.type === 'file' && now.state.mode !== undefined ? { mode: now.state.mode } : {};
    return {
      kind: 'merged',
      bytes: merged.bytes,
      state: { type: 'file', size: merged.bytes.length, hash: contentHash(merged.bytes), ...mode },
    };
  }
  if (merged && 'conflicts' in merged)
    return { kind: 'conflict', conflicts: [{ path: confined.display, change: words('modified'), lines: merged.conflicts }] };
  // Name the files that differ, not just the directory the operation recorded.
  const differences = fileChanges({
    paths: [{ absolute: path.absolute, display: confined.display, before: path.after, after: now.state }],
  });
  if (differences.length === 0)
    return {
      kind: 'conflict',
      conflicts: [{ path: confined.display, change: `now ${describeState(now.state)}, the operation left ${describeState(path.after)}` }],
    };
  return { kind: 'conflict', conflicts: differences.map((difference) => ({ path: difference.path, change: words(difference.change) })) };
}

/** The merge of a text file the operation changed and that is still a file, or undefined where there is none to try. */
async function tryMerge(
  { record, path, confined, now }: PathToUndo,
  context: ToolContext,
  store: HistoryStore,
): Promise<UndoMerge | undefined> {
  const { before, after } = path;
  const current = now.state;
  if (before.type !== 'file' || after.type !== 'file' || current.type !== 'file') return undefined;
  if (before.link !== after.link || current.link !== after.link) return undefined;
  if (before.hash === undefined || after.hash === undefined || current.hash === undefined) return undefined;
  if (Math.max(before.size, after.size, current.size) > MERGE_MAX_BYTES) return undefined;
  // The after content is kept for diffs while it fits the history's cap; without it there is nothing to merge from.
  const kept = (hash: string): boolean => Object.prototype.hasOwnProperty.call(record.blobs, hash.replace(/^sha256:/, ''));
  if (!kept(before.hash) || !kept(after.hash)) return undefined;
  const [recorded, previous, bytes] = await Promise.all([store.readBlob(after.hash), store.readBlob(before.hash), now.bytes(current.hash)]);
  if (!recorded || !previous || !bytes) return undefined;
  return mergeUndo(fileRef(context, confined), recorded, bytes, previous);
}

/** The bytes of a file on the disk, if they still have `hash` (a file changing meanwhile is not merged). */
export async function diskBytes(context: ToolContext, absolute: string, hash: string): Promise<Uint8Array | undefined> {
  const bytes = await context.workspace.fs.readFile(absolute).catch(() => undefined);
  return bytes && contentHash(bytes) === hash ? bytes : undefined;
}

/** "a.txt (changed since): lines 3–4 now, where the undo would put back line 3", for messages. */
export function conflictText(conflict: PathConflict): string {
  const lines = (conflict.lines ?? []).map((each) => `${where(each.now)} now, where the undo would put back ${where(each.before)}`);
  return `${conflict.path} (${conflict.change})${lines.length > 0 ? `: ${lines.join('; and ')}` : ''}`;
}

function where(span: LineSpan): string {
  if (span.line_count === 0) return `no lines at line ${span.start_line}`;
  if (span.line_count === 1) return `line ${span.start_line}`;
  return `lines ${span.start_line}–${span.start_line + span.line_count - 1}`;
}
