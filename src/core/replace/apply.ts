/**
 * Applies a staged plan (plan.ts) all or nothing: every changed file's new bytes are already in a staging sibling, so
 * what is left is a swap per file, its old bytes kept: in memory, where the plan kept them, else parked under a second
 * name (changes/writes.ts, parkFile).
 * Files too large for memory are written last, each by its streamed edit (checked against the hash the plan read).
 * If any step fails, or the call is cancelled, every file already swapped is put back from its old bytes and the
 * staging files go; only then is the failure reported, saying what could not be put back, if anything.
 *
 * What it cannot promise: a crash (the process killed, a power cut) between two swaps leaves the files swapped so far
 * with their new bytes; the parked old ones are cleaned up by the next process's lock recovery, as apply_patch's are.
 */
import type { ToolContext } from '../context';
import { parkFile, writeFileAtomic } from '../changes/writes';
import { streamTextEdit } from '../edit/textEdit';
import { CancelledError, describeError, ToolError } from '../errors';
import { removeQuietly } from '../files/staging';
import { reportProgress, throwIfCancelled } from '../signals';
import { discardStaged, type FilePlan, type Plan } from './plan';
import { targetOf } from './stage';

/** A file swapped in, and where its old bytes wait: in memory (the plan kept them), or under a parked name. */
interface Swapped {
  readonly file: FilePlan;
  readonly target: string;
  readonly parked?: string;
}

/** Names a few of many paths: "a.ts, b.ts and 3 more". */
function someOf(paths: readonly string[], shown = 5): string {
  if (paths.length === 0) return 'none';
  const first = paths.slice(0, shown).join(', ');
  return paths.length > shown ? `${first} and ${paths.length - shown} more` : first;
}

/** Swaps in every changed file of `plan`, or none. */
export async function applyPlan(context: ToolContext, plan: Plan): Promise<void> {
  const { fs } = context.workspace;
  const changed = plan.files.filter((file) => file.changed);
  const ordered = [...changed.filter((file) => !file.streamed), ...changed.filter((file) => file.streamed)];
  const swapped: Swapped[] = [];
  let current: FilePlan | undefined;
  try {
    for (const file of ordered) {
      current = file;
      throwIfCancelled(context);
      const target = await targetOf(context, file.path, file.stat);
      // Counted as swapped before the swap: a step that fails may have happened all the same, and restoring a file
      // that kept its bytes changes nothing.
      swapped.push(file.before ? { file, target } : { file, target, parked: await parkFile(fs, target) });
      if (file.staged) await fs.rename(file.staged, target, { overwrite: true });
      else if (file.streamed) {
        await streamTextEdit(context, file.path, file.stat, { dryRun: false, expectedHash: file.previousHash }, [file.streamed], true);
      }
      reportProgress(context, swapped.length, ordered.length, 'files changed');
    }
  } catch (error) {
    const unrestored = await restore(context, swapped);
    await discardStaged(context, plan.files);
    if (error instanceof CancelledError) throw error;
    const where = current?.path.display ?? '?';
    throw new ToolError(
      'WRITE_FAILED',
      `Replacing failed at ${where}: ${describeError(error)}. The ${swapped.length - unrestored.length} files it had reached were put back as they were${unrestored.length > 0 ? `; could NOT be put back (check them): ${someOf(unrestored, 20)}` : ''}. No other file was changed.`,
      { failed_path: where, restored: swapped.length - unrestored.length, not_restored: unrestored },
    );
  }
  for (const { parked } of swapped) if (parked) await removeQuietly(fs, parked);
}

/** Puts every swapped file back from its old bytes, last first; the paths that could not be. */
async function restore(context: ToolContext, swapped: readonly Swapped[]): Promise<string[]> {
  const { fs } = context.workspace;
  // Restoring must finish even when the failure was a cancellation.
  const steady: ToolContext = { ...context, isCancelled: () => false };
  const unrestored: string[] = [];
  for (const { file, target, parked } of [...swapped].reverse()) {
    try {
      if (parked) {
        await fs.rename(parked, target, { overwrite: true });
        // Where the swap never happened, the parked name was a second link to the very file, which rename leaves.
        await removeQuietly(fs, parked);
      } else if (file.before) await writeFileAtomic(steady, target, file.before, file.stat);
    } catch {
      unrestored.push(file.path.display);
    }
  }
  return unrestored;
}
