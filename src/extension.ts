/** Activation: read settings, build the session, register tools and commands. Nothing else lives here. */
import * as vscode from 'vscode';
import type { Envelope } from './core/envelope';
import type { Preparation } from './core/tool';
import { RESULT_SCHEME, registerCommands, ResultDocuments } from './vscode/commands';
import { defaultDialogs, type Dialogs } from './vscode/dialogs';
import { registerConnectCommand } from './vscode/connect';
import { createHistoryStore, historyDirectory, registerHistoryUi } from './vscode/history';
import { ActivityView, watchHistoryStore } from './vscode/history/view';
import { CallLog } from './vscode/log';
import { watchReportingLanguages } from './vscode/problems';
import { EditorSession, closePathIndex, savePathIndexIn } from './vscode/session';
import { PolicyPublisher } from './vscode/sharedPolicy';
import { ChangePreviews, PREVIEW_SCHEME, type ShownPreview } from './vscode/preview';
import { registerBaseDirectoryStatus } from './vscode/statusBar';
import { ToolHost } from './vscode/tools';

/** What `activate` returns: the hooks the integration tests use. */
export interface AgentFsApi {
  /** A call on the same path as a model's (validation, settings, envelope), without VS Code's confirmation UI. */
  invoke(operation: string, input: unknown): Promise<Envelope>;
  /** What prepareInvocation answers for this input: the progress message and any confirmation. */
  prepare(operation: string, input: unknown): Promise<Preparation>;
  /** Exactly what the registered tool's prepareInvocation does, the change's preview opened included. */
  prepareInvocation(operation: string, input: unknown): Promise<{ preparation: Preparation; preview?: ShownPreview }>;
  /** Replaces some of the dialogs the commands show (tests answer them this way). */
  setDialogs(overrides: Partial<Dialogs>): void;
  /** The "Agent FS Activity" view's data, as the tree shows it. */
  readonly activity: ActivityView;
}

export function activate(context: vscode.ExtensionContext): AgentFsApi {
  const log = new CallLog();
  const history = createHistoryStore(context);
  // The path index is saved where this extension keeps its own state, on the local disk only (it reads through node:fs).
  savePathIndexIn(context.globalStorageUri.scheme === 'file' ? `${context.globalStorageUri.fsPath}/path-index` : undefined);
  const session = new EditorSession(context.workspaceState, history);
  const activity = new ActivityView(history);
  const previews = new ChangePreviews((path) => session.uriOf(path));
  // Every finished call may have changed the history: the view refreshes as calls happen.
  const tools = new ToolHost(session, log, previews, (_operation, envelope) => {
    if (envelope.ok && typeof (envelope.data as { operation_id?: unknown } | null)?.operation_id === 'string') activity.refresh();
  });
  // What this window enforces, published for the agents "Connect Another Agent…" connects (they share the folder).
  // Only for a workspace: windows without one share the global storage, where each would overwrite the others'.
  const policy = context.storageUri
    ? new PolicyPublisher(session, historyDirectory(context), context.storageUri, (line) => log.channel.warn(line))
    : undefined;
  void policy?.publish();
  const results = new ResultDocuments();
  let dialogs: Dialogs = defaultDialogs;

  context.subscriptions.push(
    log,
    ...(policy ? [policy] : []),
    ...tools.register(),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    ...registerCommands({
      session,
      state: context.workspaceState,
      log,
      results,
      dialogs: () => dialogs,
      byPerson: (operation) => tools.expectPerson(operation),
    }),
    ...registerHistoryUi({ store: history, tools, view: activity, dialogs: () => dialogs }),
    ...registerBaseDirectoryStatus(session),
    watchHistoryStore(historyDirectory(context), activity),
    watchReportingLanguages(),
    registerConnectCommand({
      session,
      extensionUri: context.extensionUri,
      historyDirectory: historyDirectory(context),
      dialogs: () => dialogs,
    }),
  );

  return {
    invoke: (operation, input) => tools.invoke(operation, input),
    prepare: (operation, input) => tools.prepare(operation, input),
    prepareInvocation: (operation, input) => tools.prepareInvocation(operation, input),
    activity,
    setDialogs: (overrides) => {
      dialogs = { ...dialogs, ...overrides };
    },
  };
}

export function deactivate(): void {
  closePathIndex();
}
