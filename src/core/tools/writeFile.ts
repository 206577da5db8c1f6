import { ToolError } from '../errors';
import { ensureParentDirectory, namePair, textEncoder, writeFileAtomic } from '../files';
import { defineTool } from '../tool';

interface Input {
  file_name: string;
  content: string;
}

export const writeFile = defineTool<Input>({
  name: 'write_file',
  effect: 'destructive',
  failureCode: 'WRITE_FAILED',
  parameters: ['file_name', 'content'],
  async prepare(input, context) {
    const path = await context.paths.resolve(input.file_name, 'file');
    const stat = await context.workspace.fs.stat(path.absolute);
    if (stat?.kind !== 'file') return { invocationMessage: `Creating ${path.display}` };
    return {
      invocationMessage: `Writing ${path.display}`,
      confirmation: {
        title: 'Replace file?',
        message: `Replace the whole content of \`${path.display}\` (${stat.size} bytes) with ${textEncoder.encode(input.content).length} bytes of new content?`,
      },
    };
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.file_name, 'file');
    const { fs } = context.workspace;
    const existing = await fs.stat(path.absolute);
    if (existing && existing.kind !== 'file') {
      throw new ToolError('FILE_NOT_FILE', `Cannot write ${path.display}: it is a ${existing.kind}, not a file.`);
    }
    if (!existing) await ensureParentDirectory(context, path, 'DIRECTORY_NOT_DIRECTORY');
    await writeFileAtomic(context, path.absolute, textEncoder.encode(input.content), existing);
    const { name, relative_path } = namePair(path);
    return { file_name: name, relative_path, created: !existing, updated: existing !== undefined };
  },
});
