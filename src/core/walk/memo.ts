/**
 * Memoisation by listing, for the walks over the path index (listing.ts, ignore.ts): a listing the index hands out
 * is the same array for as long as its directory is unchanged, and so are the arrays derived from it here, and the
 * subtrees a walk passes over whole (heldWalk.ts) for as long as nothing in them changes.
 */

/**
 * What a tool derives from one listing, remembered with it: the listings the path index hands out, and the arrays
 * IgnoreRules.visibleEntries and a ListingMemo make of them, stay the same objects for as long as the directory is
 * unchanged (a changed directory gets a new array), so a repeated call derives again only from the listings that
 * changed. Pure memoisation, keyed by the array and by `key`, which must hold everything `derive` reads besides the
 * entries (a pattern, a root); each array keeps its last KEYS_KEPT keys. Only held arrays (holdListing) are
 * remembered: a listing read from the disk is a new array at every call and is simply derived from.
 */
export class ListingMemo<T> {
  private readonly byListing = new WeakMap<object, Map<string, T>>();

  constructor(private readonly keysKept = KEYS_KEPT) {}

  /** What `derive` makes of `of` (a listing, or a HeldSubtree), remembered when `of` is held. */
  get<K extends object>(of: K, key: string, derive: (of: K) => T): T {
    const known = this.known(of, key);
    if (known !== undefined) return known;
    const derived = derive(of);
    if (held.has(of)) this.keep(of, key, derived);
    return derived;
  }

  /** What was kept for `of` and `key`, if anything. */
  known(of: object, key: string): T | undefined {
    return this.byListing.get(of)?.get(key);
  }

  /**
   * Keeps `value` for `of` and `key`, for a caller that derives it in steps of its own (heldWalk.ts): `of` must be
   * an object that stands for something that never changes, as a held listing does.
   */
  keep(of: object, key: string, value: T): void {
    let byKey = this.byListing.get(of);
    if (!byKey || byKey.size >= this.keysKept) {
      byKey = new Map();
      this.byListing.set(of, byKey);
    }
    byKey.set(key, value);
  }
}

/** Keys a ListingMemo keeps per listing: more than the patterns and queries a session switches between at once. */
const KEYS_KEPT = 4;

/** Listings and subtrees that never change (holdListing): the only ones worth remembering anything by. */
const held = new WeakSet<object>();

/**
 * Marks `entries` as a listing that never changes — the path index's own listing of a directory, what is derived
 * from one and remembered with it, or a subtree kept whole (heldWalk.ts) — so that what is derived from it is
 * remembered (ListingMemo, IgnoreRules.visibleEntries). The caller promises it and what it holds never change.
 */
export function holdListing(entries: object): void {
  held.add(entries);
}

/** Whether `entries` was marked by holdListing. */
export function isHeldListing(entries: object): boolean {
  return held.has(entries);
}

/**
 * The one instance of a memo key equal to `key`. Keys are built afresh at every call, and a map compares a key it
 * holds with a different instance character by character; with the one instance, the lookups of a walk (one or more
 * per directory) compare by identity. Only the cost changes: a key forgotten here (past INTERNED_KEYS) still equals
 * its text.
 */
export function internKey(key: string): string {
  const known = interned.get(key);
  if (known !== undefined) return known;
  if (interned.size >= INTERNED_KEYS) interned.clear();
  interned.set(key, key);
  return key;
}

const interned = new Map<string, string>();
/** Distinct keys kept: far more than the rule sets, patterns and queries of the calls of one session at a time. */
const INTERNED_KEYS = 1024;
