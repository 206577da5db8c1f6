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
import { breathe, type CallSignals } from '../signals';

/** Fuse's score at or below which a word matches (0 is exact). */
const THRESHOLD = 0.4;
/** Names Fuse ranks at once (rankLax): a few milliseconds' work, after which the call breathes. */
const RANK_BATCH = 512;
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
  const split = wordFilter(word);
  if (!split) return () => true;
  const { pieces, withinEdits } = split;
  return (name) => pieces.some((piece) => name.includes(piece)) && withinEdits(name);
}

/**
 * The two steps of prefilter: the pieces one of which a matching name holds unedited, and the edit-distance test;
 * undefined for a word too long to prefilter (every name passes).
 */
function wordFilter(word: string): { pieces: readonly string[]; withinEdits: (name: string) => boolean } | undefined {
  if (word.length > BITAP_BITS) return undefined;
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
  const withinEdits = (name: string): boolean => {
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
  return { pieces, withinEdits };
}

/**
 * Many files' names made ready for any query (FileNameSearch.matchingIn): the distinct lower-case names, each with
 * its items, joined into one text, so that the pieces of a query's words are looked for with the engine's own string
 * search over the whole text instead of once per name. Built once per set of names (a subtree passed over whole:
 * findFile.ts remembers it with the subtree), then used by every query.
 */
export interface NameCorpus<T> {
  /** The names joined by '\n' (a query's pieces hold no whitespace, so a match never spans two names). */
  readonly text: string;
  /** Where each name starts in `text`; one more, past the end. */
  readonly starts: Int32Array;
  readonly names: readonly string[];
  readonly items: readonly (readonly T[])[];
  readonly byName: ReadonlyMap<string, number>;
}

export function nameCorpus<T>(items: readonly T[], nameOf: (item: T) => string): NameCorpus<T> {
  const byName = new Map<string, number>();
  const names: string[] = [];
  const grouped: T[][] = [];
  for (const item of items) {
    const lower = nameOf(item).toLowerCase();
    const known = byName.get(lower);
    if (known !== undefined) grouped[known]?.push(item);
    else {
      byName.set(lower, names.length);
      names.push(lower);
      grouped.push([item]);
    }
  }
  const starts = new Int32Array(names.length + 1);
  let at = 0;
  for (let index = 0; index < names.length; index++) {
    starts[index] = at;
    at += (names[index]?.length ?? 0) + 1;
  }
  starts[names.length] = at;
  return { text: names.join('\n'), starts, names, items: grouped, byName };
}

/** The index of the name of `corpus` whose text holds offset `at` (the last start at or before it). */
function nameAt(starts: Int32Array, at: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= at) low = middle;
    else high = middle - 1;
  }
  return low;
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
   * The items of `corpus` whose names mayMatch, in no particular order: the same test as mayMatch's name by name,
   * with each word's pieces looked for over the corpus's whole text first (only the names holding one go on to the
   * edit-distance test).
   */
  matchingIn<U>(corpus: NameCorpus<U>): U[] {
    const ids = this.matchingIds(corpus);
    const exact = corpus.byName.get(this.wanted);
    if (exact !== undefined && !ids.includes(exact)) ids.push(exact);
    const found: U[] = [];
    for (const id of ids) for (const item of corpus.items[id] ?? []) found.push(item);
    return found;
  }

  /** The names of `corpus` passing every word's prefilter (matchingIn). */
  private matchingIds(corpus: NameCorpus<unknown>): number[] {
    if (this.searched.length === 0) return [];
    let alive: number[] | undefined;
    // Queries with Fuse's operators are not prefiltered (the constructor): every name passes.
    const words = this.filters.length === 0 ? [] : this.searched.map(wordFilter);
    for (const filter of words) {
      if (!filter) continue;
      const hit = new Uint8Array(corpus.names.length);
      const hits: number[] = [];
      for (const piece of filter.pieces) {
        for (let at = corpus.text.indexOf(piece); at >= 0;) {
          const id = nameAt(corpus.starts, at);
          if (hit[id] === 0) {
            hit[id] = 1;
            hits.push(id);
          }
          at = corpus.text.indexOf(piece, corpus.starts[id + 1] ?? corpus.text.length);
        }
      }
      const next: number[] = [];
      for (const id of alive ?? hits) if (hit[id] === 1 && filter.withinEdits(corpus.names[id] ?? '')) next.push(id);
      alive = next;
    }
    return alive ?? corpus.names.map((_name, id) => id);
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

  /** The matches, unsorted, and how they matched; `signals` breathe between batches of the ranking. */
  async results(signals: Pick<CallSignals, 'breathe'> = {}): Promise<{ matchType: 'exact' | 'lax' | 'none'; ranked: Ranked<T>[] }> {
    if (this.exact.length > 0) return { matchType: 'exact', ranked: this.exact.map((item) => ({ item, score: 1 })) };
    const ranked = await this.rankLax(signals);
    return { matchType: ranked.length > 0 ? 'lax' : 'none', ranked };
  }

  /**
   * Fuse's ranking of the candidates' names, RANK_BATCH names at a time: a name's score depends on the pattern and that
   * name alone, so batches score each name as one search of them all would, and the caller sorts the union.
   */
  private async rankLax(signals: Pick<CallSignals, 'breathe'>): Promise<Ranked<T>[]> {
    const names = [...this.byName.keys()];
    const ranked: Ranked<T>[] = [];
    for (let start = 0; start < names.length; start += RANK_BATCH) {
      await breathe(signals);
      const fuse = new Fuse(
        names.slice(start, start + RANK_BATCH).map((name) => ({ name })),
        { keys: ['name'], includeScore: true, ignoreLocation: true, threshold: THRESHOLD, useExtendedSearch: true, isCaseSensitive: false },
      );
      for (const { item, score = 1 } of fuse.search(this.pattern)) {
        // Fuse scores 0 for a perfect match; the contract wants 0 < score < 1 for lax matches, higher is better.
        const mapped = Math.min(0.99, Math.max(0.0001, Math.round((1 - score) * 10000) / 10000));
        for (const each of this.byName.get(item.name) ?? []) ranked.push({ item: each, score: mapped });
      }
    }
    return ranked;
  }
}
