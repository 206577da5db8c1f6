import { BOOLEAN, INTEGER, object, STRING } from '../contract/results';
import { DRY_RUN_DIFF, ENCODING_NAME, HASH, NEWLINE } from './fields';
import { toolRef } from '../naming';
import { describeChange, diffForResult } from '../edit/editing';
import { encodeFileText, fileRef, requestedEncoding } from '../encoding/fileText';
import { type EncodingId, publicName } from '../encoding/names';
import { ToolError } from '../errors';
import { ensureParentDirectory, writeFileAtomic } from '../changes/writes';
import { isFsError } from '../ports/fs';
import { withPathLocks } from '../files/locks';
import { assertMayWrite } from '../policy/policy';
import type { ConfinedPath } from '../confinement';
import { contentHash } from '../files/hashing';
import { countLines, detectNewline } from '../files/text';
import type { ToolContext } from '../context';
import type { InputOf, InputSchema } from '../contract/schema';
import { throwIfCancelled } from '../signals';
import { defineTool } from '../tool';
import { DRY_RUN, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('New file.'),
    content: { type: 'string', description: 'Its content.' },
    dry_run: DRY_RUN,
    encoding: { type: 'string', description: 'e.g. windows1252.' },
  },
  required: ['path', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

function alreadyExists(path: ConfinedPath, kind: string): ToolError {
  return new ToolError(
    'ALREADY_EXISTS',
    `${path.display} already exists (a ${kind}); ${toolRef('create_file')} never replaces anything. Use ${toolRef('write_file')} to replace a file, or ${toolRef('edit_file')} to change part of it.`,
    {
      path: path.display,
    },
  );
}

async function checkFree(path: ConfinedPath, context: ToolContext): Promise<ConfinedPath> {
  await assertMayWrite(context, path, 'file');
  const stat = await context.workspace.fs.stat(path.absolute);
  if (stat) throw alreadyExists(path, stat.isSymlink ? 'symbolic link' : stat.kind);
  return path;
}

/**
 * The encoding named, else the host's for a new file there (files.encoding in the editor, --encoding for the runner,
 * UTF-8 by default). A leading U+FEFF in content becomes the BOM (utf8bom asks for one too), and UTF-16 always gets
 * one so it can be recognised; the other encodings have none.
 */
async function encode(
  input: Input,
  context: ToolContext,
  path: ConfinedPath,
): Promise<{ bytes: Uint8Array; text: string; encoding: EncodingId; bom: boolean }> {
  const chosen = requestedEncoding(input.encoding) ?? (await context.encodings.settingsFor(path.absolute)).default;
  const encoding: EncodingId = chosen === 'utf8bom' ? 'utf8' : chosen;
  const contentBom = input.content.startsWith('\uFEFF');
  const text = contentBom ? input.content.slice(1) : input.content;
  const bom = chosen === 'utf8bom' || (encoding === 'utf8' && contentBom) || encoding === 'utf16le' || encoding === 'utf16be';
  return { bytes: await encodeFileText(fileRef(context, path), text, { encoding, bom }), text, encoding, bom };
}

export const createFile = defineTool({
  name: 'create_file',
  title: 'Create File',
  userDescription: 'Create a new file in the workspace (never overwrites).',
  modelDescription: `Create a new file (and parents); never replaces anything. To replace one: ${toolRef('write_file')}.`,
  icon: 'new-file',
  tags: ['write'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  additive: true,
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema: object({
    path: STRING,
    created: BOOLEAN,
    dry_run: BOOLEAN,
    size_bytes: INTEGER,
    total_lines: INTEGER,
    content_hash: HASH,
    encoding: ENCODING_NAME,
    bom: BOOLEAN,
    newline: NEWLINE,
    ...DRY_RUN_DIFF,
  }),
  errors: ['ALREADY_EXISTS', 'SENSITIVE_PATH_REFUSED', 'FILE_DIRTY_IN_EDITOR', 'DIRECTORY_NOT_DIRECTORY'],
  async prepare(input, context, paths) {
    const path = await checkFree(paths.path, context);
    return {
      invocationMessage: input.dry_run
        ? context.l10n.t('Previewing the creation of {0}', path.display)
        : context.l10n.t('Creating {0}', path.display),
    };
  },
  async run(input, context, paths) {
    return withPathLocks([paths.path.absolute], async () => {
      const path = await checkFree(paths.path, context);
      const { bytes, text, encoding, bom } = await encode(input, context, path);
      if (!input.dry_run) {
        await ensureParentDirectory(context, path, 'DIRECTORY_NOT_DIRECTORY');
        throwIfCancelled(context);
        try {
          await writeFileAtomic(context, path.absolute, bytes, undefined, { exclusive: true });
        } catch (error) {
          // Another writer got there between the check and the rename: still never replaced.
          if (isFsError(error, 'exists')) throw alreadyExists(path, 'file');
          throw error;
        }
      }
      return {
        path: path.display,
        created: !input.dry_run,
        dry_run: input.dry_run,
        size_bytes: bytes.length,
        total_lines: countLines(text),
        content_hash: contentHash(bytes),
        encoding: publicName(encoding),
        bom,
        newline: detectNewline(text),
        ...(input.dry_run ? diffForResult(describeChange(path.display, '', text, { old: '/dev/null' })) : {}),
      };
    });
  },
});
