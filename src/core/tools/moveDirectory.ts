import { dirname } from '../paths';
import { defineTool, type InputSchema } from '../tool';
import { describeDirectoryReplacement, planTransfer, swapIntoDestination } from '../transfer';

const inputSchema = {
  type: 'object',
  properties: {
    source_path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path of the directory to take, relative to the base directory.',
    },
    destination_path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path the directory should have afterwards, relative to the base directory. Missing parent directories are created.',
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

export const moveDirectory = defineTool({
  name: 'move_directory',
  title: 'Move Directory',
  userDescription: 'Move or rename a directory inside the workspace.',
  modelDescription: 'Move or rename a directory inside the base directory, creating missing parents of the destination. The destination may not be the source or inside it. An existing destination is kept unless overwrite is true, which replaces it entirely (the user is asked to confirm and told what is replaced). Returns data {source_path, destination_path, moved: true, overwritten}. Errors: SOURCE_DIRECTORY_NOT_FOUND, SOURCE_NOT_DIRECTORY, SOURCE_EQUALS_DESTINATION, DESTINATION_INSIDE_SOURCE, DESTINATION_EXISTS, DESTINATION_NOT_DIRECTORY, SOURCE_PATH_OUTSIDE_BASE, DESTINATION_PATH_OUTSIDE_BASE, SYMLINK_OUTSIDE_BASE, CROSS_DEVICE_MOVE_UNSUPPORTED, SENSITIVE_PATH_REFUSED (the source holds a protected or hidden path, or something would land on or replace one: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR, READ_ONLY_MODE, MOVE_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'arrow-right',
  tags: ['write'],
  effect: 'write',
  failureCode: 'MOVE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { source_path: 'source', destination_path: 'destination' },
  async prepare(input, context) {
    const plan = await planTransfer(input, context, 'directory', 'move');
    const invocationMessage = `Moving directory ${plan.source.display} to ${plan.destination.display}`;
    if (!plan.replaced) return { invocationMessage };
    return { invocationMessage, confirmation: await describeDirectoryReplacement(plan, 'Move', context) };
  },
  async run(input, context) {
    const plan = await planTransfer(input, context, 'directory', 'move');
    await context.workspace.fs.createDirectory(dirname(plan.destination.absolute));
    await swapIntoDestination(plan, plan.source.absolute, context);
    return { source_path: plan.source.display, destination_path: plan.destination.display, moved: true, overwritten: plan.replaced !== undefined };
  },
});
