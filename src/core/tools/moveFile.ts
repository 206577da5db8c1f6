import { BOOLEAN, object } from '../contract/results';
import { TRANSFER_FIELDS } from './fields';
import { toolRef, onlyWhere } from '../naming';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { describeReplacement, planTransfer, TRANSFER_ERRORS } from '../changes/transfer';
import { dirname } from '../paths';
import { pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    source_path: pathParameter('File to move.'),
    destination_path: pathParameter('The new path.'),
    overwrite: { type: 'boolean', default: false, description: 'Replace what exists.' },
  },
  required: ['source_path', 'destination_path'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const moveFile = defineTool({
  name: 'move_file',
  title: 'Move File',
  userDescription: 'Move or rename one file inside the workspace.',
  modelDescription: `Move or rename a file, creating parents. An existing destination is refused unless overwrite${onlyWhere('confirms', ' (then the user confirms)')}. Directories: ${toolRef('move_directory')}.`,
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
    const plan = await planTransfer(input, paths, context, 'file', 'move');
    const invocationMessage = context.l10n.t('Moving {0} to {1}', plan.source.display, plan.destination.display);
    if (!plan.replaced) return { invocationMessage };
    return { invocationMessage, confirmation: describeReplacement(plan, 'Move', context) };
  },
  async run(input, context, paths) {
    const plan = await planTransfer(input, paths, context, 'file', 'move');
    const { fs } = context.workspace;
    await fs.createDirectory(dirname(plan.destination.absolute));
    // A rename replaces the destination in one step, so the old file stays whole until the new one takes its place.
    await fs.rename(plan.source.absolute, plan.destination.absolute, { overwrite: plan.replaced !== undefined });
    return {
      source_path: plan.source.display,
      destination_path: plan.destination.display,
      moved: true,
      overwritten: plan.replaced !== undefined,
    };
  },
});
