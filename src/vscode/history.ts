/**
 * The person's side of the history: the "Agent FS Activity" view in the Explorer, the diff documents it opens
 * (served read-only from the history store under their own scheme), and the commands "Show Change History" and
 * "Undo Last Change". Undos go through the ToolHost, the same path a model's undo takes, so they are validated,
 * checked for conflicts and recorded alike. The status bar item that opens the view is statusBar.ts's.
 *
 * Over 300 lines: the view, its documents and its commands share how a record is shown (times, states, diff titles).
 */
import * as vscode from 'vscode';
import type { Envelope } from '../core/envelope';
import { ToolError } from '../core/errors';
import { displayText, type FileChange, fileChanges, sideContent } from '../core/history/changes';
import { HistoryStore, type OperationRecord } from '../core/history/store';
import { undoneBy } from '../core/recording/undo';
import { basename, dirname } from '../core/paths';
import { findTool } from '../core/tools';
import { undoLastTarget } from '../core/tools/undoLast';
import type { Dialogs, OperationChoice } from './dialogs';
import { VscodeFileSystem, watchFolder } from './fileSystem';
import { readHistoryLimits } from './settings';
import type { ToolHost } from './tools';

export const HISTORY_SCHEME = 'agentfs-history';
export const ACTIVITY_VIEW = 'agentFs.activity';
/** Operations the view and the quick pick show; history_list reaches the rest. */
const SHOWN_OPERATIONS = 200;

type Side = 'before' | 'after';

/** `agentfs-history:/<side>/<path>?<operation id>`: the path keeps the file's name, so the editor picks its language. */
export function historyUri(record: OperationRecord, change: FileChange, side: Side): vscode.Uri {
  return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${side}/${change.path}`, query: record.id });
}

/** Serves one side of a recorded change as a read-only document. */
export class HistoryDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: HistoryStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const record = await this.store.get(uri.query);
    if (!record) return `(Operation ${uri.query} is no longer in the history.)`;
    const [, side = 'after', ...rest] = uri.path.split('/');
    const path = rest.join('/');
    const change = fileChanges(record).find((each) => each.path === path);
    if (!change) return '';
    const state = side === 'before' ? change.before : change.after;
    const bytes = await sideContent(this.store, record, state);
    if (bytes === undefined) {
      return state.type === 'file'
        ? `(Content not recorded: ${state.size ?? 0} bytes, over the history's size cap agentFs.history.maxBytes.)`
        : `(A ${state.type}, which has no text.)`;
    }
    return displayText(bytes) ?? `(Binary content, ${bytes.length} bytes, ${state.type === 'file' ? (state.hash ?? '') : ''}.)`;
  }
}

function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleString();
}

export type ActivityNode =
  | { readonly kind: 'operation'; readonly record: OperationRecord; readonly undoneBy?: string }
  | { readonly kind: 'change'; readonly record: OperationRecord; readonly change: FileChange };

/** A one-line status for people: "undone" or "cannot be undone" (an undo says so in its summary). */
function statusOf(record: OperationRecord, undoneByOperation: string | undefined): string {
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

export interface HistoryCommandDependencies {
  readonly store: HistoryStore;
  readonly tools: ToolHost;
  readonly view: ActivityView;
  readonly dialogs: () => Dialogs;
}

/** An operation given as a view node, or as an id (from tests, keybindings or other extensions). */
async function recordOf(store: HistoryStore, target: unknown): Promise<OperationRecord | undefined> {
  if (typeof target === 'string') return store.get(target);
  if (typeof target === 'object' && target !== null && 'record' in target) return (target as ActivityNode).record;
  return undefined;
}

/** Opens the diff of one change, or every change of an operation side by side; returns the documents opened. */
export async function openDiff(record: OperationRecord, only?: FileChange): Promise<vscode.Uri[]> {
  const changes = only ? [only] : fileChanges(record);
  if (changes.length === 0) return [];
  const title = (change: FileChange): string => `${change.path} (${record.operation}, ${relativeTime(record.time)})`;
  const first = changes[0];
  if (changes.length === 1 && first) {
    const left = historyUri(record, first, 'before');
    const right = historyUri(record, first, 'after');
    await vscode.commands.executeCommand('vscode.diff', left, right, title(first), { preview: true });
    return [left, right];
  }
  const resources = changes.map(
    (change) => [historyUri(record, change, 'after'), historyUri(record, change, 'before'), historyUri(record, change, 'after')] as const,
  );
  try {
    await vscode.commands.executeCommand('vscode.changes', `${record.summary} (${relativeTime(record.time)})`, resources);
  } catch {
    // No multi-file diff editor in this VS Code: show the first change.
    if (first)
      await vscode.commands.executeCommand(
        'vscode.diff',
        historyUri(record, first, 'before'),
        historyUri(record, first, 'after'),
        title(first),
      );
  }
  return resources.flatMap(([, left, right]) => [left, right]);
}

function describeRestored(envelope: Envelope): string {
  if (!envelope.ok) return envelope.error.message;
  const data = envelope.data as { summary?: string; restored?: { path: string; action: string }[] };
  const restored = (data.restored ?? []).map((each) => `${each.path} ${each.action}`).join(', ');
  return `Agent FS undid ${data.summary ?? 'the change'}: ${restored}.`;
}

async function confirmAndUndo(
  deps: HistoryCommandDependencies,
  record: OperationRecord,
  operation: 'undo_last' | 'undo_operation',
): Promise<Envelope | undefined> {
  const dialogs = deps.dialogs();
  const paths = record.paths.map((path) => path.display).join(', ');
  const confirmed = await dialogs.confirm(
    `Undo "${record.summary}" from ${new Date(record.time).toLocaleString()}? ${paths} will be put back as they were before it.`,
    'Undo',
  );
  if (!confirmed) return undefined;
  const envelope = await deps.tools.invoke(operation, operation === 'undo_last' ? {} : { operation_id: record.id });
  if (envelope.ok) dialogs.info(describeRestored(envelope));
  else dialogs.error(`Agent FS could not undo ${record.summary}: ${envelope.error.message}`);
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
        deps.dialogs().info('Agent FS has recorded no changes yet.');
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
    vscode.commands.registerCommand('agentFs.history.refresh', () => deps.view.refresh()),
    vscode.commands.registerCommand('agentFs.history.clear', async (): Promise<boolean> => {
      if (
        !(await deps
          .dialogs()
          .confirm(
            'Clear the Agent FS change history? Recorded changes can no longer be reviewed or undone. Files are not touched.',
            'Clear History',
          ))
      )
        return false;
      await store.clear();
      deps.view.refresh();
      return true;
    }),
  ];
}

/**
 * The store lives in the extension's workspace storage (outside every workspace folder, kept across reloads), or in
 * its global storage when no folder is open. Limits are read on every record, so setting changes apply at once.
 */
export function createHistoryStore(context: vscode.ExtensionContext): HistoryStore {
  const base = context.storageUri ?? context.globalStorageUri;
  return new HistoryStore(new VscodeFileSystem([base]), historyDirectory(context).path, () =>
    readHistoryLimits(vscode.workspace.workspaceFolders?.[0]?.uri),
  );
}

/** The history store's folder: other processes (the runner, MCP servers started with --state) may share it. */
export function historyDirectory(context: vscode.ExtensionContext): vscode.Uri {
  return vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'history');
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

export interface HistoryUi {
  readonly store: HistoryStore;
  readonly tools: ToolHost;
  readonly view: ActivityView;
  readonly dialogs: () => Dialogs;
}

/** Registers the view, the diff documents and the commands. */
export function registerHistoryUi(ui: HistoryUi): vscode.Disposable[] {
  return [
    vscode.window.createTreeView(ACTIVITY_VIEW, { treeDataProvider: ui.view, showCollapseAll: true }),
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, new HistoryDocuments(ui.store)),
    ...registerHistoryCommands({ store: ui.store, tools: ui.tools, view: ui.view, dialogs: ui.dialogs }),
  ];
}
