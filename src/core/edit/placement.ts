/**
 * What apply_patch's two grammars share: the per-file target a parsed patch becomes (patch.ts builds it from a
 * unified diff, v4a.ts from a V4A patch), the placement each hunk or section reports, and how a refusal shows the
 * lines of the file that differ from the patch. From a target on, both grammars are one plan (patch.ts): checked
 * whole before anything is written, written file by file, restored on a failure.
 */
import type { StructuredPatch } from 'diff';
import type { ConfinedPath } from '../confinement';
import { ToolError } from '../errors';

export type PatchAction = 'modify' | 'create' | 'delete' | 'move';

/** Which comparison found a V4A section's old lines: as they are, without trailing whitespace, or without any around them. */
/**
 * How a V4A section's lines were found: exactly, then ignoring trailing or surrounding whitespace; or, for a section
 * whose "@@" line lies above where the previous section left the search, exactly and only once below it.
 */
export type PlacementStage = 'exact' | 'trailing_whitespace' | 'whitespace' | 'anchor_above';

export interface HunkPlacement {
  readonly header: string;
  /** 1-based line of the original file where the hunk's old lines start. */
  readonly line: number;
  /** How far from its header's line the hunk was found (0: exactly there; always 0 for V4A, which names no line). */
  readonly offset: number;
  /** V4A sections only. */
  readonly stage?: PlacementStage;
}

/** A file's new text and where each hunk of it went. */
export interface Rewritten {
  readonly text: string;
  readonly hunks: HunkPlacement[];
}

/** One file of a parsed patch, its paths confined but nothing read yet. */
export interface PatchTarget {
  readonly index: number;
  readonly action: PatchAction;
  readonly path: ConfinedPath;
  /** Where a move puts the file (V4A's "*** Move to:"). */
  readonly destination?: ConfinedPath;
  /**
   * The file's new text from its current decoded text (a created file's from ''), line endings as the file has them,
   * or PATCH_FAILED naming the hunk that does not fit. For a deletion, '' when the patch removes the whole file.
   */
  readonly rewrite: (display: string, text: string) => Rewritten;
  /**
   * A unified diff's hunks, by which a file above the in-memory edit limit is patched while streaming; absent for
   * V4A, whose sections are placed by searching the whole text.
   */
  readonly streamable?: StructuredPatch;
}

export function patchFailed(message: string, details: Record<string, unknown>): ToolError {
  return new ToolError('PATCH_FAILED', `${message} Nothing was written.`, details);
}

export interface LineDifference {
  readonly line: number;
  readonly expected: string;
  /** null where the file ends before the line. */
  readonly actual: string | null;
}

/**
 * The lines of `old` that differ from the file's `lines` when `old` is laid at index `at`, with 1-based line numbers;
 * `same` compares a file line (undefined past the end) with a patch line.
 */
export function lineDifferences(
  lines: readonly string[],
  old: readonly string[],
  at: number,
  same: (line: string | undefined, patchLine: string) => boolean,
): LineDifference[] {
  const differences: LineDifference[] = [];
  for (const [offset, line] of old.entries()) {
    const actual = lines[at + offset];
    if (!same(actual, line))
      differences.push({ line: at + offset + 1, expected: line, actual: actual === undefined ? null : actual.replace(/\r$/, '') });
  }
  return differences;
}

/** The first difference as a sentence (with a leading space), or '' when there is none. */
export function describeDifference(differences: readonly LineDifference[]): string {
  const first = differences[0];
  if (!first) return '';
  const actual = first.actual === null ? 'no line (it ends earlier)' : JSON.stringify(first.actual);
  return ` At line ${first.line} the patch expects ${JSON.stringify(first.expected)} but the file has ${actual}.`;
}
