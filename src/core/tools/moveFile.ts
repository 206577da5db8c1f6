import { defineTool, type InputSchema } from '../tool';
import { describeReplacement, planTransfer } from '../transfer';
import { dirname } from '../paths';

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

export const moveFile = defineTool({
  name: 'move_file',
  title: 'Move File',
  userDescription: 'Move or rename one file inside the workspace.',
  modelDescription: 'Move or rename one file inside the base directory, creating missing parent directories of the destination. An existing destination is kept unless overwrite is true (then the user is asked to confirm). Use agentfs_move_directory for directories. Returns data {source_path, destination_path, moved: true, overwritten}. Errors: SOURCE_FILE_NOT_FOUND, SOURCE_NOT_FILE, SOURCE_EQUALS_DESTINATION, DESTINATION_EXISTS, DESTINATION_IS_DIRECTORY, SOURCE_PATH_OUTSIDE_BASE, DESTINATION_PATH_OUTSIDE_BASE, SYMLINK_OUTSIDE_BASE, CROSS_DEVICE_MOVE_UNSUPPORTED, SENSITIVE_PATH_REFUSED (a protected or hidden source or destination: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR (unsaved changes in an editor), READ_ONLY_MODE, MOVE_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'arrow-right',
  tags: ['write'],
  effect: 'write',
  failureCode: 'MOVE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { source_path: 'source', destination_path: 'destination' },
  async prepare(input, context) {
    const plan = await planTransfer(input, context, 'file', 'move');
    const invocationMessage = `Moving ${plan.source.display} to ${plan.destination.display}`;
    if (!plan.replaced) return { invocationMessage };
    return { invocationMessage, confirmation: describeReplacement(plan, 'Move') };
  },
  async run(input, context) {
    const plan = await planTransfer(input, context, 'file', 'move');
    const { fs } = context.workspace;
    await fs.createDirectory(dirname(plan.destination.absolute));
    // A rename replaces the destination in one step, so the old file stays whole until the new one takes its place.
    await fs.rename(plan.source.absolute, plan.destination.absolute, { overwrite: plan.replaced !== undefined });
    return { source_path: plan.source.display, destination_path: plan.destination.display, moved: true, overwritten: plan.replaced !== undefined };
  },
});
