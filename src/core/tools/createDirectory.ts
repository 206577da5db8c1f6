import { ToolError } from '../errors';
import { ensureParentDirectory, namePair } from '../files';
import { assertMayWrite } from '../policy';
import { defineTool, type InputSchema } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    directory_name: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path of the directory to create, relative to the base directory.',
    },
  },
  required: ['directory_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create Directory',
  userDescription: 'Create a directory (and its parents) in the workspace.',
  modelDescription: 'Create a directory inside the base directory, with any missing parents. An existing directory is not an error: created is false then. Returns data {directory_name, relative_path, created}. Errors: DIRECTORY_NOT_DIRECTORY (a file is in the way), DIRECTORY_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, SENSITIVE_PATH_REFUSED (a protected path such as .git/ or .ssh/: setting agentFs.protectedPaths), READ_ONLY_MODE, WORKSPACE_UNTRUSTED, WRITE_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'new-folder',
  tags: ['write'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { directory_name: 'directory' },
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
