/**
 * git's wildmatch, the matcher behind every ignore rule, compiled to a JavaScript regular expression that answers as
 * git does for every pattern and every name.
 *
 * git matches bytes: a pattern and a path are byte strings, `?` takes one byte, a class holds bytes, and the
 * character classes (`[:alpha:]`, …) and case folding know ASCII only. So both sides are written here as byte
 * strings — each UTF-8 byte one UTF-16 code unit from 0 to 255 (byteString) — and a regex is built without the `i`
 * flag: under `casefold` the text is folded first (foldAscii) and the regex is written for folded text, exactly
 * where git folds (a literal in the pattern is folded, an escaped one and a class member are not).
 *
 * What the modes mean:
 *  - `pathname` (a rule with a '/' before its end, matched against a path): `*`, `?` and classes never match '/';
 *    `**` matches across '/' only as a whole segment (`**​/x`, `x/**​/y`, `x/**`), and elsewhere is one `*`.
 *  - otherwise (a rule matched against a name alone): `*` matches anything.
 * A pattern git cannot finish reading (an unclosed class, an unknown `[:name:]`, a trailing '\') matches nothing.
 */

/** Whether every code unit is ASCII: such a string is its own byte string. */
const ASCII = /^[\x00-\x7f]*$/;

/** Bytes as a byte string: one code unit, 0 to 255, per byte. */
export function latin1(bytes: Uint8Array): string {
  let out = '';
  // In slices: a spread of a large file's bytes would overflow the call stack.
  for (let start = 0; start < bytes.length; start += 8192) out += String.fromCharCode(...bytes.subarray(start, start + 8192));
  return out;
}

/** `text` as the byte string of its UTF-8 encoding (one code unit per byte); ASCII text is returned as it is. */
export function byteString(text: string): string {
  return ASCII.test(text) ? text : latin1(new TextEncoder().encode(text));
}

/** A byte string with the ASCII capitals in lower case, as git folds a name under core.ignorecase. */
export function foldAscii(bytes: string): string {
  return /[A-Z]/.test(bytes) ? bytes.replace(/[A-Z]+/g, (run) => run.toLowerCase()) : bytes;
}

export interface WildmatchMode {
  /** The pattern is matched against a '/'-separated path (git's WM_PATHNAME). */
  readonly pathname: boolean;
  /** Case is folded (core.ignorecase): the regex expects text passed through foldAscii. */
  readonly casefold: boolean;
}

const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const STAR = 0x2a;

const isUpper = (byte: number): boolean => byte >= 0x41 && byte <= 0x5a;
const isLower = (byte: number): boolean => byte >= 0x61 && byte <= 0x7a;
const isDigit = (byte: number): boolean => byte >= 0x30 && byte <= 0x39;
const isAlpha = (byte: number): boolean => isUpper(byte) || isLower(byte);
const isGraph = (byte: number): boolean => byte > 0x20 && byte < 0x7f;

/** The named classes, over ASCII only as git's own ctype table has them. */
const NAMED_CLASSES: Readonly<Record<string, (byte: number, casefold: boolean) => boolean>> = {
  alnum: (byte) => isAlpha(byte) || isDigit(byte),
  alpha: isAlpha,
  blank: (byte) => byte === 0x20 || byte === 0x09,
  cntrl: (byte) => byte < 0x20 || byte === 0x7f,
  digit: isDigit,
  graph: isGraph,
  lower: isLower,
  print: (byte) => byte >= 0x20 && byte < 0x7f,
  punct: (byte) => isGraph(byte) && !isAlpha(byte) && !isDigit(byte),
  space: (byte) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d,
  // Under casefold the text is in lower case already, and git lets [:upper:] take it.
  upper: (byte, casefold) => isUpper(byte) || (casefold && isLower(byte)),
  xdigit: (byte) => isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66),
};

/** One byte as a regex atom. */
function atom(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/** A set of bytes as a regex: a class of ranges, or a regex that matches nothing for the empty set. */
function byteClass(member: (byte: number) => boolean): string {
  const ranges: string[] = [];
  for (let byte = 0; byte < 256; byte++) {
    if (!member(byte)) continue;
    let last = byte;
    while (last + 1 < 256 && member(last + 1)) last++;
    ranges.push(last === byte ? atom(byte) : `${atom(byte)}-${atom(last)}`);
    byte = last;
  }
  return ranges.length === 0 ? '(?!)' : `[${ranges.join('')}]`;
}

/**
 * The bracket expression opening at `pattern[open]` ('['), read the way git reads it: '!' or '^' first negates; the
 * first member may be ']'; `a-z` is a range (not after another range or a named class, and not with ']' as its end);
 * '\' escapes one byte; `[:name:]` is a named class, and `[:` without its `:]` is a literal '['.
 * Returns the regex and the index after the closing ']', or undefined where git gives up on the whole pattern.
 */
function bracket(pattern: string, open: number, mode: WildmatchMode): { source: string; next: number } | undefined {
  const tests: ((byte: number) => boolean)[] = [];
  let index = open + 1;
  let byte = pattern.charCodeAt(index);
  const negated = byte === 0x21 || byte === 0x5e;
  if (negated) byte = pattern.charCodeAt(++index);
  // The previous member, for a range; 0 after a range or a named class, as in git.
  let previous = 0;
  for (;;) {
    if (Number.isNaN(byte)) return undefined;
    let current = byte;
    if (byte === BACKSLASH) {
      const escaped = pattern.charCodeAt(++index);
      if (Number.isNaN(escaped)) return undefined;
      tests.push((text) => text === escaped);
      current = escaped;
    } else if (byte === 0x2d && previous !== 0 && index + 1 < pattern.length && pattern[index + 1] !== ']') {
      let high = pattern.charCodeAt(++index);
      if (high === BACKSLASH) {
        high = pattern.charCodeAt(++index);
        if (Number.isNaN(high)) return undefined;
      }
      const low = previous;
      tests.push((text) => (text >= low && text <= high) || (mode.casefold && isLower(text) && text - 0x20 >= low && text - 0x20 <= high));
      current = 0;
    } else if (byte === 0x5b && pattern[index + 1] === ':') {
      const close = pattern.indexOf(']', index + 2);
      if (close < 0) return undefined;
      const name = pattern.slice(index + 2, close - 1);
      if (close - 1 < index + 2 || pattern[close - 1] !== ':') {
        // No ":]": a literal '[', and the members go on from the ':'.
        tests.push((text) => text === 0x5b);
      } else {
        const named = NAMED_CLASSES[name];
        if (!named) return undefined;
        tests.push((text) => named(text, mode.casefold));
        index = close;
        current = 0;
      }
    } else {
      tests.push((text) => text === current);
    }
    previous = current;
    byte = pattern.charCodeAt(++index);
    if (byte === 0x5d) break;
  }
  const member = (text: number): boolean =>
    // Folded text holds no capitals; and with a path, no class takes the '/'.
    !(mode.casefold && isUpper(text)) && !(mode.pathname && text === SLASH) && tests.some((test) => test(text)) !== negated;
  return { source: byteClass(member), next: index + 1 };
}

/**
 * The regex source (anchored at both ends) that matches exactly the byte strings git's wildmatch matches with
 * `pattern` (a byte string) in this mode; undefined for a pattern that matches nothing.
 */
export function wildmatchSource(pattern: string, mode: WildmatchMode): string | undefined {
  const any = mode.pathname ? '[^/]' : '[\\s\\S]';
  let out = '^';
  let index = 0;
  while (index < pattern.length) {
    const byte = pattern.charCodeAt(index);
    if (byte === BACKSLASH) {
      // An escaped byte is taken as it is, even under casefold (git folds the '\', not what follows it).
      if (index + 1 >= pattern.length) return undefined;
      out += atom(pattern.charCodeAt(index + 1));
      index += 2;
    } else if (byte === 0x3f) {
      out += any;
      index++;
    } else if (byte === STAR) {
      let end = index;
      while (pattern.charCodeAt(end) === STAR) end++;
      const next = pattern.charCodeAt(end);
      const wholeSegment =
        mode.pathname &&
        end - index >= 2 &&
        (index === 0 || pattern.charCodeAt(index - 1) === SLASH) &&
        (Number.isNaN(next) || next === SLASH || (next === BACKSLASH && pattern.charCodeAt(end + 1) === SLASH));
      if (wholeSegment && next === SLASH) {
        // "**/": no directories, or any number of them.
        out += '(?:[\\s\\S]*/)?';
        index = end + 1;
      } else {
        out += wholeSegment ? '[\\s\\S]*' : `${any}*`;
        index = end;
      }
    } else if (byte === 0x5b) {
      const compiled = bracket(pattern, index, mode);
      if (!compiled) return undefined;
      out += compiled.source;
      index = compiled.next;
    } else {
      out += atom(mode.casefold && isUpper(byte) ? byte + 0x20 : byte);
      index++;
    }
  }
  return `${out}$`;
}
