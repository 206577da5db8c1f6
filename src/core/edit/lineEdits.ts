/**
 * Text as lines that keep their own endings, so that an edit of some lines leaves every other byte as it was.
 * A line ends at '\n' ('\r\n' counts as one ending); a final line without an ending has eol ''. An empty text has
 * no lines, and a trailing newline does not start another line (as countLines in text.ts counts).
 */
import { ToolError } from '../errors';
import { detectNewline } from '../files/text';

export type Eol = '' | '\n' | '\r\n';

export interface Line {
  readonly text: string;
  readonly eol: Eol;
  /** Offset of the line's first character in the text. */
  readonly start: number;
}

export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    if (newline === -1) {
      lines.push({ text: text.slice(start), eol: '', start });
      break;
    }
    const crlf = newline > start && text.charCodeAt(newline - 1) === 13;
    lines.push({ text: text.slice(start, crlf ? newline - 1 : newline), eol: crlf ? '\r\n' : '\n', start });
    start = newline + 1;
  }
  return lines;
}

function joinLines(lines: readonly Pick<Line, 'text' | 'eol'>[]): string {
  let text = '';
  for (const line of lines) text += line.text + line.eol;
  return text;
}

/**
 * The lines a caller's content stands for: any of '\n' or '\r\n' separate them, and a trailing newline ends the last
 * line rather than starting an empty one. '' is no lines at all.
 */
function contentLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The line ending new lines get: the file's own when it uses one style; in a file that mixes them, the ending of
 * the nearest line to `near` (0-based) that has one; '\n' for a file with no line ending at all.
 */
export function eolFor(text: string, lines: readonly Line[], near: number): Exclude<Eol, ''> {
  const style = detectNewline(text);
  if (style === 'crlf') return '\r\n';
  if (style !== 'mixed') return '\n';
  for (let distance = 0; distance < lines.length; distance++) {
    for (const index of [near - distance, near + distance]) {
      const eol = lines[index]?.eol;
      if (eol) return eol;
    }
  }
  return '\n';
}

/** Refuses (INVALID_INPUT, never clamps) a line reference outside 1..total. */
function checkLine(name: string, value: number, total: number, path: string): void {
  if (value >= 1 && value <= total) return;
  const why = total === 0 ? `${path} is empty (0 lines)` : `${path} has ${total} lines`;
  throw new ToolError(
    'INVALID_INPUT',
    `${name} ${value} is out of range: ${why}. Line numbers are 1-based and inclusive; nothing was changed.`,
    {
      field: name,
      value,
      total_lines: total,
    },
  );
}

function checkRange(start: number, end: number, total: number, path: string): void {
  checkLine('start_line', start, total, path);
  checkLine('end_line', end, total, path);
  if (end < start) {
    throw new ToolError(
      'INVALID_INPUT',
      `end_line ${end} is before start_line ${start}; the range is inclusive, so end_line must be at least start_line.`,
      {
        field: 'end_line',
        value: end,
        total_lines: total,
      },
    );
  }
}

/**
 * Replaces lines start..end (1-based, inclusive) with `content`'s lines; no lines removes them. The new lines take the
 * file's line ending; the last one takes the ending the replaced range had, so a file without a trailing newline
 * keeps having none and a replacement without one does not fuse with the next line.
 */
export function replaceLineRange(text: string, start: number, end: number, content: string, path: string, frame?: LineFrame): string {
  const lines = splitLines(text);
  const { offset, total } = frame ?? { offset: 0, total: lines.length };
  checkRange(start, end, total, path);
  [start, end] = [start - offset, end - offset];
  const eol = eolFor(text, lines, start - 1);
  const lastEol = lines[end - 1]?.eol ?? '';
  const replacement = contentLines(content).map((each): Pick<Line, 'text' | 'eol'> => ({ text: each, eol }));
  const last = replacement[replacement.length - 1];
  if (last) replacement[replacement.length - 1] = { text: last.text, eol: lastEol };
  const before: Pick<Line, 'text' | 'eol'>[] = lines.slice(0, start - 1);
  const after = lines.slice(end);
  // Removing the last lines of a file that ends without a newline: the new last line must not gain one.
  const previous = before[before.length - 1];
  if (replacement.length === 0 && after.length === 0 && lastEol === '' && previous)
    before[before.length - 1] = { text: previous.text, eol: '' };
  return joinLines([...before, ...replacement, ...after]);
}

export type InsertPosition = 'before' | 'after' | 'end';

/**
 * Where a text stands in its file, for an edit of a window of a large file (edit/stream.ts): `offset` lines come
 * before it, and the file has `total` lines. Line numbers given to the functions below are the file's; the checks
 * use `total`. A window holds the line before and the line after the ones edited (where they exist), so every choice
 * these functions make from the lines around (which line ending new lines take, whether the file ends without a
 * newline) comes out as it would over the whole text.
 */
export interface LineFrame {
  readonly offset: number;
  readonly total: number;
}

/**
 * Inserts `content`'s lines before or after line `line`, or at the end. Appended to a file without a trailing newline,
 * the inserted text keeps its own final newline (or its lack of one); only the file's missing one is supplied.
 */
export function insertLinesAt(
  text: string,
  position: InsertPosition,
  line: number | undefined,
  content: string,
  path: string,
  frame?: LineFrame,
): string {
  const lines: Pick<Line, 'text' | 'eol'>[] = splitLines(text);
  const { offset, total } = frame ?? { offset: 0, total: lines.length };
  const inserted = contentLines(content);
  if (inserted.length === 0) {
    throw new ToolError('INVALID_INPUT', 'content has no lines to insert. To insert one empty line, pass "\\n".', { field: 'content' });
  }
  let index: number;
  if (position === 'end') {
    if (line !== undefined)
      throw new ToolError('INVALID_INPUT', 'position "end" appends after the last line and takes no line number; leave out "line".', {
        field: 'line',
      });
    index = lines.length;
  } else {
    if (line === undefined)
      throw new ToolError(
        'INVALID_INPUT',
        `position "${position}" needs "line", the 1-based line to insert ${position}. Use position "end" to append.`,
        { field: 'line' },
      );
    checkLine('line', line, total, path);
    index = (position === 'before' ? line - 1 : line) - offset;
  }
  const eol = eolFor(text, splitLines(text), Math.max(0, index - 1));
  const added = inserted.map((each): Pick<Line, 'text' | 'eol'> => ({ text: each, eol }));
  const previous = lines[index - 1];
  if (index === lines.length && previous && previous.eol === '') {
    // Appending after a last line without a newline: it gains one, and the new last line ends as `content` does.
    lines[index - 1] = { text: previous.text, eol };
    const last = added[added.length - 1];
    if (last && !/[\r\n]$/.test(content)) added[added.length - 1] = { text: last.text, eol: '' };
  }
  lines.splice(index, 0, ...added);
  return joinLines(lines);
}
