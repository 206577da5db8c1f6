/**
 * Pages of a listing or search result. A reply with default arguments must stay small enough for a model to read
 * (32 KB with everything else in it), so a page the caller did not size is also cut by bytes; either way the reply
 * says `truncated` and gives `next_offset`, where the next call continues with exactly the rest, in the same order.
 */

/** The most bytes (as JSON) a default-sized page of entries takes: with the rest of a reply, under 32 KB. */
export const DEFAULT_PAGE_BYTES = 24 * 1024;

export interface Page<T> {
  readonly items: readonly T[];
  /** Where the next page starts; undefined when this page ends the list. */
  readonly nextOffset: number | undefined;
}

const encoder = new TextEncoder();

/**
 * Items `offset`… of `all`, at most `limit` of them and, when `byteBudget` is given, no more than fit in it as JSON
 * (but always at least one, so that a caller can always go on).
 */
export function pageOf<T>(all: readonly T[], offset: number, limit: number, byteBudget?: number): Page<T> {
  return pageFrom(all.slice(offset, offset + limit), offset, all.length, byteBudget);
}

/**
 * A page from `items`, the entries from `offset` on (already no more than the caller's limit) of a list of `total`
 * entries: cut to `byteBudget` when given, with `nextOffset` where the rest starts.
 */
export function pageFrom<T>(items: readonly T[], offset: number, total: number, byteBudget?: number): Page<T> {
  let fits = items.length;
  if (byteBudget !== undefined) {
    let bytes = 0;
    fits = 0;
    for (const item of items) {
      bytes += encoder.encode(JSON.stringify(item)).length + 1;
      if (bytes > byteBudget && fits > 0) break;
      fits++;
    }
  }
  const end = offset + fits;
  return { items: items.slice(0, fits), nextOffset: end < total ? end : undefined };
}

/** The reply fields of a page: `truncated`, and `next_offset` only when there is more. */
export function pageFields(page: Page<unknown>): { truncated: boolean; next_offset?: number } {
  return page.nextOffset === undefined ? { truncated: false } : { truncated: true, next_offset: page.nextOffset };
}

/**
 * The first `count` items of the sorted `runs` taken together, in `compare`'s order: a merge that stops after
 * `count`, so a page of a long result kept in sorted parts costs its own length, not a sort of everything.
 */
export function firstOfRuns<T extends object>(runs: readonly (readonly T[])[], count: number, compare: (a: T, b: T) => number): T[] {
  interface Head {
    readonly run: readonly T[];
    at: number;
    item: T;
  }
  // A binary heap of the runs' next items, least first.
  const heap: Head[] = [];
  for (const run of runs) if (run[0] !== undefined) heap.push({ run, at: 0, item: run[0] });
  const before = (i: number, j: number): boolean => compare((heap[i] as Head).item, (heap[j] as Head).item) < 0;
  const swap = (i: number, j: number): void => {
    [heap[i], heap[j]] = [heap[j] as Head, heap[i] as Head];
  };
  const down = (from: number): void => {
    for (let i = from; ;) {
      const left = 2 * i + 1;
      const least = left + 1 < heap.length && before(left + 1, left) ? left + 1 : left;
      if (least >= heap.length || !before(least, i)) return;
      swap(i, least);
      i = least;
    }
  };
  for (let i = Math.floor(heap.length / 2) - 1; i >= 0; i--) down(i);
  const out: T[] = [];
  while (out.length < count && heap.length > 0) {
    const head = heap[0] as Head;
    out.push(head.item);
    const next = head.run[++head.at];
    if (next !== undefined) head.item = next;
    else {
      swap(0, heap.length - 1);
      heap.pop();
    }
    down(0);
  }
  return out;
}
