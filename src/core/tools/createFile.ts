import { describeChange, diffForResult, encodeLike } from '../editing';
import { ToolError } from '../errors';
import { ensureParentDirectory, writeFileAtomic } from '../files';
import { isFsError } from '../fs';
import { withPathLocks } from '../locks';
import { assertMayWrite } from '../policy';
import type { ConfinedPath } from '../root';
import { contentHash, countLines, detectNewline, type TextEncodingName } from '../text';
import { defineTool, throwIfCancelled, type ToolContext, type InputOf, type InputSchema } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path of the new file, relative to the base directory. Missing parent directories are created.',
    },
    content: { type: 'string', description: 'The whole content of the new file.' },
    dry_run: {
      type: 'boolean',
      default: false,
      description: 'Check everything and return what would be created, writing nothing. Default false.',
    },
    encoding: {
      type: 'string',
      enum: ['utf-8', 'utf-16le', 'utf-16be', 'latin1'],
      description: 'Encoding to write. Default utf-8 (without byte-order mark unless content starts with U+FEFF); utf-16 always gets a byte-order mark.',
    },
  },
  required: ['path', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

function alreadyExists(path: ConfinedPath, kind: string): ToolError {
  return new ToolError('ALREADY_EXISTS', `${path.display} already exists (a ${kind}); create_file never replaces anything. Use agentfs_write_file to replace a file, or agentfs_edit_file to change part of it.`, {
    path: path.display,
  });
}

async function checkFree(input: Input, context: ToolContext): Promise<ConfinedPath> {
  const path = await context.paths.resolve(input.path, 'file');
  await assertMayWrite(context, path, 'file');
  const stat = await context.workspace.fs.stat(path.absolute);
  if (stat) throw alreadyExists(path, stat.isSymlink ? 'symbolic link' : stat.kind);
  return path;
}

/** UTF-8 unless named; a leading U+FEFF in content becomes the BOM, and UTF-16 always gets one so it can be recognised. */
function encode(input: Input, path: ConfinedPath): { bytes: Uint8Array; text: string; encoding: TextEncodingName; bom: boolean } {
  const encoding = input.encoding ?? 'utf-8';
  const contentBom = input.content.startsWith('\uFEFF');
  const text = contentBom ? input.content.slice(1) : input.content;
  const bom = encoding === 'latin1' ? false : encoding === 'utf-8' ? contentBom : true;
  return { bytes: encodeLike(path.display, text, encoding, bom), text, encoding, bom };
}

export const createFile = defineTool({
  name: 'create_file',
  title: 'Create File',
  userDescription: 'Create a new file in the workspace (never overwrites).',
  modelDescription: 'Create a new text file inside the base directory, with any missing parent directories. It never replaces anything: an existing file, directory or link at the path is refused with ALREADY_EXISTS (use agentfs_write_file to replace a whole file, agentfs_edit_file to change part of one). The write is atomic. Content is written as given (UTF-8 unless encoding is named; a leading U+FEFF becomes the byte-order mark). Returns data {path, created, dry_run, size_bytes, total_lines, content_hash, encoding, bom, newline} plus diff when dry_run. Errors: ALREADY_EXISTS, DIRECTORY_NOT_DIRECTORY (a parent is a file), INVALID_INPUT (a character the encoding cannot hold), FILE_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, SENSITIVE_PATH_REFUSED (a protected or hidden path: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR (the file has unsaved changes in an editor), READ_ONLY_MODE, WORKSPACE_UNTRUSTED, WRITE_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'new-file',
  tags: ['write'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'file' },
  async prepare(input, context) {
    const path = await checkFree(input, context);
    return { invocationMessage: `${input.dry_run ? 'Previewing the creation of' : 'Creating'} ${path.display}` };
  },
  async run(input, context) {
    const resolved = await context.paths.resolve(input.path, 'file');
    return withPathLocks([resolved.absolute], async () => {
      const path = await checkFree(input, context);
      const { bytes, text, encoding, bom } = encode(input, path);
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
        encoding,
        bom,
        newline: detectNewline(text),
        ...(input.dry_run ? diffForResult(describeChange(path.display, '', text, { old: '/dev/null' })) : {}),
      };
    });
  },
});
