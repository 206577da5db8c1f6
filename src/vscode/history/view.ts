/**
 * The "Agent FS Activity" view in the Explorer: the recorded operations grouped by agent and session (newest session
 * first), each session with its operations (newest first) and each operation with its changed files, refreshed
 * whenever a record appears in or leaves the store, whoever wrote it.
 */
import * as vscode from 'vscode';
import { type FileChange, fileChanges } from '../../core/history/changes';
import type { HistoryStore, OperationRecord } from '../../core/history/store';
import { agentText, type Origin } from '../../core/history/origin';
import { undoneBy } from '../../core/recording/records';
import { sessionTargets } from '../../core/recording/sessionUndo';
import { basename, dirname } from '../../core/paths';
import { findTool } from '../../core/tools';
import { watchFolder } from '../fileSystem';
import { historyUri, relativeTime } from './documents';

export const ACTIVITY_VIEW = 'agentFs.activity';
/** Operations the view and the quick pick show; history_list reaches the rest. */
export const SHOWN_OPERATIONS = 200;

export type ActivityNode =
  | { readonly kind: 'session'; readonly session: SessionGroup }
  | { readonly kind: 'operation'; readonly record: OperationRecord; readonly undoneBy?: string }
  | { readonly kind: 'change'; readonly record: OperationRecord; readonly change: FileChange };

/** The records of one session (or, for records written before sessions were kept, of none), newest first. */
export interface SessionGroup {
  /** The session id; '' for records without one. */
  readonly id: string;
  readonly origin?: Origin;
  readonly records: readonly OperationRecord[];
  /** Whether "Undo an Agent Session…" can take it: changes in force, every one undoable. */
  readonly undoable: boolean;
}

/** Records (newest first) grouped by session, the session with the newest change first. */
export function groupBySession(records: readonly OperationRecord[]): SessionGroup[] {
  const groups = new Map<string, OperationRecord[]>();
  for (const record of records) {
    const id = record.origin?.session ?? '';
    groups.set(id, [...(groups.get(id) ?? []), record]);
  }
  return [...groups].map(([id, members]) => {
    const targets = id === '' ? [] : sessionTargets(records, id);
    return {
      id,
      ...(members[0]?.origin ? { origin: members[0].origin } : {}),
      records: members,
      undoable: targets.length > 0 && targets.every((record) => record.undo_available),
    };
  });
}

/** "claude-code 2.1.0", or what records without an origin are shown as. */
export function sessionLabel(group: SessionGroup): string {
  return group.id === '' ? vscode.l10n.t('Earlier changes (no agent recorded)') : agentText(group.origin);
}

/** A one-line status for people: "undone" or "cannot be undone" (an undo says so in its summary). */
export function statusOf(record: OperationRecord, undoneByOperation: string | undefined): string {
  if (undoneByOperation !== undefined) return 'undone';
  return record.undo_available ? '' : 'cannot be undone';
}

export class ActivityView implements vscode.TreeDataProvider<ActivityNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly store: HistoryStore) {}

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(node?: ActivityNode): Promise<ActivityNode[]> {
    if (node?.kind === 'change') return [];
    if (node?.kind === 'operation') return fileChanges(node.record).map((change) => ({ kind: 'change', record: node.record, change }));
    const records = await this.store.list();
    if (node?.kind === 'session') {
      const undone = undoneBy(records);
      return node.session.records.map((record) => {
        const by = undone.get(record.id);
        return by === undefined ? { kind: 'operation', record } : { kind: 'operation', record, undoneBy: by };
      });
    }
    return groupBySession(records.slice(0, SHOWN_OPERATIONS)).map((session) => ({ kind: 'session', session }));
  }

  getTreeItem(node: ActivityNode): vscode.TreeItem {
    if (node.kind === 'session') return sessionItem(node.session);
    if (node.kind === 'change') {
      const item = new vscode.TreeItem(basename(node.change.path), vscode.TreeItemCollapsibleState.None);
      const folder = dirname(`/${node.change.path}`).slice(1);
      item.description = `${node.change.change.replace('_', ' ')}${folder === '' ? '' : ` · ${folder}`}`;
      item.resourceUri = historyUri(node.record, node.change, 'after');
      item.contextValue = 'agentFs.change';
      item.tooltip = `${node.change.path}: ${node.change.change.replace('_', ' ')}`;
      item.command = { command: 'agentFs.history.openDiff', title: 'Open Diff', arguments: [node] };
      return item;
    }
    const { record } = node;
    const changes = fileChanges(record);
    const item = new vscode.TreeItem(
      record.summary,
      changes.length > 1 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = record.id;
    const status = statusOf(record, node.undoneBy);
    item.description = [relativeTime(record.time), status].filter((part) => part !== '').join(' · ');
    item.iconPath = new vscode.ThemeIcon(
      findTool(record.operation)?.icon ?? 'history',
      node.undoneBy !== undefined ? new vscode.ThemeColor('disabledForeground') : undefined,
    );
    const undoable = record.undo_available && node.undoneBy === undefined && record.undo_of === undefined;
    item.contextValue = undoable ? 'agentFs.operation.undoable' : 'agentFs.operation';
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${record.operation}** — ${new Date(record.time).toLocaleString()}\n\n`);
    for (const path of record.paths) tooltip.appendMarkdown(`- \`${path.display}\`\n`);
    if (node.undoneBy !== undefined) tooltip.appendMarkdown(`\nUndone by operation \`${node.undoneBy}\`.`);
    else if (record.undo_of !== undefined) tooltip.appendMarkdown(`\nUndo of operation \`${record.undo_of}\`.`);
    if (!record.undo_available) tooltip.appendMarkdown(`\nCannot be undone: ${record.unavailable_reason ?? 'not recorded'}.`);
    tooltip.appendMarkdown(`\n\nOperation \`${record.id}\``);
    item.tooltip = tooltip;
    if (changes.length <= 1) item.command = { command: 'agentFs.history.openDiff', title: 'Open Diff', arguments: [node] };
    return item;
  }
}

function sessionItem(group: SessionGroup): vscode.TreeItem {
  const item = new vscode.TreeItem(sessionLabel(group), vscode.TreeItemCollapsibleState.Expanded);
  item.id = `session:${group.id}`;
  const newest = group.records[0];
  const count = group.records.length === 1 ? vscode.l10n.t('1 change') : vscode.l10n.t('{0} changes', group.records.length);
  item.description = [group.origin?.label, group.id === '' ? '' : group.id, count, newest ? relativeTime(newest.time) : '']
    .filter((part) => part !== undefined && part !== '')
    .join(' · ');
  item.iconPath = new vscode.ThemeIcon(group.origin?.host === 'editor' ? 'vscode' : group.origin ? 'hubot' : 'history');
  item.contextValue = group.undoable ? 'agentFs.session.undoable' : 'agentFs.session';
  if (group.id !== '')
    item.command = { command: 'agentFs.history.openSession', title: 'Open Changes', arguments: [{ kind: 'session', session: group }] };
  const tooltip = new vscode.MarkdownString(undefined, true);
  if (group.origin) {
    tooltip.appendMarkdown(`**${agentText(group.origin)}** (as its client names itself), ${HOSTS[group.origin.host]}\n\n`);
    tooltip.appendMarkdown(`Session \`${group.id}\`${group.origin.label === undefined ? '' : `, labelled \`${group.origin.label}\``}\n\n`);
  }
  tooltip.appendMarkdown(`${count}; the newest ${newest ? new Date(newest.time).toLocaleString() : ''}.`);
  item.tooltip = tooltip;
  return item;
}

const HOSTS: Readonly<Record<Origin['host'], string>> = {
  editor: 'in this editor',
  mcp: 'through the MCP server',
  runner: 'through the runner',
  outside: 'by the person or another program',
};

/** Refreshes coalesce: one burst of records (a patch, a series of calls) redraws the view once. */
const REFRESH_DELAY_MS = 200;

/**
 * Refreshes the Activity view (and the review of agents' changes) when a record appears in or leaves the store,
 * whoever wrote it: another agent's MCP server or the runner working with `--state` on this folder records there
 * too, and its changes are then listed, reviewed and undoable here.
 */
export function watchHistoryStore(directory: vscode.Uri, ...views: readonly { refresh(): void }[]): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Every record, whoever writes it, is a write to the store's pack (history/store.ts).
  const watcher = watchFolder(directory, 'pack', () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      for (const view of views) view.refresh();
    }, REFRESH_DELAY_MS);
  });
  return {
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      watcher.dispose();
    },
  };
}
