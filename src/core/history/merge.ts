/**
 * Undo as a merge, as `git revert` does it: the inverse of a recorded change is merged into the file as it is now.
 * Base: the file as the change left it; ours: the file now; theirs: the file before the change. Changes made since
 * that do not overlap the lines the change touched are kept, those right next to them too (where git and diff3 call
 * that a conflict: sideBySide); where they overlap the undo is refused, naming the lines on each side.
 *
 * Text only, and byte-exact: each version is decoded as a read of it would be (the host's encoding rules for the
 * path); the three must be in one encoding, else the undo is refused as before. Lines keep their own terminators, so
 * the merged text is made of the versions' own lines (CRLF, LF, a missing final newline, all as they were) and is
 * encoded back in that encoding, with a byte-order mark where the three-way rule puts one.
 *
 * The merge is node-diff3's. Its LCS costs about the product of the lengths it is given, so it is not given whole
 * files: jsdiff's Myers diff (linear in the lines times the edits) aligns the file now and the file before with the
 * file as the change left it, every stretch of lines unchanged on both sides becomes one token of its own, and
 * node-diff3 merges the few tokens and changed lines that remain. Adjacency is kept (a stretch is at least one token
 * wide), so what conflicts is what diff3 over the whole files would call a conflict. Every clean result is checked
 * by doing the change again: merging it back into the result must give the file now, exactly; otherwise the merge
 * is not trusted and the undo refused.
 */
import { diffArrays } from 'diff';
import { diff3Merge, type MergeRegion } from 'node-diff3';
import { ToolError } from '../errors';
import { type FileRef, decodeFileText, encodeFileText } from '../encoding/fileText';
import { sideBySide, type Ties } from './sideBySide';

/** Lines of one side, 1-based; an empty span (nothing there on that side) starts where the lines would be. */
export interface LineSpan {
  readonly start_line: number;
  readonly line_count: number;
}

/** One overlap: the lines of the file now that changed since, and the lines the undo would put back there. */
export interface LineConflict {
  readonly now: LineSpan;
  readonly before: LineSpan;
}

export type UndoMerge =
  | { readonly bytes: Uint8Array }
  | { readonly conflicts: readonly LineConflict[] }
  /** Not text, in another encoding, or too large or too changed to merge: refused as a change since. */
  | { readonly unmergeable: string };

/** Versions above this are not merged: the undo of such a file refuses any change since, as before. */
export const MERGE_MAX_BYTES = 4 * 1024 * 1024;
/**
 * What an alignment may cost: Myers' diff takes about (lines of both versions) × (edits) steps, so the edits (lines
 * removed plus lines added) it may find are this many steps over the lines, and at most 10,000. About 0.2 s on this
 * project's machines; a file of a few thousand lines may be rewritten whole, one of 100,000 lines by 100 edits.
 */
const ALIGNMENT_STEPS = 10_000_000;
const MAX_MERGE_EDITS = 10_000;

/**
 * The file `now` with the change from `before` to `recorded` taken out (see the header), or the overlaps that
 * prevent it, or why it cannot be merged at all.
 */
export async function mergeUndo(file: FileRef, recorded: Uint8Array, now: Uint8Array, before: Uint8Array): Promise<UndoMerge> {
  if (Math.max(recorded.length, now.length, before.length) > MERGE_MAX_BYTES)
    return { unmergeable: `it is larger than ${MERGE_MAX_BYTES / (1024 * 1024)} MiB, too large to merge` };
  const versions = [];
  for (const bytes of [recorded, now, before]) {
    try {
      versions.push(await decodeFileText(file, bytes));
    } catch (error) {
      if (error instanceof ToolError) return { unmergeable: 'it is not text in an encoding it can be read in' };
      throw error;
    }
  }
  const [base, ours, theirs] = versions;
  if (!base || !ours || !theirs) throw new Error('three versions were decoded');
  if (base.encoding !== ours.encoding || theirs.encoding !== ours.encoding)
    return { unmergeable: 'its encoding changed, so its lines cannot be matched' };
  const merged = mergeLines(splitLines(base.text), splitLines(ours.text), splitLines(theirs.text));
  if (!('lines' in merged)) return merged;
  // A BOM is a one-bit file of its own: the undo takes it back only where it is as the change left it.
  const bom = ours.bom === base.bom ? theirs.bom : ours.bom;
  try {
    return { bytes: await encodeFileText(file, merged.lines.join(''), { encoding: ours.encoding, bom }) };
  } catch (error) {
    if (error instanceof ToolError) return { unmergeable: 'the merged text cannot be stored in its encoding' };
    throw error;
  }
}

/** Lines with their terminators, so that joining them gives the text back exactly. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

type LineMerge = { readonly lines: readonly string[] } | { readonly conflicts: readonly LineConflict[] } | { readonly unmergeable: string };

/** `ours` with the change from `theirs` to `base` taken out, checked by doing the change again (see the header). */
function mergeLines(base: readonly string[], ours: readonly string[], theirs: readonly string[]): LineMerge {
  const result = merge3(base, ours, theirs, 'refuse');
  if (!('lines' in result)) return result;
  // Doing the change again may put a line where the result has one of its own (the change inserted right next to a
  // later insertion): either order that gives the file now is the check passed.
  const gives = (again: LineMerge): boolean =>
    'lines' in again && again.lines.length === ours.length && again.lines.every((line, index) => line === ours[index]);
  if (!gives(merge3(theirs, result.lines, base, 'ours', ours)) && !gives(merge3(theirs, result.lines, base, 'theirs', ours)))
    return { unmergeable: 'the changes since cannot be told apart from the change to undo' };
  return result;
}

/** One version as node-diff3 is given it: each item a line's id or a stretch's token, where it starts, how long. */
interface Reduced {
  readonly items: number[];
  readonly starts: number[];
  readonly lengths: number[];
}

/** A stretch of lines unchanged on all three sides: where it starts in each, and how long it is. */
interface Stretch {
  readonly base: number;
  readonly ours: number;
  readonly theirs: number;
  readonly length: number;
}

/** The three versions as node-diff3 is given them: line ids, reduced versions, and the way back to lines. */
interface Tokens {
  readonly o: readonly number[];
  readonly a: readonly number[];
  readonly b: readonly number[];
  readonly ro: Reduced;
  readonly ra: Reduced;
  readonly rb: Reduced;
  readonly expand: (item: number) => readonly string[];
}

/** `target`, for the check: the file the merge must give, which places an insertion inside a replacement (sideBySide). */
function merge3(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
  ties: Ties,
  target?: readonly string[],
): LineMerge {
  const tokens = tokenize(base, ours, theirs);
  if (!tokens) return { unmergeable: 'too many of its lines changed to merge' };
  const { ro, ra, rb, expand } = tokens;
  const merged: string[] = [];
  const conflicts: LineConflict[] = [];
  for (const region of diff3Merge(ra.items, ro.items, rb.items, { excludeFalseConflicts: true })) {
    if (region.ok) for (const item of region.ok) merged.push(...expand(item));
    if (region.conflict) {
      const { a: mine, aIndex, o: common, b: other, bIndex } = region.conflict;
      const fits = (items: readonly number[]): boolean =>
        target !== undefined && items.flatMap(expand).every((line, offset) => line === target[merged.length + offset]);
      const side = repeatsAround(tokens, region.conflict) ? undefined : sideBySide(common, mine, other, ties, target && fits);
      if (side) for (const item of side) merged.push(...expand(item));
      else conflicts.push({ now: span(ra, aIndex, mine.length, ours.length), before: span(rb, bIndex, other.length, theirs.length) });
    }
  }
  return conflicts.length > 0 ? { conflicts } : { lines: merged };
}

/** The versions as line ids, aligned with the base and reduced (see the header); undefined past the alignment's cap. */
function tokenize(base: readonly string[], ours: readonly string[], theirs: readonly string[]): Tokens | undefined {
  const lines: string[] = [];
  const ids = new Map<string, number>();
  const intern = (version: readonly string[]): number[] =>
    version.map((line) => {
      let id = ids.get(line);
      if (id === undefined) {
        id = lines.length;
        ids.set(line, id);
        lines.push(line);
      }
      return id;
    });
  const [o, a, b] = [intern(base), intern(ours), intern(theirs)];
  const toOurs = alignment(o, a);
  const toTheirs = alignment(o, b);
  if (!toOurs || !toTheirs) return undefined;
  const stretches = stretchesOf(o.length, toOurs, toTheirs);
  // What diff3 matches is what the alignment matched, nothing else: a line of ours or theirs aligned with line i of the
  // base is the token i, as that line is; a line aligned with none is its text's token, past the base's (so equal
  // lines both sides put in are seen as one). Matching by text alone let diff3 choose other pairs than the alignment
  // (two short repeated lines over a stretch of three), and a merge built on those moves lines.
  const fromBase = (to: Int32Array, length: number, version: readonly number[]): number[] => {
    const tokens = version.map((id) => o.length + id);
    to.forEach((into, at) => {
      if (into >= 0 && into < length) tokens[into] = at;
    });
    return tokens;
  };
  // Tokens past those stand for one stretch each, in all three versions alike.
  const firstToken = o.length + lines.length;
  const reduce = (version: readonly number[], startOf: (stretch: Stretch) => number): Reduced => {
    const reduced: Reduced = { items: [], starts: [], lengths: [] };
    let next = 0;
    for (let at = 0; at < version.length;) {
      const stretch = stretches[next];
      const whole = stretch !== undefined && startOf(stretch) === at;
      reduced.items.push(whole ? firstToken + next++ : (version[at] ?? -1));
      reduced.starts.push(at);
      reduced.lengths.push(whole ? stretch.length : 1);
      at += whole ? stretch.length : 1;
    }
    return reduced;
  };
  return {
    o,
    a,
    b,
    ro: reduce(
      Array.from(o, (_, at) => at),
      (stretch) => stretch.base,
    ),
    ra: reduce(fromBase(toOurs, a.length, a), (stretch) => stretch.ours),
    rb: reduce(fromBase(toTheirs, b.length, b), (stretch) => stretch.theirs),
    expand: (item) => {
      if (item < o.length) return [base[item] ?? ''];
      if (item < firstToken) return [lines[item - o.length] ?? ''];
      const stretch = stretches[item - firstToken];
      return stretch ? base.slice(stretch.base, stretch.base + stretch.length) : [];
    },
  };
}

/** The stretches of lines unchanged on all three sides, in order, from the base's alignments with ours and theirs. */
function stretchesOf(length: number, toOurs: Int32Array, toTheirs: Int32Array): Stretch[] {
  const stretches: Stretch[] = [];
  for (let at = 0; at < length;) {
    const inOurs = toOurs[at] ?? -1;
    const inTheirs = toTheirs[at] ?? -1;
    if (inOurs < 0 || inTheirs < 0) {
      at++;
      continue;
    }
    let run = 1;
    while (at + run < length && toOurs[at + run] === inOurs + run && toTheirs[at + run] === inTheirs + run) run++;
    stretches.push({ base: at, ours: inOurs, theirs: inTheirs, length: run });
    at += run;
  }
  return stretches;
}

/**
 * Whether a line of a conflict region, or the line just outside it, repeats in a version: then which of the equal
 * lines each side changed is a guess (the alignment that put the region there was one), and taking both sides would
 * be a guess too, so the region stays a conflict.
 */
function repeatsAround({ o, a, b, ro, ra, rb }: Tokens, region: NonNullable<MergeRegion<number>['conflict']>): boolean {
  const covered = (version: Reduced, ids: readonly number[], index: number, count: number): readonly number[] => {
    const start = version.starts[index] ?? ids.length;
    let end = start;
    for (let at = index; at < index + count; at++) end += version.lengths[at] ?? 0;
    return ids.slice(Math.max(0, start - 1), end + 1);
  };
  const sides = [
    [o, covered(ro, o, region.oIndex, region.o.length)],
    [a, covered(ra, a, region.aIndex, region.a.length)],
    [b, covered(rb, b, region.bIndex, region.b.length)],
  ] as const;
  const edges = new Set(sides.flatMap(([, ids]) => ids));
  return sides.some(([version]) => {
    const seen = new Set<number>();
    for (const id of version) {
      if (!edges.has(id)) continue;
      if (seen.has(id)) return true;
      seen.add(id);
    }
    return false;
  });
}

/** Where each line of `from` is in `to` (-1 where it is not), by jsdiff's Myers diff; undefined past the edit cap. */
function alignment(from: number[], to: number[]): Int32Array | undefined {
  const maxEditLength = Math.min(MAX_MERGE_EDITS, Math.floor(ALIGNMENT_STEPS / Math.max(1, from.length + to.length)));
  const changes = diffArrays(from, to, { maxEditLength });
  if (!changes) return undefined;
  const map = new Int32Array(from.length).fill(-1);
  let at = 0;
  let into = 0;
  for (const change of changes) {
    if (change.added) into += change.count;
    else if (change.removed) at += change.count;
    else for (let step = 0; step < change.count; step++) map[at++] = into++;
  }
  return map;
}

/** The lines `count` items from `index` of a reduced version cover, 1-based. */
function span(version: Reduced, index: number, count: number, total: number): LineSpan {
  const start = version.starts[index] ?? total;
  let lines = 0;
  for (let at = index; at < index + count; at++) lines += version.lengths[at] ?? 0;
  return { start_line: start + 1, line_count: lines };
}
