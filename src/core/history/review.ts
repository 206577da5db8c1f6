/**
 * The review of agents' changes, as the editor's quick diff shows it: which files agents changed since the review's
 * base, and what each held before (the original its gutter compares against); and the text a reverted hunk leaves.
 *
 * A file enters the review with the first change an agent made to it after the base, and its original is that
 * change's before side: what the file held before the agent came. Later changes of any origin (another agent, the
 * person, a formatter seen as an outside change) are part of what the file holds now, so the quick diff shows the
 * agents' lines together with anything made since on top of them, as a pull request's diff does. Changes the person
 * or a program outside Agent FS made before any agent did are part of the original. A file that is back where it
 * started (undone, or every hunk reverted) leaves the review.
 */
import { agentText } from './origin';
import { type FileChange, fileChanges, type SideState } from './changes';
import type { OperationRecord, PathRecord } from './store';

/**
 * Where the review starts: the operations after `base` (an operation id; none: every recorded one), except those of a
 * session kept on its own up to the id `kept` gives it. Ids sort by the time they were made (HistoryStore.newId).
 */
export interface ReviewBase {
  readonly base?: string;
  readonly kept?: Readonly<Record<string, string>>;
}

/** One side of a file's review: the operation and its change of the file. */
interface ReviewSide {
  readonly record: OperationRecord;
  readonly change: FileChange;
}

export interface ReviewFile {
  /** The file's absolute path (the adapter's). */
  readonly absolute: string;
  /** As the newest change showed it. */
  readonly display: string;
  /** The first agent's change since the base: its before side is the original. */
  readonly first: ReviewSide;
  /** The newest change of the file, of any origin: its after side is what the file holds. */
  readonly last: ReviewSide;
  /** The agents that changed it ("claude-code 2.1.0"), oldest first. */
  readonly agents: readonly string[];
}

/** Whether an agent made the change: not the person's own commands, not a change seen made outside Agent FS. */
function byAgent(record: OperationRecord): boolean {
  const origin = record.origin;
  if (!origin) return true;
  return origin.host !== 'outside' && !(origin.host === 'editor' && origin.agent === 'person');
}

function reviewed(record: OperationRecord, base: ReviewBase): boolean {
  if (base.base !== undefined && record.id <= base.base) return true;
  const session = record.origin?.session;
  const kept = session === undefined ? undefined : base.kept?.[session];
  return kept !== undefined && record.id <= kept;
}

/** A path record's file changes, each with the file's absolute path. */
function changesWithPaths(path: PathRecord): { absolute: string; change: FileChange }[] {
  return fileChanges({ paths: [path] }).map((change) => {
    if (change.path === path.display) return { absolute: path.absolute, change };
    const inside = path.display === '.' ? change.path : change.path.slice(path.display.length + 1);
    return { absolute: `${path.absolute}/${inside}`, change };
  });
}

function sameSide(a: SideState, b: SideState): boolean {
  return a.type === b.type && (a.type === 'missing' || (a.hash !== undefined && a.hash === b.hash));
}

const TEXT_SIDES: ReadonlySet<SideState['type']> = new Set(['file', 'missing']);

/** The files in review, in path order, from `records` newest first (as the store lists them). */
export function reviewFiles(records: readonly OperationRecord[], base: ReviewBase): ReviewFile[] {
  const files = new Map<string, { first: ReviewSide; last: ReviewSide; agents: string[] }>();
  for (let at = records.length - 1; at >= 0; at--) {
    const record = records[at];
    if (!record || (base.base !== undefined && record.id <= base.base)) continue;
    const starts = byAgent(record) && !reviewed(record, base);
    for (const path of record.paths)
      for (const { absolute, change } of changesWithPaths(path)) {
        const side = { record, change };
        const known = files.get(absolute);
        if (known) {
          known.last = side;
          const agent = agentText(record.origin);
          if (starts && !known.agents.includes(agent)) known.agents.push(agent);
        } else if (starts) files.set(absolute, { first: side, last: side, agents: [agentText(record.origin)] });
      }
  }
  return [...files]
    .filter(([, file]) => {
      const before = file.first.change.before;
      const after = file.last.change.after;
      return TEXT_SIDES.has(before.type) && TEXT_SIDES.has(after.type) && !sameSide(before, after);
    })
    .map(([absolute, file]) => ({ absolute, display: file.last.change.path, ...file }))
    .sort((a, b) => (a.absolute < b.absolute ? -1 : a.absolute > b.absolute ? 1 : 0));
}

/** The base after "Keep": everything recorded so far, or (with `session`) that session's changes so far. */
export function keptBase(records: readonly OperationRecord[], base: ReviewBase, session?: string): ReviewBase {
  const newest = records[0]?.id;
  if (newest === undefined) return base;
  if (session === undefined) return { base: newest };
  // Sessions kept up to the base or before it are kept by the base itself.
  const kept = Object.fromEntries(
    Object.entries({ ...base.kept, [session]: newest }).filter(([, id]) => base.base === undefined || id > base.base),
  );
  return base.base === undefined ? { kept } : { base: base.base, kept };
}

/**
 * A change between two texts as the editor's quick diff gives it (1-based, inclusive lines). An insertion has
 * `originalEndLineNumber` 0 (the lines come after original line `originalStartLineNumber`); a deletion has
 * `modifiedEndLineNumber` 0 (the original lines went after modified line `modifiedStartLineNumber`).
 */
export interface LineChange {
  readonly originalStartLineNumber: number;
  readonly originalEndLineNumber: number;
  readonly modifiedStartLineNumber: number;
  readonly modifiedEndLineNumber: number;
}

interface EditorLine {
  readonly text: string;
  /** Its line break; '' for the last line, which has none. */
  readonly eol: string;
}

/** A text's lines as the editor counts them: split at CRLF, LF and CR; the text after the last break is a line too. */
function editorLines(text: string): EditorLine[] {
  const lines: EditorLine[] = [];
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
    lines.push({ text: text.slice(start, match.index), eol: match[0] });
    start = match.index + match[0].length;
  }
  lines.push({ text: text.slice(start), eol: '' });
  return lines;
}

/**
 * `current` with one hunk put back as it is in `original`: the modified lines of `change` replaced by its original
 * lines, each line keeping its own break. The result ends where the editor's line model would end it: without a
 * break after its last line, so a hunk at the end of a file puts back the end as it was (a missing final newline
 * included). A line that gains a follower where it had none takes the file's first line break (LF in a file with none).
 */
export function revertHunk(current: string, original: string, change: LineChange): string {
  const now = editorLines(current);
  const was = editorLines(original);
  const { originalStartLineNumber: os, originalEndLineNumber: oe, modifiedStartLineNumber: ms, modifiedEndLineNumber: me } = change;
  const check = (ok: boolean): void => {
    if (!ok) throw new RangeError(`The change ${os}-${oe} → ${ms}-${me} does not fit texts of ${was.length} and ${now.length} lines.`);
  };
  let lines: EditorLine[];
  if (oe === 0) {
    check(ms >= 1 && me >= ms && me <= now.length);
    lines = [...now.slice(0, ms - 1), ...now.slice(me)];
  } else if (me === 0) {
    check(os >= 1 && oe >= os && oe <= was.length && ms >= 0 && ms <= now.length);
    lines = [...now.slice(0, ms), ...was.slice(os - 1, oe), ...now.slice(ms)];
  } else {
    check(os >= 1 && oe >= os && oe <= was.length && ms >= 1 && me >= ms && me <= now.length);
    lines = [...now.slice(0, ms - 1), ...was.slice(os - 1, oe), ...now.slice(me)];
  }
  const eol = /\r\n|\r|\n/.exec(current)?.[0] ?? /\r\n|\r|\n/.exec(original)?.[0] ?? '\n';
  return lines.map((line, index) => (index === lines.length - 1 ? line.text : line.text + (line.eol === '' ? eol : line.eol))).join('');
}
