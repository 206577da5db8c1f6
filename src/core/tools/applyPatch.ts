import { arrayOf, BOOLEAN, described, INTEGER, nullable, object, oneOf, optional, STRING } from '../contract/results';
import { countPhrase } from '../ports/l10n';
import { HASH } from './fields';
import { codePath, sizeText, undoSentence } from '../changes/consequences';
import { describeLines, fencedDiff } from '../edit/editing';
import { withPathLocks } from '../files/locks';
import { describePlan, PATCH_MAX_BYTES, parsePatchTargets, verifyPatch, writePatch } from '../edit/patch';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { DRY_RUN } from './parameters';
import type { PatchTarget } from '../edit/placement';
import type { ConfinedPath } from '../confinement';

const inputSchema = {
  type: 'object',
  properties: {
    patch: { type: 'string', minLength: 1, description: 'The patch.' },
    dry_run: DRY_RUN,
  },
  required: ['patch'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const applyPatch = defineTool({
  name: 'apply_patch',
  title: 'Apply Patch',
  userDescription: 'Apply a unified diff or a V4A patch to files in the workspace.',
  modelDescription: `Apply a unified diff or V4A patch (*** Begin Patch) to create, change, delete or (V4A) move files. Every hunk is checked first: all or none. Unified hunks match exactly, possibly shifted. At most ${PATCH_MAX_BYTES / 1024 / 1024} MiB.`,
  icon: 'diff',
  tags: ['write', 'edit', 'patch'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: {},
  outputSchema: object({
    dry_run: BOOLEAN,
    applied: BOOLEAN,
    files_changed: INTEGER,
    lines_added: INTEGER,
    lines_removed: INTEGER,
    files: arrayOf(
      object({
        path: STRING,
        action: oneOf('modify', 'create', 'delete', 'move'),
        moved_to: optional(described('Where a move put the file.', STRING)),
        hunks: arrayOf(
          object({
            header: STRING,
            line: INTEGER,
            offset: described('How far the hunk moved from its line.', INTEGER),
            stage: optional(
              described('V4A: how its lines were found.', oneOf('exact', 'trailing_whitespace', 'whitespace', 'anchor_above')),
            ),
          }),
        ),
        lines_added: INTEGER,
        lines_removed: INTEGER,
        previous_hash: nullable(HASH),
        content_hash: nullable(HASH),
      }),
    ),
  }),
  errors: [
    'ENCODING_MISMATCH',
    'PATCH_FAILED',
    'LIMIT_EXCEEDED',
    'FILE_PATH_OUTSIDE_BASE',
    'SYMLINK_OUTSIDE_BASE',
    'SENSITIVE_PATH_REFUSED',
    'FILE_DIRTY_IN_EDITOR',
    'BINARY_CONTENT_REFUSED',
    'INVALID_INPUT',
  ],
  caps: { patch: { cap: PATCH_MAX_BYTES, advice: 'Split it into several patches.' } },
  async prepare(input, context) {
    const targets = await parsePatchTargets(context, input.patch);
    const { l10n } = context;
    const names = targets.map((target) => target.path.display);
    const what = names.length === 1 ? (names[0] ?? '') : countPhrase(l10n, names.length, '1 file', '{0} files');
    const invocationMessage = input.dry_run ? l10n.t('Checking a patch of {0}', what) : l10n.t('Patching {0}', what);
    if (input.dry_run) return { invocationMessage };
    const plans = await verifyPatch(context, targets);
    // Creating new files loses nothing; changing or deleting existing ones is shown before it happens.
    if (plans.every((plan) => plan.action === 'create')) return { invocationMessage };
    const summary = plans
      .map(
        (plan) =>
          `- ${codePath(plan.path.display)}: ${
            plan.action === 'delete'
              ? l10n.t('deleted ({0})', sizeText(plan.stat?.size ?? 0, l10n))
              : plan.action === 'create'
                ? l10n.t('created')
                : plan.destination
                  ? l10n.t('moved to {0}, {1}', codePath(plan.destination.display), describeLines(plan.change, l10n))
                  : describeLines(plan.change, l10n)
          }`,
      )
      .join('\n');
    const diff = plans
      .map((plan) => plan.change.diff ?? `--- a/${plan.path.display}\n+++ b/${plan.path.display}\n(too large to show)\n`)
      .join('');
    const deleted = plans.filter((plan) => plan.action === 'delete').length;
    const moves = plans.flatMap((plan) => (plan.destination ? [{ from: plan.path.display, to: plan.destination.display }] : []));
    // A move takes a path away as a deletion does: the title says so, naming one move and counting several.
    const [move] = moves;
    const losses = [
      ...(deleted > 0 ? [countPhrase(l10n, deleted, 'deletes 1 file', 'deletes {0} files')] : []),
      ...(moves.length === 1 && move
        ? [l10n.t('moves {0} to {1}', move.from, move.to)]
        : moves.length > 1
          ? [l10n.t('moves {0} files', moves.length)]
          : []),
    ];
    const replacedBytes = plans.reduce((sum, plan) => sum + (plan.action === 'create' ? 0 : (plan.stat?.size ?? 0)), 0);
    return {
      invocationMessage,
      confirmation: {
        title: losses.length > 0 ? l10n.t('Apply a patch to {0} ({1})?', what, losses.join(', ')) : l10n.t('Apply a patch to {0}?', what),
        message: `${summary}\n\n${undoSentence(context, replacedBytes)}\n\n${fencedDiff(diff)}`,
      },
    };
  },
  // The files the patch names, a move's destination too: history records them (there is no path parameter to say it).
  async affects(input, context) {
    return touchedPaths(await parsePatchTargets(context, input.patch));
  },
  async run(input, context) {
    const targets = await parsePatchTargets(context, input.patch);
    return withPathLocks(
      touchedPaths(targets).map((path) => path.absolute),
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

function touchedPaths(targets: readonly PatchTarget[]): ConfinedPath[] {
  return targets.flatMap((target) => (target.destination ? [target.path, target.destination] : [target.path]));
}
