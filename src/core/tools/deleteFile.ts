import { BOOLEAN, object } from '../contract/results';
import { FILE_NAMES } from './fields';
import { toolRef, onlyWhere } from '../naming';
import { codePath, sizeText, trashSentence, undoSentence } from '../changes/consequences';
import { ToolError } from '../errors';
import { checkExpectedHash, checkHashFormat } from '../edit/editing';
import { withPathLocks } from '../files/locks';
import { assertMayWrite } from '../policy/policy';
import { type ConfinedPath, namePair } from '../confinement';
import { contentHash } from '../files/text';
import type { ToolContext } from '../context';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    file_name: pathParameter('File to delete.'),
    expected_hash: EXPECTED_HASH,
  },
  required: ['file_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

async function checkExistingFile(path: ConfinedPath, context: ToolContext): Promise<number> {
  const stat = await context.workspace.fs.stat(path.absolute);
  if (!stat) throw new ToolError('FILE_NOT_FOUND', `File does not exist: ${path.display}.`);
  if (stat.kind !== 'file') {
    throw new ToolError(
      'FILE_NOT_FILE',
      `Not a file: ${path.display} is a ${stat.kind}. Use ${toolRef('delete_directory')} for directories.`,
    );
  }
  await assertMayWrite(context, path, 'file');
  return stat.size;
}

export const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete File',
  userDescription: 'Delete one file in the workspace.',
  modelDescription: `Delete one file${onlyWhere('trash', ' to the trash where possible')}${onlyWhere('confirms', ', once the user confirms')}. Directories: ${toolRef('delete_directory')}.`,
  icon: 'trash',
  tags: ['delete'],
  effect: 'write',
  failureCode: 'DELETE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { file_name: 'file' },
  outputSchema: object({ ...FILE_NAMES, deleted: BOOLEAN }),
  errors: ['FILE_NOT_FOUND', 'FILE_NOT_FILE', 'SENSITIVE_PATH_REFUSED', 'FILE_DIRTY_IN_EDITOR', 'CONTENT_CONFLICT'],
  checkInput(input) {
    checkHashFormat(input.expected_hash);
  },
  async prepare(_input, context, { file_name: path }) {
    const size = await checkExistingFile(path, context);
    return {
      invocationMessage: context.l10n.t('Deleting {0}', path.display),
      confirmation: {
        title: context.l10n.t('Delete {0}?', path.display),
        message: `${context.l10n.t('{0} ({1}) will be deleted.', codePath(path.display), sizeText(size, context.l10n))} ${trashSentence(context)} ${undoSentence(context, size)}`,
      },
    };
  },
  async run(input, context, { file_name: path }) {
    await checkExistingFile(path, context);
    const { fs } = context.workspace;
    // Under the path's lock, so the hash checked is the content deleted (no other Agent FS call writes in between).
    return withPathLocks([path.absolute], async () => {
      if (input.expected_hash !== undefined)
        checkExpectedHash(path.display, contentHash(await fs.readFile(path.absolute)), input.expected_hash);
      await fs.delete(path.absolute, { recursive: false, useTrash: true });
      const { name, relative_path } = namePair(path);
      return { file_name: name, relative_path, deleted: true };
    });
  },
});
