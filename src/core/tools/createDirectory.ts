import { ToolError } from '../errors';
import { ensureParentDirectory, namePair } from '../files';
import { assertMayWrite } from '../policy';
import { defineTool } from '../tool';

interface Input {
  directory_name: string;
}

export const createDirectory = defineTool<Input>({
  name: 'create_directory',
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  parameters: ['directory_name'],
  async prepare(input, context) {
    const path = await context.paths.resolve(input.directory_name, 'directory');
    return { invocationMessage: `Creating directory ${path.display}` };
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.directory_name, 'directory');
    await assertMayWrite(context, path, 'directory');
    const { fs } = context.workspace;
    const existing = await fs.stat(path.absolute);
    if (existing && existing.kind !== 'directory') {
      throw new ToolError('DIRECTORY_NOT_DIRECTORY', `Cannot create directory ${path.display}: a ${existing.kind} is in the way.`);
    }
    if (!existing) {
      await ensureParentDirectory(context, path, 'DIRECTORY_NOT_DIRECTORY');
      await fs.createDirectory(path.absolute);
    }
    const { name, relative_path } = namePair(path);
    return { directory_name: name, relative_path, created: !existing };
  },
});
