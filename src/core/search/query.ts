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

function escapeRegExp(text: string): string {
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
  const rust = dialect === 'rust';
  let out = '';
  let inClass = false;
  for (let index = 0; index < source.length;) {
    const char = source[index] ?? '';
    if (char === '\\') {
      const next = source[index + 1] ?? '';
      index += 2;
      switch (next) {
        case 'd':
          out += inClass ? '0-9' : '[0-9]';
          break;
        case 'w':
          out += inClass ? WORD : `[${WORD}]`;
          break;
        case 's':
          out += inClass ? SPACE : `[${SPACE}]`;
          break;
        case 'D':
        case 'W':
        case 'S':
          if (inClass) return undefined;
          out += next === 'D' ? '[^0-9]' : next === 'W' ? `[^${WORD}]` : `[^${SPACE}]`;
          break;
        case 'b':
          out += inClass ? '\\x08' : rust ? '(?-u:\\b)' : WORD_BOUNDARY;
          break;
        case 'B':
          out += rust ? '(?-u:\\B)' : NOT_WORD_BOUNDARY;
          break;
        case 'v':
          out += '\\x0B';
          break;
        case '0':
          out += '\\x00';
          break;
        case 'u': {
          let code: number | undefined;
          if (source[index] === '{') {
            const close = source.indexOf('}', index);
            if (close === -1) return undefined;
            code = parseInt(source.slice(index + 1, close), 16);
            index = close + 1;
          } else {
            code = hexAt(source, index, 4);
            if (code === undefined) return undefined;
            index += 4;
            // A surrogate pair written as two escapes is one code point under the `u` flag.
            const low = source.startsWith('\\u', index) ? hexAt(source, index + 2, 4) : undefined;
            if (code >= 0xd800 && code <= 0xdbff && low !== undefined && low >= 0xdc00 && low <= 0xdfff) {
              code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
              index += 6;
            }
          }
          if (!Number.isFinite(code) || (code >= 0xd800 && code <= 0xdfff)) return undefined;
          out += `\\x{${code.toString(16).toUpperCase()}}`;
          break;
        }
        case 'p':
        case 'P': {
          const close = source.indexOf('}', index);
          const name = close === -1 ? '' : source.slice(index + 1, close);
          // General-category short names mean the same in both; long names and Script= do not all exist in PCRE2.
          if (!/^[A-Z][a-z&]?$/.test(name)) return undefined;
          out += `\\${next}{${name}}`;
          index = close + 1;
          break;
        }
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
          out += `\\${next}`;
          break;
        case '/':
          out += rust ? '/' : '\\/';
          break;
        default:
          // \t \n \f \r \xHH and escaped syntax characters mean the same in both.
          out += `\\${next}`;
      }
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      if (rust && char === '-' && source[index + 1] === '-') return undefined;
      // "[:" would open a POSIX class in PCRE2, "[" a nested class and "&&"/"~~" set operations in Rust; in
      // JavaScript they are literal characters.
      out += char === '[' || (rust && (char === '&' || char === '~')) ? `\\${char}` : char;
      index++;
      continue;
    }
    if (char === '[') {
      if (source.startsWith('[]', index)) {
        if (rust) return undefined;
        out += '(?!)';
        index += 2;
        continue;
      }
      if (source.startsWith('[^]', index)) {
        out += '[\\s\\S]';
        index += 3;
        continue;
      }
      inClass = true;
      out += source[index + 1] === '^' ? '[^' : '[';
      index += source[index + 1] === '^' ? 2 : 1;
      continue;
    }
    if (char === '(' && source[index + 1] === '?') {
      const group = /^\(\?(<[=!]|[=!]|<[A-Za-z_$])/.exec(source.slice(index));
      if (group) {
        // Look-around: PCRE2 only. A named group: Rust spells it (?P<name>.
        if (rust && !/^<[A-Za-z_$]$/.test(group[1] ?? '')) return undefined;
        if (rust) {
          out += '(?P<';
          index += 3;
          continue;
        }
      }
    }
    out += char === '.' ? '[^\\n\\r\\x{2028}\\x{2029}]' : char;
    index++;
  }
  return out;
}
