/**
 * Activation on the desktop (and in remote extension hosts): the common activation (src/vscode/activate.ts) with the
 * local disk lent to it, plus what needs Node: "Connect Another Agent…" and the policy the agents it connects share.
 */
import * as vscode from 'vscode';
import { activateAgentFs, type AgentFsApi } from './vscode/activate';
import { useLocalDisk } from './vscode/fileSystem';
import { historyDirectory } from './vscode/history';
import { registerConnectCommand } from './vscode/node/connect';
import { nodeLocalDisk } from './vscode/node/disk';
import { closePathIndex, nodeLocalServices, savePathIndexIn } from './vscode/node/local';
import { PolicyPublisher } from './vscode/sharedPolicy';

export type { AgentFsApi } from './vscode/activate';

/** Set where "Connect Another Agent…" runs (menus and the walkthrough show it only then). */
const CAN_CONNECT = 'agentFs.canConnect';

export function activate(context: vscode.ExtensionContext): AgentFsApi {
  useLocalDisk(nodeLocalDisk);
  // The path index is saved where this extension keeps its own state, on the local disk only (it reads through node:fs).
  savePathIndexIn(context.globalStorageUri.scheme === 'file' ? `${context.globalStorageUri.fsPath}/path-index` : undefined);
  void vscode.commands.executeCommand('setContext', CAN_CONNECT, true);
  return activateAgentFs(context, {
    local: nodeLocalServices,
    extras: ({ session, log, dialogs }) => {
      // What this window enforces, published for the agents "Connect Another Agent…" connects (they share the folder).
      // Only for a workspace: windows without one share the global storage, where each would overwrite the others'.
      const policy = context.storageUri
        ? new PolicyPublisher(session, historyDirectory(context), context.storageUri, (line) => log.channel.warn(line))
        : undefined;
      void policy?.publish();
      return [
        ...(policy ? [policy] : []),
        registerConnectCommand({ session, extensionUri: context.extensionUri, historyDirectory: historyDirectory(context), dialogs }),
      ];
    },
  });
}

export function deactivate(): void {
  closePathIndex();
}
