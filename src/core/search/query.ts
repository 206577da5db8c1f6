/**
 * A search_content query compiled once: the JavaScript matcher the scan runs, and the same query for ripgrep.
 *
 * The contract is JavaScript's regular-expression syntax and meaning (what a model writes), matched line by line
 * against the line without its terminator. ripgrep has two engines whose syntax is close to it but not equal:
 * its default one (Rust's regex crate: fast, no look-around or back-references) and PCRE2 (`--pcre2`: look-around,
 * back-references, slower). `translate` rewrites the differences for either, so both find the lines JavaScript
 * would:
 *  - `\d \w \s \b` are ASCII / JavaScript-defined here, Unicode-aware in both engines: spelled out as explicit
 *    classes (`\b` as an ASCII word boundary);
 *  - `.` excludes U+2028/U+2029 in JavaScript only: spelled out;
 *  - `\uXXXX`, `\u{X}` (and surrogate pairs) become `\x{X}`; `\v` becomes `\x0B`; `[]` and `[^]` are rewritten;
 *  - for the Rust engine, `(?<name>` becomes `(?P<name>`, `\/` a plain '/', and class characters Rust gives a
 *    meaning (`[`, `&&`, `~~`) are escaped; look-around and back-references leave it to PCRE2.
 * Patterns only valid without the `u` flag (loose escapes like `\-` outside a class) and the few constructs with no
 * faithful translation (`\D \W \S` inside a class, `\p{…}` long names) run on the scan alone, which is still correct.
 */
import { toolRef } from '../naming';
import { ToolError } from '../errors';
import type { ExternalQuery } from '../ports/searcher';

export interface CompiledQuery {
  /** The first match in a line (without its terminator), as UTF-16 offsets; undefined when the line has none. */
  find(line: string): { start: number; end: number } | undefined;
  /** Whether a whole decoded text may hold a matching line: never false when one does. */
  mayMatch(text: string): boolean;
  /** For a case-sensitive literal: its UTF-8 bytes, to pass over files without decoding them. */
  readonly literalBytes?: Uint8Array;
  /** The same query for an external searcher, or undefined when only the scan runs it exactly. */
  readonly external?: ExternalQuery;
}

export function escapeRegExp(text: string): string {
  // Only the syntax characters: under the 'u' flag escaping anything else (such as '-') is itself an error.
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

function fromRegExp(regex: RegExp, wholeText: RegExp | undefined, external: ExternalQuery | undefined): CompiledQuery {
  return {
    find(line) {
      const match = regex.exec(line);
      return match ? { start: match.index, end: match.index + match[0].length } : undefined;
    },
    mayMatch: (text) => (wholeText ? wholeText.test(text) : true),
    external,
  };
}

export function compileQuery(query: string, isRegex: boolean, caseSensitive: boolean): CompiledQuery {
  if (!isRegex) {
    if (/[\r\n]/.test(query)) {
      throw new ToolError(
        'INVALID_PATTERN',
        `The query holds a line break, but ${toolRef('search_content')} matches one line at a time. Search for one line of the text.`,
        { field: 'query' },
      );
    }
    const external: ExternalQuery = { kind: 'literal', text: query };
    if (caseSensitive) {
      return {
        find(line) {
          const index = line.indexOf(query);
          return index === -1 ? undefined : { start: index, end: index + query.length };
        },
        mayMatch: (text) => text.includes(query),
        literalBytes: new TextEncoder().encode(query),
        external,
      };
    }
    const regex = new RegExp(escapeRegExp(query), 'iu');
    return fromRegExp(regex, regex, external);
  }

  const flags = caseSensitive ? '' : 'i';
  let regex: RegExp;
  let unicode = true;
  try {
    regex = new RegExp(query, `${flags}u`);
  } catch {
    unicode = false;
    try {
      regex = new RegExp(query, flags);
    } catch (error) {
      throw new ToolError(
        'INVALID_PATTERN',
        `The query is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}. Fix it, or pass is_regex: false to search for the text literally.`,
        { field: 'query' },
      );
    }
  }
  // A whole-text pre-check is only sound when no negative look-around can see a neighbouring line's characters.
  const wholeText = /\(\?<?!/.test(query) ? undefined : new RegExp(query, `${regex.flags}m`);
  const rust = unicode ? translate(query, 'rust') : undefined;
  const pcre2 = unicode ? translate(query, 'pcre2') : undefined;
  return fromRegExp(regex, wholeText, rust === undefined && pcre2 === undefined ? undefined : { kind: 'regex', rust, pcre2 });
}

const WORD = 'A-Za-z0-9_';
/** JavaScript's \s, spelled out (PCRE2's Unicode \s lacks U+FEFF and has U+0085). */
const SPACE = '\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
const WORD_BOUNDARY = `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`;
const NOT_WORD_BOUNDARY = `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`;

function hexAt(source: string, index: number, length: number): number | undefined {
  const digits = source.slice(index, index + length);
  return digits.length === length && /^[0-9a-fA-F]+$/.test(digits) ? parseInt(digits, 16) : undefined;
}

export type Dialect = 'rust' | 'pcre2';

/** PCRE2 syntax for a JavaScript pattern (see translate). */
export function toPcre2(source: string): string | undefined {
  return translate(source, 'pcre2');
}

/**
 * Rewrites a pattern that compiles with JavaScript's `u` flag into ripgrep's `dialect` with the same meaning on one
 * line, or returns undefined when it cannot. See the header for what changes.
 */
export function translate(source: string, dialect: Dialect): string | undefined {
  return new Translation(source, dialect).result();
}

/** A piece of the translated pattern, and the index in the source just after what it stands for. */
interface Piece {
  readonly text: string;
  readonly next: number;
}

/** One pattern being rewritten, left to right: where it is in the source, what is written, whether in a class. */
class Translation {
  private index = 0;
  private out = '';
  private inClass = false;
  private readonly rust: boolean;

  constructor(
    private readonly source: string,
    dialect: Dialect,
  ) {
    this.rust = dialect === 'rust';
  }

  /** The whole pattern in the dialect, or undefined when a part of it has no faithful translation. */
  result(): string | undefined {
    while (this.index < this.source.length) {
      const char = this.source[this.index] ?? '';
      const done =
        char === '\\' ? this.escape() : this.inClass ? this.classMember(char) : char === '[' ? this.classStart() : this.other(char);
      if (!done) return undefined;
    }
    return this.out;
  }

  /** Writes `piece` and moves past what it stands for; false when there is none. */
  private take(piece: Piece | undefined): boolean {
    if (piece === undefined) return false;
    this.out += piece.text;
    this.index = piece.next;
    return true;
  }

  /** A backslash and what follows it. */
  private escape(): boolean {
    const { source } = this;
    const letter = source[this.index + 1] ?? '';
    const after = this.index + 2;
    if (letter === 'u') return this.take(unicodeEscape(source, after));
    if (letter === 'p' || letter === 'P') return this.take(propertyEscape(source, after, letter));
    const text = simpleEscape(letter, this.rust, this.inClass);
    return this.take(text === undefined ? undefined : { text, next: after });
  }

  /** A character inside a class; `]` ends the class. */
  private classMember(char: string): boolean {
    if (char === ']') this.inClass = false;
    if (this.rust && char === '-' && this.source[this.index + 1] === '-') return false;
    // "[:" would open a POSIX class in PCRE2, "[" a nested class and "&&"/"~~" set operations in Rust; in
    // JavaScript they are literal characters.
    return this.take({
      text: char === '[' || (this.rust && (char === '&' || char === '~')) ? `\\${char}` : char,
      next: this.index + 1,
    });
  }

  /** A `[` outside a class: `[]` and `[^]` rewritten, any other opens a class. */
  private classStart(): boolean {
    const { source, index } = this;
    if (source.startsWith('[]', index)) return this.take(this.rust ? undefined : { text: '(?!)', next: index + 2 });
    if (source.startsWith('[^]', index)) return this.take({ text: '[\\s\\S]', next: index + 3 });
    this.inClass = true;
    const negated = source[index + 1] === '^';
    return this.take({ text: negated ? '[^' : '[', next: index + (negated ? 2 : 1) });
  }

  /** Any other character outside a class: a group's opening, `.`, or one that means the same in both. */
  private other(char: string): boolean {
    const { source, index } = this;
    if (char === '(' && source[index + 1] === '?') {
      const group = /^\(\?(<[=!]|[=!]|<[A-Za-z_$])/.exec(source.slice(index));
      if (group) {
        // Look-around: PCRE2 only. A named group: Rust spells it (?P<name>.
        if (this.rust && !/^<[A-Za-z_$]$/.test(group[1] ?? '')) return false;
        if (this.rust) return this.take({ text: '(?P<', next: index + 3 });
      }
    }
    return this.take({ text: char === '.' ? '[^\\n\\r\\x{2028}\\x{2029}]' : char, next: index + 1 });
  }
}

/** The dialect's spelling of `\<letter>`, for every escape but \u and \p; undefined when the dialect has none. */
function simpleEscape(letter: string, rust: boolean, inClass: boolean): string | undefined {
  switch (letter) {
    case 'd':
      return inClass ? '0-9' : '[0-9]';
    case 'w':
      return inClass ? WORD : `[${WORD}]`;
    case 's':
      return inClass ? SPACE : `[${SPACE}]`;
    case 'D':
    case 'W':
    case 'S':
      if (inClass) return undefined;
      return letter === 'D' ? '[^0-9]' : letter === 'W' ? `[^${WORD}]` : `[^${SPACE}]`;
    case 'b':
      return inClass ? '\\x08' : rust ? '(?-u:\\b)' : WORD_BOUNDARY;
    case 'B':
      return rust ? '(?-u:\\B)' : NOT_WORD_BOUNDARY;
    case 'v':
      return '\\x0B';
    case '0':
      return '\\x00';
    case 'c':
    case 'k':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      // Control escapes and back-references: PCRE2 only.
      if (rust) return undefined;
      return `\\${letter}`;
    case '/':
      return rust ? '/' : '\\/';
    default:
      // \t \n \f \r \xHH and escaped syntax characters mean the same in both.
      return `\\${letter}`;
  }
}

/** `\uXXXX` (or a surrogate pair of them) or `\u{X}`, read from `index` just after the `u`, as `\x{X}`. */
function unicodeEscape(source: string, index: number): Piece | undefined {
  let code: number | undefined;
  let next: number;
  if (source[index] === '{') {
    const close = source.indexOf('}', index);
    if (close === -1) return undefined;
    code = parseInt(source.slice(index + 1, close), 16);
    next = close + 1;
  } else {
    code = hexAt(source, index, 4);
    if (code === undefined) return undefined;
    next = index + 4;
    // A surrogate pair written as two escapes is one code point under the `u` flag.
    const low = source.startsWith('\\u', next) ? hexAt(source, next + 2, 4) : undefined;
    if (code >= 0xd800 && code <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
      code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
      next += 6;
    }
  }
  if (!Number.isFinite(code) || (code >= 0xd800 && code <= 0xdfff)) return undefined;
  return { text: `\\x{${code.toString(16).toUpperCase()}}`, next };
}

/** `\p{Name}` or `\P{Name}`, read from `index` just after the letter; undefined for a name PCRE2 may lack. */
function propertyEscape(source: string, index: number, letter: 'p' | 'P'): Piece | undefined {
  const close = source.indexOf('}', index);
  const name = close === -1 ? '' : source.slice(index + 1, close);
  // General-category short names mean the same in both; long names and Script= do not all exist in PCRE2.
  if (!/^[A-Z][a-z&]?$/.test(name)) return undefined;
  return { text: `\\${letter}{${name}}`, next: close + 1 };
}
