/**
 * One text with every match of a replace_in_files pattern replaced: line by line, each line without its terminator,
 * or over the whole text for a pattern that spans lines (pattern.ts says which). Pure: text in, text and count out.
 *
 * Invariant: only the characters of the matches change. A line's terminator, every line without a match and every
 * character around a match are copied as they are; a line break the replacement writes takes the ending of the line
 * it lands in (the file's own, for a line without one), so a CRLF file does not gain LF lines.
 */
import { detectNewline } from '../files/text';
import type { ReplacePattern } from './pattern';

export interface Replaced {
  readonly text: string;
  /** Matches replaced. */
  readonly count: number;
}

/** `replacement` with its line breaks written as `eol`. */
function withEndings(pattern: ReplacePattern, eol: string): string {
  return pattern.writesLineBreaks ? pattern.replacement.replace(/\r?\n|\r/g, eol) : pattern.replacement;
}

/** The line ending a text's new lines take where the line itself has none: CRLF in a CRLF text, else LF. */
function textEnding(text: string): string {
  return detectNewline(text) === 'crlf' ? '\r\n' : '\n';
}

function countMatches(regex: RegExp, text: string): number {
  regex.lastIndex = 0;
  let count = 0;
  // Every match takes at least one character (pattern.ts refuses the others), so this ends.
  while (regex.exec(text) !== null) count++;
  regex.lastIndex = 0;
  return count;
}

/** `text` with every match replaced. */
export function replaceText(text: string, pattern: ReplacePattern): Replaced {
  if (pattern.mayMatch && !pattern.mayMatch(text)) return { text, count: 0 };
  const { regex } = pattern;
  if (pattern.spansLines) {
    const count = countMatches(regex, text);
    return count === 0 ? { text, count } : { text: text.replace(regex, withEndings(pattern, textEnding(text))), count };
  }
  let result = '';
  let copied = 0;
  let count = 0;
  let ending: string | undefined;
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const bodyEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const line = text.slice(start, bodyEnd);
    regex.lastIndex = 0;
    if (regex.test(line)) {
      count += countMatches(regex, line);
      const eol = newline === -1 ? (ending ??= textEnding(text)) : bodyEnd < end ? '\r\n' : '\n';
      result += text.slice(copied, start) + line.replace(regex, withEndings(pattern, eol));
      copied = bodyEnd;
    }
    start = end + 1;
  }
  regex.lastIndex = 0;
  return count === 0 ? { text, count } : { text: result + text.slice(copied), count };
}
