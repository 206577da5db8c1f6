/**
 * edit_notebook's whole change of one notebook: read it, check it is valid nbformat, make the edits on its text,
 * check the result is valid too, and write it — on disk, or through the editor where the notebook is open there, so
 * that the notebook editor keeps its undo stack and its kernel. A notebook that does not exist is made from the
 * edits when every one inserts a cell.
 */
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { ensureParentDirectory, writeFileAtomic } from '../changes/writes';
import { checkExpectedHash, describeChange, type TextChange } from '../edit/editing';
import { decodeFileText, encodeFileText, fileRef } from '../encoding/fileText';
import { ToolError } from '../errors';
import { contentHash } from '../files/hashing';
import { toolRef } from '../naming';
import { assertMayWrite } from '../policy/policy';
import type { FileStat } from '../ports/fs';
import { throwIfCancelled } from '../signals';
import { applyNotebookEdits, type EditDone, type NotebookEdit, sourcesView } from './changes';
import { parseNotebook } from './model';
import { loadNotebook } from './read';
import { assertValidNotebook } from './schema';

export interface NotebookPlan {
  /** The file as it is; undefined when the edits create it. */
  readonly stat: FileStat | undefined;
  readonly before: Uint8Array | undefined;
  readonly after: Uint8Array;
  readonly previousHash: string | null;
  readonly done: readonly EditDone[];
  readonly change: TextChange;
  readonly steps: ReturnType<typeof applyNotebookEdits>['steps'];
  readonly totalCells: number;
}

/** A new notebook as Jupyter writes one (one-space indentation, sorted keys, a final newline), for inserts to fill. */
const EMPTY_NOTEBOOK = '{\n "cells": [],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n';

export async function planNotebookEdit(
  context: ToolContext,
  path: ConfinedPath,
  edits: readonly NotebookEdit[],
  expectedHash: string | undefined,
): Promise<NotebookPlan> {
  await assertMayWrite(context, path, 'file');
  const stat = await context.workspace.fs.stat(path.absolute);
  if (stat && stat.kind !== 'file') throw new ToolError('FILE_NOT_FILE', `Not a file: ${path.display} is a ${stat.kind}.`);
  if (!stat && !edits.every((edit) => edit.action === 'insert')) {
    throw new ToolError(
      'FILE_NOT_FOUND',
      `Notebook does not exist: ${path.display}. Use ${toolRef('find_file')} to look for it, or make it with edits that only insert cells.`,
    );
  }
  const file = stat ? await loadNotebook(context, path, stat.size) : undefined;
  if (file && stat) context.hashes?.set(path.absolute, stat, file.hash);
  checkExpectedHash(path.display, file?.hash, expectedHash);
  const original = parseNotebook(file?.decoded.text ?? EMPTY_NOTEBOOK, path.display);
  if (file) assertValidNotebook(original.json, path.display, 'before');
  const edited = applyNotebookEdits(original, path.display, edits);
  assertValidNotebook(edited.notebook.json, path.display, 'after');
  const after = await encodeFileText(fileRef(context, path), edited.notebook.text, file?.decoded ?? { encoding: 'utf8', bom: false });
  return {
    stat,
    before: file?.bytes,
    after,
    previousHash: file?.hash ?? null,
    done: edited.done,
    change: describeChange(path.display, file ? sourcesView(original) : '', sourcesView(edited.notebook)),
    steps: edited.steps,
    totalCells: edited.notebook.cells.length,
  };
}

/** What a write left on disk: its hash, and what the edits did as the written notebook says it. */
export interface Written {
  readonly hash: string;
  readonly done: readonly EditDone[];
}

/**
 * Writes a planned change (not a dry run). Through the editor the notebook's own serializer writes the file, and may
 * give new cells ids of its own: the result then names those.
 */
export async function writeNotebookEdit(context: ToolContext, path: ConfinedPath, plan: NotebookPlan): Promise<Written> {
  throwIfCancelled(context);
  await context.beforeChange?.();
  const editors = context.notebooks;
  if (plan.stat && editors?.isOpen(path.absolute)) {
    await editors.apply(path.absolute, plan.steps);
    const bytes = await context.workspace.fs.readFile(path.absolute);
    const cells = parseNotebook((await decodeFileText(fileRef(context, path), bytes)).text, path.display).cells;
    const done = plan.done.map((each) =>
      each.action === 'delete' || each.index === null ? each : { ...each, id: cells[each.index]?.json.id ?? null },
    );
    return { hash: contentHash(bytes), done };
  }
  if (!plan.stat) await ensureParentDirectory(context, path, 'WRITE_FAILED');
  await writeFileAtomic(context, path.absolute, plan.after, plan.stat, plan.stat ? {} : { exclusive: true });
  return { hash: contentHash(plan.after), done: plan.done };
}
