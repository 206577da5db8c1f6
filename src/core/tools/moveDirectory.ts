import { dirname } from '../paths';
import { defineTool } from '../tool';
import { describeDirectoryReplacement, planTransfer, swapIntoDestination, TRANSFER_PARAMETERS, type TransferInput } from '../transfer';

export const moveDirectory = defineTool<TransferInput>({
  name: 'move_directory',
  effect: 'write',
  failureCode: 'MOVE_FAILED',
  parameters: TRANSFER_PARAMETERS,
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
