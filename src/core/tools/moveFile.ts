import { defineTool } from '../tool';
import { describeReplacement, planTransfer, TRANSFER_PARAMETERS, type TransferInput } from '../transfer';
import { dirname } from '../paths';

export const moveFile = defineTool<TransferInput>({
  name: 'move_file',
  effect: 'write',
  failureCode: 'MOVE_FAILED',
  parameters: TRANSFER_PARAMETERS,
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
