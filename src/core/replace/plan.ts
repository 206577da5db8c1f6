/**
 * What a replace_in_files call comes to, file by file, before anything is changed: each file read and decoded in its
 * encoding (encoding/fileText.ts, the host's rules), its matches replaced (text.ts), and the result encoded back with
 * its BOM. A binary file (a NUL byte outside UTF-16 text, as search_content tells them) and a file that is not text
 * in its encoding are passed over and counted; a file above the in-memory limit is planned by a streamed edit that
 * writes nothing (large.ts). A file that would change must be one the tools may write (protected paths and unsaved
 * editors refuse the whole call, naming it).
 *
 * Memory: one file at a time. When staging, each changed file's new bytes go to a staging sibling as soon as they are
 * known (apply.ts swaps them in), so the call never holds more than the largest file, whatever it changes.
 */
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { bomEncoding } from '../encoding/codec';
import { decodeFileText, encodeFileText, fileRef } from '../encoding/fileText';
import { describeChange, sameBytes, type TextChange } from '../edit/editing';
import { streamTextEdit, type TextEditKind } from '../edit/textEdit';
import { CancelledError, describeError, ToolError } from '../errors';
import { removeQuietly } from '../files/staging';
import type { FileStat } from '../ports/fs';
import { assertMayWrite } from '../policy/policy';
import { reportProgress, throwIfCancelled } from '../signals';
import { type ReplaceFields, replaceKind } from './large';
import type { ReplacePattern } from './pattern';
import { stageFile } from './stage';
import { replaceText } from './text';

/** One file with at least one match. */
export interface FilePlan {
  readonly path: ConfinedPath;
  readonly stat: FileStat;
  readonly replacements: number;
  /** Whether its bytes change (a replacement may write back what was there). */
  readonly changed: boolean;
  /** For a file above the in-memory limit, the hash of what the plan read: its streamed write checks it. */
  readonly previousHash?: string;
  /** The change as a diff, where the plan was asked for one. */
  readonly change?: TextChange;
  /** For a file above the in-memory limit: the streamed edit that writes it. */
  readonly streamed?: TextEditKind<number, ReplaceFields>;
  /** Where staging put its new bytes (a file read whole that changes, when staging). */
  readonly staged?: string;
  /** Its old bytes, kept while staging within RESTORE_MEMORY_BYTES: a failure puts them back without a parked copy. */
  readonly before?: Uint8Array;
  /** Its text before and after, where the plan was asked for them (a large file's: the lines around each change). */
  readonly texts?: { readonly before: string; readonly after: string };
}

export interface Plan {
  /** The files with a match, in the order they were given. */
  readonly files: readonly FilePlan[];
  readonly replacements: number;
  /** Files passed over: binary, and not text in their encoding. */
  readonly binary: number;
  readonly undecodable: number;
}

export interface PlanOptions {
  /** Whether to make a file's diff now (asked before each file: a reply has room for only so many). */
  readonly wantDiff?: () => boolean;
  /** Write each changed file's new bytes to a staging sibling (apply.ts). */
  readonly stage?: boolean;
  /** Keep each file's text before and after (an editor's preview of one file). */
  readonly texts?: boolean;
  /**
   * Whether a file that would change may be written (protected paths, unsaved editors): asked wherever the answer
   * decides something, not of the search that only finds the files a call will lock and record, since the call's
   * own plan asks again under the locks.
   */
  readonly checkWrites?: boolean;
}

type Outcome = FilePlan | 'binary' | 'undecodable' | 'unmatched';

/**
 * The old bytes a staged plan keeps in memory, all files together: enough for a rename across a project's source files
 * (1,000 files of 10 KB take 10 MB); the files past it are parked on disk instead (apply.ts).
 */
const RESTORE_MEMORY_BYTES = 64 * 1024 * 1024;

/** Plans every file in turn. On a refusal, whatever it staged is removed again. */
export async function planFiles(
  context: ToolContext,
  files: readonly ConfinedPath[],
  pattern: ReplacePattern,
  options: PlanOptions = {},
): Promise<Plan> {
  const planned: FilePlan[] = [];
  const memory = { left: RESTORE_MEMORY_BYTES };
  let replacements = 0;
  let binary = 0;
  let undecodable = 0;
  try {
    for (const [index, path] of files.entries()) {
      throwIfCancelled(context);
      reportProgress(context, index, files.length, 'files searched');
      const outcome = await planFile(context, path, pattern, options, memory);
      if (outcome === 'binary') binary++;
      else if (outcome === 'undecodable') undecodable++;
      else if (outcome !== 'unmatched') {
        planned.push(outcome);
        replacements += outcome.replacements;
      }
    }
  } catch (error) {
    await discardStaged(context, planned);
    throw error;
  }
  return { files: planned, replacements, binary, undecodable };
}

/** Removes the staging files of a plan that will not be applied. */
export async function discardStaged(context: ToolContext, files: readonly FilePlan[]): Promise<void> {
  for (const file of files) if (file.staged) await removeQuietly(context.workspace.fs, file.staged);
}

/** The outcome a refusal of reading the file as text stands for, or undefined for one that refuses the call. */
function passedOver(error: unknown): 'binary' | 'undecodable' | undefined {
  if (!(error instanceof ToolError)) return undefined;
  return error.code === 'BINARY_CONTENT_REFUSED' ? 'binary' : error.code === 'ENCODING_MISMATCH' ? 'undecodable' : undefined;
}

async function planFile(
  context: ToolContext,
  path: ConfinedPath,
  pattern: ReplacePattern,
  options: PlanOptions,
  memory: { left: number },
): Promise<Outcome> {
  const { fs } = context.workspace;
  const stat = await fs.stat(path.absolute);
  // Gone since the walk, or no longer a file: nothing to replace in it.
  if (stat?.kind !== 'file') return 'unmatched';
  if (stat.size > context.policy.editInMemoryBytes) return planLarge(context, path, stat, pattern, options);
  const bytes = await fs.readFile(path.absolute);
  const utf16 = bomEncoding(bytes);
  if (utf16 !== 'utf16le' && utf16 !== 'utf16be' && bytes.indexOf(0) !== -1) return 'binary';
  let decoded;
  try {
    decoded = await decodeFileText(fileRef(context, path), bytes);
  } catch (error) {
    const skipped = passedOver(error);
    if (skipped) return skipped;
    throw error;
  }
  const replaced = replaceText(decoded.text, pattern);
  if (replaced.count === 0) return 'unmatched';
  if (options.checkWrites !== false) await assertMayWrite(context, path, 'file');
  const after = await encodeFileText(fileRef(context, path), replaced.text, decoded);
  const changed = !sameBytes(after, bytes);
  const change = options.wantDiff?.() ? describeChange(path.display, decoded.text, replaced.text) : undefined;
  const staged = options.stage && changed ? await staging(context, path, after, stat) : undefined;
  const kept = staged !== undefined && bytes.length <= memory.left;
  if (kept) memory.left -= bytes.length;
  return {
    path,
    stat,
    replacements: replaced.count,
    changed,
    ...(change ? { change } : {}),
    ...(staged ? { staged } : {}),
    ...(kept ? { before: bytes } : {}),
    ...(options.texts ? { texts: { before: decoded.text, after: replaced.text } } : {}),
  };
}

/** stageFile, its failure said as what it is: nothing has been changed yet (planFiles removes what was staged). */
async function staging(context: ToolContext, path: ConfinedPath, after: Uint8Array, stat: FileStat): Promise<string> {
  try {
    return await stageFile(context, path, after, stat);
  } catch (error) {
    if (error instanceof ToolError || error instanceof CancelledError) throw error;
    throw new ToolError(
      'WRITE_FAILED',
      `Writing the new content of ${path.display} beside it failed: ${describeError(error)}. No file was changed.`,
      { failed_path: path.display },
    );
  }
}

/** A file above the in-memory limit: a streamed edit that writes nothing says what writing it would do. */
async function planLarge(
  context: ToolContext,
  path: ConfinedPath,
  stat: FileStat,
  pattern: ReplacePattern,
  options: PlanOptions,
): Promise<Outcome> {
  const kind = replaceKind(pattern, context.policy.editInMemoryBytes);
  let outcome;
  try {
    outcome = await streamTextEdit(context, path, stat, { dryRun: true }, [kind], false);
  } catch (error) {
    const skipped = passedOver(error);
    if (skipped) return skipped;
    throw error;
  }
  const fields = 'replacements' in outcome.fields ? outcome.fields : { replacements: 0 };
  if (fields.replacements === 0) return 'unmatched';
  if (options.checkWrites !== false) await assertMayWrite(context, path, 'file');
  return {
    path,
    stat,
    replacements: fields.replacements,
    changed: outcome.changed,
    previousHash: outcome.previousHash,
    ...(options.wantDiff?.() ? { change: outcome.change } : {}),
    streamed: kind,
    ...(options.texts ? { texts: textsOfDiff(outcome.change.diff) } : {}),
  };
}

/**
 * Two texts from a unified diff, each with the lines of every hunk as one side has them (a large file is not shown
 * whole): the context and removed lines, and the context and added lines, under each hunk's header.
 */
function textsOfDiff(diff: string | undefined): { before: string; after: string } {
  if (diff === undefined) return { before: '(too large to show)\n', after: '(too large to show)\n' };
  let before = '';
  let after = '';
  for (const line of diff.split(/(?<=\n)/)) {
    if (line.startsWith('--- ') || line.startsWith('+++ ') || line.startsWith('\\')) continue;
    if (line.startsWith('@@')) {
      before += line;
      after += line;
    } else if (line.startsWith('-')) before += line.slice(1);
    else if (line.startsWith('+')) after += line.slice(1);
    else {
      before += line.slice(1);
      after += line.slice(1);
    }
  }
  return { before, after };
}
