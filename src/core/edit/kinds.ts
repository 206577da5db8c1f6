/**
 * The text-edit tools side by side: each is a TextEditKind (textEdit.ts), its windows in a large file and its
 * rewrite of a text. The rewrites are the whole-text functions of lineEdits.ts and match.ts; a large file's windows hold
 * one line more on each side than the edit touches, so what those functions decide from neighbouring lines (line
 * endings, a missing final newline) comes out as over the whole text.
 */
import { limitExceeded } from '../contract/caps';
import { ToolError } from '../errors';
import { type InsertPosition, insertLinesAt, type LineFrame, replaceLineRange } from './lineEdits';
import { applyRegions, type Candidate, findMatches, type MatchStage, patternLines } from './match';
import { humanSize } from '../read/bytes';
import { lastLinesStart, searchBytes, searchLineKeys, type WindowSpec } from './stream';
import type { EditSearch, LargeText, TextEditKind } from './textEdit';

/** Lines start..end become `content`'s lines (replace_lines); no content removes them (delete_lines). */
/** What replace_lines and delete_lines answer besides the edit fields. */
export interface LineRangeFields {
  readonly start_line: number;
  readonly end_line: number;
  readonly total_lines: number;
}

export function lineRangeKind(
  start: number,
  end: number,
  content: string,
  describe: TextEditKind<null, LineRangeFields>['describe'],
): TextEditKind<null, LineRangeFields> {
  return {
    describe,
    windows: () => Promise.resolve([{ firstLine: Math.max(1, start - 1), lastLine: Math.max(start, end) + 1 }]),
    rewrite: ({ text, display, frame }) => ({ text: replaceLineRange(text, start, end, content, display, frame), extra: null }),
    finish: (_extras, { totalLines }) => ({ start_line: start, end_line: end, total_lines: totalLines }),
  };
}

/** `content`'s lines before or after a line, or at the end (insert_lines). */
/** What insert_lines answers besides the edit fields. */
export interface InsertFields {
  readonly position: InsertPosition;
  readonly line: number | null;
  readonly total_lines: number;
}

export function insertKind(position: InsertPosition, line: number | undefined, content: string): TextEditKind<null, InsertFields> {
  return {
    describe: (l10n, path) =>
      position === 'end'
        ? l10n.t('Inserting lines at the end of {0}', path)
        : position === 'before'
          ? l10n.t('Inserting lines before line {0} of {1}', line ?? '?', path)
          : l10n.t('Inserting lines after line {0} of {1}', line ?? '?', path),
    async windows(file) {
      // At the end: the last two lines (the last may lack its newline, the one before gives the line ending).
      if (position === 'end' || line === undefined) return [{ fromOffset: await lastLinesStart(file.source, 2, file.breaks) }];
      return [position === 'before' ? { firstLine: Math.max(1, line - 1), lastLine: line } : { firstLine: line, lastLine: line + 1 }];
    },
    rewrite: ({ text, display, frame }) => ({ text: insertLinesAt(text, position, line, content, display, frame), extra: null }),
    finish: (_extras, { totalLines }) => ({ position, line: line ?? null, total_lines: totalLines }),
  };
}

/** What one text (a whole file or a window) holds of an edit_file match. */
interface MatchExtra {
  readonly stage: MatchStage | 'none';
  readonly count: number;
  readonly lines: readonly number[];
  /** For a whole file without a match: where the text most like old_string is. */
  readonly candidates?: readonly Candidate[];
}

export interface MatchEdit {
  readonly old_string: string;
  readonly new_string: string;
  readonly replace_all?: boolean;
  readonly expected_match_count?: number;
}

/** Places found further than this apart are not searched for in a large file: the edit is refused as too scattered. */
const MAX_LARGE_MATCHES = 10_000;

/** old_string → new_string, once unless replace_all or expected_match_count (edit_file, and each of its `edits`). */
/** What edit_file answers for one edit besides the edit fields. */
export interface MatchFields {
  readonly stage: MatchStage;
  readonly match_count: number;
  readonly replaced: number;
  readonly lines: readonly number[];
}

export function matchKind(edit: MatchEdit, largeLimit: number): TextEditKind<MatchExtra, MatchFields> {
  const { old_string: oldString, new_string: newString } = edit;
  if (oldString === newString) {
    throw new ToolError('INVALID_INPUT', 'old_string and new_string are the same, so the edit would change nothing.', {
      field: 'new_string',
    });
  }
  return {
    describe: (l10n, path) => l10n.t('Editing {0}', path),
    search: (file) => matchSearch(file, oldString, largeLimit),
    windows: (file) => matchWindows(file, oldString, largeLimit),
    rewrite: ({ text, frame }) => matchRewrite(text, frame, oldString, newString),
    finish: (extras, { display }) => finishMatch(extras, display, edit, largeLimit),
  };
}

/** old_string in a large file's encoding, as it is and (where it spans lines) with CRLF line endings. */
async function oldStringBytes(file: LargeText, oldString: string): Promise<{ exact?: Uint8Array; crlf?: Uint8Array }> {
  return {
    exact: await file.encode(oldString),
    crlf: oldString.includes('\n') ? await file.encode(oldString.replace(/\r?\n/g, '\r\n')) : undefined,
  };
}

/** The search for old_string that a large file's edit runs within its own pass (matchKind's `search`). */
async function matchSearch(file: LargeText, oldString: string, largeLimit: number): Promise<EditSearch | undefined> {
  // The exact stage in the pass itself; old_string with its newlines as CRLF where the file's head has CRLF ones.
  const { exact, crlf } = await oldStringBytes(file, oldString);
  if (!exact || exact.length === 0) return undefined;
  const drives = crlf && crlf.length > 0 && file.newline === 'crlf' ? 1 : 0;
  return {
    patterns: crlf && crlf.length > 0 ? [exact, crlf] : [exact],
    drives,
    limit: MAX_LARGE_MATCHES,
    tooMany: () => tooScattered(file.display, largeLimit),
    around: (match) => ({ firstLine: Math.max(1, match.line - 1), lastLine: match.endLine + 1 }),
    // Exact occurrences come first, as in `windows`: the CRLF form's windows stand only where there are none.
    provisional: drives !== 0,
    accept: (found) => (found[drives] ?? 0) > 0 && (drives === 0 || (found[0] ?? 0) === 0),
  };
}

/** The windows of a large file where old_string may match (matchKind's `windows`); refuses when there are none or too many. */
async function matchWindows(file: LargeText, oldString: string, largeLimit: number): Promise<WindowSpec[]> {
  // The stages of findMatches, in its order, over the bytes: the first that finds anything places the windows.
  let specs = await byteMatchWindows(file, oldString);
  if (specs.length === 0) specs = await lineKeyWindows(file, oldString);
  if (specs.length > MAX_LARGE_MATCHES) throw tooScattered(file.display, largeLimit);
  if (specs.length === 0) throw noMatch(file.display, [], true, largeLimit);
  return specs;
}

/** Windows around old_string's bytes: its exact occurrences, else those of its CRLF form. */
async function byteMatchWindows(file: LargeText, oldString: string): Promise<WindowSpec[]> {
  const { exact, crlf } = await oldStringBytes(file, oldString);
  const patterns = [exact, crlf].filter((pattern): pattern is Uint8Array => pattern !== undefined && pattern.length > 0);
  const found = patterns.length > 0 ? await searchBytes(file.source, patterns, file.signals, MAX_LARGE_MATCHES + 1, file.breaks) : [];
  const exactIndex = exact ? patterns.indexOf(exact) : -1;
  const firstStage = found.some((match) => match.pattern === exactIndex) ? found.filter((match) => match.pattern === exactIndex) : found;
  return firstStage.map((match) => ({ firstLine: Math.max(1, match.line - 1), lastLine: match.endLine + 1 }));
}

/** Windows where old_string's lines occur with their whitespace trimmed (the looser stages of findMatches). */
async function lineKeyWindows(file: LargeText, oldString: string): Promise<WindowSpec[]> {
  const keys = patternLines(oldString).map((line) => line.trim());
  if (!keys.some((key) => key !== '')) return [];
  const starts = await searchLineKeys(
    file.source,
    keys,
    (bytes) => file.decodeLine(bytes).trim(),
    file.signals,
    MAX_LARGE_MATCHES + 1,
    file.breaks,
  );
  return starts.map((start) => ({ firstLine: Math.max(1, start - 1), lastLine: start + keys.length }));
}

/** old_string → new_string in one text (matchKind's `rewrite`); a text without a match comes back as it was. */
function matchRewrite(
  text: string,
  frame: LineFrame | undefined,
  oldString: string,
  newString: string,
): { readonly text: string; readonly extra: MatchExtra } {
  const result = findMatches(text, oldString, newString);
  if (result.stage === 'none')
    return { text, extra: { stage: 'none', count: 0, lines: [], ...(frame ? {} : { candidates: result.candidates }) } };
  const offset = frame?.offset ?? 0;
  return {
    text: applyRegions(text, result.regions),
    extra: { stage: result.stage, count: result.regions.length, lines: result.regions.map((region) => region.line + offset) },
  };
}

/** The fields of an edit from every text's matches (matchKind's `finish`); refuses no match, or a count not asked for. */
function finishMatch(extras: readonly MatchExtra[], display: string, edit: MatchEdit, largeLimit: number): MatchFields {
  const matched = extras.filter((extra) => extra.stage !== 'none');
  const count = matched.reduce((sum, extra) => sum + extra.count, 0);
  const lines = matched.flatMap((extra) => extra.lines);
  const stage = matched[0]?.stage ?? 'none';
  if (count === 0 || stage === 'none') {
    const whole = extras.length === 1 ? extras[0]?.candidates : undefined;
    throw noMatch(display, whole ?? [], whole === undefined, largeLimit);
  }
  const expected = edit.expected_match_count;
  if (expected !== undefined && count !== expected) {
    throw new ToolError(
      count > expected ? 'MULTIPLE_MATCHES' : 'NO_MATCH',
      `old_string matches ${count} time${count === 1 ? '' : 's'} in ${display} (${stage} match, at line${count === 1 ? '' : 's'} ${lines.join(', ')}), but expected_match_count is ${expected}. Nothing was changed.`,
      { path: display, stage, match_count: count, expected_match_count: expected, lines },
    );
  }
  if (expected === undefined && count > 1 && edit.replace_all !== true) {
    throw new ToolError(
      'MULTIPLE_MATCHES',
      `old_string matches ${count} times in ${display} (${stage} match, at lines ${lines.join(', ')}). Include more surrounding lines so it matches once, or pass replace_all: true to change every one.`,
      { path: display, stage, match_count: count, lines },
    );
  }
  return { stage, match_count: count, replaced: count, lines };
}

function tooScattered(display: string, largeLimit: number): ToolError {
  return limitExceeded(
    'old_string',
    MAX_LARGE_MATCHES,
    `old_string occurs more than ${MAX_LARGE_MATCHES} times in ${display}; in files above ${humanSize(largeLimit)} an edit changes at most that many places. Nothing was changed.`,
    display,
  );
}

function noMatch(display: string, candidates: readonly Candidate[], large: boolean, largeLimit: number): ToolError {
  const best = candidates[0];
  const nearest = large
    ? ` (In files above ${humanSize(largeLimit)} the nearest text is not searched for: read the lines around where you expect it and copy old_string from them.)`
    : best
      ? ` The nearest text is at lines ${best.start_line}-${best.end_line} (similarity ${best.similarity}):\n${best.lines.map((line) => `${line.line}: ${line.text}`).join('\n')}\nRead those lines and retry with old_string copied from them.`
      : ' The file has no similar lines.';
  return new ToolError(
    'NO_MATCH',
    `old_string was not found in ${display}, neither exactly nor ignoring indentation, trailing whitespace and line endings.${nearest}`,
    { path: display, candidates },
  );
}
