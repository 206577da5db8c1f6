/**
 * The one implementation of the text-edit tools — edit_file, replace_lines, insert_lines and delete_lines — which
 * differ only in their TextEditKind: where in a file they act, and how they rewrite the text there.
 *
 * A file up to `policy.editInMemoryBytes` (10 MiB) is decoded whole, every kind rewrites the whole text in turn, and
 * the result is encoded and swapped in atomically. A larger one is streamed (stream.ts): each kind names the windows
 * it needs (whole lines around what it touches, found by a search where it must be), a pass over the file decodes and
 * rewrites only those and copies every other byte as it is into a staging file, and the last staging file is swapped
 * in the same way. Memory stays at a chunk plus the windows; several kinds (edit_file's `edits`) take a pass each.
 *
 * Invariants, for both: text is decoded and encoded exactly (encoding/fileText.ts), so every byte the edit does not
 * touch is written back unchanged and no character is ever replaced; the file's encoding, BOM and line endings are
 * kept; nothing is written unless every kind succeeds (a refusal mid-pass removes the staging file); expected_hash is
 * checked against the bytes the edit actually read, before the swap.
 *
 * Over 300 lines: the in-memory and the streamed edit are one implementation that keeps the same invariants side by
 * side.
 */
import { shown, undoSentence } from '../changes/consequences';
import type { ToolContext } from '../context';
import { bomBytes, decodeExact, LOCAL_CODEC } from '../encoding/codec';
import { DETECTION_HEAD_BYTES } from '../encoding/detect';
import {
  binaryRefusal,
  decodeFileText,
  detectFileEncoding,
  encodeFileText,
  fileRef,
  mismatch,
  requestedEncoding,
} from '../encoding/fileText';
import { type EncodingId, publicName, type TextShape } from '../encoding/names';
import {
  checkExpectedHash,
  checkHashFormat,
  describeChange,
  describeLines,
  diffForResult,
  fencedDiff,
  needsConfirmation,
  sameBytes,
  type TextChange,
} from './editing';
import { limitExceeded } from '../contract/caps';
import { type ErrorCode, ToolError } from '../errors';
import { writeFileAtomic } from '../changes/writes';
import type { FileStat, FileWriter, IncrementalHash } from '../ports/fs';
import { contentHash, incrementalHash } from '../files/hashing';
import type { LineFrame } from './lineEdits';
import { withPathLocks } from '../files/locks';
import { toolRef } from '../naming';
import { assertMayWrite } from '../policy/policy';
import { humanSize, type LineBreaks, lineBreaksOf, newlineOfBytes } from '../read/bytes';
import { CHUNK_BYTES } from '../ports/fs';
import type { ByteSource } from '../read/select';
import type { ConfinedPath } from '../confinement';
import { throwIfCancelled } from '../signals';
import { removeQuietly, siblingPath } from '../files/staging';
import { countLines, detectNewline, type NewlineStyle } from '../files/text';
import type { Preparation } from '../tool';
import {
  mergeWindows,
  type PassOptions,
  type PassSearch,
  type PassSummary,
  searchSplicePass,
  splicePass,
  type Window,
  type WindowSpec,
} from './stream';

/** What the four text-edit tools can answer besides the pipeline's codes (edit_file adds its matching's). */
export const TEXT_EDIT_ERRORS = [
  'ENCODING_MISMATCH',
  'FILE_NOT_FOUND',
  'FILE_NOT_FILE',
  'LIMIT_EXCEEDED',
  'CONTENT_CONFLICT',
  'BINARY_CONTENT_REFUSED',
  'SENSITIVE_PATH_REFUSED',
  'FILE_DIRTY_IN_EDITOR',
] as const satisfies readonly ErrorCode[];

/** A text an edit rewrites: the whole file, or a window of a large one placed by `frame`. */
export interface EditText {
  readonly text: string;
  readonly display: string;
  /** Where the text stands in its file; absent for a whole file. */
  readonly frame?: LineFrame;
}

/** A large file as the kinds see it to choose their windows: its body (after any BOM), searchable without decoding. */
export interface LargeText {
  readonly source: ByteSource;
  readonly encoding: EncodingId;
  readonly display: string;
  readonly signals: Pick<ToolContext, 'isCancelled'>;
  /** `text` in the file's encoding, or undefined when the encoding cannot hold it (so it cannot occur in the file). */
  encode(text: string): Promise<Uint8Array | undefined>;
  /** A line's bytes as text (lossy where they are not text: only for comparing). */
  decodeLine(bytes: Uint8Array): string;
  /** The line endings of the file's first bytes (a guess at the rest's). */
  readonly newline: NewlineStyle;
  /** Where its lines end. */
  readonly breaks: LineBreaks;
}

/**
 * A kind's windows found by its own pass over a large file (stream.ts, searchSplicePass), so that the file is read
 * once rather than searched and then spliced.
 */
export interface EditSearch extends PassSearch {
  /** Whether a refusal during the pass may not stand: the windows it was placing could yet prove not to be the kind's. */
  readonly provisional: boolean;
  /** Whether the windows placed are those `windows` would have chosen, from how often each pattern occurred. */
  accept(found: readonly number[]): boolean;
}

/** What every text-edit tool's result has, besides its kinds' own fields (results.ts: EDIT_FIELDS declares them). */
export interface TextEditResult {
  readonly path: string;
  readonly dry_run: boolean;
  readonly changed: boolean;
  readonly lines_added: number;
  readonly lines_removed: number;
  readonly previous_hash: string;
  readonly content_hash: string;
  readonly encoding: string;
  readonly bom: boolean;
  readonly newline: NewlineStyle;
  readonly diff?: string | null;
  readonly diff_truncated?: boolean;
}

/** A kind's own result fields (its `finish`); each tool's kinds name theirs, which its outputSchema then declares. */
export type KindFields = Readonly<Record<string, unknown>>;

/** What makes one text-edit tool (or one of edit_file's edits) what it is. */
export interface TextEditKind<Extra, Fields = KindFields> {
  /** The progress line before the path: "Editing", "Replacing lines 3-4 of". */
  readonly verb: string;
  /** The windows of a large file the edit reads and rewrites. May search the file; may refuse early (NO_MATCH). */
  windows(file: LargeText): Promise<readonly WindowSpec[]>;
  /**
   * Where the windows are found by searching, the search to run within the edit's pass instead (undefined where it
   * cannot be); if the pass finds what `windows` would not choose, the edit falls back to `windows` and a pass.
   */
  search?(file: LargeText): Promise<EditSearch | undefined>;
  /** The edit of one text (a whole file, or a window). Throws a ToolError to refuse. */
  rewrite(text: EditText): { readonly text: string; readonly extra: Extra };
  /**
   * The result's own fields from every window's extra (one for a whole file), checking what only all of them can;
   * `totalLines` is the file's line count after the edit.
   */
  finish(extras: readonly Extra[], file: { readonly totalLines: number; readonly display: string }): Fields;
}

export interface EditOptions {
  readonly encoding?: EncodingId;
  readonly expectedHash?: string;
  readonly dryRun: boolean;
}

/** The edit options every text-edit tool takes, from its input's parameter names. */
export function editOptionsOf(input: { encoding?: string; expected_hash?: string; dry_run: boolean }): EditOptions {
  checkHashFormat(input.expected_hash);
  return { encoding: requestedEncoding(input.encoding), expectedHash: input.expected_hash, dryRun: input.dry_run };
}

/** What an edit comes to, before anything is written. */
export interface EditOutcome<Fields = KindFields> {
  readonly stat: FileStat;
  readonly shape: TextShape;
  readonly previousHash: string;
  readonly contentHash: string;
  readonly changed: boolean;
  readonly change: TextChange;
  readonly newline: NewlineStyle;
  readonly totalLines: number;
  readonly fields: Fields | { readonly edits: readonly Fields[] };
}

async function statEditable(context: ToolContext, path: ConfinedPath): Promise<FileStat> {
  await assertMayWrite(context, path, 'file');
  const stat = await context.workspace.fs.stat(path.absolute);
  if (!stat) throw new ToolError('FILE_NOT_FOUND', `File does not exist: ${path.display}. Use ${toolRef('create_file')} to create it.`);
  if (stat.kind !== 'file') throw new ToolError('FILE_NOT_FILE', `Not a file: ${path.display} is a ${stat.kind}.`);
  return stat;
}

function combine<Fields>(fields: readonly Fields[]): Fields | { readonly edits: readonly Fields[] } {
  // One kind (every tool but a multi-edit edit_file): its fields are the result's; several: edit_file says how.
  const [only] = fields;
  return fields.length === 1 && only !== undefined ? only : { edits: fields };
}

/** The whole edit of a file read into memory: decode, rewrite with every kind in turn, encode. */
async function editInMemory<Fields>(
  context: ToolContext,
  path: ConfinedPath,
  stat: FileStat,
  options: EditOptions,
  kinds: readonly TextEditKind<unknown, Fields>[],
): Promise<EditOutcome<Fields> & { readonly bytes: Uint8Array }> {
  const before = await context.workspace.fs.readFile(path.absolute);
  const previousHash = contentHash(before);
  context.hashes?.set(path.absolute, stat, previousHash);
  checkExpectedHash(path.display, previousHash, options.expectedHash);
  const decoded = await decodeFileText(fileRef(context, path), before, options.encoding);
  let text = decoded.text;
  const fields: Fields[] = [];
  for (const [index, kind] of kinds.entries()) {
    const result = rewriteOrSay(kind, { text, display: path.display }, kinds.length > 1 ? index : undefined);
    try {
      fields.push(kind.finish([result.extra], { totalLines: countLines(result.text), display: path.display }));
    } catch (error) {
      throw kinds.length > 1 ? inEdit(error, index) : error;
    }
    text = result.text;
  }
  const bytes = await encodeFileText(fileRef(context, path), text, decoded);
  const totalLines = countLines(text);
  return {
    stat,
    shape: decoded,
    previousHash,
    contentHash: contentHash(bytes),
    changed: !sameBytes(bytes, before),
    change: describeChange(path.display, decoded.text, text),
    newline: detectNewline(text),
    totalLines,
    fields: combine(fields),
    bytes,
  };
}

/** Runs a kind's rewrite, naming the edit (`edits[2]: …`) in a refusal when there are several. */
function rewriteOrSay<Extra>(
  kind: TextEditKind<Extra, unknown>,
  text: EditText,
  index: number | undefined,
): { text: string; extra: Extra } {
  try {
    return kind.rewrite(text);
  } catch (error) {
    throw index === undefined ? error : inEdit(error, index);
  }
}

/** A refusal of edit number `index` of several, saying which (and that none of them was made). */
export function inEdit(error: ToolError, index: number): ToolError;
export function inEdit(error: unknown, index: number): unknown;
export function inEdit(error: unknown, index: number): unknown {
  if (!(error instanceof ToolError)) return error;
  return new ToolError(
    error.code,
    `edits[${index}]: ${error.message}${/Nothing was changed\.?$/.test(error.message) ? '' : ' None of the edits was made.'}`,
    {
      ...error.details,
      edit_index: index,
    },
  );
}

/**
 * The byte source of a file's body: from `skip` (the BOM) to the size it had when the edit began. Where the port
 * reads into a buffer, pieces of a chunk's size come in one reused buffer: each is used up before the next read
 * (stream.ts copies what a window keeps), so a pass over a gibibyte allocates one chunk.
 */
function bodySource(context: ToolContext, absolute: string, size: number, skip: number): ByteSource {
  const { fs } = context.workspace;
  const readRange = fs.readRange?.bind(fs);
  const readInto = fs.readInto?.bind(fs);
  if (!readRange) throw new Error('unreachable: streamed edit without readRange');
  const bodySize = size - skip;
  let scratch: Uint8Array | undefined;
  return {
    size: bodySize,
    read: async (offset, length) => {
      const wanted = Math.max(0, Math.min(length, bodySize - offset));
      if (!readInto || wanted !== CHUNK_BYTES) return readRange(absolute, skip + offset, wanted);
      scratch ??= new Uint8Array(CHUNK_BYTES);
      return scratch.subarray(0, await readInto(absolute, skip + offset, scratch));
    },
  };
}

/** What one kind's pass did: its summary, each window's extra, and the line and line-ending counts it changed. */
interface Spliced {
  readonly summary: PassSummary;
  readonly found: readonly number[];
  readonly extras: unknown[];
  changed: boolean;
  oldLines: number;
  newLines: number;
  /** Line endings in the windows before and after their rewrite. */
  readonly counts: { lf: number; crlf: number; newLf: number; newCrlf: number };
  readonly changes: TextChange[];
  /** The staging file it wrote, when writing. */
  readonly staging?: string;
  /** The source's hash, where the pass computed it (the first pass, unless the history already knew it). */
  readonly originalHash?: IncrementalHash;
  digest(): string;
}

function styleOf(lf: number, crlf: number): NewlineStyle {
  return lf > 0 && crlf > 0 ? 'mixed' : crlf > 0 ? 'crlf' : lf > 0 ? 'lf' : 'none';
}

function newlineCounts(text: string): { lf: number; crlf: number } {
  let lf = 0;
  let crlf = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf++;
    else lf++;
  }
  return { lf, crlf };
}

/**
 * A sink for a pass's output: hashes what goes through, and writes it where there is a writer. Given the source's
 * hash, it hashes nothing until the first window opens (`adopt`): up to there the output is the source byte for
 * byte, so a copy of the source's hash is the output's, and the common head of the file is hashed once.
 */
function hashingSink(
  context: ToolContext,
  prefix: readonly number[],
  writer: FileWriter | undefined,
  source: IncrementalHash | undefined,
): FileWriter & { adopt(): void; digest(): string } {
  const head = Uint8Array.from(prefix);
  let hash: IncrementalHash | undefined = source?.copy ? undefined : incrementalHash(context.workspace.fs);
  hash?.update(head);
  let started = false;
  return {
    adopt() {
      hash ??= source?.copy?.();
    },
    async write(bytes) {
      if (!started) {
        started = true;
        if (head.length > 0) await writer?.write(head);
      }
      hash?.update(bytes);
      await writer?.write(bytes);
    },
    async close() {
      if (!started && head.length > 0) await writer?.write(head);
      started = true;
    },
    digest: () => `sha256:${(hash ?? source?.copy?.() ?? incrementalHash()).digest()}`,
  };
}

/**
 * The whole edit of a file too large for memory, streamed. Without `write` (a dry run, a confirmation, a patch's
 * check) nothing is written; with it, the result is swapped in at the path before this returns.
 */
export async function streamTextEdit<Fields>(
  context: ToolContext,
  path: ConfinedPath,
  stat: FileStat,
  options: EditOptions,
  kinds: readonly TextEditKind<unknown, Fields>[],
  write: boolean,
): Promise<EditOutcome<Fields>> {
  const { fs } = context.workspace;
  const file = fileRef(context, path);
  const readRange = fs.readRange?.bind(fs);
  if (!readRange || (write && !fs.openWriter)) {
    throw limitExceeded(
      'size_bytes',
      context.policy.editInMemoryBytes,
      `${path.display} is ${humanSize(stat.size)}; on this file system Agent FS edits files of at most ${humanSize(context.policy.editInMemoryBytes)} (it cannot read or write a part of a file here). Nothing was changed.`,
      path.display,
    );
  }
  const head = await readRange(path.absolute, 0, DETECTION_HEAD_BYTES);
  const { detection, settings } = await detectFileEncoding(file, head, options.encoding);
  if (detection.kind === 'binary') throw binaryRefusal(path.display);
  const shape: TextShape = detection;
  const breaks = lineBreaksOf(shape.encoding);
  const codec = context.encodings.codec ?? LOCAL_CODEC;
  const prefix = shape.bom ? bomBytes(shape.encoding) : [];
  const headNewline = newlineOfBytes(head.subarray(prefix.length), breaks);
  // The history may have hashed the file just now (the before state of a tool that does not announce its change, as
  // apply_patch): then the pass need not hash it again.
  const known = context.hashes?.get(path.absolute, stat);
  const stagings: string[] = [];
  let source = bodySource(context, path.absolute, stat.size, prefix.length);
  let previousHash = '';
  let finalHash = '';
  let totalLines = 0;
  let counts = { lf: 0, crlf: 0 };
  const fields: Fields[] = [];
  const diffs: TextChange[] = [];
  let changed = false;

  /** One kind's pass over `source`, into a new staging file when writing; what it found and rewrote. */
  const splice = async (
    kind: TextEditKind<unknown, Fields>,
    index: number,
    several: number | undefined,
    plan: { readonly specs: readonly WindowSpec[] } | { readonly search: PassSearch },
  ): Promise<Spliced> => {
    const staging = write ? siblingPath(path.absolute, 'write') : undefined;
    const writer = staging && fs.openWriter ? await fs.openWriter(staging) : undefined;
    if (staging) stagings.push(staging);
    const originalHash = index === 0 && known === undefined ? incrementalHash(fs) : undefined;
    originalHash?.update(Uint8Array.from(prefix));
    const sink = hashingSink(context, prefix, writer, originalHash);
    const done: Omit<Spliced, 'summary' | 'found' | 'staging' | 'originalHash' | 'digest'> = {
      extras: [],
      changed: false,
      oldLines: 0,
      newLines: 0,
      counts: { lf: 0, crlf: 0, newLf: 0, newCrlf: 0 },
      changes: [],
    };
    let lineDelta = 0;
    const options: PassOptions = {
      display: path.display,
      breaks,
      writer: sink,
      hash: originalHash,
      onFirstWindow: () => sink.adopt(),
      signals: context,
      rewrite: async (window: Window) => {
        const exact = await decodeExact(window.bytes, shape.encoding, codec);
        if ('badOffset' in exact) {
          throw mismatch(file, window.bytes, window.bytes, shape, exact.badOffset, settings);
        }
        const windowLines = countLines(exact.text);
        const frame = {
          offset: window.firstLine - 1,
          total: window.atEnd ? window.firstLine - 1 + windowLines : Number.POSITIVE_INFINITY,
        };
        const result = rewriteOrSay(kind, { text: exact.text, display: path.display, frame }, several);
        done.extras.push(result.extra);
        const bytes = await encodeFileText(file, result.text, { encoding: shape.encoding, bom: false });
        if (!sameBytes(bytes, window.bytes)) done.changed = true;
        const before = newlineCounts(exact.text);
        const after = newlineCounts(result.text);
        done.counts.lf += before.lf;
        done.counts.crlf += before.crlf;
        done.counts.newLf += after.lf;
        done.counts.newCrlf += after.crlf;
        const resultLines = countLines(result.text);
        done.oldLines += windowLines;
        done.newLines += resultLines;
        done.changes.push(
          describeChange(path.display, exact.text, result.text, {}, { old: window.firstLine - 1, new: window.firstLine - 1 + lineDelta }),
        );
        lineDelta += resultLines - windowLines;
        return bytes;
      },
    };
    try {
      const summary =
        'search' in plan
          ? await searchSplicePass(source, plan.search, options)
          : { ...(await splicePass(source, mergeWindows(plan.specs), options)), found: [] };
      await sink.close();
      return { ...done, summary, found: summary.found, staging, originalHash, digest: () => sink.digest() };
    } catch (error) {
      if (staging) await discard(staging);
      throw error;
    } finally {
      await writer?.close();
    }
  };
  const discard = async (staging: string): Promise<void> => {
    await removeQuietly(fs, staging);
    stagings.splice(stagings.indexOf(staging), 1);
  };

  try {
    for (const [index, kind] of kinds.entries()) {
      const large: LargeText = {
        source,
        encoding: shape.encoding,
        display: path.display,
        signals: context,
        encode: async (text) => {
          try {
            return await encodeFileText(file, text, { encoding: shape.encoding, bom: false });
          } catch (error) {
            if (error instanceof ToolError) return undefined;
            throw error;
          }
        },
        decodeLine: (bytes) => LOCAL_CODEC.decode(bytes, shape.encoding),
        newline: headNewline,
        breaks,
      };
      const several = kinds.length > 1 ? index : undefined;
      const named = async <T>(work: () => Promise<T>): Promise<T> => {
        try {
          return await work();
        } catch (error) {
          throw several === undefined ? error : inEdit(error, several);
        }
      };
      const search = await named(async () => kind.search?.(large));
      let pass: Spliced | undefined;
      if (search) {
        // The search as this edit's pass reports it: a refusal names the edit among several.
        const inPass: PassSearch = {
          patterns: search.patterns,
          drives: search.drives,
          limit: search.limit,
          around: (match) => search.around(match),
          tooMany: () => (several === undefined ? search.tooMany() : inEdit(search.tooMany(), several)),
        };
        try {
          pass = await splice(kind, index, several, { search: inPass });
        } catch (error) {
          if (!search.provisional || !(error instanceof ToolError)) throw error;
        }
        if (pass && !search.accept(pass.found)) {
          if (pass.staging) await discard(pass.staging);
          pass = undefined;
        }
      }
      pass ??= await splice(kind, index, several, { specs: await named(() => kind.windows(large)) });
      if (index === 0) {
        previousHash = known ?? `sha256:${pass.originalHash?.digest() ?? ''}`;
        // The history's before state, taken at beforeChange, finds it here rather than reading the file again.
        if (known === undefined) context.hashes?.set(path.absolute, stat, previousHash);
        checkExpectedHash(path.display, previousHash, options.expectedHash);
      }
      const { summary } = pass;
      totalLines = summary.totalLines - pass.oldLines + pass.newLines;
      counts = {
        lf: summary.lf - pass.counts.lf + pass.counts.newLf,
        crlf: summary.crlf - pass.counts.crlf + pass.counts.newCrlf,
      };
      try {
        fields.push(kind.finish(pass.extras, { totalLines, display: path.display }));
      } catch (error) {
        throw several === undefined ? error : inEdit(error, several);
      }
      diffs.push(joinChanges(path.display, pass.changes));
      finalHash = pass.digest();
      changed ||= pass.changed;
      throwIfCancelled(context);
      if (pass.staging) {
        const stagingStat = await fs.stat(pass.staging);
        source = bodySource(context, pass.staging, stagingStat?.size ?? 0, prefix.length);
      }
    }
    const last = stagings[stagings.length - 1];
    if (write && last) {
      if (stat.mode !== undefined && fs.setMode) await fs.setMode(last, stat.mode);
      await context.beforeChange?.();
      throwIfCancelled(context);
      const target = stat.isSymlink && fs.realPath ? ((await fs.realPath(path.absolute)) ?? path.absolute) : path.absolute;
      await fs.rename(last, target, { overwrite: true });
      stagings.pop();
      context.hashes?.set(path.absolute, await fs.stat(path.absolute), finalHash);
    }
  } finally {
    for (const staging of stagings) await removeQuietly(fs, staging);
  }
  return {
    stat,
    shape,
    previousHash,
    contentHash: finalHash,
    changed,
    change: diffs.length === 1 && diffs[0] ? diffs[0] : joinChanges(path.display, diffs),
    newline: styleOf(counts.lf, counts.crlf),
    totalLines,
    fields: combine(fields),
  };
}

/** One change from the changes of several windows (or passes): their diffs under one pair of file headers. */
function joinChanges(display: string, changes: readonly TextChange[]): TextChange {
  const linesAdded = changes.reduce((sum, change) => sum + change.linesAdded, 0);
  const linesRemoved = changes.reduce((sum, change) => sum + change.linesRemoved, 0);
  if (changes.some((change) => change.diff === undefined)) return { diff: undefined, linesAdded, linesRemoved };
  const bodies = changes.map((change) => (change.diff ?? '').replace(/^--- .*\n\+\+\+ .*\n/, '')).filter((body) => body !== '');
  const diff = bodies.length === 0 ? '' : `--- a/${display}\n+++ b/${display}\n${bodies.join('')}`;
  return { diff, linesAdded, linesRemoved };
}

/** Reads and rewrites without writing: what a confirmation and a dry run show. */
async function planEdit(
  context: ToolContext,
  path: ConfinedPath,
  options: EditOptions,
  kinds: readonly TextEditKind<unknown, unknown>[],
): Promise<EditOutcome<unknown>> {
  const stat = await statEditable(context, path);
  if (stat.size <= context.policy.editInMemoryBytes) return editInMemory(context, path, stat, options, kinds);
  return streamTextEdit(context, path, stat, options, kinds, false);
}

/** The editor's view of an edit: a confirmation with the diff when it changes more lines than the setting allows. */
export async function prepareTextEdit(
  context: ToolContext,
  path: ConfinedPath,
  options: EditOptions,
  kinds: readonly TextEditKind<unknown, unknown>[],
): Promise<Preparation> {
  const verb = kinds.length === 1 && kinds[0] ? kinds[0].verb : `Making ${kinds.length} edits to`;
  const invocationMessage = `${options.dryRun ? 'Previewing an edit of' : verb} ${path.display}`;
  if (options.dryRun) return { invocationMessage };
  const planned = await planEdit(context, path, options, kinds);
  if (!needsConfirmation(context, planned.change)) return { invocationMessage };
  return {
    invocationMessage,
    confirmation: {
      title: `Edit ${path.display}?`,
      message: `${shown(path.display)} changes: ${describeLines(planned.change)}. ${undoSentence(context, planned.stat.size)}\n\n${fencedDiff(planned.change.diff)}`,
    },
  };
}

/**
 * The whole edit under the path's lock: plan, then (unless a dry run) write. Returns the fields every text-edit
 * tool's result has, with the kinds' own fields after `changed`.
 */
export function runTextEdit<Fields extends object>(
  context: ToolContext,
  path: ConfinedPath,
  options: EditOptions,
  kinds: readonly [TextEditKind<unknown, Fields>],
): Promise<TextEditResult & Fields>;
export function runTextEdit<Fields extends object>(
  context: ToolContext,
  path: ConfinedPath,
  options: EditOptions,
  kinds: readonly TextEditKind<unknown, Fields>[],
): Promise<TextEditResult & (Fields | { readonly edits: readonly Fields[] })>;
export async function runTextEdit<Fields extends object>(
  context: ToolContext,
  path: ConfinedPath,
  options: EditOptions,
  kinds: readonly TextEditKind<unknown, Fields>[],
): Promise<TextEditResult & (Fields | { readonly edits: readonly Fields[] })> {
  return withPathLocks([path.absolute], async () => {
    const stat = await statEditable(context, path);
    let outcome: EditOutcome<Fields>;
    if (stat.size <= context.policy.editInMemoryBytes) {
      const planned = await editInMemory(context, path, stat, options, kinds);
      throwIfCancelled(context);
      if (planned.changed && !options.dryRun) {
        await context.beforeChange?.();
        await writeFileAtomic(context, path.absolute, planned.bytes, stat);
      }
      outcome = planned;
    } else {
      outcome = await streamTextEdit(context, path, stat, options, kinds, !options.dryRun);
    }
    return {
      path: path.display,
      dry_run: options.dryRun,
      changed: outcome.changed,
      ...outcome.fields,
      lines_added: outcome.change.linesAdded,
      lines_removed: outcome.change.linesRemoved,
      previous_hash: outcome.previousHash,
      content_hash: outcome.contentHash,
      encoding: publicName(outcome.shape.encoding),
      bom: outcome.shape.bom,
      newline: outcome.newline,
      ...(options.dryRun ? diffForResult(outcome.change) : {}),
    };
  });
}
