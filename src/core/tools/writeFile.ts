import { BOOLEAN, INTEGER, nullable, object, optional } from '../contract/results';
import { DRY_RUN_DIFF, ENCODING_NAME, FILE_NAMES, HASH, NEWLINE } from './fields';
import { toolRef, onlyWhere } from '../naming';
import { codePath, sizeText, undoSentence } from '../changes/consequences';
import {
  checkExpectedHash,
  checkHashFormat,
  describeChange,
  describeLines,
  diffForResult,
  fencedDiff,
  type TextChange,
} from '../edit/editing';
import { DETECTION_HEAD_BYTES } from '../encoding/detect';
import { decodeFileText, detectFileEncoding, encodeFileText, fileRef, requestedEncoding } from '../encoding/fileText';
import { type EncodingId, publicName, type TextShape } from '../encoding/names';
import { ToolError } from '../errors';
import { ensureParentDirectory, writeFileAtomic } from '../changes/writes';
import type { FileStat } from '../ports/fs';
import { withPathLocks } from '../files/locks';
import { assertMayWrite } from '../policy/policy';
import { type ConfinedPath, namePair } from '../confinement';
import { contentHash, incrementalHash } from '../files/hashing';
import { lineBreaksOf, newlineOfBytes } from '../read/bytes';
import { CHUNK_BYTES } from '../ports/fs';
import { detectNewline, type NewlineStyle } from '../files/text';
import type { ToolContext } from '../context';
import type { InputOf, InputSchema } from '../contract/schema';
import { throwIfCancelled } from '../signals';
import { defineTool } from '../tool';
import { DRY_RUN, EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    file_name: pathParameter('File.'),
    content: { type: 'string', description: 'Content.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: { type: 'string', description: 'e.g. windows1252.' },
    newline: { type: 'string', enum: ['lf', 'crlf'], description: "Default: the file's." },
  },
  required: ['file_name', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

interface WritePlan {
  readonly path: ConfinedPath;
  readonly existing: FileStat | undefined;
  readonly previousHash: string | undefined;
  readonly bytes: Uint8Array;
  readonly encoding: EncodingId;
  readonly bom: boolean;
  readonly newline: NewlineStyle;
  /** Undefined when the existing file is not text this call could diff against. */
  readonly change: TextChange | undefined;
}

/** What the call replaces: its hash, and its shape and text where it is text (so both can be kept). */
interface Existing {
  readonly hash: string;
  /** Undefined when the file is not text in any encoding the rules pick (binary, or bytes that do not decode). */
  readonly shape: TextShape | undefined;
  /** The old text, for the diff; undefined for a file too large to diff or not text. */
  readonly text: string | undefined;
  readonly newline: NewlineStyle;
}

async function readExisting(
  context: ToolContext,
  path: ConfinedPath,
  stat: FileStat,
  requested: EncodingId | undefined,
): Promise<Existing> {
  const { fs } = context.workspace;
  const file = fileRef(context, path);
  if (stat.size > context.policy.editInMemoryBytes && fs.readRange) {
    // Replaced whole, so it need not be decoded: its hash, and its shape and line endings from its start.
    const hash = incrementalHash(fs);
    for (let offset = 0; offset < stat.size; offset += CHUNK_BYTES) hash.update(await fs.readRange(path.absolute, offset, CHUNK_BYTES));
    const head = await fs.readRange(path.absolute, 0, DETECTION_HEAD_BYTES);
    const { detection } = await detectFileEncoding(file, head, requested);
    const shape = detection.kind === 'text' ? detection : undefined;
    // The head starts on a code unit (offset 0), so its line ends are found in every encoding.
    const newline = shape ? newlineOfBytes(head, lineBreaksOf(shape.encoding)) : 'none';
    return { hash: `sha256:${hash.digest()}`, shape, text: undefined, newline };
  }
  const bytes = await fs.readFile(path.absolute);
  try {
    const decoded = await decodeFileText(file, bytes, requested);
    return { hash: contentHash(bytes), shape: decoded, text: decoded.text, newline: detectNewline(decoded.text) };
  } catch (error) {
    if (error instanceof ToolError) return { hash: contentHash(bytes), shape: undefined, text: undefined, newline: 'none' };
    throw error;
  }
}

/** The BOM a write gives: `utf8bom` asks for one; UTF-16 always has one (it is how UTF-16 is recognised) unless the file kept none. */
function bomFor(requested: EncodingId | undefined, encoding: EncodingId, old: TextShape | undefined, contentBom: boolean): boolean {
  if (requested === 'utf8bom') return true;
  if (encoding === 'utf8') return contentBom || (old?.encoding === 'utf8' && old.bom);
  if (encoding === 'utf16le' || encoding === 'utf16be') return old?.encoding === encoding ? old.bom || contentBom : true;
  return false;
}

/**
 * Works out the bytes to write. Unless the call names them, the existing file's encoding, BOM and line-ending style
 * are kept: content read with read_file (with or without its BOM character, with either line ending) writes back
 * as the same bytes. A leading U+FEFF in content is the BOM, never a second one. A new file gets the encoding the
 * host's settings give it (files.encoding for it in the editor, --encoding for the runner; UTF-8 by default).
 */
async function planWrite(input: Input, path: ConfinedPath, context: ToolContext): Promise<WritePlan> {
  checkHashFormat(input.expected_hash);
  const requested = requestedEncoding(input.encoding);
  await assertMayWrite(context, path, 'file');
  const { fs } = context.workspace;
  const existing = await fs.stat(path.absolute);
  if (existing && existing.kind !== 'file') {
    throw new ToolError('FILE_NOT_FILE', `Cannot write ${path.display}: it is a ${existing.kind}, not a file.`);
  }
  const old = existing ? await readExisting(context, path, existing, requested) : undefined;
  checkExpectedHash(path.display, old?.hash, input.expected_hash);

  const contentBom = input.content.startsWith('\uFEFF');
  let text = contentBom ? input.content.slice(1) : input.content;
  const fallback = (await context.encodings.settingsFor(path.absolute)).default;
  const chosen = requested ?? old?.shape?.encoding ?? fallback;
  const encoding: EncodingId = chosen === 'utf8bom' ? 'utf8' : chosen;
  const bom = bomFor(requested ?? (chosen === 'utf8bom' ? 'utf8bom' : undefined), encoding, old?.shape, contentBom);

  const keep = old?.newline ?? 'none';
  const wanted = input.newline ?? (keep === 'lf' || keep === 'crlf' ? keep : undefined);
  if (wanted) text = text.replace(/\r?\n/g, wanted === 'crlf' ? '\r\n' : '\n');

  const bytes = await encodeFileText(fileRef(context, path), text, { encoding, bom });
  const change =
    old?.text !== undefined
      ? describeChange(path.display, old.text, text)
      : old
        ? undefined
        : describeChange(path.display, '', text, { old: '/dev/null' });
  return { path, existing, previousHash: old?.hash, bytes, encoding, bom, newline: detectNewline(text), change };
}

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write File',
  userDescription: 'Create or overwrite a file in the workspace.',
  modelDescription: `Create a file or replace all its content, creating parents${onlyWhere('confirms', '; a replacement is confirmed with its diff')}. Keeps the file's encoding and line endings. For part of a file: ${toolRef('edit_file')}.`,
  icon: 'edit',
  tags: ['write'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { file_name: 'file' },
  outputSchema: object({
    ...FILE_NAMES,
    created: BOOLEAN,
    updated: BOOLEAN,
    dry_run: BOOLEAN,
    would_create: optional(BOOLEAN),
    would_update: optional(BOOLEAN),
    size_bytes: INTEGER,
    content_hash: HASH,
    previous_hash: nullable(HASH),
    encoding: ENCODING_NAME,
    bom: BOOLEAN,
    newline: NEWLINE,
    ...DRY_RUN_DIFF,
  }),
  errors: [
    'ENCODING_MISMATCH',
    'FILE_NOT_FILE',
    'SENSITIVE_PATH_REFUSED',
    'FILE_DIRTY_IN_EDITOR',
    'CONTENT_CONFLICT',
    'DIRECTORY_NOT_DIRECTORY',
  ],
  async prepare(input, context, { file_name: path }) {
    const plan = await planWrite(input, path, context);
    const { existing } = plan;
    const { l10n } = context;
    if (input.dry_run) return { invocationMessage: l10n.t('Previewing a write of {0}', path.display) };
    if (existing === undefined) return { invocationMessage: l10n.t('Creating {0}', path.display) };
    const replaced = [codePath(path.display), sizeText(existing.size, l10n), sizeText(plan.bytes.length, l10n)] as const;
    const undo = undoSentence(context, existing.size);
    const message = plan.change
      ? `${l10n.t('{0} ({1}) will be replaced by {2} of new content: {3}.', ...replaced, describeLines(plan.change, l10n))} ${undo}\n\n${fencedDiff(plan.change.diff)}`
      : `${
          existing.size > context.policy.editInMemoryBytes
            ? l10n.t('{0} ({1}) will be replaced by {2} of new content. The current content is too large to show a diff of.', ...replaced)
            : l10n.t(
                '{0} ({1}) will be replaced by {2} of new content. The current content is not text, so no diff can be shown.',
                ...replaced,
              )
        } ${undo}`;
    return {
      invocationMessage: l10n.t('Writing {0}', path.display),
      confirmation: { title: l10n.t('Replace the content of {0}?', path.display), message },
    };
  },
  async run(input, context, { file_name: path }) {
    return withPathLocks([path.absolute], async () => {
      const plan = await planWrite(input, path, context);
      const { existing } = plan;
      if (!input.dry_run) {
        if (!existing) await ensureParentDirectory(context, path, 'DIRECTORY_NOT_DIRECTORY');
        throwIfCancelled(context);
        await writeFileAtomic(context, path.absolute, plan.bytes, existing);
      }
      const { name, relative_path } = namePair(path);
      return {
        file_name: name,
        relative_path,
        created: !input.dry_run && !existing,
        updated: !input.dry_run && existing !== undefined,
        dry_run: input.dry_run,
        ...(input.dry_run ? { would_create: !existing, would_update: existing !== undefined } : {}),
        size_bytes: plan.bytes.length,
        content_hash: contentHash(plan.bytes),
        previous_hash: plan.previousHash ?? null,
        encoding: publicName(plan.encoding),
        bom: plan.bom,
        newline: plan.newline,
        ...(input.dry_run ? (plan.change ? diffForResult(plan.change) : { diff: null, diff_truncated: false }) : {}),
      };
    });
  },
});
