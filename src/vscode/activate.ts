/**
 * What activation does on every platform: read settings, build the session, register the tools, the commands, the
 * Activity view and the status bar. The desktop entry (src/extension.ts) lends it the local disk and adds what needs
 * Node (Connect Another Agent, the policy other agents share); the browser's (src/extension.web.ts) adds nothing.
 */
import * as vscode from 'vscode';
import type { Envelope } from '../core/envelope';
import type { Preparation } from '../core/tool';
import { RESULT_SCHEME, registerCommands, ResultDocuments } from './commands';
import { defaultDialogs, type Dialogs } from './dialogs';
import { createHistoryStore, historyDirectory, registerHistoryUi } from './history';
import { AgentReview } from './history/review';
import { ActivityView, watchHistoryStore } from './history/view';
import { CallLog } from './log';
import { watchReportingLanguages } from './problems';
import { ChangePreviews, PREVIEW_SCHEME, type ShownPreview } from './preview';
import { EditorSession, type LocalServices } from './session';
import { registerBaseDirectoryStatus } from './statusBar';
import { ToolHost } from './tools';

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
  /** The review of agents' changes: the source control's quick diff and resource group. */
  readonly review: AgentReview;
}

/** What a platform's own additions are given. */
interface ActivatedParts {
  readonly session: EditorSession;
  readonly log: CallLog;
  readonly dialogs: () => Dialogs;
}

export interface Platform {
  /** What the local disk offers the session; undefined in the browser. */
  readonly local?: LocalServices;
  /** Registers what only this platform has, once the common parts exist. */
  readonly extras?: (parts: ActivatedParts) => vscode.Disposable[];
}

export function activateAgentFs(context: vscode.ExtensionContext, platform: Platform): AgentFsApi {
  const log = new CallLog();
  const history = createHistoryStore(context, (line) => log.channel.warn(line));
  const session = new EditorSession(context.workspaceState, history, platform.local, context.extensionUri);
  const activity = new ActivityView(history);
  const review = new AgentReview(history, context.workspaceState, (path) => session.uriOf(path));
  const previews = new ChangePreviews((path) => session.uriOf(path));
  // Every finished call may have changed the history: the view and the review refresh as calls happen.
  const tools = new ToolHost(session, log, previews, (_operation, envelope) => {
    if (envelope.ok && typeof (envelope.data as { operation_id?: unknown } | null)?.operation_id === 'string') {
      activity.refresh();
      review.refresh();
    }
  });
  const results = new ResultDocuments();
  let dialogs: Dialogs = defaultDialogs;

  context.subscriptions.push(
    log,
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
    ...registerHistoryUi({ store: history, tools, view: activity, review, dialogs: () => dialogs }),
    ...registerBaseDirectoryStatus(session),
    watchHistoryStore(historyDirectory(context), activity, review),
    watchReportingLanguages(),
    ...(platform.extras?.({ session, log, dialogs: () => dialogs }) ?? []),
  );

  return {
    invoke: (operation, input) => tools.invoke(operation, input),
    prepare: (operation, input) => tools.prepare(operation, input),
    prepareInvocation: (operation, input) => tools.prepareInvocation(operation, input),
    activity,
    review,
    setDialogs: (overrides) => {
      dialogs = { ...dialogs, ...overrides };
    },
  };
}
