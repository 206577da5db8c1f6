import { fencedDiff } from '../editing';
import { withPathLocks } from '../locks';
import { describePlan, parsePatchTargets, verifyPatch, writePatch } from '../patch';
import { defineTool } from '../tool';
import { plural } from '../walk';

interface Input {
  patch: string;
  dry_run: boolean;
}

export const applyPatch = defineTool<Input>({
  name: 'apply_patch',
  effect: 'destructive',
  failureCode: 'WRITE_FAILED',
  parameters: ['patch', 'dry_run'],
  async prepare(input, context) {
    const targets = await parsePatchTargets(context, input.patch);
    const names = targets.map((target) => target.path.display);
    const invocationMessage = `${input.dry_run ? 'Checking a patch of' : 'Patching'} ${names.length === 1 ? names[0] : plural(names.length, 'file')}`;
    if (input.dry_run) return { invocationMessage };
    const plans = await verifyPatch(context, targets);
    // Creating new files loses nothing; changing or deleting existing ones is shown before it happens.
    if (plans.every((plan) => plan.action === 'create')) return { invocationMessage };
    const summary = plans.map((plan) => `- \`${plan.path.display}\`: ${plan.action === 'delete' ? 'deleted' : plan.action === 'create' ? 'created' : `${plan.change.linesRemoved} lines removed, ${plan.change.linesAdded} added`}`).join('\n');
    const diff = plans.map((plan) => plan.change.diff ?? `--- a/${plan.path.display}\n+++ b/${plan.path.display}\n(too large to show)\n`).join('');
    const deletes = plans.some((plan) => plan.action === 'delete');
    return {
      invocationMessage,
      confirmation: { title: deletes ? 'Apply patch (deletes files)?' : 'Apply patch?', message: `Apply this patch?\n\n${summary}\n\n${fencedDiff(diff)}` },
    };
  },
  // The files the patch names: history records them (there is no path parameter to say it).
  async affects(input, context) {
    return (await parsePatchTargets(context, input.patch)).map((target) => target.path);
  },
  async run(input, context) {
    const targets = await parsePatchTargets(context, input.patch);
    return withPathLocks(
      targets.map((target) => target.path.absolute),
      async () => {
        const plans = await verifyPatch(context, targets);
        if (!input.dry_run) await writePatch(context, plans);
        const files = plans.map(describePlan);
        return {
          dry_run: input.dry_run,
          applied: !input.dry_run,
          files_changed: plans.length,
          lines_added: plans.reduce((sum, plan) => sum + plan.change.linesAdded, 0),
          lines_removed: plans.reduce((sum, plan) => sum + plan.change.linesRemoved, 0),
          files,
        };
      },
    );
  },
});
