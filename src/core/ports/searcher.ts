/**
 * The seam between search_content and a fast external searcher (ripgrep, src/node/search/ripgrep.ts). The core decides
 * what to search and checks every result against its own rules afterwards; the searcher only has to be fast and
 * to find at least the lines the pure scan (scan.ts) would find under the same options.
 */

/**
 * The query in the searcher's terms. A regular expression comes translated from JavaScript syntax (query.ts) for
 * ripgrep's default (Rust) engine and for PCRE2, either absent when that engine cannot express it exactly; the
 * searcher prefers the faster Rust one.
 */
export type ExternalQuery =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'regex'; readonly rust: string | undefined; readonly pcre2: string | undefined };

export interface ContentSearchRequest {
  /** The root (absolute): relative globs are anchored here. */
  readonly root: string;
  /** The directory to search (absolute, inside root). */
  readonly start: string;
  /**
   * What the core's own walk of `start` skipped (absolute paths: ignored by git's rules, excluded or hidden), for the
   * searcher to skip exactly these: no searcher reads ignore files the way git does. The searcher reads no ignore
   * file itself either way; absent, nothing is skipped but by the globs below.
   */
  readonly skipped?: readonly string[];
  readonly query: ExternalQuery;
  readonly caseSensitive: boolean;
  /** Lines of context before and after each matching line. */
  readonly contextLines: number;
  /** A file must match one of these globs (root-relative, gitignore-style); empty: every file. */
  readonly includeGlobs: readonly string[];
  /** Match includeGlobs ignoring case (file_pattern's smart case: no upper-case letter in it). */
  readonly includeCaseInsensitive: boolean;
  /** Files and directories matching these (normalised by ignore.ts, case-insensitive) are skipped. */
  readonly excludeGlobs: readonly string[];
  /** Skip `.git` (false with include_ignored). */
  readonly skipGit: boolean;
  /** Stop a file after this many matching lines. */
  readonly maxMatchesPerFile: number;
  /**
   * Walk in ripgrep's `--sort=path` order (one thread): depth first, each directory's entries by the bytes of their
   * names. Otherwise in any order.
   */
  readonly sorted?: boolean;
}

/** One matching line. Indices are UTF-16 offsets into `text`, the line without its terminator. */
export interface LineMatch {
  /** Absolute path, as the port spells it. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
  /** Where the first match on the line starts and ends. */
  readonly start: number;
  readonly end: number;
  readonly before: readonly string[];
  readonly after: readonly string[];
  /**
   * The lines' bytes (without terminators), when any of them is not UTF-8: the searcher could only guess their text,
   * so the core decodes them in the file's own encoding, or drops the match when they are not text in it.
   */
  readonly raw?: { readonly line: Uint8Array; readonly before: readonly Uint8Array[]; readonly after: readonly Uint8Array[] };
}

export type SearchOutcome =
  /** Every file was searched (or the caller stopped it). */
  | 'done'
  /** This searcher cannot run this request (not installed, pattern it rejects): the caller scans instead. */
  | 'unavailable';

export interface ContentSearcher {
  /** Shown in results as `engine`. */
  readonly name: string;
  /**
   * Calls `onMatch` for each matching line, a file's lines together and in line order, the files in any order
   * (or as `sorted` says); stops early once it returns false. Throws
   * CancelledError when `isCancelled` turns true.
   */
  search(
    request: ContentSearchRequest,
    onMatch: (match: LineMatch) => Promise<boolean>,
    isCancelled: () => boolean,
  ): Promise<SearchOutcome>;
}
