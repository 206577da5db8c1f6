/**
 * One file of ignore rules (a .gitignore, .git/info/exclude, the user's global excludes file), read as git reads it
 * and asked as git asks it: the last rule that matches a path decides, a rule with '!' re-including.
 *
 * Reading, line by line of the file's bytes: a UTF-8 BOM at the start is skipped; a line that is empty or starts with
 * '#' is nothing; one '\r' before the '\n' is dropped; trailing spaces go unless a '\' escapes them; a leading '!'
 * negates (`\!` is a literal '!', `\#` a literal '#'); a trailing '/' makes the rule match directories only. A rule
 * with no other '/' matches a name at any depth; any other '/' anchors it to the file's own directory (a leading one
 * is dropped once it has done so). The patterns themselves are git's wildmatch (wildmatch.ts).
 */
import { byteString, foldAscii, latin1, type WildmatchMode, wildmatchSource } from './wildmatch';

export interface IgnorePattern {
  readonly negative: boolean;
  /** A trailing '/': only directories match. */
  readonly directoryOnly: boolean;
  /** No '/' inside: matched against the name alone, at any depth below the file's directory. */
  readonly nameOnly: boolean;
  /** Over the byte string of the name (nameOnly) or of the path relative to the file's directory; folded with case. */
  readonly regex: RegExp;
}

/** What one file says of a path: ignore it, re-include it, or nothing (the next file down the precedence asks). */
export type Verdict = 'ignored' | 'included' | undefined;

/** git's limit: a larger pattern file is skipped whole, with a warning. */
export const MAX_IGNORE_FILE_BYTES = 100 * 1024 * 1024;

/** Names remembered per file (nameOnly files): more than a large repository has distinct names. */
const ANSWERS_KEPT = 200_000;

export class IgnoreFile {
  /** Every rule has no '/' inside, so a name decides alone and answers can be kept by name. */
  readonly byName: boolean;
  /**
   * A regex source over the (folded) byte string of a name that matches every name some rule of this file could
   * ignore — each non-negated rule's last segment — or undefined when a rule's last segment can be anything (`x/**`,
   * or a '/' hidden in an escape or a class): then a walk checks every entry in full.
   */
  readonly nameFilter: string | undefined;
  /** Verdicts by name (and '/' for a directory), for byName files; 'none' where no rule had one. */
  private readonly answers = new Map<string, Verdict | 'none'>();

  constructor(
    readonly patterns: readonly IgnorePattern[],
    readonly casefold: boolean,
    nameFilters: readonly (string | undefined)[],
  ) {
    this.byName = patterns.every((pattern) => pattern.nameOnly);
    this.nameFilter = nameFilters.includes(undefined)
      ? undefined
      : nameFilters.length === 0
        ? '(?!)'
        : nameFilters.map((source) => `(?:${source ?? ''})`).join('|');
  }

  /** `name` (a path's last segment) and `relative` (the path from the file's directory) as this file compares them. */
  key(text: string): string {
    const bytes = byteString(text);
    return this.casefold ? foldAscii(bytes) : bytes;
  }

  /**
   * The verdict of the last rule matching the path, `relative` to the file's directory ('/'-separated, below it) and
   * `name` its last segment. `relative` is read only when some rule needs the path.
   */
  verdict(relative: () => string, name: string, isDirectory: boolean): Verdict {
    if (this.byName) {
      const cacheKey = isDirectory ? `${name}/` : name;
      const known = this.answers.get(cacheKey);
      if (known !== undefined) return known === 'none' ? undefined : known;
      const verdict = this.decide(undefined, this.key(name), isDirectory);
      if (this.answers.size >= ANSWERS_KEPT) this.answers.clear();
      this.answers.set(cacheKey, verdict ?? 'none');
      return verdict;
    }
    return this.decide(relative, this.key(name), isDirectory);
  }

  private decide(relative: (() => string) | undefined, name: string, isDirectory: boolean): Verdict {
    let path: string | undefined;
    for (let index = this.patterns.length - 1; index >= 0; index--) {
      const pattern = this.patterns[index];
      if (!pattern || (pattern.directoryOnly && !isDirectory)) continue;
      let text = name;
      if (!pattern.nameOnly) text = path ??= this.key(relative?.() ?? name);
      if (pattern.regex.test(text)) return pattern.negative ? 'included' : 'ignored';
    }
    return undefined;
  }
}

/** The lines of a pattern file (a byte string) as git keeps them: after comments, CRs and trailing spaces. */
function patternLines(bytes: string): string[] {
  const text = bytes.startsWith('\xef\xbb\xbf') ? bytes.slice(3) : bytes;
  const lines: string[] = [];
  for (const raw of text.split('\n')) {
    if (raw === '' || raw.startsWith('#')) continue;
    // git keeps a line as a C string: it ends at a NUL byte.
    const line = (raw.endsWith('\r') ? raw.slice(0, -1) : raw).split('\0')[0] ?? '';
    lines.push(trimTrailingSpaces(line));
  }
  return lines;
}

/** Drops the spaces at the end of a line that no '\' escapes; a line ending in a lone '\' keeps them all. */
function trimTrailingSpaces(line: string): string {
  let firstTrailing = -1;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (char === ' ') {
      if (firstTrailing < 0) firstTrailing = index;
    } else if (char === '\\') {
      index++;
      if (index >= line.length) return line;
      firstTrailing = -1;
    } else firstTrailing = -1;
  }
  return firstTrailing < 0 ? line : line.slice(0, firstTrailing);
}

/** The rule of one line, or undefined for one that can match nothing (empty, a lone '!', a pattern git gives up on). */
function parsePattern(line: string, casefold: boolean): { pattern: IgnorePattern; nameFilter: string | undefined } | undefined {
  const negative = line.startsWith('!');
  let body = negative ? line.slice(1) : line;
  const directoryOnly = body.endsWith('/');
  if (directoryOnly) body = body.slice(0, -1);
  if (body === '') return undefined;
  const nameOnly = !body.includes('/');
  const mode: WildmatchMode = { pathname: !nameOnly, casefold };
  const source = wildmatchSource(nameOnly || !body.startsWith('/') ? body : body.slice(1), mode);
  if (source === undefined) return undefined;
  return {
    pattern: { negative, directoryOnly, nameOnly, regex: new RegExp(source) },
    nameFilter: nameOnly ? source : lastSegmentSource(body, mode),
  };
}

/**
 * For a rule with a '/': what a path's last segment must match for the rule to match the path — the rule's last
 * segment, read as a name alone — or undefined when that cannot be told with certainty.
 */
function lastSegmentSource(body: string, mode: WildmatchMode): string | undefined {
  const slash = body.lastIndexOf('/');
  const last = body.slice(slash + 1);
  // `x/**` matches every name below x; an escaped '/' or a class before it might be where the path's last '/' is.
  if (/^\*\*+$/.test(last) || body.includes('\\/') || body.slice(0, slash).includes('[')) return undefined;
  return wildmatchSource(last, mode);
}

/** Parsed files by their bytes and case mode: a repository's files rarely change between two calls. Bounded. */
const parsed = new Map<string, IgnoreFile>();
const PARSED_KEPT = 256;

/** The rules of a pattern file, from its bytes; the same object for the same bytes and case mode. */
export function ignoreFileOf(bytes: Uint8Array, casefold: boolean): IgnoreFile {
  const text = latin1(bytes);
  const key = `${casefold ? 'i' : 's'}${text}`;
  const known = parsed.get(key);
  if (known) return known;
  const patterns: IgnorePattern[] = [];
  const nameFilters: (string | undefined)[] = [];
  for (const line of patternLines(text)) {
    const rule = parsePattern(line, casefold);
    if (!rule) continue;
    patterns.push(rule.pattern);
    if (!rule.pattern.negative) nameFilters.push(rule.nameFilter);
  }
  const file = new IgnoreFile(patterns, casefold, nameFilters);
  if (parsed.size >= PARSED_KEPT) parsed.clear();
  parsed.set(key, file);
  return file;
}
