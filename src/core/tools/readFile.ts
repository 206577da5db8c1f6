import { ToolError } from '../errors';
import { namePair } from '../files';
import { defineTool } from '../tool';

interface Input {
  file_name: string;
}

export const readFile = defineTool<Input>({
  name: 'read_file',
  effect: 'read',
  failureCode: 'READ_FAILED',
  parameters: ['file_name'],
  async prepare(input, context) {
    const path = await context.paths.resolve(input.file_name, 'file');
    return { invocationMessage: `Reading ${path.display}` };
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.file_name, 'file');
    const { fs } = context.workspace;
    const stat = await fs.stat(path.absolute);
    if (!stat) throw new ToolError('FILE_NOT_FOUND', `File does not exist: ${path.display}. Use agentfs_find_file to look for it by name.`);
    if (stat.kind !== 'file') throw new ToolError('FILE_NOT_FILE', `Not a file: ${path.display} is a ${stat.kind}. Use agentfs_list_files to see what it contains.`);
    const content = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await fs.readFile(path.absolute));
    const { name, relative_path } = namePair(path);
    return { file_name: name, relative_path, content };
  },
});
