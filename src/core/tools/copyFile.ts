import { BOOLEAN, object } from '../contract/results';
import { TRANSFER_FIELDS } from './fields';
import { toolRef, onlyWhere } from '../naming';
import { removeQuietly, siblingPath } from '../files/staging';
import { dirname } from '../paths';
import type { InputSchema } from '../contract/schema';
import { throwIfCancelled } from '../signals';
import { defineTool } from '../tool';
import { describeReplacement, planTransfer, TRANSFER_ERRORS } from '../changes/transfer';
import { pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    source_path: pathParameter('File to copy.'),
    destination_path: pathParameter('Where the copy goes.'),
    overwrite: { type: 'boolean', default: false, description: 'Replace what exists.' },
  },
  required: ['source_path', 'destination_path'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const copyFile = defineTool({
  name: 'copy_file',
  title: 'Copy File',
  userDescription: 'Copy one file inside the workspace.',
  modelDescription: `Copy a file, creating parents. An existing destination is refused unless overwrite${onlyWhere('confirms', ' (then the user confirms)')}. Directories: ${toolRef('copy_directory')}.`,
  icon: 'files',
  tags: ['write'],
  effect: 'write',
  failureCode: 'COPY_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { source_path: 'source', destination_path: 'destination' },
  outputSchema: object({ ...TRANSFER_FIELDS, copied: BOOLEAN }),
  errors: TRANSFER_ERRORS,
  async prepare(input, context, paths) {
    const plan = await planTransfer(input, paths, context, 'file', 'copy');
    const invocationMessage = context.l10n.t('Copying {0} to {1}', plan.source.display, plan.destination.display);
    if (!plan.replaced) return { invocationMessage };
    return { invocationMessage, confirmation: describeReplacement(plan, 'Copy', context) };
  },
  // Only the destination changes; the source is read, never written.
  affects(_input, _context, { destination_path }) {
    return Promise.resolve([destination_path]);
  },
  async run(input, context, paths) {
    const plan = await planTransfer(input, paths, context, 'file', 'copy');
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
    return {
      source_path: plan.source.display,
      destination_path: plan.destination.display,
      copied: true,
      overwritten: plan.replaced !== undefined,
    };
  },
});
