import { BOOLEAN, object } from '../contract/results';
import { TRANSFER_FIELDS } from './fields';
import { onlyWhere } from '../naming';
import { dirname } from '../paths';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { describeDirectoryReplacement, planTransfer, swapIntoDestination, TRANSFER_ERRORS } from '../changes/transfer';
import { pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    source_path: pathParameter('Directory to move.'),
    destination_path: pathParameter('The new path.'),
    overwrite: { type: 'boolean', default: false, description: 'Replace what exists.' },
  },
  required: ['source_path', 'destination_path'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const moveDirectory = defineTool({
  name: 'move_directory',
  title: 'Move Directory',
  userDescription: 'Move or rename a directory inside the workspace.',
  modelDescription: `Move or rename a directory tree (not into itself), creating parents. An existing destination is refused unless overwrite, which replaces it whole${onlyWhere('confirms', ' (the user confirms)')}.`,
  icon: 'arrow-right',
  tags: ['write'],
  effect: 'write',
  failureCode: 'MOVE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { source_path: 'source', destination_path: 'destination' },
  outputSchema: object({ ...TRANSFER_FIELDS, moved: BOOLEAN }),
  errors: TRANSFER_ERRORS,
  async prepare(input, context, paths) {
    const plan = await planTransfer(input, paths, context, 'directory', 'move');
    const invocationMessage = context.l10n.t('Moving directory {0} to {1}', plan.source.display, plan.destination.display);
    if (!plan.replaced) return { invocationMessage };
    return { invocationMessage, confirmation: await describeDirectoryReplacement(plan, 'Move', context) };
  },
  async run(input, context, paths) {
    const plan = await planTransfer(input, paths, context, 'directory', 'move');
    await context.workspace.fs.createDirectory(dirname(plan.destination.absolute));
    await swapIntoDestination(plan, plan.source.absolute, context);
    return {
      source_path: plan.source.display,
      destination_path: plan.destination.display,
      moved: true,
      overwritten: plan.replaced !== undefined,
    };
  },
});
