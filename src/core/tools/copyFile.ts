import { removeQuietly, siblingPath } from '../files';
import { dirname } from '../paths';
import { defineTool } from '../tool';
import { describeReplacement, planTransfer, TRANSFER_PARAMETERS, type TransferInput } from '../transfer';

export const copyFile = defineTool<TransferInput>({
  name: 'copy_file',
  effect: 'write',
  failureCode: 'COPY_FAILED',
  parameters: TRANSFER_PARAMETERS,
  async prepare(input, context) {
    const plan = await planTransfer(input, context, 'file');
    const invocationMessage = `Copying ${plan.source.display} to ${plan.destination.display}`;
    if (!plan.replaced) return { invocationMessage };
    return { invocationMessage, confirmation: describeReplacement(plan, 'Copy') };
  },
  async run(input, context) {
    const plan = await planTransfer(input, context, 'file');
    const { fs } = context.workspace;
    await fs.createDirectory(dirname(plan.destination.absolute));
    if (plan.replaced) {
      // Stage the copy beside the destination, then rename over it: the old bytes stay whole until the swap.
      const staged = siblingPath(plan.destination.absolute, 'copy');
      try {
        await fs.copyFile(plan.source.absolute, staged, { overwrite: false });
        await fs.rename(staged, plan.destination.absolute, { overwrite: true });
      } catch (error) {
        await removeQuietly(fs, staged);
        throw error;
      }
    } else {
      await fs.copyFile(plan.source.absolute, plan.destination.absolute, { overwrite: false });
    }
    return { source_path: plan.source.display, destination_path: plan.destination.display, copied: true, overwritten: plan.replaced !== undefined };
  },
});

