import { removeQuietly, siblingPath } from '../files';
import { dirname } from '../paths';
import { defineTool, throwIfCancelled, type InputSchema } from '../tool';
import { describeReplacement, planTransfer } from '../transfer';

const inputSchema = {
  type: 'object',
  properties: {
    source_path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path of the file to take, relative to the base directory.',
    },
    destination_path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path the file should have afterwards, relative to the base directory. Missing parent directories are created.',
    },
    overwrite: {
      type: 'boolean',
      default: false,
      description: 'Replace an existing destination. Default false: an existing destination is refused with DESTINATION_EXISTS.',
    },
  },
  required: ['source_path', 'destination_path'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const copyFile = defineTool({
  name: 'copy_file',
  title: 'Copy File',
  userDescription: 'Copy one file inside the workspace.',
  modelDescription: 'Copy one file to a new path inside the base directory, creating missing parent directories of the destination. An existing destination is kept unless overwrite is true (then the user is asked to confirm). Use agentfs_copy_directory for directories. Returns data {source_path, destination_path, copied: true, overwritten}. Errors: SOURCE_FILE_NOT_FOUND, SOURCE_NOT_FILE, SOURCE_EQUALS_DESTINATION, DESTINATION_EXISTS, DESTINATION_IS_DIRECTORY, SOURCE_PATH_OUTSIDE_BASE, DESTINATION_PATH_OUTSIDE_BASE, SYMLINK_OUTSIDE_BASE, SENSITIVE_PATH_REFUSED (a protected destination, or a hidden source: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR (the destination has unsaved changes in an editor), READ_ONLY_MODE, COPY_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'files',
  tags: ['write'],
  effect: 'write',
  failureCode: 'COPY_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { source_path: 'source', destination_path: 'destination' },
  async prepare(input, context) {
    const plan = await planTransfer(input, context, 'file', 'copy');
    const invocationMessage = `Copying ${plan.source.display} to ${plan.destination.display}`;
    if (!plan.replaced) return { invocationMessage };
    return { invocationMessage, confirmation: describeReplacement(plan, 'Copy') };
  },
  // Only the destination changes; the source is read, never written.
  async affects(input, context) {
    return [await context.paths.resolve(input.destination_path, 'destination')];
  },
  async run(input, context) {
    const plan = await planTransfer(input, context, 'file', 'copy');
    const { fs } = context.workspace;
    await fs.createDirectory(dirname(plan.destination.absolute));
    // Stage the copy beside the destination, then rename it into place: an existing destination's bytes stay whole
    // until the swap, and a copy that fails midway never leaves a torn file under the destination's name.
    const staged = siblingPath(plan.destination.absolute, 'copy');
    try {
      await fs.copyFile(plan.source.absolute, staged, { overwrite: false });
      throwIfCancelled(context);
      await fs.rename(staged, plan.destination.absolute, { overwrite: plan.replaced !== undefined });
    } catch (error) {
      await removeQuietly(fs, staged);
      throw error;
    }
    return { source_path: plan.source.display, destination_path: plan.destination.display, copied: true, overwritten: plan.replaced !== undefined };
  },
});

