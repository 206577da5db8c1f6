/**
 * The warm content index as the core sees it: what a long-lived host (src/node/indexes/contentIndex.ts) knows about the text
 * of the files below its roots, used by search_content to pass over files that cannot hold a match.
 *
 * Its one promise: a file the filter `narrow` gives says false for holds no line that matches the query, as of the
 * call's start. Everything it is not sure of (a file it has not read, one changed since, one in a directory whose
 * changes it cannot hear of) it says true for, and the scan reads that file. So a narrowed scan finds exactly what a
 * full scan finds; the index only saves reads.
 */

/**
 * What every matching line must contain, in the index's terms: lower-case ASCII texts of at least three characters
 * (no NUL), combined by and/or. A query with no such text has no plan and is not narrowed (search/grams.ts).
 */
export type GramPlan = { readonly text: string } | { readonly and: readonly GramPlan[] } | { readonly or: readonly GramPlan[] };

/** What the index says about itself (workspace_info, the bench). */
export interface ContentIndexReport {
  /** 'ready': narrowing searches; 'building': its first pass is under way (searches scan meanwhile); 'off'. */
  readonly state: 'ready' | 'building' | 'off';
  readonly reason?: string;
  /** Files it holds the text of (the rest are read by every search that reaches them). */
  readonly files: number;
  /** The bytes of text those files hold. */
  readonly textBytes: number;
  /** Its memory, estimated from what it holds. */
  readonly bytes: number;
  /** Searches it narrowed. */
  readonly answered: number;
}

export interface ContentIndex {
  /**
   * A test of the files under `root` that may hold a match of `plan` (false: none can), current as of this call;
   * undefined when the index cannot narrow now (building, off, behind on changes, another root): the search runs as
   * it would without an index. `caseSensitive` is the query's.
   */
  narrow(root: string, plan: GramPlan, caseSensitive: boolean): Promise<((absolute: string) => boolean) | undefined>;
  report(): ContentIndexReport;
}
