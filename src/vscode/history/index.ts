/**
 * The person's side of the history: the "Agent FS Activity" view in the Explorer, the diff documents it opens
 * (served read-only from the history store under their own scheme), and the commands "Show Change History",
 * "Undo Last Change" and "Undo an Agent Session…". Undos go through the ToolHost, the same path a model's undo
 * takes, so they are validated, checked for conflicts and recorded alike. The status bar item that opens the view is
 * statusBar.ts's.
 *
 * The view is view.ts's, the diff documents documents.ts's, the commands commands.ts's, the review of agents' changes
 * in the editor (quick diff, per-hunk revert, Keep) review.ts's; this file makes the store and registers them.
 */
import * as vscode from 'vscode';
import { HistoryStore } from '../../core/history/store';
import type { Dialogs } from '../dialogs';
import { VscodeFileSystem } from '../fileSystem';
import { readHistoryLimits } from '../settings';
import type { ToolHost } from '../tools';
import { registerHistoryCommands } from './commands';
import { HISTORY_SCHEME, HistoryDocuments } from './documents';
import { type AgentReview, registerReview } from './review';
import { ACTIVITY_VIEW, ActivityView } from './view';

/**
 * The store lives in the extension's workspace storage (outside every workspace folder, kept across reloads), or in
 * its global storage when no folder is open. Limits are read on every record, so setting changes apply at once. What
 * the store repairs (a torn pack cut after a crash, an old layout migrated) goes to `log`.
 */
export function createHistoryStore(context: vscode.ExtensionContext, log: (line: string) => void): HistoryStore {
  const base = context.storageUri ?? context.globalStorageUri;
  return new HistoryStore(
    new VscodeFileSystem([base]),
    historyDirectory(context).path,
    () => readHistoryLimits(vscode.workspace.workspaceFolders?.[0]?.uri),
    log,
  );
}

/** The history store's folder: other processes (the runner, MCP servers started with --state) may share it. */
export function historyDirectory(context: vscode.ExtensionContext): vscode.Uri {
  return vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'history');
}

export interface HistoryUi {
  readonly store: HistoryStore;
  readonly tools: ToolHost;
  readonly view: ActivityView;
  readonly review: AgentReview;
  readonly dialogs: () => Dialogs;
}

/** Registers the view, the diff documents, the review and the commands. */
export function registerHistoryUi(ui: HistoryUi): vscode.Disposable[] {
  return [
    vscode.window.createTreeView(ACTIVITY_VIEW, { treeDataProvider: ui.view, showCollapseAll: true }),
    vscode.workspace.registerTextDocumentContentProvider(HISTORY_SCHEME, new HistoryDocuments(ui.store)),
    ...registerHistoryCommands({ store: ui.store, tools: ui.tools, view: ui.view, dialogs: ui.dialogs }),
    ...registerReview({ review: ui.review, tools: ui.tools, dialogs: ui.dialogs }),
  ];
}
