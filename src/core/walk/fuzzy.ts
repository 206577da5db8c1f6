/**
 * find_file's lax ranking: the query's words (split at whitespace, '.', '_' and '-', as the LM Studio plugin split them)
 * must each match a file name approximately; fuse.js decides which names match and scores them (Bitap, which
 * tolerates typos such as "reprot" for "report"; `ignoreLocation` lets a word match anywhere in the name; extended
 * search ANDs the words).
 *
 * fuse.js costs a few microseconds per name and word, too much for every name of a 100,000-file tree, so it only sees
 * names that match, found in two exact steps that change no answer:
 *  - Names are ranked once per distinct lower-case name: Fuse lower-cases the text it searches and a name's score
 *    depends on nothing but that text, so every file of one name gets the same score.
 *  - A prefilter drops names that some word does not match. With `ignoreLocation`, Fuse's Bitap matches a word of
 *    length m when some substring of the name is within k = ⌊threshold·m⌋ edits (insertions, deletions,
 *    substitutions) of it: the prefilter computes exactly that distance, with a faster algorithm, after a quicker
 *    test that can only reject (split into k + 1 pieces, at least one piece of a matching word occurs unedited, as an
 *    edit touches at most one piece). So Fuse gets the names it would have matched, and only scores them.
 */
import Fuse from 'fuse.js';

/** Fuse's score at or below which a word matches (0 is exact). */
const THRESHOLD = 0.4;
/** Fuse's Bitap handles words up to this length in one piece; longer ones are not prefiltered. */
const BITAP_BITS = 32;

export interface Ranked<T> {
  readonly item: T;
  /** 0 < score < 1, higher is better (Fuse's 0 for a perfect match maps to the top). */
  readonly score: number;
}

/**
 * The query as Fuse's extended search gets it: its words (split at whitespace, '.', '_' and '-', see the header), each quoted so that
 * characters with meaning there ('!', '^', '=', '$') stay literal, a quote inside a word dropped; and what Fuse will
 * search for per word (an empty quoted word `""` is parsed as the two quote characters).
 */
function parseQuery(query: string): { pattern: string; searched: string[] } {
  const words = query
    .trim()
    .toLowerCase()
    .split(/[\s._-]+/)
    .filter((word) => word !== '')
    .map((word) => word.replace(/"/g, ''));
  return { pattern: words.map((word) => `"${word}"`).join(' '), searched: words.map((word) => word || '""') };
}

/** The most edits Fuse accepts for a word of `length` characters: the largest k with k / length ≤ THRESHOLD. */
function maxEdits(length: number): number {
  let edits = 0;
  while (edits + 1 < length && (edits + 1) / length <= THRESHOLD) edits++;
  return edits;
}

/**
 * Whether Fuse can match `word` in a name (see the header): a quick test that one of k + 1 pieces of the word occurs
 * unedited, then the bit-parallel edit distance of Myers (1999, in Hyyrö's formulation for searching) between the
 * word and the name's best-matching substring, which must be at most k.
 */
function prefilter(word: string): (name: string) => boolean {
  if (word.length > BITAP_BITS) return () => true;
  const edits = maxEdits(word.length);
  const pieces: string[] = [];
  for (let at = 0, piece = 0; piece <= edits; piece++) {
    const length = Math.floor((word.length - at) / (edits + 1 - piece));
    pieces.push(word.slice(at, at + length));
    at += length;
  }
  // Per code unit, the bit mask of the word's positions holding it (ASCII through a table, others through a map).
  const asciiMasks = new Int32Array(128);
  const otherMasks = new Map<number, number>();
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    if (code < 128) asciiMasks[code] = (asciiMasks[code] ?? 0) | (1 << index);
    else otherMasks.set(code, (otherMasks.get(code) ?? 0) | (1 << index));
  }
  const last = 1 << (word.length - 1);
  return (name) => {
    if (!pieces.some((piece) => name.includes(piece))) return false;
    // Column by column over the name: pv/mv are the vertical +1/−1 deltas of the edit-distance matrix, `distance`
    // its bottom cell, the distance of the whole word to the best substring ending here. The top row is all zeros
    // (a match may start anywhere), hence no carry into the shifted horizontal deltas.
    let pv = -1;
    let mv = 0;
    let distance = word.length;
    for (let index = 0; index < name.length; index++) {
      const code = name.charCodeAt(index);
      const eq = code < 128 ? (asciiMasks[code] ?? 0) : (otherMasks.get(code) ?? 0);
      const xv = eq | mv;
      const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      if (ph & last) distance++;
      else if (mh & last) distance--;
      if (distance <= edits) return true;
      ph <<= 1;
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
    }
    return false;
  };
}

/**
 * find_file's answer, built while a walk offers its files one at a time, so that only the files that can still
 * match are kept: files whose whole name equals the query (case-insensitively) win with score 1; without any, the
 * lax ranking above.
 */
export class FileNameSearch<T> {
  private readonly wanted: string;
  private readonly pattern: string;
  private readonly searched: readonly string[];
  private readonly filters: readonly ((name: string) => boolean)[];
  private readonly exact: T[] = [];
  /** Lower-case name → its items, for the names that passed the prefilter. */
  private byName = new Map<string, T[]>();

  constructor(query: string) {
    this.wanted = query.trim().toLowerCase();
    ({ pattern: this.pattern, searched: this.searched } = parseQuery(query));
    // '|' (Fuse's OR), a backslash (its escape) and NUL (its stand-in for an escaped '|') change how Fuse splits
    // the pattern: such queries are not prefiltered, every name goes to Fuse.
    this.filters = /[|\\\u0000]/.test(this.pattern) ? [] : this.searched.map(prefilter);
  }

  /**
   * Whether `add` could keep a file of this name (it matches exactly, or passes every word's prefilter): a test that
   * depends on the query and the name only, so its answers can be remembered per listing (find_file does).
   */
  mayMatch(name: string): boolean {
    const lower = name.toLowerCase();
    if (lower === this.wanted) return true;
    if (this.searched.length === 0) return false;
    for (const passes of this.filters) if (!passes(lower)) return false;
    return true;
  }

  add(item: T, name: string): void {
    const lower = name.toLowerCase();
    if (lower === this.wanted) {
      // From now on only exact matches count; the lax candidates are dropped.
      if (this.exact.push(item) === 1) this.byName = new Map();
      return;
    }
    if (this.exact.length > 0 || this.searched.length === 0) return;
    for (const passes of this.filters) if (!passes(lower)) return;
    const group = this.byName.get(lower);
    if (group) group.push(item);
    else this.byName.set(lower, [item]);
  }

  /** The matches, unsorted, and how they matched. */
  results(): { matchType: 'exact' | 'lax' | 'none'; ranked: Ranked<T>[] } {
    if (this.exact.length > 0) return { matchType: 'exact', ranked: this.exact.map((item) => ({ item, score: 1 })) };
    const ranked = this.rankLax();
    return { matchType: ranked.length > 0 ? 'lax' : 'none', ranked };
  }

  private rankLax(): Ranked<T>[] {
    const candidates: { name: string }[] = [];
    for (const name of this.byName.keys()) candidates.push({ name });
    if (candidates.length === 0) return [];
    const fuse = new Fuse(candidates, {
      keys: ['name'],
      includeScore: true,
      ignoreLocation: true,
      threshold: THRESHOLD,
      useExtendedSearch: true,
      isCaseSensitive: false,
    });
    const ranked: Ranked<T>[] = [];
    for (const { item, score = 1 } of fuse.search(this.pattern)) {
      // Fuse scores 0 for a perfect match; the contract wants 0 < score < 1 for lax matches, higher is better.
      const mapped = Math.min(0.99, Math.max(0.0001, Math.round((1 - score) * 10000) / 10000));
      for (const each of this.byName.get(item.name) ?? []) ranked.push({ item: each, score: mapped });
    }
    return ranked;
  }
}
