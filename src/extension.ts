/** Activation: read settings, build the session, register tools and commands. Nothing else lives here. */
import * as vscode from 'vscode';
import type { Envelope } from './core/envelope';
import type { Preparation } from './core/tool';
import { RESULT_SCHEME, registerCommands, ResultDocuments } from './vscode/commands';
import { defaultDialogs, type Dialogs } from './vscode/dialogs';
import { CallLog } from './vscode/log';
import { EditorSession } from './vscode/session';
import { ToolHost } from './vscode/tools';

/** What `activate` returns: the hooks the integration tests use. */
export interface AgentFsApi {
  /** A call on the same path as a model's (validation, settings, envelope), without VS Code's confirmation UI. */
  invoke(operation: string, input: unknown): Promise<Envelope>;
  /** What prepareInvocation answers for this input: the progress message and any confirmation. */
  prepare(operation: string, input: unknown): Promise<Preparation>;
  /** Replaces some of the dialogs the commands show (tests answer them this way). */
  setDialogs(overrides: Partial<Dialogs>): void;
}

export function activate(context: vscode.ExtensionContext): AgentFsApi {
  const log = new CallLog();
  const session = new EditorSession(context.workspaceState);
  const tools = new ToolHost(session, log);
  const results = new ResultDocuments();
  let dialogs: Dialogs = defaultDialogs;

  context.subscriptions.push(
    log,
    ...tools.register(),
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    ...registerCommands({ session, state: context.workspaceState, log, results, dialogs: () => dialogs }),
  );

  return {
    invoke: (operation, input) => tools.invoke(operation, input),
    prepare: (operation, input) => tools.prepare(operation, input),
    setDialogs: (overrides) => {
      dialogs = { ...dialogs, ...overrides };
    },
  };
}

export function deactivate(): void {}
