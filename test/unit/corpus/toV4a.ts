/**
 * One commit of a git repository as the V4A patch a model would write for it: "*** Add File" with "+" lines,
 * "*** Delete File", "*** Update File" with "*** Move to:" for what git sees as a rename, and "@@" sections of about
 * three context lines, no line numbers, LF lines (a CRLF file's lines lose their CR; a windows-1252 file's lines are
 * its characters), "*** End of File" on a section that ends the file.
 *
 * An "@@" line is written where a model would: the nearest heading above the section (a function, a section title)
 * when it names the right place under the grammar (its first occurrence below the previous section is that line, and
 * the section's lines do not occur between it and the section), else a bare "@@". So a section in repeated text with
 * no heading above it may be ambiguous: the replay then checks that apply_patch refuses exactly those. With
 * `enclosing` anchors, as models write them, a second section under the same heading repeats that heading although
 * the previous section already passed it (`anchorAbove`), where the heading occurs nowhere below.
 */
import { structuredPatch } from 'diff';
import iconv from '@vscode/iconv-lite-umd';
import { git, gitBytes } from './history';

/** What a section claims, for checking a refusal against the file. */
export interface SectionFacts {
  readonly file: string;
  /** 1-based, within its file. */
  readonly section: number;
  /** 0-based index of the original file's line the search starts at (where the previous section ended). */
  readonly cursor: number;
  /** 0-based index where the section's old lines really are. */
  readonly start: number;
  readonly old: readonly string[];
  readonly anchor: string | undefined;
  /** Its "@@" line lies above where the previous section ended (enclosing anchors). */
  readonly anchorAbove: boolean;
  readonly endOfFile: boolean;
  /** The original file's lines (LF, as the patch says them). */
  readonly lines: readonly string[];
}

export interface CommitPatch {
  readonly text: string;
  readonly sections: readonly SectionFacts[];
  readonly files: readonly { readonly path: string; readonly action: 'add' | 'delete' | 'update' | 'move'; readonly shape: Shape }[];
}

interface Shape {
  readonly encoding: 'utf8' | 'windows1252';
  readonly bom: boolean;
  readonly crlf: boolean;
  readonly finalNewline: boolean;
}

interface Decoded extends Shape {
  readonly lines: string[];
}

/** A file's bytes as the lines apply_patch reads (its own encoding, BOM stripped, line endings aside). */
function decode(bytes: Buffer): Decoded {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let text: string;
  let encoding: Decoded['encoding'] = 'utf8';
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    text = iconv.decode(bytes, 'windows1252');
    encoding = 'windows1252';
  }
  const finalNewline = text.endsWith('\n');
  const raw = text === '' ? [] : text.split('\n');
  if (finalNewline) raw.pop();
  return { lines: raw.map((line) => line.replace(/\r$/, '')), encoding, bom, crlf: text.includes('\r\n'), finalNewline };
}

const HEADING = /^(function |def |## |\[|Kapitel )/;

function show(repo: string, commit: string, file: string): Buffer {
  return gitBytes(repo, 'show', `${commit}:${file}`);
}

/** Where a section's "@@" line comes from: the nearest heading that names the place, or the enclosing one. */
export type Anchors = 'nearest' | 'enclosing';

/** Sections of about `context` context lines turning `before` into `after`. */
function sections(
  file: string,
  before: readonly string[],
  after: readonly string[],
  context: number,
  anchors: Anchors,
): { body: string[]; facts: SectionFacts[] } {
  const join = (lines: readonly string[]): string => lines.map((line) => `${line}\n`).join('');
  const patch = structuredPatch('a', 'b', join(before), join(after), undefined, undefined, { context });
  if (!patch) throw new Error(`no diff for ${file}`);
  const body: string[] = [];
  const facts: SectionFacts[] = [];
  let cursor = 0;
  for (const hunk of patch.hunks) {
    const lines = hunk.lines.filter((line) => !line.startsWith('\\'));
    const old = lines.filter((line) => line.startsWith(' ') || line.startsWith('-')).map((line) => line.slice(1));
    if (old.length === 0) throw new Error(`${file}: a section without context (the generator makes no empty files)`);
    const start = hunk.oldStart - 1;
    const endOfFile = start + old.length === before.length;
    const enclosing = anchors === 'enclosing' && !endOfFile ? enclosingAbove(before, cursor, start) : undefined;
    const anchor = enclosing ?? (endOfFile ? undefined : anchorFor(before, old, cursor, start));
    body.push(anchor === undefined ? '@@' : `@@ ${anchor}`, ...lines);
    if (endOfFile) body.push('*** End of File');
    facts.push({
      file,
      section: facts.length + 1,
      cursor,
      start,
      old,
      anchor,
      anchorAbove: enclosing !== undefined,
      endOfFile,
      lines: before,
    });
    cursor = start + old.length;
  }
  return { body, facts };
}

/** The nearest heading above the section that names its place under the grammar, if there is one. */
function anchorFor(lines: readonly string[], old: readonly string[], cursor: number, start: number): string | undefined {
  const fitsAt = (at: number): boolean => old.every((line, offset) => lines[at + offset] === line);
  for (let at = start - 1; at >= Math.max(cursor, start - 40); at--) {
    const heading = (lines[at] ?? '').trim();
    if (!HEADING.test(heading) || heading === old[0]?.trim()) continue;
    const first = lines.findIndex((line, index) => index >= cursor && line.trim() === heading);
    if (first !== at) return undefined;
    for (let between = at + 1; between < start; between++) if (fitsAt(between)) return undefined;
    return heading;
  }
  return undefined;
}

/**
 * The heading of the function or section a section is in when the previous section ended below it, as a model
 * repeats it for a second section there: only where it occurs nowhere from the cursor on (else it would name a
 * later place under the grammar).
 */
function enclosingAbove(lines: readonly string[], cursor: number, start: number): string | undefined {
  for (let at = start - 1; at >= Math.max(0, start - 40); at--) {
    const heading = (lines[at] ?? '').trim();
    if (!HEADING.test(heading)) continue;
    if (at >= cursor) return undefined;
    return lines.some((line, index) => index >= cursor && line.trim() === heading) ? undefined : heading;
  }
  return undefined;
}

/** The V4A patch of `commit` against its parent, sections with `context` lines of context. */
export function commitPatch(repo: string, parent: string, commit: string, context: number, anchors: Anchors = 'nearest'): CommitPatch {
  const out: string[] = ['*** Begin Patch'];
  const facts: SectionFacts[] = [];
  const files: CommitPatch['files'][number][] = [];
  const status = git(repo, 'diff', '--name-status', '-M', parent, commit).split('\n').filter(Boolean);
  for (const entry of status) {
    const [code = '', from = '', to] = entry.split('\t');
    if (code === 'A') {
      const added = decode(show(repo, commit, from));
      if (added.encoding !== 'utf8' || added.bom || added.crlf || (!added.finalNewline && added.lines.length > 0))
        throw new Error(`${from}: an added file apply_patch would not write as git has it`);
      out.push(`*** Add File: ${from}`, ...added.lines.map((line) => `+${line}`));
      files.push({ path: from, action: 'add', shape: added });
    } else if (code === 'D') {
      out.push(`*** Delete File: ${from}`);
      files.push({ path: from, action: 'delete', shape: decode(show(repo, parent, from)) });
    } else if (code === 'M' || code.startsWith('R')) {
      const destination = code.startsWith('R') ? to : undefined;
      const before = decode(show(repo, parent, from));
      const after = decode(show(repo, commit, destination ?? from));
      for (const key of ['encoding', 'bom', 'crlf', 'finalNewline'] as const)
        if (before[key] !== after[key]) throw new Error(`${from}: its ${key} changed, which a V4A patch cannot say`);
      out.push(`*** Update File: ${from}`);
      if (destination !== undefined) out.push(`*** Move to: ${destination}`);
      const { body, facts: each } = sections(from, before.lines, after.lines, context, anchors);
      out.push(...body);
      facts.push(...each);
      files.push({ path: from, action: destination === undefined ? 'update' : 'move', shape: before });
    } else throw new Error(`unexpected git status ${entry}`);
  }
  out.push('*** End Patch', '');
  return { text: out.join('\n'), sections: facts, files };
}
