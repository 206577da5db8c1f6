/**
 * What the editing tools (write_file, create_file, edit_file, the line tools, apply_patch) share: reading a text file
 * so that writing it back changes no byte the call did not ask to change, the expected_hash guard, diffs for
 * dry runs and confirmations, and the read → check → write sequence under the path's lock.
 *
 * Invariant: a file is only edited when decoding and re-encoding it reproduces its exact bytes (encoding, BOM and
 * every line ending), checked before any edit; so text outside the edited region is written back byte for byte.
 */
import { toolRef } from './naming';
import { limitExceeded } from './caps';
import { formatPatch, structuredPatch } from 'diff';
import { shown, undoSentence } from './consequences';
import { ToolError } from './errors';
import { writeFileAtomic } from './files';
import type { FileStat } from './fs';
import { withPathLocks } from './locks';
import { assertMayWrite } from './policy';
import type { ConfinedPath } from './root';
import { contentHash, decodeText, detectNewline, encodeText, looksBinary, type NewlineStyle, type TextEncodingName } from './text';
import type { ToolContext } from './context';
import { throwIfCancelled } from './signals';
import type { Preparation } from './tool';

/** Files above this are not edited in memory (LIMIT_EXCEEDED); whole-file write_file has no such cap. */
export const EDIT_MAX_BYTES = 10 * 1024 * 1024;

/** Diffs beyond this many edit steps are not computed (they would stall the extension host); counts are still given. */
const DIFF_MAX_EDIT_LENGTH = 4000;

/** Longest diff text a result carries; a longer one is cut and says so. */
export const RESULT_DIFF_MAX_CHARS = 64 * 1024;

/** Lines of diff a confirmation dialog shows before it says how many more there are. */
const CONFIRMATION_DIFF_MAX_LINES = 200;

export interface TextFile {
  readonly path: ConfinedPath;
  readonly stat: FileStat;
  readonly bytes: Uint8Array;
  readonly hash: string;
  /** Without the BOM, with the file's own line endings. */
  readonly text: string;
  readonly encoding: TextEncodingName;
  readonly bom: boolean;
  readonly newline: NewlineStyle;
}

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

/**
 * Decodes bytes for editing: the BOM (or `encoding`) decides the encoding, UTF-8 otherwise. Refuses binary content
 * and anything that would not re-encode to the same bytes (invalid UTF-8, say a Latin-1 file read as UTF-8).
 */
export function decodeForEdit(
  display: string,
  bytes: Uint8Array,
  encoding?: TextEncodingName,
): { text: string; encoding: TextEncodingName; bom: boolean } {
  if (encoding === undefined && looksBinary(bytes)) {
    throw new ToolError(
      'BINARY_CONTENT_REFUSED',
      `${display} looks binary (it holds NUL bytes); the text tools do not edit binary files. If it is text in UTF-16 without a byte-order mark, name the encoding.`,
      { path: display },
    );
  }
  const decoded = decodeText(bytes, encoding);
  if (!sameBytes(encodeText(decoded.text, decoded.encoding, decoded.bom), bytes)) {
    throw new ToolError(
      'BINARY_CONTENT_REFUSED',
      `${display} is not valid ${decoded.encoding} text, so editing it as such would change bytes the edit does not touch. If it is text in another encoding, name it with "encoding" (one of utf-8, utf-16le, utf-16be, latin1).`,
      { path: display, encoding: decoded.encoding },
    );
  }
  return decoded;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** Reads an existing text file for an edit: FILE_NOT_FOUND, FILE_NOT_FILE, LIMIT_EXCEEDED, CONTENT_CONFLICT, BINARY_CONTENT_REFUSED. */
export async function readTextFile(
  context: ToolContext,
  path: ConfinedPath,
  options: { encoding?: TextEncodingName; expectedHash?: string },
): Promise<TextFile> {
  const { fs } = context.workspace;
  const stat = await fs.stat(path.absolute);
  if (!stat) throw new ToolError('FILE_NOT_FOUND', `File does not exist: ${path.display}. Use ${toolRef('create_file')} to create it.`);
  if (stat.kind !== 'file') throw new ToolError('FILE_NOT_FILE', `Not a file: ${path.display} is a ${stat.kind}.`);
  if (stat.size > EDIT_MAX_BYTES) {
    throw limitExceeded(
      'size_bytes',
      EDIT_MAX_BYTES,
      `${path.display} is ${stat.size} bytes; the editing tools handle files up to ${EDIT_MAX_BYTES} bytes. Use ${toolRef('write_file')} to replace it whole.`,
      path.display,
    );
  }
  const bytes = await fs.readFile(path.absolute);
  const hash = contentHash(bytes);
  checkExpectedHash(path.display, hash, options.expectedHash);
  const decoded = decodeForEdit(path.display, bytes, options.encoding);
  return { path, stat, bytes, hash, ...decoded, newline: detectNewline(decoded.text) };
}

/** The bytes `text` becomes in the file's own encoding and BOM; INVALID_INPUT for a character Latin-1 cannot hold. */
export function encodeLike(display: string, text: string, encoding: TextEncodingName, bom: boolean): Uint8Array {
  try {
    return encodeText(text, encoding, bom);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new ToolError('INVALID_INPUT', `The new text cannot be written to ${display} in its encoding ${encoding}: ${error.message}`, {
        path: display,
        encoding,
      });
    }
    throw error;
  }
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
export function describeChange(display: string, before: string, after: string, paths: { old?: string; new?: string } = {}): TextChange {
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
    hunk.oldStart += from;
    hunk.newStart += from;
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
export function describeLines(change: Pick<TextChange, 'linesAdded' | 'linesRemoved'>): string {
  return `${change.linesRemoved} line${change.linesRemoved === 1 ? '' : 's'} removed, ${change.linesAdded} added`;
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

/** What one edit would do, computed without writing. */
export interface PlannedEdit<Extra> {
  readonly file: TextFile;
  readonly after: string;
  readonly bytes: Uint8Array;
  readonly hash: string;
  readonly change: TextChange;
  readonly extra: Extra;
}

export interface EditOptions {
  readonly encoding?: TextEncodingName;
  readonly expectedHash?: string;
}

/** The edit options every text-editing tool takes, from its input's parameter names. */
export function editOptionsOf(input: {
  encoding?: TextEncodingName;
  expected_hash?: string;
  dry_run: boolean;
}): EditOptions & { dryRun: boolean } {
  checkHashFormat(input.expected_hash);
  return { encoding: input.encoding, expectedHash: input.expected_hash, dryRun: input.dry_run };
}

/** Resolves and checks the path, reads the file, and applies `transform` in memory. No writes. */
export async function planTextEdit<Extra>(
  context: ToolContext,
  path: ConfinedPath,
  options: EditOptions,
  transform: (file: TextFile) => { text: string; extra: Extra },
): Promise<PlannedEdit<Extra>> {
  await assertMayWrite(context, path, 'file');
  const file = await readTextFile(context, path, options);
  const { text, extra } = transform(file);
  const bytes = encodeLike(path.display, text, file.encoding, file.bom);
  return { file, after: text, bytes, hash: contentHash(bytes), change: describeChange(path.display, file.text, text), extra };
}

/** The editor's view of an edit: a confirmation with the diff when it changes more lines than the setting allows. */
export async function prepareTextEdit<Extra>(
  context: ToolContext,
  path: ConfinedPath,
  options: EditOptions & { dryRun: boolean },
  transform: (file: TextFile) => { text: string; extra: Extra },
  verb: string,
): Promise<Preparation> {
  const invocationMessage = `${options.dryRun ? 'Previewing an edit of' : verb} ${path.display}`;
  if (options.dryRun) return { invocationMessage };
  const planned = await planTextEdit(context, path, options, transform);
  if (!needsConfirmation(context, planned.change)) return { invocationMessage };
  return {
    invocationMessage,
    confirmation: {
      title: `Edit ${path.display}?`,
      message: `${shown(path.display)} changes: ${describeLines(planned.change)}. ${undoSentence(context, planned.file.bytes.length)}\n\n${fencedDiff(planned.change.diff)}`,
    },
  };
}

/**
 * The whole edit under the path's lock: plan, then (unless a dry run) write atomically. Returns the fields every
 * editing tool's result has, followed by the tool's own `extra` fields.
 */
export async function runTextEdit<Extra extends Record<string, unknown>>(
  context: ToolContext,
  path: ConfinedPath,
  options: EditOptions & { dryRun: boolean },
  transform: (file: TextFile) => { text: string; extra: Extra },
): Promise<Record<string, unknown>> {
  return withPathLocks([path.absolute], async () => {
    const planned = await planTextEdit(context, path, options, transform);
    const changed = !sameBytes(planned.bytes, planned.file.bytes);
    throwIfCancelled(context);
    if (changed && !options.dryRun) await writeFileAtomic(context, path.absolute, planned.bytes, planned.file.stat);
    return {
      path: path.display,
      dry_run: options.dryRun,
      changed,
      ...planned.extra,
      lines_added: planned.change.linesAdded,
      lines_removed: planned.change.linesRemoved,
      previous_hash: planned.file.hash,
      content_hash: planned.hash,
      encoding: planned.file.encoding,
      bom: planned.file.bom,
      newline: detectNewline(planned.after),
      ...(options.dryRun ? diffForResult(planned.change) : {}),
    };
  });
}
