/**
 * A conflict region of diff3 taken side by side where the two sides only touch. diff3, and git after it, call two
 * changes with no unchanged line between them a conflict; an undo that refused those refused a formatter's change one
 * line above the agent's. Here each side's hunks within the region are found (jsdiff over the region's items), and
 * where every hunk replaces items the other side leaves alone both are taken, in the base's order. Items are whatever
 * the caller merges (history/merge.ts: lines and stretches of lines, as numbers).
 */
import { diffArrays } from 'diff';

/** How many placements the check tries in one region (sideBySide): later changes of up to 4,096 lines around the change. */
const MAX_SPLIT_TRIES = 4_096;

/** How two insertions at one place are ordered: refused (an undo cannot know), or one side's first (the check). */
export type Ties = 'refuse' | 'ours' | 'theirs';

/** One side's change within a conflict: the base's items [start, end) replaced by `items`. */
interface Hunk {
  readonly start: number;
  readonly end: number;
  readonly items: readonly number[];
}

/** The hunks that turn `base` into `version`, in order. */
function hunksOf(base: readonly number[], version: readonly number[]): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  for (const change of diffArrays([...base], [...version])) {
    const last = hunks[hunks.length - 1];
    const open = last !== undefined && last.end === at && (change.added || change.removed) ? hunks.pop() : undefined;
    const start = open?.start ?? at;
    const items = [...(open?.items ?? [])];
    if (change.added) items.push(...change.value);
    else if (change.removed) at += change.count;
    else {
      at += change.count;
      continue;
    }
    hunks.push({ start, end: at, items });
  }
  return hunks;
}

/**
 * A conflict of diff3 resolved where the two sides only touch: each side's hunks replace lines of the base the other
 * leaves alone (a hunk may end where the other's begins), so both are taken, in the base's order. One inside lines
 * the other replaced is a conflict (undefined); so are two insertions at one place, which have no order a person
 * could be sure of, unless `ties` says which side goes first. What comes out is checked like every merge, by doing
 * the change again (mergeLines), and that check knows the file it must give: with `fits`, where the plain merge does
 * not give it, an insertion inside or at either end of the other side's hunk (the undone change put back between
 * lines changed since, which the check sees as one hunk) goes where `fits` accepts what comes out.
 */
export function sideBySide(
  base: readonly number[],
  ours: readonly number[],
  theirs: readonly number[],
  ties: Ties,
  fits?: (items: readonly number[]) => boolean,
): number[] | undefined {
  const isInsertion = (hunk: Hunk): boolean => hunk.start === hunk.end;
  const first = ties === 'theirs' ? 1 : 0;
  const tagged = [
    ...hunksOf(base, ours).map((hunk) => ({ ...hunk, side: 0 })),
    ...hunksOf(base, theirs).map((hunk) => ({ ...hunk, side: 1 })),
  ];
  // By where they start; at one place an insertion goes before the lines the other hunk replaces.
  const sorted = tagged.sort(
    (one, other) =>
      one.start - other.start ||
      Number(!isInsertion(one)) - Number(!isInsertion(other)) ||
      Number(one.side !== first) - Number(other.side !== first),
  );
  const build = (hunks: readonly Hunk[]): number[] | undefined => {
    const merged: number[] = [];
    let at = 0;
    let previous: Hunk | undefined;
    for (const hunk of hunks) {
      const bothInsert = previous !== undefined && isInsertion(previous) && isInsertion(hunk) && previous.start === hunk.start;
      if (hunk.start < at || (bothInsert && ties === 'refuse')) return undefined;
      merged.push(...base.slice(at, hunk.start), ...hunk.items);
      at = hunk.end;
      previous = hunk;
    }
    merged.push(...base.slice(at));
    return merged;
  };
  const plain = build(sorted);
  if (!fits || (plain && fits(plain))) return plain;
  // The check: one side's insertion within or at either end of the other's hunk (one that replaces lines, or an
  // insertion at the same place) goes after `split` of its lines, for the first split that gives the file it must.
  // Each try costs the region's length, so the tries are bounded; past them the undo refuses, as it did before.
  let tries = MAX_SPLIT_TRIES;
  for (const inserted of sorted.filter(isInsertion)) {
    const around = sorted.find((hunk) => hunk.side !== inserted.side && hunk.start <= inserted.start && inserted.start <= hunk.end);
    for (let split = 0; around && split <= around.items.length && tries-- > 0; split++) {
      const items = [...around.items.slice(0, split), ...inserted.items, ...around.items.slice(split)];
      const merged = build(sorted.filter((hunk) => hunk !== inserted).map((hunk) => (hunk === around ? { ...hunk, items } : hunk)));
      if (merged && fits(merged)) return merged;
    }
  }
  return undefined;
}
