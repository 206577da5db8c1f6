import { ToolError } from '../errors';
import { namePair } from '../files';
import { assertMayRead } from '../policy';
import { type LineParameters, lineRequest, readLines } from '../readText';
import type { ConfinedPath } from '../root';
import { defineTool, type ToolContext } from '../tool';

interface Input extends LineParameters {
  file_name: string;
}

/** Checks that `path` is a readable file (FILE_NOT_FOUND, FILE_NOT_FILE, SENSITIVE_PATH_REFUSED); returns its size. */
export async function statReadableFile(context: ToolContext, path: ConfinedPath): Promise<number> {
  const stat = await context.workspace.fs.stat(path.absolute);
  if (!stat) throw new ToolError('FILE_NOT_FOUND', `File does not exist: ${path.display}. Use agentfs_find_file to look for it by name.`);
  if (stat.kind !== 'file') throw new ToolError('FILE_NOT_FILE', `Not a file: ${path.display} is a ${stat.kind}. Use agentfs_list_directory to see what it contains.`);
  await assertMayRead(context, path, 'file');
  return stat.size;
}

export const readFile = defineTool<Input>({
  name: 'read_file',
  effect: 'read',
  failureCode: 'READ_FAILED',
  parameters: ['file_name', 'start_line', 'end_line', 'tail_lines', 'max_bytes', 'encoding'],
  async prepare(input, context) {
    const path = await context.paths.resolve(input.file_name, 'file');
    const range =
      input.tail_lines !== undefined
        ? ` (last ${input.tail_lines} lines)`
        : input.start_line !== undefined || input.end_line !== undefined
          ? ` (lines ${input.start_line ?? 1}–${input.end_line ?? 'end'})`
          : '';
    return { invocationMessage: `Reading ${path.display}${range}` };
  },
  async run(input, context) {
    const request = lineRequest(input, context.policy.maxReadBytes, context.policy.maxReadBytes, context.policy.knobs.maxReadBytes);
    const path = await context.paths.resolve(input.file_name, 'file');
    const size = await statReadableFile(context, path);
    const read = await readLines(context.workspace.fs, path.absolute, path.display, size, request);
    const { name, relative_path } = namePair(path);
    return { file_name: name, relative_path, ...read };
  },
});
