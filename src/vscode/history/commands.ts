/**
 * The history's commands: "Show Change History" (a quick pick, then the diff), "Undo Last Change", "Undo an Agent
 * Session…" (a quick pick of sessions, the diff of what goes back, a question), and the view's Open Diff, Undo,
 * Refresh and Clear. Undos go through the ToolHost, the same path a model's undo takes, so they are validated,
 * checked for conflicts and recorded alike.
 */
import * as vscode from 'vscode';
import type { Envelope } from '../../core/envelope';
import { ToolError } from '../../core/errors';
import { fileChanges } from '../../core/history/changes';
import type { HistoryStore, OperationRecord } from '../../core/history/store';
import { undoneBy } from '../../core/recording/records';
import { undoLastTarget } from '../../core/tools/undoLast';
import { requireSessionTargets, sessionFiles, sessionTargets, sessionText } from '../../core/recording/sessionUndo';
import type { Dialogs, OperationChoice } from '../dialogs';
import { EDITOR_L10N } from '../session';
import type { ToolHost } from '../tools';
import { openDiff, openSessionDiff, relativeTime } from './documents';
import { type ActivityNode, type ActivityView, groupBySession, SHOWN_OPERATIONS, sessionLabel, statusOf } from './view';

export interface HistoryCommandDependencies {
  readonly store: HistoryStore;
  readonly tools: ToolHost;
  readonly view: ActivityView;
  readonly dialogs: () => Dialogs;
}

/** An operation given as a view node, or as an id (from tests, keybindings or other extensions). */
async function recordOf(store: HistoryStore, target: unknown): Promise<OperationRecord | undefined> {
  if (typeof target === 'string') return store.get(target);
  if (typeof target === 'object' && target !== null && 'record' in target) return (target as { record: OperationRecord }).record;
  return undefined;
}

/** Paths a message names one by one: a change across a project touches a thousand. */
const NAMED_PATHS = 10;

/** "a, b and 3 more". */
function someOf(names: readonly string[], total = names.length): string {
  const shown = names.slice(0, NAMED_PATHS).join(', ');
  return total > NAMED_PATHS ? vscode.l10n.t('{0} and {1} more', shown, total - NAMED_PATHS) : shown;
}

function describeRestored(envelope: Envelope): string {
  if (!envelope.ok) return envelope.error.message;
  const data = envelope.data as { summary?: string; restored?: { path: string; action: string }[]; restored_count?: number };
  const listed = (data.restored ?? []).map((each) => `${each.path} ${each.action}`);
  const restored = someOf(listed, data.restored_count ?? listed.length);
  return data.summary === undefined
    ? vscode.l10n.t('Agent FS undid the change: {0}.', restored)
    : vscode.l10n.t('Agent FS undid {0}: {1}.', data.summary, restored);
}

async function confirmAndUndo(
  deps: HistoryCommandDependencies,
  record: OperationRecord,
  operation: 'undo_last' | 'undo_operation',
): Promise<Envelope | undefined> {
  const dialogs = deps.dialogs();
  const paths = someOf(record.paths.map((path) => path.display));
  const confirmed = await dialogs.confirm(
    vscode.l10n.t(
      'Undo "{0}" from {1}? Its changes to {2} will be taken out; later changes to other lines are kept.',
      record.summary,
      new Date(record.time).toLocaleString(),
      paths,
    ),
    vscode.l10n.t('Undo'),
  );
  if (!confirmed) return undefined;
  const envelope = await deps.tools.invoke(operation, operation === 'undo_last' ? {} : { operation_id: record.id });
  if (envelope.ok) dialogs.info(describeRestored(envelope));
  else dialogs.error(vscode.l10n.t('Agent FS could not undo {0}: {1}', record.summary, envelope.error.message));
  deps.view.refresh();
  return envelope;
}

export function registerHistoryCommands(deps: HistoryCommandDependencies): vscode.Disposable[] {
  const { store } = deps;
  return [
    vscode.commands.registerCommand('agentFs.showHistory', async (): Promise<string | undefined> => {
      const records = (await store.list()).slice(0, SHOWN_OPERATIONS);
      const undone = undoneBy(records);
      const choices: OperationChoice[] = records.map((record) => ({
        id: record.id,
        label: record.summary,
        description: [relativeTime(record.time), statusOf(record, undone.get(record.id))].filter((part) => part !== '').join(' · '),
        detail: fileChanges(record)
          .map((change) => `${change.change.replace('_', ' ')} ${change.path}`)
          .join(', '),
      }));
      if (choices.length === 0) {
        deps.dialogs().info(vscode.l10n.t('Agent FS has recorded no changes yet.'));
        return undefined;
      }
      const picked = await deps.dialogs().pickOperation(choices);
      const record = picked === undefined ? undefined : await store.get(picked);
      if (record) await openDiff(record);
      return record?.id;
    }),
    vscode.commands.registerCommand('agentFs.undoLast', async (): Promise<Envelope | undefined> => {
      let target: OperationRecord;
      try {
        ({ target } = await undoLastTarget(store));
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        deps.dialogs().info(error.message);
        return undefined;
      }
      return confirmAndUndo(deps, target, 'undo_last');
    }),
    vscode.commands.registerCommand('agentFs.undoSession', (target: unknown) => undoSessionCommand(deps, target)),
    vscode.commands.registerCommand('agentFs.history.undo', async (target: unknown): Promise<Envelope | undefined> => {
      const record = await recordOf(store, target);
      return record ? confirmAndUndo(deps, record, 'undo_operation') : undefined;
    }),
    vscode.commands.registerCommand('agentFs.history.openDiff', async (target: unknown): Promise<string[]> => {
      const record = await recordOf(store, target);
      if (!record) return [];
      const only =
        typeof target === 'object' && target !== null && (target as ActivityNode).kind === 'change'
          ? (target as Extract<ActivityNode, { kind: 'change' }>).change
          : undefined;
      return (await openDiff(record, only)).map((uri) => uri.toString());
    }),
    vscode.commands.registerCommand('agentFs.history.openSession', (target: unknown) => openSessionCommand(deps, target)),
    vscode.commands.registerCommand('agentFs.history.refresh', () => deps.view.refresh()),
    vscode.commands.registerCommand('agentFs.history.clear', async (): Promise<boolean> => {
      if (
        !(await deps
          .dialogs()
          .confirm(
            vscode.l10n.t(
              'Clear the Agent FS change history? Recorded changes can no longer be reviewed or undone. Files are not touched.',
            ),
            vscode.l10n.t('Clear History'),
          ))
      )
        return false;
      await store.clear();
      deps.view.refresh();
      return true;
    }),
  ];
}

/** A session given as a view node or an id; otherwise the person picks one. */
async function pickSession(deps: HistoryCommandDependencies, target: unknown): Promise<string | undefined> {
  if (typeof target === 'string') return target;
  if (typeof target === 'object' && target !== null && (target as ActivityNode).kind === 'session')
    return (target as Extract<ActivityNode, { kind: 'session' }>).session.id;
  const groups = groupBySession(await deps.store.list()).filter((group) => group.undoable);
  if (groups.length === 0) {
    deps.dialogs().info(vscode.l10n.t('No agent session has changes waiting to be undone.'));
    return undefined;
  }
  const choices: OperationChoice[] = groups.map((group) => {
    const targets = sessionTargets(group.records, group.id);
    const files = sessionFiles(targets);
    return {
      id: group.id,
      label: sessionLabel(group),
      description: [
        group.origin?.label,
        group.id,
        targets.length === 1 ? vscode.l10n.t('1 change') : vscode.l10n.t('{0} changes', targets.length),
        relativeTime(group.records[0]?.time ?? ''),
      ]
        .filter((part) => part !== undefined && part !== '')
        .join(' · '),
      detail: files.length > 8 ? vscode.l10n.t('{0} and {1} more', files.slice(0, 8).join(', '), files.length - 8) : files.join(', '),
    };
  });
  return deps.dialogs().pickSession(choices);
}

/**
 * "Undo an Agent Session…": the session picked, its changes shown as one diff (each file from before the session to
 * as the session left it), the person's confirmation, then undo_last with that session through the ToolHost, so the
 * undo is checked, all or nothing, and recorded as one change like a model's.
 */
async function undoSessionCommand(deps: HistoryCommandDependencies, target: unknown): Promise<Envelope | undefined> {
  const session = await pickSession(deps, target);
  if (session === undefined) return undefined;
  let targets: OperationRecord[];
  try {
    targets = await requireSessionTargets(deps.store, session);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    deps.dialogs().info(error.message);
    return undefined;
  }
  await openSessionDiff(session, targets);
  const files = sessionFiles(targets);
  const confirmed = await deps
    .dialogs()
    .confirm(
      vscode.l10n.t(
        'Undo {0}? Its changes to {1} will be taken out; later changes to other lines are kept, and nothing is changed if any overlap.',
        sessionText(session, targets, EDITOR_L10N),
        files.join(', '),
      ),
      vscode.l10n.t('Undo Session'),
    );
  if (!confirmed) return undefined;
  const envelope = await deps.tools.invoke('undo_last', { session });
  if (envelope.ok) deps.dialogs().info(describeRestored(envelope));
  else
    deps
      .dialogs()
      .error(vscode.l10n.t('Agent FS could not undo {0}: {1}', sessionText(session, targets, EDITOR_L10N), envelope.error.message));
  deps.view.refresh();
  return envelope;
}

/** A session's changes still in force, as one multi-file diff (the Activity view's session items open it). */
async function openSessionCommand(deps: HistoryCommandDependencies, target: unknown): Promise<string[]> {
  const session = await pickSession(deps, target);
  if (session === undefined) return [];
  const targets = sessionTargets(await deps.store.list(), session);
  if (targets.length === 0) {
    deps.dialogs().info(vscode.l10n.t('Every change of this session has been undone.'));
    return [];
  }
  const title = vscode.l10n.t('Changes of {0}', sessionText(session, targets, EDITOR_L10N));
  return (await openSessionDiff(session, targets, title)).map((uri) => uri.toString());
}
