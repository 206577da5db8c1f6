import { ToolError } from '../errors';
import { checkExpectedHash } from '../editing';
import { namePair } from '../files';
import { withPathLocks } from '../locks';
import { assertMayWrite } from '../policy';
import type { ConfinedPath } from '../root';
import { contentHash } from '../text';
import { defineTool, type ToolContext, type InputOf, type InputSchema } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    file_name: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path of the file to delete, relative to the base directory.',
    },
    expected_hash: {
      type: 'string',
      pattern: '^(sha256:)?[0-9a-fA-F]{64}$',
      description: 'Optional guard: the content_hash you last read. If the file\'s current hash differs, nothing is deleted and the call fails with CONTENT_CONFLICT.',
    },
  },
  required: ['file_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

async function resolveExistingFile(input: Input, context: ToolContext): Promise<{ path: ConfinedPath; size: number }> {
  const path = await context.paths.resolve(input.file_name, 'file');
  const stat = await context.workspace.fs.stat(path.absolute);
  if (!stat) throw new ToolError('FILE_NOT_FOUND', `File does not exist: ${path.display}.`);
  if (stat.kind !== 'file') {
    throw new ToolError('FILE_NOT_FILE', `Not a file: ${path.display} is a ${stat.kind}. Use agentfs_delete_directory for directories.`);
  }
  await assertMayWrite(context, path, 'file');
  return { path, size: stat.size };
}

export const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete File',
  userDescription: 'Delete one file in the workspace.',
  modelDescription: 'Delete exactly one file inside the base directory (moved to the trash where the file system has one; the user is asked to confirm). It never deletes directories: use agentfs_delete_directory for those. Returns data {file_name, relative_path, deleted: true}. Pass expected_hash to delete only the content you read. Errors: CONTENT_CONFLICT (expected_hash differs), FILE_NOT_FOUND, FILE_NOT_FILE (the path is a directory), FILE_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, SENSITIVE_PATH_REFUSED (a protected or hidden path: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR (unsaved changes in an editor), READ_ONLY_MODE, WORKSPACE_UNTRUSTED, DELETE_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'trash',
  tags: ['delete'],
  effect: 'destructive',
  failureCode: 'DELETE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { file_name: 'file' },
  async prepare(input, context) {
    const { path, size } = await resolveExistingFile(input, context);
    return {
      invocationMessage: `Deleting ${path.display}`,
      confirmation: { title: 'Delete file?', message: `Delete \`${path.display}\` (${size} bytes)?` },
    };
  },
  async run(input, context) {
    const { path } = await resolveExistingFile(input, context);
    const { fs } = context.workspace;
    // Under the path's lock, so the hash checked is the content deleted (no other Agent FS call writes in between).
    return withPathLocks([path.absolute], async () => {
      if (input.expected_hash !== undefined) checkExpectedHash(path.display, contentHash(await fs.readFile(path.absolute)), input.expected_hash);
      await fs.delete(path.absolute, { recursive: false, useTrash: true });
      const { name, relative_path } = namePair(path);
      return { file_name: name, relative_path, deleted: true };
    });
  },
});
