import { ToolError } from '../errors';
import { checkExpectedHash } from '../editing';
import { namePair } from '../files';
import { withPathLocks } from '../locks';
import { assertMayWrite } from '../policy';
import type { ConfinedPath } from '../root';
import { contentHash } from '../text';
import { defineTool, type ToolContext } from '../tool';

interface Input {
  file_name: string;
  expected_hash?: string;
}

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

export const deleteFile = defineTool<Input>({
  name: 'delete_file',
  effect: 'destructive',
  failureCode: 'DELETE_FAILED',
  parameters: ['file_name', 'expected_hash'],
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
