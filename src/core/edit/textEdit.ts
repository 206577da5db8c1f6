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
import type { Localizer } from '../ports/l10n';
import { codePath, undoSentence } from '../changes/consequences';
import type { ToolContext } from '../context';
import { bomBytes, decodeExact, LOCAL_CODEC, type TextCodec } from '../encoding/codec';
import { DETECTION_HEAD_BYTES, type EncodingSettings } from '../encoding/detect';
import {
  binaryRefusal,
  decodeFileText,
  detectFileEncoding,
  encodeFileText,
  type FileRef,
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
interface EditText {
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
type KindFields = Readonly<Record<string, unknown>>;

/** What makes one text-edit tool (or one of edit_file's edits) what it is. */
export interface TextEditKind<Extra, Fields = KindFields> {
  /** The progress line for the file at `path`: "Editing a.ts", "Replacing lines 3-4 of a.ts". */
  readonly describe: (l10n: Localizer, path: string) => string;
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

/** What a pass's windows come to as they are rewritten, in file order. */
type WindowTally = Omit<Spliced, 'summary' | 'found' | 'staging' | 'originalHash' | 'digest'>;

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
  const streamed = await openStreamed(context, path, stat, options, write);
  const progress: StreamProgress<Fields> = {
    source: bodySource(context, path.absolute, stat.size, streamed.prefix.length),
    previousHash: '',
    finalHash: '',
    totalLines: 0,
    counts: { lf: 0, crlf: 0 },
    fields: [],
    diffs: [],
    changed: false,
  };
  try {
    for (const [index, kind] of kinds.entries()) {
      await editPass(streamed, progress, { kind, index, several: kinds.length > 1 ? index : undefined }, stat, options);
    }
    await swapIn(streamed, stat, progress.finalHash);
  } finally {
    for (const staging of streamed.stagings) await removeQuietly(context.workspace.fs, staging);
  }
  const { diffs, counts } = progress;
  return {
    stat,
    shape: streamed.shape,
    previousHash: progress.previousHash,
    contentHash: progress.finalHash,
    changed: progress.changed,
    change: diffs.length === 1 && diffs[0] ? diffs[0] : joinChanges(path.display, diffs),
    newline: styleOf(counts.lf, counts.crlf),
    totalLines: progress.totalLines,
    fields: combine(progress.fields),
  };
}

/** What every pass of one streamed edit shares: the file, how its text is stored, and the staging files written. */
interface Streamed {
  readonly context: ToolContext;
  readonly path: ConfinedPath;
  readonly file: FileRef;
  readonly shape: TextShape;
  readonly settings: EncodingSettings;
  readonly breaks: LineBreaks;
  readonly codec: TextCodec;
  /** The BOM's bytes: every pass writes them first, and no window holds them. */
  readonly prefix: readonly number[];
  /** The line endings of the body's first bytes. */
  readonly headNewline: NewlineStyle;
  /** Whether the passes write staging files (else nothing is written). */
  readonly write: boolean;
  /** The file's hash where the history already took it; then no pass hashes the source. */
  readonly known: string | undefined;
  /** Staging files written and neither swapped in nor discarded: whatever is left when the edit ends is removed. */
  readonly stagings: string[];
}

/** What the passes so far come to: each kind's pass reads what the one before it wrote. */
interface StreamProgress<Fields> {
  /** What the next pass reads: the file's body, then the last staging file's. */
  source: ByteSource;
  previousHash: string;
  finalHash: string;
  totalLines: number;
  counts: { lf: number; crlf: number };
  readonly fields: Fields[];
  readonly diffs: TextChange[];
  changed: boolean;
}

/** One kind of an edit, and where it stands among them. */
interface EditStep<Fields> {
  readonly kind: TextEditKind<unknown, Fields>;
  /** Its place among the kinds: the first pass settles the old hash (hashing the source unless the history has). */
  readonly index: number;
  /** Its index when the edit has several kinds (a refusal then names it), else undefined. */
  readonly several: number | undefined;
}

/** Checks that the file system can stream the edit, and detects the file's encoding from its head. */
async function openStreamed(
  context: ToolContext,
  path: ConfinedPath,
  stat: FileStat,
  options: EditOptions,
  write: boolean,
): Promise<Streamed> {
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
  return { context, path, file, shape, settings, breaks, codec, prefix, headNewline, write, known, stagings: [] };
}

/** One kind's pass over what the passes before it left, added to `progress`; the first pass settles the old hash. */
async function editPass<Fields>(
  streamed: Streamed,
  progress: StreamProgress<Fields>,
  step: EditStep<Fields>,
  stat: FileStat,
  options: EditOptions,
): Promise<void> {
  const { context, path } = streamed;
  const pass = await passOf(streamed, step, progress.source);
  if (step.index === 0) {
    progress.previousHash = streamed.known ?? `sha256:${pass.originalHash?.digest() ?? ''}`;
    // The history's before state, taken at beforeChange, finds it here rather than reading the file again.
    if (streamed.known === undefined) context.hashes?.set(path.absolute, stat, progress.previousHash);
    checkExpectedHash(path.display, progress.previousHash, options.expectedHash);
  }
  const { summary } = pass;
  progress.totalLines = summary.totalLines - pass.oldLines + pass.newLines;
  progress.counts = {
    lf: summary.lf - pass.counts.lf + pass.counts.newLf,
    crlf: summary.crlf - pass.counts.crlf + pass.counts.newCrlf,
  };
  try {
    progress.fields.push(step.kind.finish(pass.extras, { totalLines: progress.totalLines, display: path.display }));
  } catch (error) {
    throw step.several === undefined ? error : inEdit(error, step.several);
  }
  progress.diffs.push(joinChanges(path.display, pass.changes));
  progress.finalHash = pass.digest();
  progress.changed ||= pass.changed;
  throwIfCancelled(context);
  if (pass.staging) {
    const stagingStat = await context.workspace.fs.stat(pass.staging);
    progress.source = bodySource(context, pass.staging, stagingStat?.size ?? 0, streamed.prefix.length);
  }
}

/** A kind's pass: searching as it goes where the kind can search, else over the windows the kind chooses first. */
async function passOf<Fields>(streamed: Streamed, step: EditStep<Fields>, source: ByteSource): Promise<Spliced> {
  const large = largeTextOf(streamed, source);
  const search = await namingEdit(step.several, async () => step.kind.search?.(large));
  const searched = search ? await searchedPass(streamed, step, source, search) : undefined;
  if (searched) return searched;
  const specs = await namingEdit(step.several, () => step.kind.windows(large));
  return splice(streamed, step, source, { specs });
}

/** A large file as the kinds see it, read from `source`. */
function largeTextOf(streamed: Streamed, source: ByteSource): LargeText {
  const { context, path, file, shape } = streamed;
  return {
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
    newline: streamed.headNewline,
    breaks: streamed.breaks,
  };
}

/** Runs a kind's step, naming the edit (`edits[2]: …`) in a refusal when there are several. */
async function namingEdit<T>(several: number | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw several === undefined ? error : inEdit(error, several);
  }
}

/**
 * The pass that runs the kind's search as it goes; undefined (its staging file removed) where it found what the
 * kind's `windows` would not choose, or a provisional refusal.
 */
async function searchedPass<Fields>(
  streamed: Streamed,
  step: EditStep<Fields>,
  source: ByteSource,
  search: EditSearch,
): Promise<Spliced | undefined> {
  const { several } = step;
  // The search as this edit's pass reports it: a refusal names the edit among several.
  const inPass: PassSearch = {
    patterns: search.patterns,
    drives: search.drives,
    limit: search.limit,
    around: (match) => search.around(match),
    tooMany: () => (several === undefined ? search.tooMany() : inEdit(search.tooMany(), several)),
  };
  let pass: Spliced;
  try {
    pass = await splice(streamed, step, source, { search: inPass });
  } catch (error) {
    if (!search.provisional || !(error instanceof ToolError)) throw error;
    return undefined;
  }
  if (search.accept(pass.found)) return pass;
  if (pass.staging) await discard(streamed, pass.staging);
  return undefined;
}

/** One kind's pass over `source`, into a new staging file when writing; what it found and rewrote. */
async function splice<Fields>(
  streamed: Streamed,
  step: EditStep<Fields>,
  source: ByteSource,
  plan: { readonly specs: readonly WindowSpec[] } | { readonly search: PassSearch },
): Promise<Spliced> {
  const { context, path, prefix } = streamed;
  const { fs } = context.workspace;
  const staging = streamed.write ? siblingPath(path.absolute, 'write') : undefined;
  const writer = staging && fs.openWriter ? await fs.openWriter(staging) : undefined;
  if (staging) streamed.stagings.push(staging);
  const originalHash = step.index === 0 && streamed.known === undefined ? incrementalHash(fs) : undefined;
  originalHash?.update(Uint8Array.from(prefix));
  const sink = hashingSink(context, prefix, writer, originalHash);
  const tally: WindowTally = {
    extras: [],
    changed: false,
    oldLines: 0,
    newLines: 0,
    counts: { lf: 0, crlf: 0, newLf: 0, newCrlf: 0 },
    changes: [],
  };
  const options: PassOptions = {
    display: path.display,
    breaks: streamed.breaks,
    writer: sink,
    hash: originalHash,
    onFirstWindow: () => sink.adopt(),
    signals: context,
    rewrite: (window: Window) => rewriteWindow(streamed, step, window, tally),
  };
  try {
    const summary =
      'search' in plan
        ? await searchSplicePass(source, plan.search, options)
        : { ...(await splicePass(source, mergeWindows(plan.specs), options)), found: [] };
    await sink.close();
    return { ...tally, summary, found: summary.found, staging, originalHash, digest: () => sink.digest() };
  } catch (error) {
    if (staging) await discard(streamed, staging);
    throw error;
  } finally {
    await writer?.close();
  }
}

/** One window decoded exactly, rewritten by the kind and encoded again; what it held and became goes to `tally`. */
async function rewriteWindow<Fields>(streamed: Streamed, step: EditStep<Fields>, window: Window, tally: WindowTally): Promise<Uint8Array> {
  const { path, file, shape } = streamed;
  const exact = await decodeExact(window.bytes, shape.encoding, streamed.codec);
  if ('badOffset' in exact) {
    throw mismatch(file, window.bytes, window.bytes, shape, exact.badOffset, streamed.settings);
  }
  const windowLines = countLines(exact.text);
  const frame = {
    offset: window.firstLine - 1,
    total: window.atEnd ? window.firstLine - 1 + windowLines : Number.POSITIVE_INFINITY,
  };
  const result = rewriteOrSay(step.kind, { text: exact.text, display: path.display, frame }, step.several);
  tally.extras.push(result.extra);
  const bytes = await encodeFileText(file, result.text, { encoding: shape.encoding, bom: false });
  if (!sameBytes(bytes, window.bytes)) tally.changed = true;
  const before = newlineCounts(exact.text);
  const after = newlineCounts(result.text);
  tally.counts.lf += before.lf;
  tally.counts.crlf += before.crlf;
  tally.counts.newLf += after.lf;
  tally.counts.newCrlf += after.crlf;
  const resultLines = countLines(result.text);
  // The lines the windows before this one added, less those they removed: where this window's lines now start.
  const lineDelta = tally.newLines - tally.oldLines;
  tally.oldLines += windowLines;
  tally.newLines += resultLines;
  tally.changes.push(
    describeChange(path.display, exact.text, result.text, {}, { old: window.firstLine - 1, new: window.firstLine - 1 + lineDelta }),
  );
  return bytes;
}

/** Removes a staging file that will not be swapped in, and forgets it. */
async function discard(streamed: Streamed, staging: string): Promise<void> {
  await removeQuietly(streamed.context.workspace.fs, staging);
  streamed.stagings.splice(streamed.stagings.indexOf(staging), 1);
}

/** When writing, puts the last pass's staging file in the file's place (its target's, for a symlink), mode kept. */
async function swapIn(streamed: Streamed, stat: FileStat, finalHash: string): Promise<void> {
  const { context, path, stagings } = streamed;
  const { fs } = context.workspace;
  const last = stagings[stagings.length - 1];
  if (!streamed.write || !last) return;
  if (stat.mode !== undefined && fs.setMode) await fs.setMode(last, stat.mode);
  await context.beforeChange?.();
  throwIfCancelled(context);
  const target = stat.isSymlink && fs.realPath ? ((await fs.realPath(path.absolute)) ?? path.absolute) : path.absolute;
  await fs.rename(last, target, { overwrite: true });
  stagings.pop();
  context.hashes?.set(path.absolute, await fs.stat(path.absolute), finalHash);
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
  const { l10n } = context;
  const invocationMessage = options.dryRun
    ? l10n.t('Previewing an edit of {0}', path.display)
    : kinds.length === 1 && kinds[0]
      ? kinds[0].describe(l10n, path.display)
      : l10n.t('Making {0} edits to {1}', kinds.length, path.display);
  if (options.dryRun) return { invocationMessage };
  const planned = await planEdit(context, path, options, kinds);
  if (!needsConfirmation(context, planned.change)) return { invocationMessage };
  return {
    invocationMessage,
    confirmation: {
      title: l10n.t('Edit {0}?', path.display),
      message: `${l10n.t('{0} changes: {1}.', codePath(path.display), describeLines(planned.change, l10n))} ${undoSentence(context, planned.stat.size)}\n\n${fencedDiff(planned.change.diff)}`,
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
