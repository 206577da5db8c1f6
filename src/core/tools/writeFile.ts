import { toolRef, where } from '../naming';
import { shown, sizeText, undoSentence } from '../consequences';
import {
  checkExpectedHash,
  checkHashFormat,
  decodeForEdit,
  describeChange,
  describeLines,
  diffForResult,
  encodeLike,
  fencedDiff,
  type TextChange,
} from '../editing';
import { ToolError } from '../errors';
import { ensureParentDirectory, namePair, writeFileAtomic } from '../files';
import type { FileStat } from '../fs';
import { withPathLocks } from '../locks';
import { assertMayWrite } from '../policy';
import type { ConfinedPath } from '../root';
import { contentHash, detectNewline, type NewlineStyle, type TextEncodingName } from '../text';
import type { ToolContext } from '../context';
import type { InputOf, InputSchema } from '../schema';
import { throwIfCancelled } from '../signals';
import { defineTool } from '../tool';
import { DRY_RUN, ENCODINGS, EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    file_name: pathParameter('File path.'),
    content: { type: 'string', description: 'The new content.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: { type: 'string', enum: ENCODINGS, description: "Encoding (default: the file's, else UTF-8)." },
    newline: { type: 'string', enum: ['lf', 'crlf'], description: "Line endings (default: the file's)." },
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
  readonly encoding: TextEncodingName;
  readonly bom: boolean;
  readonly newline: NewlineStyle;
  /** Undefined when the existing file is not text this call could diff against. */
  readonly change: TextChange | undefined;
}

/** The existing file as text, when it is text that decodes losslessly (so its encoding, BOM and newlines can be kept). */
function existingText(path: ConfinedPath, bytes: Uint8Array): { text: string; encoding: TextEncodingName; bom: boolean } | undefined {
  try {
    return decodeForEdit(path.display, bytes);
  } catch (error) {
    if (error instanceof ToolError) return undefined;
    throw error;
  }
}

/**
 * Works out the bytes to write. Unless the call names them, the existing file's encoding, BOM and line-ending style
 * are kept: content read with read_file (with or without its BOM character, with either line ending) writes back
 * as the same bytes. A leading U+FEFF in content is the BOM, never a second one.
 */
async function planWrite(input: Input, path: ConfinedPath, context: ToolContext): Promise<WritePlan> {
  checkHashFormat(input.expected_hash);
  await assertMayWrite(context, path, 'file');
  const { fs } = context.workspace;
  const existing = await fs.stat(path.absolute);
  if (existing && existing.kind !== 'file') {
    throw new ToolError('FILE_NOT_FILE', `Cannot write ${path.display}: it is a ${existing.kind}, not a file.`);
  }
  const before = existing ? await fs.readFile(path.absolute) : undefined;
  const previousHash = before ? contentHash(before) : undefined;
  checkExpectedHash(path.display, previousHash, input.expected_hash);
  const old = before ? existingText(path, before) : undefined;

  const contentBom = input.content.startsWith('\uFEFF');
  let text = contentBom ? input.content.slice(1) : input.content;
  const encoding = input.encoding ?? old?.encoding ?? 'utf-8';
  let bom: boolean;
  if (encoding === 'latin1') bom = false;
  else if (encoding === 'utf-8') bom = contentBom || (old?.encoding === 'utf-8' && old.bom);
  // UTF-16 is only recognisable by its BOM; keep a BOM-less UTF-16 file as it was.
  else bom = old?.encoding === encoding ? old.bom || contentBom : true;

  const keep = old ? detectNewline(old.text) : 'none';
  const wanted = input.newline ?? (keep === 'lf' || keep === 'crlf' ? keep : undefined);
  if (wanted) text = text.replace(/\r?\n/g, wanted === 'crlf' ? '\r\n' : '\n');

  const bytes = encodeLike(path.display, text, encoding, bom);
  const change = old
    ? describeChange(path.display, old.text, text)
    : before
      ? undefined
      : describeChange(path.display, '', text, { old: '/dev/null' });
  return { path, existing, previousHash, bytes, encoding, bom, newline: detectNewline(text), change };
}

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write File',
  userDescription: 'Create or overwrite a file in the workspace.',
  modelDescription: `Create a file or replace all its content, creating parent directories${where('confirms', '; a replacement is confirmed with its diff')}. Keeps the file's encoding and line endings. For part of a file use ${toolRef('edit_file')}.`,
  icon: 'edit',
  tags: ['write'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { file_name: 'file' },
  async prepare(input, context, { file_name: path }) {
    const plan = await planWrite(input, path, context);
    const { existing } = plan;
    if (input.dry_run) return { invocationMessage: `Previewing a write of ${path.display}` };
    if (existing === undefined) return { invocationMessage: `Creating ${path.display}` };
    const summary = `${shown(path.display)} (${sizeText(existing.size)}) will be replaced by ${sizeText(plan.bytes.length)} of new content`;
    const undo = undoSentence(context, existing.size);
    const message = plan.change
      ? `${summary}: ${describeLines(plan.change)}. ${undo}\n\n${fencedDiff(plan.change.diff)}`
      : `${summary}. The current content is not text, so no diff can be shown. ${undo}`;
    return { invocationMessage: `Writing ${path.display}`, confirmation: { title: `Replace the content of ${path.display}?`, message } };
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
        encoding: plan.encoding,
        bom: plan.bom,
        newline: plan.newline,
        ...(input.dry_run ? (plan.change ? diffForResult(plan.change) : { diff: null, diff_truncated: false }) : {}),
      };
    });
  },
});
