/**
 * The staged matcher behind edit_file. Pure: text in, regions out.
 *
 *  1. exact — old_string occurs literally. The replacement's line breaks take the file's style (a CRLF file gets
 *     CRLF in new lines), so the file never ends up with mixed endings because of how the model typed them.
 *  2. whitespace — first old_string with the file's CRLF line endings, literally (so it may still start and end
 *     mid-line); then whole lines compared with leading and trailing whitespace ignored (so indentation, trailing
 *     blanks, tabs against spaces and CRLF against LF all differ freely). The replacement is re-based onto the
 *     indentation actually found: the indentation old_string's first line had is swapped for the file's, and deeper
 *     levels are converted between tabs and spaces when the two use different ones. Interior whitespace still counts.
 *  3. none — the nearest candidate regions with line numbers and a similarity in [0, 1], for NO_MATCH.
 */
import { type Eol, eolFor, splitLines, type Line } from './lineEdits';

export type MatchStage = 'exact' | 'whitespace';

export interface MatchRegion {
  /** Offsets into the text: [start, end). */
  readonly start: number;
  readonly end: number;
  /** 1-based first and last line the region touches. */
  readonly line: number;
  readonly endLine: number;
  readonly replacement: string;
}

export interface Candidate {
  readonly start_line: number;
  readonly end_line: number;
  readonly similarity: number;
  readonly lines: readonly { readonly line: number; readonly text: string }[];
}

export type MatchResult =
  | { readonly stage: MatchStage; readonly regions: readonly MatchRegion[] }
  | { readonly stage: 'none'; readonly candidates: readonly Candidate[] };

export function findMatches(text: string, oldString: string, newString: string): MatchResult {
  const lines = splitLines(text);
  const exact = exactMatches(text, lines, oldString, newString);
  if (exact.length > 0) return { stage: 'exact', regions: exact };
  // Line endings alone differ (a model's LF old_string in a CRLF file): still literal, so it may start mid-line.
  if (oldString.includes('\n') && text.includes('\r\n')) {
    const crlf = exactMatches(text, lines, oldString.replace(/\r?\n/g, '\r\n'), newString);
    if (crlf.length > 0) return { stage: 'whitespace', regions: crlf };
  }
  const tolerant = whitespaceMatches(text, lines, oldString, newString);
  if (tolerant.length > 0) return { stage: 'whitespace', regions: tolerant };
  return { stage: 'none', candidates: nearestCandidates(lines, oldString) };
}

/** Replaces each region (non-overlapping, in order) with its replacement. */
export function applyRegions(text: string, regions: readonly MatchRegion[]): string {
  let result = '';
  let cursor = 0;
  for (const region of regions) {
    result += text.slice(cursor, region.start) + region.replacement;
    cursor = region.end;
  }
  return result + text.slice(cursor);
}

function lineIndexAt(lines: readonly Line[], offset: number): number {
  let low = 0;
  let high = lines.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((lines[middle]?.start ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

function withEol(text: string, eol: Exclude<Eol, ''>): string {
  return text.replace(/\r?\n/g, eol);
}

function exactMatches(text: string, lines: readonly Line[], oldString: string, newString: string): MatchRegion[] {
  const regions: MatchRegion[] = [];
  for (let index = text.indexOf(oldString); index !== -1; index = text.indexOf(oldString, index + oldString.length)) {
    const first = lineIndexAt(lines, index);
    const last = lineIndexAt(lines, index + Math.max(0, oldString.length - 1));
    regions.push({
      start: index,
      end: index + oldString.length,
      line: first + 1,
      endLine: last + 1,
      replacement: withEol(newString, eolFor(text, lines, first)),
    });
  }
  return regions;
}

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

/** old_string as whole lines: any line ending splits; a final line ending ends the last line. */
export function patternLines(value: string): string[] {
  const lines = value.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function whitespaceMatches(text: string, lines: readonly Line[], oldString: string, newString: string): MatchRegion[] {
  const wanted = patternLines(oldString);
  const keys = wanted.map((line) => line.trim());
  // All-blank old_string would match any run of blank lines: only an exact match may place it.
  if (keys.every((key) => key === '')) return [];
  const fileKeys = lines.map((line) => line.text.trim());
  const regions: MatchRegion[] = [];
  for (let start = 0; start + wanted.length <= lines.length;) {
    let matched = true;
    for (let offset = 0; offset < wanted.length; offset++) {
      if (fileKeys[start + offset] !== keys[offset]) {
        matched = false;
        break;
      }
    }
    if (!matched) {
      start++;
      continue;
    }
    regions.push(regionFor(text, lines, start, wanted, newString));
    start += wanted.length;
  }
  return regions;
}

/** The whole lines start..start+wanted.length-1, replaced by `newString` re-based onto their indentation. */
function regionFor(text: string, lines: readonly Line[], start: number, wanted: readonly string[], newString: string): MatchRegion {
  const endIndex = start + wanted.length - 1;
  const firstLine = lines[start];
  const lastLine = lines[endIndex];
  if (!firstLine || !lastLine) throw new Error('match region outside the text');
  const eol = eolFor(text, lines, start);
  const matchedLines = lines.slice(start, endIndex + 1).map((line) => line.text);
  const replacementLines = rebase(patternLines(newString), wanted, matchedLines);
  let regionStart = firstLine.start;
  let regionEnd = lastLine.start + lastLine.text.length;
  let replacement = replacementLines.join(eol);
  if (newString === '') {
    // Deleting whole lines takes their line endings too; at the end of a file, the one before them.
    replacement = '';
    if (lastLine.eol !== '') regionEnd += lastLine.eol.length;
    else if (start > 0) regionStart -= lines[start - 1]?.eol.length ?? 0;
  }
  return { start: regionStart, end: regionEnd, line: start + 1, endLine: endIndex + 1, replacement };
}

/**
 * Moves `replacement` from old_string's indentation to the file's. The reference pair is the first non-blank
 * line of old_string and the file line it matched.
 */
function rebase(replacement: readonly string[], wanted: readonly string[], matched: readonly string[]): string[] {
  const reference = wanted.findIndex((line) => line.trim() !== '');
  const oldIndent = leadingWhitespace(wanted[reference] ?? '');
  const fileIndent = leadingWhitespace(matched[reference] ?? '');
  if (oldIndent === fileIndent) return [...replacement];
  const convert = indentConverter(wanted, matched);
  return replacement.map((line) => {
    if (line.trim() === '') return '';
    const indent = leadingWhitespace(line);
    if (!indent.startsWith(oldIndent)) return line;
    return fileIndent + convert(indent.slice(oldIndent.length)) + line.slice(indent.length);
  });
}

/**
 * How deeper indentation translates when old_string and the file indent with different characters: the width of one
 * tab in spaces is learnt from a matched pair of lines (e.g. 8 spaces where the file has 2 tabs → 4).
 */
function indentConverter(wanted: readonly string[], matched: readonly string[]): (indent: string) => string {
  for (let index = 0; index < wanted.length; index++) {
    const oldIndent = leadingWhitespace(wanted[index] ?? '');
    const fileIndent = leadingWhitespace(matched[index] ?? '');
    if (oldIndent === '' || fileIndent === '') continue;
    const oldSpaces = /^ +$/.test(oldIndent);
    const fileTabs = /^\t+$/.test(fileIndent);
    const oldTabs = /^\t+$/.test(oldIndent);
    const fileSpaces = /^ +$/.test(fileIndent);
    if (oldSpaces && fileTabs && oldIndent.length % fileIndent.length === 0) {
      const width = oldIndent.length / fileIndent.length;
      return (indent) => indent.replace(new RegExp(` {${width}}`, 'g'), '\t');
    }
    if (oldTabs && fileSpaces && fileIndent.length % oldIndent.length === 0) {
      const width = fileIndent.length / oldIndent.length;
      return (indent) => indent.replace(/\t/g, ' '.repeat(width));
    }
  }
  return (indent) => indent;
}

/** Most line comparisons spent on finding candidates; beyond it only exactly equal lines count. */
const CANDIDATE_BUDGET = 2_000_000;
const CANDIDATE_COUNT = 3;
const CANDIDATE_LINE_CHARS = 200;
const CANDIDATE_MAX_LINES = 20;

const NO_GRAMS: ReadonlyMap<string, number> = new Map<string, number>();

function bigrams(value: string): Map<string, number> {
  const normalized = value.trim().replace(/\s+/g, ' ');
  const grams = new Map<string, number>();
  for (let index = 0; index + 1 < normalized.length; index++) {
    const gram = normalized.slice(index, index + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  if (normalized.length === 1) grams.set(normalized, 1);
  return grams;
}

/** Sørensen–Dice similarity of two lines' character bigrams, ignoring surrounding and repeated whitespace. */
function lineSimilarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, aSize: number, bSize: number): number {
  if (aSize === 0 && bSize === 0) return 1;
  if (aSize === 0 || bSize === 0) return 0;
  let common = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [gram, count] of small) common += Math.min(count, large.get(gram) ?? 0);
  return (2 * common) / (aSize + bSize);
}

function sizeOf(grams: Map<string, number>): number {
  let size = 0;
  for (const count of grams.values()) size += count;
  return size;
}

/** The regions of the file most like old_string, best first, for a NO_MATCH a model can act on. */
function nearestCandidates(lines: readonly Line[], oldString: string): Candidate[] {
  const wanted = patternLines(oldString);
  const span = Math.min(wanted.length, Math.max(1, lines.length));
  if (lines.length === 0) return [];
  const windows = lines.length - span + 1;
  const cheap = windows * span > CANDIDATE_BUDGET;
  const wantedGrams = wanted.map(bigrams);
  const wantedSizes = wantedGrams.map(sizeOf);
  const fileGrams = cheap ? [] : lines.map((line) => bigrams(line.text));
  const fileSizes = fileGrams.map(sizeOf);
  const scored: { start: number; score: number }[] = [];
  for (let start = 0; start < windows; start++) {
    let total = 0;
    for (let offset = 0; offset < span; offset++) {
      const index = start + offset;
      if (cheap) total += (lines[index]?.text.trim() ?? '') === (wanted[offset]?.trim() ?? '') ? 1 : 0;
      else
        total += lineSimilarity(
          fileGrams[index] ?? NO_GRAMS,
          wantedGrams[offset] ?? NO_GRAMS,
          fileSizes[index] ?? 0,
          wantedSizes[offset] ?? 0,
        );
    }
    // Lines of old_string beyond the end of the file count as misses.
    scored.push({ start, score: total / wanted.length });
  }
  scored.sort((a, b) => b.score - a.score || a.start - b.start);
  const chosen: { start: number; score: number }[] = [];
  for (const candidate of scored) {
    if (chosen.length === CANDIDATE_COUNT || candidate.score <= 0) break;
    // Overlapping windows around one place say the same thing; keep the best of each place.
    if (chosen.some((each) => Math.abs(each.start - candidate.start) < span)) continue;
    chosen.push(candidate);
  }
  return chosen.map(({ start, score }) => ({
    start_line: start + 1,
    end_line: start + span,
    similarity: Math.round(score * 100) / 100,
    lines: lines.slice(start, start + Math.min(span, CANDIDATE_MAX_LINES)).map((line, offset) => ({
      line: start + offset + 1,
      text: line.text.length > CANDIDATE_LINE_CHARS ? `${line.text.slice(0, CANDIDATE_LINE_CHARS)}…` : line.text,
    })),
  }));
}
