/**
 * apply_patch's engine. A patch is a unified diff or, when its first line is "*** Begin Patch", a V4A patch (v4a.ts
 * parses and places those). The `diff` package parses the unified diff and applies hunks; this module decides which
 * files a patch touches, checks every hunk of every file before anything is written, explains a hunk that does not
 * fit, and writes the files one by one, restoring those already written when a later write fails. Both grammars
 * become the same targets (placement.ts), so they share that plan, the file's encoding, BOM and line endings kept.
 *
 * Placement rule (fuzz 0): a hunk's old lines (context and removals) must occur exactly, line endings aside. At the
 * line its header names (shifted by how far earlier hunks of the file moved) it is taken; elsewhere only if it
 * occurs exactly once below the previous hunk, which is how an offset hunk still applies; occurring several times
 * but not at its line is ambiguous and refused. Git renames and copies are refused (use move_file / copy_file);
 * mode changes are ignored; binary patches are refused. A V4A "*** Move to:" is a rename (the file keeps its inode
 * and mode), then the write of its new content.
 *
 * A file above the in-memory edit limit is patched by streaming (edit/textEdit.ts): each hunk's lines, with one more
 * on each side, are a window, and there a hunk must fit at the line its header names (the offset search would mean
 * reading the whole file for every hunk). Such files are written last, each parked under a staging name first, so a
 * later failure can still put every file back. V4A sections are found by searching the whole text, so a V4A patch of
 * such a file is refused (LIMIT_EXCEEDED) with the advice to use a unified diff.
 *
 * Over 300 lines: parse, placement, check and write are steps of one plan whose invariants (every hunk checked before
 * any write, files restored on a failure) span them.
 */
import { toolRef } from '../naming';
import { applyPatch, parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import type { ToolContext } from '../context';
import { streamTextEdit, type TextEditKind } from './textEdit';
import { describeChange, sameBytes, type TextChange } from './editing';
import {
  describeDifference,
  type HunkPlacement,
  lineDifferences,
  patchFailed as failed,
  type PatchAction,
  type PatchTarget,
  type Rewritten,
} from './placement';
import { isV4aPatch, v4aTargets } from './v4a';
import { limitExceeded } from '../contract/caps';
import { humanSize } from '../read/bytes';
import { decodeFileText, encodeFileText, fileRef } from '../encoding/fileText';
import { CancelledError, describeError, ToolError } from '../errors';
import { ensureParentDirectory, parkFile, writeFileAtomic } from '../changes/writes';
import type { FileStat } from '../ports/fs';
import { contentHash } from '../files/hashing';
import type { LineFrame } from './lineEdits';
import { assertMayWrite } from '../policy/policy';
import type { ConfinedPath } from '../confinement';
import { reportProgress, throwIfCancelled } from '../signals';
import { removeQuietly } from '../files/staging';

export const PATCH_MAX_BYTES = 1024 * 1024;

/** One file of a verified patch: exactly what will be written. */
export interface PatchFilePlan extends PatchTarget {
  readonly stat: FileStat | undefined;
  readonly before: Uint8Array | undefined;
  /** Undefined for a deletion; for a move, the destination's bytes. */
  readonly after: Uint8Array | undefined;
  readonly change: TextChange;
  readonly hunks: readonly HunkPlacement[];
  readonly previousHash: string | null;
  readonly contentHash: string | null;
  /** For a file patched by streaming: the edit that writes it (`before` and `after` are then undefined). */
  readonly streamed?: TextEditKind<readonly HunkPlacement[], PatchFields>;
}

function stripPrefix(name: string | undefined, prefix: 'a/' | 'b/'): string | undefined {
  if (name === undefined || name === '/dev/null') return undefined;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/**
 * Parses the patch, a unified diff or a V4A patch, and confines every path it names. PATCH_FAILED for anything this
 * tool will not apply. Its size is capped by apply_patch's definition (PATCH_MAX_BYTES), checked before this runs.
 */
export async function parsePatchTargets(context: ToolContext, text: string): Promise<PatchTarget[]> {
  if (isV4aPatch(text)) return v4aTargets(context, text);
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(text.replace(/\r\n/g, '\n'));
  } catch (error) {
    throw failed(`The patch could not be parsed: ${describeError(error)}.`, {});
  }
  const entries = parsed.filter(
    (entry) => entry.hunks.length > 0 || entry.isCreate || entry.isDelete || entry.isRename || entry.isCopy || entry.isBinary,
  );
  if (entries.length === 0) {
    throw failed(
      `The patch holds no changes. ${toolRef('apply_patch')} takes a unified diff ("--- a/path" and "+++ b/path" headers followed by "@@ -l,n +l,n @@" hunks) or a V4A patch ("*** Begin Patch" ... "*** End Patch").`,
      {},
    );
  }
  const targets: PatchTarget[] = [];
  const seen = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    const label = entry.newFileName ?? entry.oldFileName ?? `file ${index + 1}`;
    if (entry.isBinary)
      throw failed(`The patch changes ${label} as a binary file; ${toolRef('apply_patch')} applies text hunks only.`, { file: label });
    if (entry.isRename || entry.isCopy) {
      throw failed(
        `The patch ${entry.isRename ? 'renames' : 'copies'} ${entry.oldFileName ?? '?'} to ${entry.newFileName ?? '?'}; ${toolRef('apply_patch')} does not apply renames or copies. Use ${toolRef(entry.isRename ? 'move_file' : 'copy_file')} first, then a patch of the content alone.`,
        { file: label },
      );
    }
    const oldName = stripPrefix(entry.oldFileName, 'a/');
    const newName = stripPrefix(entry.newFileName, 'b/');
    if (oldName === undefined && newName === undefined) {
      throw failed(`File ${index + 1} of the patch names no file: give each file "--- a/path" and "+++ b/path" headers.`, {
        file_index: index + 1,
      });
    }
    const action: PatchAction =
      oldName === undefined || entry.isCreate ? 'create' : newName === undefined || entry.isDelete ? 'delete' : 'modify';
    let name = (action === 'delete' ? oldName : newName) ?? oldName ?? '';
    if (action === 'modify' && oldName !== undefined && newName !== undefined && oldName !== newName) {
      // "diff -u old.c new.c" names two files; the one that exists is the one to patch, as patch(1) decides.
      const newPath = await context.paths.resolve(newName, 'file');
      if (!(await context.workspace.fs.stat(newPath.absolute))) name = oldName;
    }
    const path = await context.paths.resolve(name, 'file');
    if (seen.has(path.absolute))
      throw failed(`The patch changes ${path.display} twice; give each file one section.`, { file: path.display });
    seen.add(path.absolute);
    targets.push({ index, action, path, rewrite: unifiedRewrite(action, entry), streamable: entry });
  }
  return targets;
}

/** A unified diff's file as a target's rewrite: a new file from hunks that only add lines, else its hunks placed and applied. */
function unifiedRewrite(action: PatchAction, patch: StructuredPatch): PatchTarget['rewrite'] {
  return (display: string, text: string): Rewritten => {
    if (action === 'create') {
      const stray = patch.hunks.findIndex((hunk) => hunk.lines.some((line) => !line.startsWith('+') && !line.startsWith('\\')));
      if (stray !== -1)
        throw failed(`Hunk ${stray + 1} for the new file ${display} has context or removed lines; a new file's hunks only add lines.`, {
          file: display,
          hunk: stray + 1,
        });
      const hunks = patch.hunks.map((hunk) => ({ header: headerOf(hunk), line: 1, offset: 0 }));
      return { text: applyWhole(display, '', patch, hunks), hunks };
    }
    const hunks = placeHunks(display, text, patch);
    return { text: applyWhole(display, text, patch, hunks), hunks };
  };
}

const sameLine = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.replace(/\r$/, '') === b.replace(/\r$/, '');

function headerOf(hunk: StructuredPatchHunk, shift = 0): string {
  // parsePatch moves a zero-length range's start one down; show the header as the patch wrote it.
  const oldStart = (hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart) + shift;
  const newStart = (hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart) + shift;
  return `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`;
}

/**
 * Finds where every hunk fits, or throws PATCH_FAILED naming the file and hunk and showing the lines that differ.
 * With a `frame` (a window of a large file, its hunks' starts made relative to it) a hunk must fit at its line, and
 * the line numbers said are the file's.
 */
function placeHunks(display: string, text: string, patch: StructuredPatch, frame?: LineFrame): HunkPlacement[] {
  const lines = text.split('\n');
  const shown = frame?.offset ?? 0;
  const placements: HunkPlacement[] = [];
  let shift = 0;
  let floor = 0;
  for (const [index, hunk] of patch.hunks.entries()) {
    const header = headerOf(hunk, shown);
    const old = hunk.lines.filter((line) => line.startsWith(' ') || line.startsWith('-') || line === '').map((line) => line.slice(1));
    const wanted = hunk.oldStart - 1 + shift;
    const fitsAt = (at: number): boolean =>
      at >= floor && at + old.length <= lines.length && old.every((line, offset) => sameLine(lines[at + offset], line));
    let at: number | undefined;
    if (fitsAt(wanted)) at = wanted;
    else if (frame) {
      throw failed(
        `Hunk ${index + 1} of ${patch.hunks.length} (${header}) for ${display} does not match the file at line ${wanted + 1 + shown}, where its header puts it; in a file this large a hunk must apply at its own line. Read the lines there and make the patch from them.`,
        { file: display, hunk: index + 1, header },
      );
    } else if (old.length > 0) {
      const found: number[] = [];
      for (let candidate = floor; candidate + old.length <= lines.length; candidate++) if (fitsAt(candidate)) found.push(candidate);
      const where = `Hunk ${index + 1} of ${patch.hunks.length} (${header}) for ${display}`;
      if (found.length > 1) {
        throw failed(
          `${where} is ambiguous: its lines occur at lines ${found.map((each) => each + 1).join(', ')} but not at line ${wanted + 1} where the header puts it. Add context lines or correct the header.`,
          {
            file: display,
            hunk: index + 1,
            header,
            matches_at_lines: found.map((each) => each + 1),
          },
        );
      }
      at = found[0];
      if (at === undefined) {
        const differences = lineDifferences(lines, old, wanted, sameLine);
        throw failed(
          `${where} does not match the file, at its line or anywhere else.${describeDifference(differences)} Read the file again and make the patch from its current content.`,
          {
            file: display,
            hunk: index + 1,
            header,
            differences: differences.slice(0, 20),
          },
        );
      }
    }
    if (at === undefined)
      throw failed(`Hunk ${index + 1} (${header}) for ${display} lies beyond the end of the file (${lines.length} lines).`, {
        file: display,
        hunk: index + 1,
        header,
      });
    placements.push({ header, line: at + 1 + shown, offset: at - (hunk.oldStart - 1) });
    shift = at - (hunk.oldStart - 1);
    floor = at + old.length;
  }
  return placements;
}

function applyWhole(display: string, text: string, patch: StructuredPatch, placements: readonly HunkPlacement[]): string {
  const result = applyPatch(text, patch, { compareLine: (_number, line, _operation, patchContent) => sameLine(line, patchContent) });
  if (result === false) {
    // Every hunk fitted by placeHunks, so what is left is the end-of-file newline marker of the last hunk.
    const last = placements[placements.length - 1];
    throw failed(
      `The last hunk${last ? ` (${last.header})` : ''} for ${display} does not agree with the file about the newline at its end ("\\ No newline at end of file").`,
      {
        file: display,
        hunk: placements.length,
      },
    );
  }
  return result;
}

/** What a patch's one kind answers: where each hunk went. */
interface PatchFields {
  readonly hunks: readonly HunkPlacement[];
}

/** A large file's hunks as a streamed edit: each hunk's old lines and one line on each side form a window. */
function patchKind(patch: StructuredPatch): TextEditKind<readonly HunkPlacement[], PatchFields> {
  return {
    describe: (l10n, path) => l10n.t('Patching {0}', path),
    windows: () =>
      Promise.resolve(patch.hunks.map((hunk) => ({ firstLine: Math.max(1, hunk.oldStart - 1), lastLine: hunk.oldStart + hunk.oldLines }))),
    rewrite({ text, display, frame }) {
      const offset = frame?.offset ?? 0;
      const windowLines = text.split('\n').length;
      const hunks = patch.hunks
        .filter((hunk) => hunk.oldStart - 1 >= offset && hunk.oldStart - 1 <= offset + windowLines)
        .map((hunk) => ({ ...hunk, oldStart: hunk.oldStart - offset, newStart: hunk.newStart - offset }));
      const part = { ...patch, hunks };
      const placements = placeHunks(display, text, part, frame ?? { offset: 0, total: windowLines });
      return { text: applyWhole(display, text, part, placements), extra: placements };
    },
    finish: (extras) => ({ hunks: extras.flat() }),
  };
}

/** Reads every target and checks every hunk. Throws PATCH_FAILED (or the file's refusal) before anything is written. */
export async function verifyPatch(context: ToolContext, targets: readonly PatchTarget[]): Promise<PatchFilePlan[]> {
  const plans: PatchFilePlan[] = [];
  for (const [index, target] of targets.entries()) {
    throwIfCancelled(context);
    reportProgress(context, index, targets.length, 'files checked');
    plans.push(await planTarget(context, target));
  }
  return plans;
}

/** One target checked against the file at its path: what writing it will do, or PATCH_FAILED. */
async function planTarget(context: ToolContext, target: PatchTarget): Promise<PatchFilePlan> {
  const { path, action, destination } = target;
  await assertMayWrite(context, path, 'file');
  const stat = await context.workspace.fs.stat(path.absolute);
  if (action === 'create') return planCreate(context, target, stat);
  const verb = action === 'delete' ? 'deletes' : action === 'move' ? 'moves' : 'changes';
  if (!stat) throw failed(`The patch ${verb} ${path.display}, which does not exist.`, { file: path.display });
  if (stat.kind !== 'file') throw failed(`The patch ${verb} ${path.display}, which is a ${stat.kind}, not a file.`, { file: path.display });
  if (destination) {
    await assertMayWrite(context, destination, 'file');
    // As for a created file: a patch never replaces a file it does not show.
    if (await context.workspace.fs.stat(destination.absolute))
      throw failed(`The patch moves ${path.display} to ${destination.display}, which already exists.`, {
        file: path.display,
        destination: destination.display,
      });
  }
  if (stat.size > context.policy.editInMemoryBytes) {
    if (target.streamable) return planStreamed(context, target, target.streamable, stat);
    throw limitExceeded(
      'size_bytes',
      context.policy.editInMemoryBytes,
      `${path.display} is ${humanSize(stat.size)}; a V4A patch is placed by searching the whole file, which is done for files of at most ${humanSize(context.policy.editInMemoryBytes)}. Patch it with a unified diff, whose hunks name their lines${action === 'move' ? `, after ${toolRef('move_file')}` : ''}. Nothing was written.`,
      path.display,
    );
  }
  return planInMemory(context, target, stat);
}

/** A new file from hunks that only add lines, encoded as the host writes new files. */
async function planCreate(context: ToolContext, target: PatchTarget, stat: FileStat | undefined): Promise<PatchFilePlan> {
  const { path } = target;
  if (stat) throw failed(`The patch creates ${path.display}, which already exists.`, { file: path.display });
  const { text, hunks: placements } = target.rewrite(path.display, '');
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  // A new file is written as the host writes new files there (files.encoding, --encoding).
  const chosen = (await context.encodings.settingsFor(path.absolute)).default;
  const encoding = chosen === 'utf8bom' ? 'utf8' : chosen;
  const after = await encodeFileText(fileRef(context, path), body, {
    encoding,
    bom: chosen === 'utf8bom' || (encoding === 'utf8' && bom) || encoding === 'utf16le' || encoding === 'utf16be',
  });
  return {
    ...target,
    stat,
    before: undefined,
    after,
    change: describeChange(path.display, '', body, { old: '/dev/null' }),
    hunks: placements,
    previousHash: null,
    contentHash: contentHash(after),
  };
}

/** A file above the in-memory edit limit, checked by a streamed edit that writes nothing; it is written later by the same edit. */
async function planStreamed(context: ToolContext, target: PatchTarget, patch: StructuredPatch, stat: FileStat): Promise<PatchFilePlan> {
  const { path, action } = target;
  if (action === 'delete') {
    // A patch (at most PATCH_MAX_BYTES) cannot remove every line of a file this large.
    throw failed(
      `The patch deletes ${path.display}, but its removed lines are not the whole file. Nothing is deleted that the patch does not show.`,
      {
        file: path.display,
      },
    );
  }
  const streamed = patchKind(patch);
  const outcome = await streamTextEdit(context, path, stat, { dryRun: true }, [streamed], false);
  return {
    ...target,
    stat,
    before: undefined,
    after: undefined,
    change: outcome.change,
    hunks: 'hunks' in outcome.fields ? outcome.fields.hunks : [],
    previousHash: outcome.previousHash,
    contentHash: outcome.contentHash,
    streamed,
  };
}

/**
 * A file read whole and patched in memory: its new bytes (for a move, the destination's, in the file's own encoding),
 * or its deletion when the patch removes every line.
 */
async function planInMemory(context: ToolContext, target: PatchTarget, stat: FileStat): Promise<PatchFilePlan> {
  const { path, action, destination } = target;
  const before = await context.workspace.fs.readFile(path.absolute);
  const decoded = await decodeFileText(fileRef(context, path), before);
  const { text, hunks: placements } = target.rewrite(path.display, decoded.text);
  if (action === 'delete') {
    if (text !== '') {
      throw failed(
        `The patch deletes ${path.display}, but its removed lines are not the whole file (${text.split('\n').length} lines would remain). Nothing is deleted that the patch does not show.`,
        { file: path.display },
      );
    }
    return {
      ...target,
      stat,
      before,
      after: undefined,
      change: describeChange(path.display, decoded.text, '', { new: '/dev/null' }),
      hunks: placements,
      previousHash: contentHash(before),
      contentHash: null,
    };
  }
  const unchanged = destination !== undefined && text === decoded.text;
  const after = unchanged ? before : await encodeFileText(fileRef(context, destination ?? path), text, decoded);
  return {
    ...target,
    stat,
    before,
    after,
    change: describeChange(path.display, decoded.text, text, destination ? { new: `b/${destination.display}` } : {}),
    hunks: placements,
    previousHash: contentHash(before),
    contentHash: contentHash(after),
  };
}

/**
 * Writes every planned file (each atomically), streamed ones last. If one fails, or the call is cancelled, the files
 * already written are put back as they were (a streamed one from its parked old file), and the error says which
 * were restored and which could not be.
 */
export async function writePatch(context: ToolContext, plans: readonly PatchFilePlan[]): Promise<void> {
  const { fs } = context.workspace;
  const done: { plan: PatchFilePlan; parked?: string }[] = [];
  const ordered = [...plans.filter((plan) => !plan.streamed), ...plans.filter((plan) => plan.streamed)];
  for (const plan of ordered) {
    let parked: string | undefined;
    try {
      throwIfCancelled(context);
      if (plan.action === 'create') {
        await ensureParentDirectory(context, plan.path, 'DIRECTORY_NOT_DIRECTORY');
        await writeFileAtomic(context, plan.path.absolute, plan.after ?? new Uint8Array(), undefined, { exclusive: true });
      } else if (plan.streamed && plan.stat) {
        // Kept under a staging name until the whole patch is in: the only copy of the old bytes if a later file fails.
        if (plan !== ordered[ordered.length - 1]) parked = await parkFile(fs, plan.path.absolute);
        await streamTextEdit(
          context,
          plan.path,
          plan.stat,
          { dryRun: false, expectedHash: plan.previousHash ?? undefined },
          [plan.streamed],
          true,
        );
      } else if (plan.action === 'modify') {
        await writeFileAtomic(context, plan.path.absolute, plan.after ?? new Uint8Array(), plan.stat);
      } else if (plan.destination) {
        await writeMove(context, plan, plan.destination);
      } else {
        await fs.delete(plan.path.absolute, { recursive: false, useTrash: true });
      }
      done.push({ plan, ...(parked ? { parked } : {}) });
      reportProgress(context, done.length, plans.length, 'files patched');
    } catch (error) {
      if (parked) await removeQuietly(fs, parked);
      const { restored, unrestored } = await restore(context, done);
      if (error instanceof CancelledError) throw error;
      const list = (paths: string[]): string => (paths.length === 0 ? 'none' : paths.join(', '));
      if (error instanceof ToolError && done.length === 0) throw error;
      throw new ToolError(
        'WRITE_FAILED',
        `Applying the patch failed at ${plan.path.display}: ${describeError(error)}. Files already written and restored to their previous content: ${list(restored)}.${unrestored.length > 0 ? ` Could NOT be restored (check them): ${list(unrestored)}.` : ''} No other file was changed.`,
        { failed_path: plan.path.display, restored, not_restored: unrestored },
      );
    }
  }
  for (const { parked } of done) if (parked) await removeQuietly(fs, parked);
}

/** A move: the file renamed (keeping its inode and mode), then its new content written; renamed back if that fails. */
async function writeMove(context: ToolContext, plan: PatchFilePlan, destination: ConfinedPath): Promise<void> {
  const { fs } = context.workspace;
  await ensureParentDirectory(context, destination, 'DIRECTORY_NOT_DIRECTORY');
  await fs.rename(plan.path.absolute, destination.absolute, { overwrite: false });
  if (!contentChanged(plan)) return;
  try {
    await writeFileAtomic(context, destination.absolute, plan.after ?? new Uint8Array(), await fs.stat(destination.absolute));
  } catch (error) {
    await fs.rename(destination.absolute, plan.path.absolute, { overwrite: false }).catch(() => undefined);
    throw error;
  }
}

function contentChanged(plan: PatchFilePlan): boolean {
  return plan.before === undefined || plan.after === undefined || !sameBytes(plan.before, plan.after);
}

async function restore(
  context: ToolContext,
  done: readonly { plan: PatchFilePlan; parked?: string }[],
): Promise<{ restored: string[]; unrestored: string[] }> {
  // Restoring must finish even when the failure was a cancellation.
  const steady: ToolContext = { ...context, isCancelled: () => false };
  const { fs } = context.workspace;
  const restored: string[] = [];
  const unrestored: string[] = [];
  for (const { plan, parked } of [...done].reverse()) {
    try {
      if (plan.action === 'create') await fs.delete(plan.path.absolute, { recursive: false, useTrash: false });
      else if (plan.destination) {
        await fs.rename(plan.destination.absolute, plan.path.absolute, { overwrite: false });
        if (contentChanged(plan))
          await writeFileAtomic(steady, plan.path.absolute, plan.before ?? new Uint8Array(), await fs.stat(plan.path.absolute));
      } else if (parked) await fs.rename(parked, plan.path.absolute, { overwrite: true });
      else await writeFileAtomic(steady, plan.path.absolute, plan.before ?? new Uint8Array(), await fs.stat(plan.path.absolute));
      restored.push(plan.path.display);
    } catch {
      unrestored.push(plan.path.display);
    }
  }
  return { restored, unrestored };
}

/** What a result reports per file. */
export function describePlan(plan: PatchFilePlan) {
  return {
    path: plan.path.display,
    action: plan.action,
    ...(plan.destination ? { moved_to: plan.destination.display } : {}),
    hunks: plan.hunks.map((hunk) => ({
      header: hunk.header,
      line: hunk.line,
      offset: hunk.offset,
      ...(hunk.stage ? { stage: hunk.stage } : {}),
    })),
    lines_added: plan.change.linesAdded,
    lines_removed: plan.change.linesRemoved,
    previous_hash: plan.previousHash,
    content_hash: plan.contentHash,
  };
}
