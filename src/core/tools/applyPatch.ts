import { fencedDiff } from '../editing';
import { withPathLocks } from '../locks';
import { describePlan, parsePatchTargets, verifyPatch, writePatch } from '../patch';
import { defineTool, type InputSchema } from '../tool';
import { plural } from '../walk';

const inputSchema = {
  type: 'object',
  properties: {
    patch: {
      type: 'string',
      minLength: 1,
      description: 'The unified diff: for each file "--- a/path" and "+++ b/path" headers (paths relative to the base directory; a/ and b/ prefixes are optional) followed by "@@ -l,n +l,n @@" hunks with 3 lines of context. At most 1 MiB.',
    },
    dry_run: {
      type: 'boolean',
      default: false,
      description: 'Check every file and hunk and report what would change, writing nothing. Default false.',
    },
  },
  required: ['patch'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const applyPatch = defineTool({
  name: 'apply_patch',
  title: 'Apply Patch',
  userDescription: 'Apply a unified diff to files in the workspace.',
  modelDescription: 'Apply a unified diff (git diff format) that changes, creates (--- /dev/null) or deletes (+++ /dev/null) one or more files inside the base directory. The whole patch is parsed and every hunk is checked against its file before any byte is written: a hunk must match exactly (context drift is refused; line endings may differ), at the line its header names or, if shifted, at exactly one other place. A failing or ambiguous hunk refuses the whole patch with PATCH_FAILED naming the file and hunk, with details.differences showing the lines that differ; nothing is written. Then each file is written atomically; if a write fails midway, the files already written are restored and the error (WRITE_FAILED) lists them. Renames and copies in a patch are refused (use agentfs_move_file / agentfs_copy_file first); mode changes are ignored; binary patches are refused. The patch is at most 1 MiB (LIMIT_EXCEEDED). Patches that change or delete existing files ask the user first, showing the diff. Returns data {dry_run, applied, files_changed, lines_added, lines_removed, files: [{path, action (modify/create/delete), hunks: [{header, line, offset}], lines_added, lines_removed, previous_hash, content_hash}]}. Errors: PATCH_FAILED, LIMIT_EXCEEDED, BINARY_CONTENT_REFUSED, FILE_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, SENSITIVE_PATH_REFUSED (a protected or hidden path: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR (the file has unsaved changes in an editor), READ_ONLY_MODE, WORKSPACE_UNTRUSTED, WRITE_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'diff',
  tags: ['write', 'edit', 'patch'],
  effect: 'destructive',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: {  },
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
