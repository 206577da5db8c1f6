/**
 * How an operation is undone, decided from its record alone: once when it is recorded (its `undo_available`) and
 * again when the undo runs. Every path goes back to its before state; a path whose content went to another path of
 * the same operation (a move) is renamed back, which keeps what history cannot recreate (links inside a moved tree,
 * times) and needs no stored content.
 */
import type { OperationRecord, PathRecord } from './store';
import { isComplete, sameState } from './state';

export type UndoStep =
  /** Rename `from` (whose after state is `to`'s before state) back to `to`. */
  | { readonly kind: 'move-back'; readonly from: PathRecord; readonly to: PathRecord }
  /** The path did not exist before: remove what is there. */
  | { readonly kind: 'remove'; readonly path: PathRecord }
  /** Recreate the before file or directory from stored content. */
  | { readonly kind: 'restore'; readonly path: PathRecord };

export type UndoPlan = { readonly steps: readonly UndoStep[] } | { readonly reason: string };

export function planUndo(record: Pick<OperationRecord, 'paths' | 'blobs'>): UndoPlan {
  const steps: UndoStep[] = [];
  const pairedTargets = new Set<PathRecord>();
  for (const path of record.paths) {
    if (!isComplete(path.before) || !isComplete(path.after)) {
      return { reason: `${path.display} was too large to record (setting agentFs.history.maxBytes)` };
    }
  }
  for (const path of record.paths) {
    if (path.before.type === 'missing') {
      const origin = record.paths.find(
        (candidate) =>
          !pairedTargets.has(candidate) &&
          candidate.after.type === 'missing' &&
          candidate.before.type !== 'missing' &&
          sameState(candidate.before, path.after),
      );
      if (origin) {
        pairedTargets.add(origin);
        steps.push({ kind: 'move-back', from: path, to: origin });
      }
    }
  }
  for (const path of record.paths) {
    if (pairedTargets.has(path) || steps.some((step) => step.kind === 'move-back' && step.from === path)) continue;
    const { before, after } = path;
    if (before.type === 'missing') {
      steps.push({ kind: 'remove', path });
      continue;
    }
    if (before.type === 'symlink' || before.type === 'other') {
      return {
        reason: `${path.display} was a ${before.type === 'symlink' ? 'symbolic link' : 'special file'}, which Agent FS cannot recreate`,
      };
    }
    if (before.type === 'file') {
      if (before.link && !(after.type === 'file' && after.link)) {
        return { reason: `${path.display} was a symbolic link, which Agent FS cannot recreate` };
      }
      if (before.hash !== undefined && !hasBlob(record, before.hash)) return { reason: `the content of ${path.display} was not recorded` };
    } else {
      const blocked = before.entries.find((entry) => entry.type === 'symlink' || entry.type === 'other');
      if (blocked)
        return {
          reason: `${path.display}/${blocked.path} was a ${blocked.type === 'symlink' ? 'symbolic link' : 'special file'}, which Agent FS cannot recreate`,
        };
      const missing = before.entries.find((entry) => entry.hash !== undefined && !hasBlob(record, entry.hash));
      if (missing) return { reason: `the content of ${path.display}/${missing.path} was not recorded` };
    }
    steps.push({ kind: 'restore', path });
  }
  return { steps };
}

function hasBlob(record: Pick<OperationRecord, 'blobs'>, hash: string): boolean {
  return Object.prototype.hasOwnProperty.call(record.blobs, hash.replace(/^sha256:/, ''));
}
