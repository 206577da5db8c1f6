/**
 * Undo: meet every path an operation changed as it is now, then put each back. A path still as the operation left it
 * gets its before state; a text file changed since in other lines gets the merge that takes out only this change
 * (undoPaths.ts, history/merge.ts, as `git revert` does). Nothing is written until every path has been met (any
 * conflict refuses the whole undo: UNDO_CONFLICT) and every byte needed has been read back from the store
 * (HISTORY_UNAVAILABLE otherwise). The undo is itself recorded by the pipeline, as any mutating call, so it can be
 * undone in turn.
 */
import { toolRef } from '../naming';
import { describeError, ToolError } from '../errors';
import { writeFileAtomic } from '../changes/writes';
import { removeQuietly, replaceFile, siblingPath, swapParked } from '../files/staging';
import { dirname, joinPath } from '../paths';
import { assertMayWrite, assertTreeMayChange } from '../policy/policy';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { throwIfCancelled } from '../signals';
import { LARGE_CONTENT_BYTES } from '../history/content';
import { planUndo, type UndoStep } from '../history/plan';
import { describeState, type DirectoryState, type FileState, fileHashes, StateReader } from '../history/state';
import type { HistoryStore, OperationRecord, PathRecord } from '../history/store';
import { confinedPathsOf, undoneBy } from './records';
import { conflictText, diskBytes, type PathConflict, resolvePath } from './undoPaths';

export interface RestoredPath {
  readonly path: string;
  /** "restored", "removed" or "moved back from <path>". */
  readonly action: string;
  readonly state: string;
  /** Restored as a merge: the file as it is now, less the undone change (changes made since in other lines kept). */
  readonly merged?: true;
}

/** An undo checked and read back, ready to write: what `undoRecord` does in two halves, for a session's undo. */
export interface PreparedUndo {
  readonly record: OperationRecord;
  apply(): Promise<RestoredPath[]>;
}

/**
 * Undoes one recorded operation: refused whole unless it can be undone (not already undone, its content kept), every
 * path is still as it left it, the person's rules allow writing each, and every byte to write back reads right; then
 * each path is put back in the plan's order.
 */
export async function undoRecord(record: OperationRecord, context: ToolContext, store: HistoryStore): Promise<RestoredPath[]> {
  return (await prepareUndo(record, context, store)).apply();
}

/** What a path changed since in other lines gets instead of its before state: the merge, by path. */
export type Merges = ReadonlyMap<PathRecord, Uint8Array>;

/**
 * Everything `undoRecord` checks and reads before it writes. Given `merges`, the paths are taken as already met: a
 * session's undo meets them for all its operations at once (sessionUndo.ts) and hands each its merges.
 */
export async function prepareUndo(
  record: OperationRecord,
  context: ToolContext,
  store: HistoryStore,
  merges?: Merges,
): Promise<PreparedUndo> {
  const steps = await undoSteps(record, store);
  const confined = await confinedPathsOf(record, context);
  const at = (path: PathRecord): ConfinedPath => {
    const found = confined[record.paths.indexOf(path)];
    if (!found) throw new Error(`${path.display} is not a path of operation ${record.id}`);
    return found;
  };
  const merged = merges ?? (await requireMergeable(record, at, context, store));
  // The person's rules still hold for every path the undo writes: protected paths, unsaved editors.
  for (const path of record.paths) {
    await assertMayWrite(context, at(path));
    if (path.after.type === 'directory') await assertTreeMayChange(context, at(path), 'write');
  }
  const contents = await contentsToRestore(record, steps, store);
  return { record, apply: () => putBack(record, steps, at, contents, merged, context) };
}

/** The steps that undo `record`, or HISTORY_UNAVAILABLE / UNDO_CONFLICT when it cannot be undone at all. */
async function undoSteps(record: OperationRecord, store: HistoryStore): Promise<readonly UndoStep[]> {
  const undone = undoneBy(await store.list()).get(record.id);
  if (undone !== undefined) {
    throw new ToolError(
      'UNDO_CONFLICT',
      `Operation ${record.id} (${record.summary}) was already undone by ${undone}. To redo it, undo ${undone}.`,
      { operation_id: record.id, undone_by: undone },
    );
  }
  if (!record.undo_available) {
    throw new ToolError(
      'HISTORY_UNAVAILABLE',
      `Operation ${record.id} (${record.summary}) cannot be undone: ${record.unavailable_reason ?? 'its before state was not recorded'}.`,
      { operation_id: record.id },
    );
  }
  const plan = planUndo(record);
  if ('reason' in plan)
    throw new ToolError('HISTORY_UNAVAILABLE', `Operation ${record.id} cannot be undone: ${plan.reason}.`, { operation_id: record.id });
  return plan.steps;
}

/**
 * The merges the undo writes, or UNDO_CONFLICT unless every path is as the operation left it or merges cleanly,
 * naming each file (and the lines) that stand in the way.
 */
async function requireMergeable(
  record: OperationRecord,
  at: (path: PathRecord) => ConfinedPath,
  context: ToolContext,
  store: HistoryStore,
): Promise<Map<PathRecord, Uint8Array>> {
  const reader = new StateReader(context.workspace.fs, context, Number.POSITIVE_INFINITY, false);
  const conflicts: PathConflict[] = [];
  const merges = new Map<PathRecord, Uint8Array>();
  for (const path of record.paths) {
    const confined = at(path);
    const now = { state: await reader.read(confined.absolute), bytes: (hash: string) => diskBytes(context, confined.absolute, hash) };
    const outcome = await resolvePath({ record, path, confined, now }, context, store);
    if (outcome.kind === 'merged') merges.set(path, outcome.bytes);
    if (outcome.kind === 'conflict') conflicts.push(...outcome.conflicts);
  }
  if (conflicts.length > 0) {
    throw new ToolError(
      'UNDO_CONFLICT',
      `Cannot undo ${record.id} (${record.summary}): ${conflicts.map(conflictText).join('; ')}. Nothing was changed. Undo the later operations first (${toolRef('history_list')}), or change the files back by hand.`,
      { operation_id: record.id, paths: conflicts.map((conflict) => conflict.path), conflicts },
    );
  }
  return merges;
}

/**
 * Every byte to write back, read and checked before anything changes (a large file's by a streaming check of its
 * blob, which is then copied rather than read).
 */
async function contentsToRestore(
  record: OperationRecord,
  steps: readonly UndoStep[],
  store: HistoryStore,
): Promise<Map<string, Restorable>> {
  const contents = new Map<string, Restorable>();
  for (const step of steps) {
    if (step.kind !== 'restore') continue;
    for (const [hash, size] of fileHashes(step.path.before)) {
      if (contents.has(hash)) continue;
      const bytes = size > LARGE_CONTENT_BYTES ? await store.blobFile(hash) : await store.readBlob(hash);
      if (!bytes)
        throw new ToolError(
          'HISTORY_UNAVAILABLE',
          `Cannot undo ${record.id}: the recorded content of ${step.path.display} is missing or damaged in the history store. Nothing was changed.`,
          { operation_id: record.id },
        );
      contents.set(hash, bytes);
    }
  }
  return contents;
}

/** Applies the steps in order; a failure says what was already put back (WRITE_FAILED). */
async function putBack(
  record: OperationRecord,
  steps: readonly UndoStep[],
  at: (path: PathRecord) => ConfinedPath,
  contents: ReadonlyMap<string, Restorable>,
  merges: Merges,
  context: ToolContext,
): Promise<RestoredPath[]> {
  const restored: RestoredPath[] = [];
  for (const step of steps) {
    throwIfCancelled(context);
    try {
      restored.push(await applyStep(step, at, contents, merges, context));
    } catch (error) {
      if (error instanceof ToolError) throw error;
      const done = restored.map((each) => each.path).join(', ') || 'nothing';
      const target = step.kind === 'move-back' ? step.to : step.path;
      throw new ToolError(
        'WRITE_FAILED',
        `The undo of ${record.id} stopped at ${at(target).display}: ${describeError(error)}. Already put back: ${done}. Run ${toolRef('history_get')} ${record.id} to see what remains.`,
        {
          operation_id: record.id,
          restored: restored.map((each) => each.path),
        },
      );
    }
  }
  return restored;
}

async function applyStep(
  step: UndoStep,
  at: (path: PathRecord) => ConfinedPath,
  contents: ReadonlyMap<string, Restorable>,
  merges: Merges,
  context: ToolContext,
): Promise<RestoredPath> {
  const { fs } = context.workspace;
  if (step.kind === 'move-back') {
    const from = at(step.from);
    const to = at(step.to);
    await fs.createDirectory(dirname(to.absolute));
    await fs.rename(from.absolute, to.absolute, { overwrite: false });
    return { path: to.display, action: `moved back from ${from.display}`, state: describeState(step.to.before) };
  }
  const target = at(step.path);
  if (step.kind === 'remove') {
    await fs.delete(target.absolute, { recursive: true, useTrash: true });
    return { path: target.display, action: 'removed', state: 'missing' };
  }
  const { before, after } = step.path;
  const merged = merges.get(step.path);
  if (merged && before.type === 'file') {
    // The file now, less this change: its permission bits are kept, unless the change itself set them.
    await writeFileAtomic(context, target.absolute, merged, await fs.stat(target.absolute));
    if (after.type === 'file' && before.mode !== after.mode && before.mode !== undefined && fs.setMode)
      await fs.setMode(target.absolute, before.mode);
    return { path: target.display, action: 'restored', state: `file (${merged.length} bytes)`, merged: true };
  }
  if (before.type === 'file') {
    const content = contentOf(contents, before);
    if (after.type === 'file' || after.type === 'missing') {
      // A file over a file (or nothing): the atomic write keeps a torn file impossible and writes through a link.
      if (after.type === 'missing') await fs.createDirectory(dirname(target.absolute));
      if (content instanceof Uint8Array) await writeFileAtomic(context, target.absolute, content, await fs.stat(target.absolute));
      else await replaceFile(fs, target.absolute, { copyOf: content.path }, { existing: await fs.stat(target.absolute) });
      if (before.mode !== undefined && fs.setMode) await fs.setMode(target.absolute, before.mode);
    } else {
      await replaceWithStaged(context, target.absolute, async (staged) => {
        await writeContent(context, staged, content);
        if (before.mode !== undefined && fs.setMode) await fs.setMode(staged, before.mode);
      });
    }
  } else if (before.type === 'directory') {
    await replaceWithStaged(context, target.absolute, (staged) => buildTree(context, staged, before, contents));
  }
  return { path: target.display, action: 'restored', state: describeState(before) };
}

/** What a restore writes back: the bytes, or (a large file) the blob to copy. */
type Restorable = Uint8Array | { readonly path: string; readonly size: number };

async function writeContent(context: ToolContext, absolute: string, content: Restorable): Promise<void> {
  const { fs } = context.workspace;
  if (content instanceof Uint8Array) await fs.writeFile(absolute, content);
  else await fs.copyFile(content.path, absolute, { overwrite: false });
}

function contentOf(contents: ReadonlyMap<string, Restorable>, state: FileState | { readonly hash?: string }): Restorable {
  const bytes = state.hash === undefined ? undefined : contents.get(state.hash);
  if (!bytes) throw new Error('recorded content was not loaded');
  return bytes;
}

/** Writes a directory state at `directory` (which does not exist yet). Modes are set last, deepest first. */
async function buildTree(
  context: ToolContext,
  directory: string,
  state: DirectoryState,
  contents: ReadonlyMap<string, Restorable>,
): Promise<void> {
  const { fs } = context.workspace;
  await fs.createDirectory(directory);
  for (const entry of state.entries) {
    throwIfCancelled(context);
    const absolute = joinPath(directory, entry.path);
    if (entry.type === 'directory') await fs.createDirectory(absolute);
    else if (entry.type === 'file') await writeContent(context, absolute, contentOf(contents, entry));
  }
  if (!fs.setMode) return;
  for (const entry of [...state.entries].reverse())
    if (entry.mode !== undefined) await fs.setMode(joinPath(directory, entry.path), entry.mode);
  if (state.mode !== undefined) await fs.setMode(directory, state.mode);
}

/**
 * Builds the replacement in a hidden sibling, then swaps it in: whatever is at `target` is parked beside it and
 * only removed once the replacement is in place (and put back if the swap fails).
 */
async function replaceWithStaged(context: ToolContext, target: string, build: (staged: string) => Promise<void>): Promise<void> {
  const { fs } = context.workspace;
  await fs.createDirectory(dirname(target));
  const staged = siblingPath(target, 'undo');
  try {
    await build(staged);
  } catch (error) {
    await removeQuietly(fs, staged, true);
    throw error;
  }
  if (!(await fs.stat(target))) {
    await fs.rename(staged, target, { overwrite: false });
    return;
  }
  try {
    await swapParked(fs, staged, target);
  } catch (error) {
    await removeQuietly(fs, staged, true);
    throw error;
  }
}
