/**
 * The V4A patch grammar, the one GPT models write for apply_patch: "*** Begin Patch", then per file "*** Add File:"
 * (its lines as "+" lines), "*** Delete File:", or "*** Update File:" with an optional "*** Move to:" and "@@"
 * sections of context (" "), removed ("-") and added ("+") lines that name no line numbers, then "*** End Patch".
 * This module parses it and places its sections; patch.ts checks and writes the files, as for a unified diff.
 *
 * Placement: a file's sections are found in order, each searching from where the previous one ended (the cursor).
 * A section's "@@ text" lines are found first, each the first line at or after the cursor equal to it (surrounding
 * whitespace aside), and the search goes on below it. Then its old lines (context and removed lines) are looked for
 * exactly, then ignoring trailing whitespace, then ignoring all surrounding whitespace; the first step that finds
 * them decides (`stage`). Without an "@@ text" line they must occur once below the cursor: several occurrences are
 * ambiguous and refused, as a unified hunk off its line is. With one, the first occurrence below it is meant: naming
 * the line above a section is how the grammar tells repeated code apart (a section whose first old line repeats its
 * "@@ text" starts at that line, as its writer meant). An "@@ text" line found only above the cursor (a model
 * repeating the enclosing function's line for a second section in it) names no place below: such a section goes
 * where its old lines occur exactly, if exactly once below the cursor (`anchor_above`), else it is refused.
 * "*** End of File" requires the old lines to end the file. A section of added lines only goes right below its "@@
 * text" line, or else at the file's end.
 *
 * What the text keeps: context lines are the file's own (a match ignoring whitespace never rewrites them), added
 * lines take the file's line ending (a patch's lines carry no CR), and whether the file ends with a newline does not
 * change: the grammar has no way to say it.
 *
 * Leniencies models need and that cannot misplace a line: surrounding blank lines, a first section without "@@", an
 * empty line inside a section read as an empty context line, "@@ -1,3 +1,4 @@" read as "@@" (V4A places by content).
 *
 * Over 300 lines: the grammar and the placement are one contract (what a section means is where it is placed), and
 * the refusals of both name the patch's own lines.
 */
import type { ToolContext } from '../context';
import type { ConfinedPath } from '../confinement';
import type { ToolError } from '../errors';
import { toolRef } from '../naming';
import { eolFor, type Line, splitLines } from './lineEdits';
import {
  describeDifference,
  type HunkPlacement,
  lineDifferences,
  patchFailed,
  type PatchTarget,
  type PlacementStage,
  type Rewritten,
} from './placement';

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File:';
const DELETE = '*** Delete File:';
const UPDATE = '*** Update File:';
const MOVE = '*** Move to:';
const END_OF_FILE = '*** End of File';

/** A unified diff's hunk header, which models sometimes write in a V4A patch: its numbers are not used. */
const RANGE_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

interface SectionLine {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
  /** Written as an empty line rather than " ": a section's trailing ones separate it from what follows. */
  readonly blank?: boolean;
}

interface Section {
  /** Its "@@" lines as written ("@@" for a first section written without one). */
  readonly header: string;
  readonly anchors: readonly string[];
  readonly lines: readonly SectionLine[];
  readonly endOfFile: boolean;
}

type V4aFile =
  | { readonly action: 'add'; readonly path: string; readonly lines: readonly string[] }
  | { readonly action: 'delete'; readonly path: string }
  | { readonly action: 'update'; readonly path: string; readonly moveTo: string | undefined; readonly sections: readonly Section[] };

/** Whether `text` is a V4A patch: its first non-empty line is "*** Begin Patch" (anything else is read as a unified diff). */
export function isV4aPatch(text: string): boolean {
  for (let start = 0; start <= text.length;) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end).trim();
    if (line !== '') return line === BEGIN;
    if (end === -1) break;
    start = end + 1;
  }
  return false;
}

function syntax(line: number, what: string): never {
  throw patchFailed(
    `Line ${line} of the patch: ${what}. A V4A patch is "${BEGIN}", then per file "${ADD} path" with "+" lines, "${DELETE} path", or "${UPDATE} path" (optionally "${MOVE} path") with "@@" sections of " ", "-" and "+" lines, then "${END}".`,
    { line },
  );
}

/** A file-level marker starts at the line's first column: " *** End Patch" is a context line of a file that holds that text. */
function isFileMarker(line: string): boolean {
  const marker = line.trimEnd();
  return marker === END || marker.startsWith(ADD) || marker.startsWith(DELETE) || marker.startsWith(UPDATE);
}

function pathAfter(line: string, marker: string, number: number): string {
  const path = line.trimEnd().slice(marker.length).trim();
  if (path === '') syntax(number, `"${marker}" names no file`);
  return path;
}

/** Parses a V4A patch (isV4aPatch is true of it). PATCH_FAILED naming the line for anything it does not read. */
function parseV4a(text: string): V4aFile[] {
  const lines = text.split(/\r?\n/);
  let at = lines.findIndex((line) => line.trim() !== '') + 1;
  const files: V4aFile[] = [];
  for (;;) {
    const line = lines[at];
    if (line === undefined) {
      throw patchFailed(
        `The patch begins with "${BEGIN}" but has no "${END}" line, so it may have been cut off. End it with "${END}".`,
        {},
      );
    }
    if (line.trim() === '') {
      at++;
      continue;
    }
    if (line.trimEnd() === END) break;
    const number = at + 1;
    at++;
    const body: string[] = [];
    for (; at < lines.length && !isFileMarker(lines[at] ?? ''); at++) body.push(lines[at] ?? '');
    if (line.startsWith(ADD)) files.push(addFile(pathAfter(line, ADD, number), body, number + 1));
    else if (line.startsWith(DELETE)) {
      const path = pathAfter(line, DELETE, number);
      const stray = body.findIndex((each) => each.trim() !== '');
      if (stray !== -1) syntax(number + 1 + stray, `"${DELETE} ${path}" takes no lines: the whole file is deleted`);
      files.push({ action: 'delete', path });
    } else if (line.startsWith(UPDATE)) files.push(updateFile(pathAfter(line, UPDATE, number), body, number + 1));
    else syntax(number, `expected "${ADD}", "${DELETE}", "${UPDATE}" or "${END}", found ${JSON.stringify(line.slice(0, 80))}`);
  }
  const trailing = lines.slice(at + 1).findIndex((line) => line.trim() !== '');
  if (trailing !== -1) syntax(at + 2 + trailing, `text follows "${END}"`);
  if (files.length === 0) throw patchFailed(`The patch holds no files between "${BEGIN}" and "${END}".`, {});
  return files;
}

/** An added file's lines; blank lines before the next marker only separate the blocks. */
function addFile(path: string, body: readonly string[], first: number): V4aFile {
  const lines = [...body];
  while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
  const stray = lines.findIndex((line) => !line.startsWith('+'));
  if (stray !== -1) syntax(first + stray, `every line of "${ADD} ${path}" starts with "+" (an empty line is "+")`);
  return { action: 'add', path, lines: lines.map((line) => line.slice(1)) };
}

function updateFile(path: string, body: readonly string[], first: number): V4aFile {
  let start = 0;
  while (body[start] === '') start++;
  let moveTo: string | undefined;
  const move = body[start];
  if (move?.startsWith(MOVE)) {
    moveTo = pathAfter(move, MOVE, first + start);
    start++;
  }
  const sections: Section[] = [];
  let current: { header: string[]; anchors: string[]; lines: SectionLine[]; endOfFile: boolean; number: number } | undefined;
  const finish = (): void => {
    if (!current) return;
    // An empty line closing a section separates it from the next; it is context only where the section ends the file.
    if (!current.endOfFile) while (current.lines[current.lines.length - 1]?.blank) current.lines.pop();
    if (current.lines.length === 0) syntax(current.number, `section ${sections.length + 1} of "${UPDATE} ${path}" has no lines`);
    sections.push({
      header: current.header.join(' ') || '@@',
      anchors: current.anchors,
      lines: current.lines,
      endOfFile: current.endOfFile,
    });
    current = undefined;
  };
  for (let index = start; index < body.length; index++) {
    const line = body[index] ?? '';
    const number = first + index;
    if (line.startsWith('@@')) {
      const anchor = RANGE_HEADER.test(line) ? '' : line.slice(2).trim();
      // "@@ class A" then "@@ def f": the second is looked for below the first.
      if (!current || current.lines.length > 0 || current.endOfFile) {
        finish();
        current = { header: [], anchors: [], lines: [], endOfFile: false, number };
      }
      current.header.push(line.trimEnd());
      if (anchor !== '') current.anchors.push(anchor);
    } else if (line.trimEnd() === END_OF_FILE) {
      if (!current || current.lines.length === 0 || current.endOfFile) syntax(number, `"${END_OF_FILE}" must close a section`);
      current.endOfFile = true;
    } else if (line === '' && !current) {
      // Before the first section an empty line only separates it from the file's header lines.
    } else if (line === '' || line.startsWith(' ') || line.startsWith('-') || line.startsWith('+')) {
      if (current?.endOfFile) {
        if (line.trim() === '') continue;
        syntax(number, `a line follows "${END_OF_FILE}"; start another section with "@@"`);
      }
      current ??= { header: [], anchors: [], lines: [], endOfFile: false, number };
      current.lines.push(
        line === '' ? { kind: ' ', text: '', blank: true } : { kind: line[0] as SectionLine['kind'], text: line.slice(1) },
      );
    } else if (line.startsWith(MOVE)) {
      syntax(number, `"${MOVE}" must follow its "${UPDATE}" line directly`);
    } else {
      syntax(
        number,
        `in a section of "${UPDATE} ${path}" each line starts with " " (context), "-" (removed) or "+" (added), or is an "@@" line; found ${JSON.stringify(line.slice(0, 80))}`,
      );
    }
  }
  finish();
  if (sections.length === 0 && moveTo === undefined)
    syntax(first - 1, `"${UPDATE} ${path}" has no sections: give it "@@" sections of context, "-" and "+" lines`);
  return { action: 'update', path, moveTo, sections };
}

/** Parses a V4A patch and confines every path it names, as parsePatchTargets does for a unified diff. */
export async function v4aTargets(context: ToolContext, text: string): Promise<PatchTarget[]> {
  const files = parseV4a(text);
  const targets: PatchTarget[] = [];
  const seen = new Set<string>();
  const claim = async (name: string): Promise<ConfinedPath> => {
    const path = await context.paths.resolve(name, 'file');
    if (seen.has(path.absolute))
      throw patchFailed(`The patch changes ${path.display} twice; give each file one block.`, { file: path.display });
    seen.add(path.absolute);
    return path;
  };
  for (const [index, file] of files.entries()) {
    const path = await claim(file.path);
    if (file.action === 'add') {
      const text = file.lines.map((line) => `${line}\n`).join('');
      targets.push({ index, action: 'create', path, rewrite: () => ({ text, hunks: [] }) });
    } else if (file.action === 'delete') {
      targets.push({ index, action: 'delete', path, rewrite: () => ({ text: '', hunks: [] }) });
    } else {
      const moved = file.moveTo === undefined ? undefined : await context.paths.resolve(file.moveTo, 'file');
      // "*** Move to:" its own path is an update in place.
      const destination = moved && moved.absolute !== path.absolute ? await claim(file.moveTo ?? '') : undefined;
      const rewrite = (display: string, before: string): Rewritten => applySections(display, before, file.sections);
      targets.push(destination ? { index, action: 'move', path, destination, rewrite } : { index, action: 'modify', path, rewrite });
    }
  }
  return targets;
}

const STAGES: readonly { readonly stage: PlacementStage; readonly key: (line: string) => string; readonly words: string }[] = [
  { stage: 'exact', key: (line) => line, words: 'exactly' },
  { stage: 'trailing_whitespace', key: (line) => line.trimEnd(), words: 'ignoring trailing whitespace' },
  { stage: 'whitespace', key: (line) => line.trim(), words: 'ignoring surrounding whitespace' },
];

/** Ambiguous match lines a refusal lists at most. */
const MATCHES_SHOWN = 20;

/** Where a section's search starts after its "@@" lines, and the one it repeats from above the search, if any. */
function searchStart(
  texts: readonly string[],
  section: Section,
  old: readonly string[],
  cursor: number,
  where: string,
  details: Record<string, unknown>,
): { from: number; above?: { readonly anchor: string; readonly line: number } } {
  let from = cursor;
  let above: { readonly anchor: string; readonly line: number } | undefined;
  for (const [number, anchor] of section.anchors.entries()) {
    const found = firstLine(texts, anchor, from);
    const earlier = found === -1 ? firstLine(texts, anchor, 0) : -1;
    if (found === -1 && earlier !== -1 && earlier < cursor && old.length > 0) {
      // A second section in the same function, its "@@" line repeated: it names the place only if its lines do.
      above = { anchor, line: earlier };
      continue;
    }
    if (found === -1) {
      throw patchFailed(
        `${where}: its "@@ ${anchor}" line is not ${below(from)}${earlier !== -1 ? ` (it is at line ${earlier + 1}, above where the previous section or "@@" line placed the search: sections go in the file's order)` : ''}. An "@@" line names a line of the file above the section.`,
        { ...details, anchor },
      );
    }
    // A section whose first old line repeats its "@@" line starts at it, as its writer meant.
    from = number === section.anchors.length - 1 && old[0]?.trim() === anchor ? found : found + 1;
  }
  return above ? { from, above } : { from };
}

/** Where a search from `line` looks, in words. */
function below(line: number): string {
  return line === 0 ? 'in the file' : `below line ${line}`;
}

/** The text with every section applied, or PATCH_FAILED naming the section that cannot be placed. */
function applySections(display: string, text: string, sections: readonly Section[]): Rewritten {
  const lines = splitLines(text);
  const texts = lines.map((line) => line.text);
  // Each comparison's view of the file's lines, made when a section first needs it.
  const levels = STAGES.map((step) => {
    let keys: string[] | undefined;
    return { ...step, keys: (): string[] => (keys ??= texts.map(step.key)) };
  });
  const out: Pick<Line, 'text' | 'eol'>[] = [];
  const hunks: HunkPlacement[] = [];
  let cursor = 0;
  for (const [index, section] of sections.entries()) {
    const where = `Section ${index + 1} of ${sections.length} (${section.header}) for ${display}`;
    const details = { file: display, section: index + 1, header: section.header };
    const old = section.lines.filter((line) => line.kind !== '+').map((line) => line.text);
    const { from, above } = searchStart(texts, section, old, cursor, where, details);
    const anchored = section.anchors.length > 0 && above === undefined;
    let start: number | undefined;
    let stage: PlacementStage = 'exact';
    if (above) {
      start = onlyOccurrence(where, details, texts, old, from, section.endOfFile, above);
      stage = 'anchor_above';
    }
    if (old.length === 0) start = section.endOfFile || !anchored ? lines.length : from;
    for (const { stage: step, key, keys: keysOf, words } of levels) {
      if (start !== undefined) break;
      const keys = keysOf();
      const wanted = old.map(key);
      const fits = (at: number): boolean => wanted.every((line, offset) => keys[at + offset] === line);
      const found: number[] = [];
      if (section.endOfFile) {
        const at = lines.length - old.length;
        if (at >= from && fits(at)) found.push(at);
      } else {
        for (let at = from; at + old.length <= lines.length && !(anchored && found.length > 0); at++) if (fits(at)) found.push(at);
      }
      if (found.length > 1) {
        throw patchFailed(
          `${where} is ambiguous: its ${old.length === 1 ? 'old line occurs' : `${old.length} old lines occur`} ${found.length} times ${below(from)} (at lines ${found
            .slice(0, MATCHES_SHOWN)
            .map((at) => at + 1)
            .join(
              ', ',
            )}, ${words}). Add an "@@" line naming a line just above the section that comes before the other places (a function or heading), or more context lines.`,
          { ...details, matches_at_lines: found.slice(0, MATCHES_SHOWN).map((at) => at + 1), stage: step },
        );
      }
      start = found[0];
      stage = step;
    }
    if (start === undefined) throw unmatched(where, details, texts, old, from, section.endOfFile);
    for (const line of lines.slice(cursor, start)) out.push(line);
    const eol = eolFor(text, lines, start);
    let at = start;
    for (const line of section.lines) {
      if (line.kind === '+') out.push({ text: line.text, eol });
      else {
        if (line.kind === ' ') out.push(lines[at] ?? { text: line.text, eol });
        at++;
      }
    }
    cursor = at;
    hunks.push({ header: section.header, line: start + 1, offset: 0, stage });
  }
  for (const line of lines.slice(cursor)) out.push(line);
  // The file ends with a newline after the patch exactly when it did before.
  const finalNewline = (lines[lines.length - 1]?.eol ?? '\n') !== '';
  const fill = eolFor(text, lines, lines.length - 1);
  const result = out.map((line, index) => line.text + (index === out.length - 1 && !finalNewline ? '' : line.eol || fill)).join('');
  return { text: result, hunks };
}

/**
 * Where a section whose "@@" line lies above the search goes: its old lines, exactly, at their one occurrence at or
 * below `from` (at the file's end for "*** End of File"). Several are ambiguous and none is no match, both refused:
 * the "@@" line cannot tell them apart, since it is above them all.
 */
function onlyOccurrence(
  where: string,
  details: Record<string, unknown>,
  texts: readonly string[],
  old: readonly string[],
  from: number,
  endOfFile: boolean,
  above: { readonly anchor: string; readonly line: number },
): number {
  const fits = (at: number): boolean => old.every((line, offset) => texts[at + offset] === line);
  const found: number[] = [];
  if (endOfFile) {
    const at = texts.length - old.length;
    if (at >= from && fits(at)) found.push(at);
  } else for (let at = from; at + old.length <= texts.length && found.length <= MATCHES_SHOWN; at++) if (fits(at)) found.push(at);
  const [only] = found;
  if (found.length === 1 && only !== undefined) return only;
  const position = `its "@@ ${above.anchor}" line is at line ${above.line + 1}, above line ${from + 1} where the previous section left the search, so its old lines must occur exactly once from there on`;
  if (found.length > 1) {
    throw patchFailed(
      `${where} is ambiguous: ${position}, and they occur ${found.length > MATCHES_SHOWN ? `more than ${MATCHES_SHOWN}` : found.length} times (at lines ${found
        .slice(0, MATCHES_SHOWN)
        .map((at) => at + 1)
        .join(', ')}). Add context lines, or an "@@" line just above the section that comes before the other places.`,
      { ...details, anchor: above.anchor, matches_at_lines: found.slice(0, MATCHES_SHOWN).map((at) => at + 1), stage: 'anchor_above' },
    );
  }
  throw patchFailed(
    `${where}: ${position}, and they do not (not exactly). Read the file again (${toolRef('read_file')}) and make the section from its current lines.`,
    { ...details, anchor: above.anchor },
  );
}

/** The first line at or after `from` equal to `anchor` (trimmed already), surrounding whitespace aside; -1 if none. */
function firstLine(texts: readonly string[], anchor: string, from: number): number {
  for (let at = from; at < texts.length; at++) if (texts[at]?.trim() === anchor) return at;
  return -1;
}

/**
 * PATCH_FAILED for old lines found nowhere below the cursor: the nearest place (where most of them match, surrounding
 * whitespace aside) with the lines that differ there, as a unified hunk that does not fit is explained.
 */
function unmatched(
  where: string,
  details: Record<string, unknown>,
  texts: readonly string[],
  old: readonly string[],
  from: number,
  endOfFile: boolean,
): ToolError {
  const trimmed = old.map((line) => line.trim());
  const score = (at: number): number => trimmed.reduce((sum, line, offset) => sum + (texts[at + offset]?.trim() === line ? 1 : 0), 0);
  let nearest = endOfFile ? Math.max(from, texts.length - old.length) : from;
  if (!endOfFile) {
    let best = -1;
    for (let at = from; at < Math.max(from + 1, texts.length - old.length + 1); at++) {
      const each = score(at);
      if (each > best) [best, nearest] = [each, at];
    }
  }
  const differences = lineDifferences(texts, old, nearest, (line, patchLine) => line === patchLine);
  let earlier = -1;
  for (let at = 0; at < from && earlier === -1; at++) if (score(at) === old.length) earlier = at;
  const order =
    earlier === -1 ? '' : ` Its lines are at line ${earlier + 1}, above where the search began: sections of a file go in the file's order.`;
  return patchFailed(
    `${where} does not match the file ${from === 0 ? '' : `below line ${from} `}${endOfFile ? 'at its end ' : ''}(not even ignoring whitespace).${describeDifference(differences)}${order} Read the file again (${toolRef('read_file')}) and make the section from its current lines.`,
    { ...details, nearest_line: nearest + 1, differences: differences.slice(0, MATCHES_SHOWN) },
  );
}
