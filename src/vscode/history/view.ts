/**
 * The "Agent FS Activity" view in the Explorer: the recorded operations, newest first, each with its changed files,
 * refreshed whenever a record appears in or leaves the store, whoever wrote it.
 */
import * as vscode from 'vscode';
import { type FileChange, fileChanges } from '../../core/history/changes';
import type { HistoryStore, OperationRecord } from '../../core/history/store';
import { undoneBy } from '../../core/recording/records';
import { basename, dirname } from '../../core/paths';
import { findTool } from '../../core/tools';
import { watchFolder } from '../fileSystem';
import { historyUri, relativeTime } from './documents';

export const ACTIVITY_VIEW = 'agentFs.activity';
/** Operations the view and the quick pick show; history_list reaches the rest. */
export const SHOWN_OPERATIONS = 200;

export type ActivityNode =
  | { readonly kind: 'operation'; readonly record: OperationRecord; readonly undoneBy?: string }
  | { readonly kind: 'change'; readonly record: OperationRecord; readonly change: FileChange };

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
    const undone = undoneBy(records);
    return records.slice(0, SHOWN_OPERATIONS).map((record) => {
      const by = undone.get(record.id);
      return by === undefined ? { kind: 'operation', record } : { kind: 'operation', record, undoneBy: by };
    });
  }

  getTreeItem(node: ActivityNode): vscode.TreeItem {
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

/** Refreshes coalesce: one burst of records (a patch, a series of calls) redraws the view once. */
const REFRESH_DELAY_MS = 200;

/**
 * Refreshes the Activity view when a record appears in or leaves the store, whoever wrote it: another agent's MCP
 * server or the runner working with `--state` on this folder records there too, and its changes are then listed
 * and undoable here.
 */
export function watchHistoryStore(directory: vscode.Uri, view: ActivityView): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher = watchFolder(vscode.Uri.joinPath(directory, 'operations'), '*.json', () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      view.refresh();
    }, REFRESH_DELAY_MS);
  });
  return {
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      watcher.dispose();
    },
  };
}
