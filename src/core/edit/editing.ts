/**
 * What every tool that changes a text file shares (write_file, create_file, the text-edit tools in edit/, apply_patch):
 * the expected_hash guard, and the diffs of dry runs, confirmations and results. Reading and writing the text itself
 * is encoding/fileText.ts's; the text-edit tools' one implementation is edit/textEdit.ts.
 */
import type { Localizer } from '../ports/l10n';
import { formatPatch, structuredPatch } from 'diff';
import type { ToolContext } from '../context';
import { ToolError } from '../errors';

/** Diffs beyond this many edit steps are not computed (they would stall the extension host); counts are still given. */
const DIFF_MAX_EDIT_LENGTH = 4000;

/** Longest diff text a result carries; a longer one is cut and says so. */
const RESULT_DIFF_MAX_CHARS = 64 * 1024;

/** Lines of diff a confirmation dialog shows before it says how many more there are. */
const CONFIRMATION_DIFF_MAX_LINES = 200;

/** A content hash as the tools give it ("sha256:<hex>"), or the bare 64-hex digest `sha256sum` prints. */
const CONTENT_HASH = /^(?:sha256:)?[0-9a-f]{64}$/i;

/**
 * INVALID_INPUT unless `expected` (an expected_hash parameter) has the form of a content hash. Checked here, not by
 * the schema, to keep the definitions short; every tool that takes expected_hash checks it before anything else
 * that could ask the user or write.
 */
export function checkHashFormat(expected: string | undefined): void {
  if (expected !== undefined && !CONTENT_HASH.test(expected)) {
    throw new ToolError(
      'INVALID_INPUT',
      `Parameter "expected_hash" must be a content_hash as the tools return it ("sha256:" and 64 hex digits), not ${JSON.stringify(expected.slice(0, 80))}.`,
      { field: 'expected_hash' },
    );
  }
}

/**
 * CONTENT_CONFLICT unless the file's current hash is `expected`, compared case-insensitively; a bare 64-hex digest
 * (as `sha256sum` prints it) is the same hash as "sha256:<hex>". INVALID_INPUT when `expected` is no hash at all.
 */
export function checkExpectedHash(display: string, actual: string | undefined, expected: string | undefined): void {
  checkHashFormat(expected);
  if (expected === undefined || actual?.toLowerCase() === expected.toLowerCase().replace(/^(?:sha256:)?/, 'sha256:')) return;
  const now = actual === undefined ? 'it does not exist now' : `its content_hash is now ${actual}`;
  // The first sentence is what a person sees of the refusal (the chat's line): plain, without hashes.
  throw new ToolError(
    'CONTENT_CONFLICT',
    `${display} changed since it was read. expected_hash is ${expected}, but ${now}. Nothing was written. Read the file again and redo the change against its current content.`,
    { path: display, expected_hash: expected, actual_hash: actual ?? null },
  );
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

export interface TextChange {
  /** A unified diff with `a/` and `b/` headers, or undefined when too large to compute. */
  readonly diff: string | undefined;
  readonly linesAdded: number;
  readonly linesRemoved: number;
}

/** Lines with their endings kept, so that joining them gives the text back. */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/** Lines around the changed middle that a diff still shows as context. */
const DIFF_CONTEXT = 3;

/** Above this many changed lines (both sides together) no diff is computed: it would stall the extension host. */
const DIFF_MAX_CHANGED_LINES = 8000;

/**
 * The unified diff and line counts between two texts. Lines compare with their endings, so a CRLF→LF change shows.
 * The common head and tail are cut off first (with a few lines of context kept), because the diff algorithm costs
 * the product of text length and edit size: a one-line change in a 100 000-line file is then instant.
 */
export function describeChange(
  display: string,
  before: string,
  after: string,
  paths: { old?: string; new?: string } = {},
  /** Lines before the texts in their files (a window of a large file, edit/textEdit.ts): the hunks' numbers shift by these. */
  offsets: { readonly old: number; readonly new: number } = { old: 0, new: 0 },
): TextChange {
  const oldName = paths.old ?? `a/${display}`;
  const newName = paths.new ?? `b/${display}`;
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const rough = { linesAdded: b.length - head - tail, linesRemoved: a.length - head - tail };
  if (rough.linesAdded + rough.linesRemoved > DIFF_MAX_CHANGED_LINES) return { diff: undefined, ...rough };
  const from = Math.max(0, head - DIFF_CONTEXT);
  const keep = Math.max(0, tail - DIFF_CONTEXT);
  const patch = structuredPatch(
    oldName,
    newName,
    a.slice(from, a.length - keep).join(''),
    b.slice(from, b.length - keep).join(''),
    undefined,
    undefined,
    {
      context: DIFF_CONTEXT,
      maxEditLength: DIFF_MAX_EDIT_LENGTH,
    },
  );
  if (patch === undefined) return { diff: undefined, ...rough };
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const hunk of patch.hunks) {
    hunk.oldStart += from + offsets.old;
    hunk.newStart += from + offsets.new;
    for (const line of hunk.lines) {
      if (line.startsWith('+')) linesAdded++;
      else if (line.startsWith('-')) linesRemoved++;
    }
  }
  const diff =
    patch.hunks.length === 0 ? '' : formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
  return { diff, linesAdded, linesRemoved };
}

/** A diff for a result: cut at RESULT_DIFF_MAX_CHARS, saying so. */
export function diffForResult(change: TextChange): { diff: string | null; diff_truncated: boolean } {
  if (change.diff === undefined) return { diff: null, diff_truncated: true };
  if (change.diff.length <= RESULT_DIFF_MAX_CHARS) return { diff: change.diff, diff_truncated: false };
  return { diff: change.diff.slice(0, change.diff.lastIndexOf('\n', RESULT_DIFF_MAX_CHARS) + 1), diff_truncated: true };
}

/** "3 lines removed, 1 added". */
export function describeLines(change: Pick<TextChange, 'linesAdded' | 'linesRemoved'>, l10n: Localizer): string {
  return change.linesRemoved === 1
    ? l10n.t('1 line removed, {0} added', change.linesAdded)
    : l10n.t('{0} lines removed, {1} added', change.linesRemoved, change.linesAdded);
}

/** A fenced ```diff block for confirmation markdown; the fence is longer than any backtick run inside. */
export function fencedDiff(diff: string | undefined): string {
  if (diff === undefined) return '_The change is too large to show as a diff._';
  const lines = diff.replace(/\r/g, '').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const shown = lines.slice(0, CONFIRMATION_DIFF_MAX_LINES);
  const more = lines.length - shown.length;
  const longestRun = (diff.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 2);
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}diff\n${shown.join('\n')}\n${fence}${more > 0 ? `\n\n…and ${more} more diff lines not shown.` : ''}`;
}

/** Whether an edit is big enough to confirm (agentFs.confirmEditsOverLines); an edit too large to diff always is. */
export function needsConfirmation(context: ToolContext, change: TextChange): boolean {
  return change.diff === undefined || change.linesAdded + change.linesRemoved > context.policy.confirmEditsOverLines;
}
