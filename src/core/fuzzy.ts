/**
 * find_file's lax ranking: the query's words (split at whitespace, '.', '_' and '-', as the seed plugin splits them)
 * must each match a file name approximately; fuse.js decides which names match and scores them (Bitap, which
 * tolerates typos such as "reprot" for "report"; `ignoreLocation` lets a word match anywhere in the name; extended
 * search ANDs the words).
 *
 * fuse.js costs a few microseconds per name and word, too much for every name of a 100,000-file tree, so it only sees
 * names that can match, found in two exact steps that change no answer:
 *  - Names are ranked once per distinct lower-case name: Fuse lower-cases the text it searches and a name's score
 *    depends on nothing but that text, so every file of one name gets the same score.
 *  - A prefilter drops names that no word can match. With `ignoreLocation` a word of length m matches when some
 *    substring of the name is within k = ⌊threshold·m⌋ edits (insertions, deletions, substitutions) of it. Then, split
 *    into k + 1 pieces, at least one piece occurs unedited in the name (an edit touches at most one piece), and at
 *    least m − k of the word's characters occur in the name (each edit loses at most one). A name failing either test
 *    for some word is not a match, so Fuse would have dropped it too.
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
 * The query as Fuse's extended search gets it: its words (split like the seed plugin splits them), each quoted so that
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

/** A test every name that Fuse could match to `word` passes (see the header); names failing it cannot match. */
function prefilter(word: string): (name: string) => boolean {
  if (word.length > BITAP_BITS) return () => true;
  const edits = maxEdits(word.length);
  const pieces: string[] = [];
  for (let at = 0, piece = 0; piece <= edits; piece++) {
    const length = Math.floor((word.length - at) / (edits + 1 - piece));
    pieces.push(word.slice(at, at + length));
    at += length;
  }
  // The word's characters as slots (ASCII through a table, others through a map), with how often each occurs.
  const asciiSlot = new Int8Array(128).fill(-1);
  const otherSlot = new Map<number, number>();
  const slotCounts: number[] = [];
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    let slot = code < 128 ? (asciiSlot[code] ?? -1) : (otherSlot.get(code) ?? -1);
    if (slot === -1) {
      slot = slotCounts.push(0) - 1;
      if (code < 128) asciiSlot[code] = slot;
      else otherSlot.set(code, slot);
    }
    slotCounts[slot] = (slotCounts[slot] ?? 0) + 1;
  }
  const counts = Int8Array.from(slotCounts);
  const remaining = new Int8Array(counts.length);
  const needed = word.length - edits;
  return (name) => {
    if (!pieces.some((piece) => name.includes(piece))) return false;
    remaining.set(counts);
    let found = 0;
    for (let index = 0; index < name.length; index++) {
      const code = name.charCodeAt(index);
      const slot = code < 128 ? (asciiSlot[code] ?? -1) : (otherSlot.get(code) ?? -1);
      if (slot === -1 || (remaining[slot] ?? 0) === 0) continue;
      remaining[slot] = (remaining[slot] ?? 0) - 1;
      if (++found >= needed) return true;
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
