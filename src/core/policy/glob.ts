/**
 * Globs as users write them, read in one place: the path rules of the settings (agentFs.protectedPaths,
 * agentFs.hiddenPaths, agentFs.exclude, files.exclude, search.exclude) and the patterns of the search tools
 * (search_files' `pattern`, search_content's `file_pattern`). Both are minimatch globs over the '/'-separated path
 * relative to its root, with dot files matched like any other and '#' and '!' taken literally, after the same
 * clean-up (normaliseGlob: surrounding blanks, '\' read as '/', a leading './').
 *
 * They differ on purpose, as the README documents each:
 *  - a path rule ignores case (the safe answer on case-insensitive file systems) and matches at any depth unless it
 *    starts with '/'; a trailing '/' means a directory and everything in it, and a path inside a matched directory
 *    is matched too (as in .gitignore);
 *  - a search pattern without '/' matches names at any depth, one with '/' is anchored at the root, and case is
 *    ignored unless the pattern has a capital letter (fd's smart case); a pattern that could only match nothing, or
 *    would be read as a negation, is INVALID_PATTERN rather than an empty answer.
 */
import { Minimatch, type MinimatchOptions } from 'minimatch';
import { ToolError } from '../errors';

/** The clean-up every user glob gets first: surrounding blanks, Windows separators, a leading "./". */
export function normaliseGlob(pattern: string): string {
  return pattern.trim().replace(/\\/g, '/').replace(/^\.\//, '');
}

const RULE_OPTIONS: MinimatchOptions = { dot: true, nocase: true, nocomment: true, nonegate: true };

/**
 * A path rule as the glob it stands for: anchored at the root ("/build" → "build"), or at any depth ("dist" →
 * "**\/dist"), with a trailing '/' aimed at the contents ("secrets/" → "**\/secrets/**"). Undefined for a rule
 * that names nothing ('' or '/').
 */
export function ruleGlob(pattern: string): string | undefined {
  let glob = normaliseGlob(pattern);
  if (glob === '' || glob === '/') return undefined;
  if (glob.endsWith('/')) glob += '**';
  return glob.startsWith('/') ? glob.slice(1) : glob.startsWith('**/') ? glob : `**/${glob}`;
}

/** A regex over one name for a glob of one segment ("*.md"); undefined for anything that can span segments. */
function segmentRegex(segment: string, options: MinimatchOptions): RegExp | undefined {
  if (segment === '' || segment.includes('/') || segment.includes('**')) return undefined;
  return new Minimatch(segment, options).makeRe() || undefined;
}

interface Rule {
  /** As the user wrote it: what a refusal names. */
  readonly pattern: string;
  readonly matcher: Minimatch;
  /**
   * Aimed at a directory's contents ("…/**"), so it covers the directory itself too: ".ssh/**" protects ".ssh".
   * Only such globs are tried against "dir/": another glob matching that form does so through an empty last name
   * (an extended glob like "!(x)"), which names no path.
   */
  readonly coversDirectory: boolean;
}

/**
 * Path rules compiled once for both ways they are asked: by a walk, for each entry it meets (its ancestors already
 * passed), and by a tool, for one path and its ancestors. Both give the same answer for every path; the walk's way
 * tests most entries with one regex over the name.
 */
export class GlobList {
  /** Every rule in the setting's order: firstMatch reports the first that matches. */
  private readonly rules: Rule[] = [];
  /** Rules that only look at the last segment ("**\/name"), joined into one regex: one test per entry. */
  private readonly basenames: RegExp | undefined;
  /** Rules that only look at a directory's last segment ("**\/name/**"): prune that directory. */
  private readonly directoryNames: RegExp[] = [];
  /** Everything else, matched against the whole relative path (by minimatch's regex: a walk asks it of every entry). */
  private readonly full: Rule[] = [];
  private readonly fullRegexes = new Map<Rule, RegExp | false>();
  /** The rules as globs, for engines that take globs themselves (ripgrep). */
  readonly globs: readonly string[];
  /**
   * Regex sources (case-insensitive) that together match the name of every entry some rule could match in a walk
   * (which checks an entry only once its ancestors passed): a rule's last segment, or for a rule aimed at a
   * directory's contents the directory's own, since the walk meets that directory first. Undefined when some rule's
   * last segment cannot be told (it spans segments, or braces or extended globs could hide a '/'). For IgnoreRules'
   * one-regex pre-check.
   */
  readonly nameSources: readonly string[] | undefined;

  constructor(patterns: readonly string[]) {
    const globs: string[] = [];
    const basenames: RegExp[] = [];
    for (const pattern of patterns) {
      const glob = ruleGlob(pattern);
      if (glob === undefined) continue;
      globs.push(glob);
      const rule: Rule = { pattern, matcher: new Minimatch(glob, RULE_OPTIONS), coversDirectory: glob.endsWith('/**') };
      this.rules.push(rule);
      const rest = glob.startsWith('**/') ? glob.slice(3) : '';
      const byName = segmentRegex(rest, RULE_OPTIONS);
      if (byName) {
        basenames.push(byName);
        continue;
      }
      const byDirectoryName = rest.endsWith('/**') ? segmentRegex(rest.slice(0, -3), RULE_OPTIONS) : undefined;
      if (byDirectoryName) {
        this.directoryNames.push(byDirectoryName);
        continue;
      }
      this.full.push(rule);
      this.fullRegexes.set(rule, rule.matcher.makeRe());
    }
    this.globs = globs;
    this.basenames = basenames.length === 0 ? undefined : new RegExp(basenames.map((regex) => `(?:${regex.source})`).join('|'), 'i');
    const byName = [...basenames, ...this.directoryNames, ...this.full.map(lastNameRegex)];
    this.nameSources = byName.every((regex): regex is RegExp => regex !== undefined && /^i?$/.test(regex.flags))
      ? byName.map((regex) => regex.source)
      : undefined;
  }

  get isEmpty(): boolean {
    return this.globs.length === 0;
  }

  /** Whether matchesEntry needs the relative path (some rule looks beyond the name). */
  get needsPath(): boolean {
    return this.full.length > 0;
  }

  /** Whether the entry itself matches (its ancestors are the caller's business). `relative` is root-relative. */
  matchesEntry(relative: string, name: string, isDirectory: boolean): boolean {
    if (this.basenames?.test(name)) return true;
    if (isDirectory) for (const regex of this.directoryNames) if (regex.test(name)) return true;
    for (const rule of this.full) {
      if (this.fullMatch(rule, relative)) return true;
      if (isDirectory && rule.coversDirectory && this.fullMatch(rule, `${relative}/`)) return true;
    }
    return false;
  }

  private fullMatch(rule: Rule, path: string): boolean {
    const regex = this.fullRegexes.get(rule);
    return regex ? regex.test(path) : rule.matcher.match(path);
  }

  /**
   * The first rule that covers `relative` (root-relative, '/'-separated) or one of its ancestor directories, as the
   * user wrote it: the path itself is checked first, then each ancestor up to the top, then a directory against the
   * rules aimed at its contents.
   */
  firstMatch(relative: string, isDirectory: boolean): string | undefined {
    if (relative === '' || this.rules.length === 0) return undefined;
    const segments = relative.split('/');
    // Most paths match no rule: asked the walk's way first (one regex per segment for most rules), which gives the
    // same answer; only a path some rule covers is asked rule by rule, for the first in the setting's order.
    if (!this.coversAny(segments, isDirectory)) return undefined;
    for (let length = segments.length; length >= 1; length--) {
      const candidate = length === segments.length ? relative : segments.slice(0, length).join('/');
      for (const { pattern, matcher } of this.rules) if (matcher.match(candidate)) return pattern;
    }
    if (isDirectory)
      for (const { pattern, matcher, coversDirectory } of this.rules) if (coversDirectory && matcher.match(`${relative}/`)) return pattern;
    return undefined;
  }

  /** Whether a walk would leave the path out: an ancestor (a directory) or the entry itself matches. */
  private coversAny(segments: readonly string[], isDirectory: boolean): boolean {
    let relative = '';
    for (let index = 0; index < segments.length; index++) {
      const name = segments[index] ?? '';
      relative = index === 0 ? name : `${relative}/${name}`;
      if (this.matchesEntry(relative, name, index < segments.length - 1 || isDirectory)) return true;
    }
    return false;
  }

  /** Whether the path or any ancestor directory matches: for paths that did not come from a walk. */
  matchesPath(relative: string, isDirectory: boolean): boolean {
    return this.firstMatch(relative, isDirectory) !== undefined;
  }
}

/**
 * The name a walk can meet a path rule's match by (GlobList.nameSources): its last segment, or the one before a
 * closing '/**'. Undefined where the last segment is '**', or braces or an extended glob could hold a '/'.
 */
function lastNameRegex({ matcher, coversDirectory }: Rule): RegExp | undefined {
  const glob = matcher.pattern;
  if (/[{}()]/.test(glob)) return undefined;
  const segments = (coversDirectory ? glob.slice(0, -3) : glob).split('/');
  return segmentRegex(segments.at(-1) ?? '', RULE_OPTIONS);
}

/** GlobLists by their patterns (joined with NUL, which no pattern holds), and by the arrays last asked with. */
const compiledLists = new Map<string, GlobList>();
const listsByArray = new WeakMap<readonly string[], GlobList>();
/** Distinct pattern lists kept: far more than the settings and published policies of one host at a time. */
const LISTS_KEPT = 64;

/**
 * One GlobList per list of patterns, so a call does not compile again what an earlier call compiled, even when its
 * policy is a new array with the same patterns (a merged or narrowed policy is made afresh for every call).
 */
export function globList(patterns: readonly string[]): GlobList {
  let list = listsByArray.get(patterns);
  if (list) return list;
  const key = patterns.join('\u0000');
  list = compiledLists.get(key);
  if (!list) {
    list = new GlobList(patterns);
    if (compiledLists.size >= LISTS_KEPT) compiledLists.clear();
    compiledLists.set(key, list);
  }
  listsByArray.set(patterns, list);
  return list;
}

/**
 * A search pattern (search_files' `pattern`, search_content's `file_pattern`) compiled for matching root-relative
 * paths; a leading '/' only says what a pattern with '/' means anyway. `field` names the parameter in the error.
 */
export function compileSearchGlob(pattern: string, field: string): Minimatch {
  const glob = normaliseGlob(pattern).replace(/^\//, '');
  const invalid = (why: string): ToolError =>
    new ToolError(
      'INVALID_PATTERN',
      `${field} ${JSON.stringify(pattern)} is not a usable glob: ${why}. Use e.g. "**/*.md", "src/**/*.ts" or "*.json".`,
      { field },
    );
  if (glob === '') throw invalid('it is empty');
  // minimatch would read these as never matching, or as a negation: an empty answer that hides the mistake.
  if (glob.startsWith('!'))
    throw invalid('negated patterns are not supported (use include_ignored and the exclude settings to widen or narrow)');
  const reversed = /\[[^\]]*?([^\]])-([^\]])/.exec(glob);
  if (reversed && (reversed[1] ?? '') > (reversed[2] ?? ''))
    throw invalid(`the range ${reversed[1] ?? ''}-${reversed[2] ?? ''} is reversed`);
  const matcher = new Minimatch(glob, {
    dot: true,
    matchBase: !glob.includes('/'),
    nocase: glob === glob.toLowerCase(),
    nocomment: true,
    nonegate: true,
  });
  if (matcher.makeRe() === false) throw invalid('minimatch cannot compile it');
  return matcher;
}

/**
 * A regex over the name alone, for search patterns that only look at the name ("*.md", "**\/*.md"): the common
 * case, and much cheaper per entry than matching the whole path.
 */
export function searchNameRegex(matcher: Minimatch): RegExp | undefined {
  const glob = matcher.pattern;
  const rest = matcher.options.matchBase ? glob : glob.startsWith('**/') ? glob.slice(3) : '';
  return segmentRegex(rest, { ...matcher.options, matchBase: false });
}
