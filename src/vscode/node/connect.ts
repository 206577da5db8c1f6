/**
 * "Agent FS: Connect Another Agent…": the configuration that starts the Agent FS MCP server inside this installed
 * extension (dist/mcp.js) on the current base directory, with this window's history store, for Claude Desktop,
 * LM Studio, Cursor, VS Code's mcp.json or Claude Code; and the same server over HTTP (the line that starts it and the
 * entries with its URL and token) for clients that take a URL. Changes those agents make are then recorded where the
 * Activity view reads, listed there and undoable here. The server is not registered with VS Code's own MCP
 * registry: in this window the same tools already serve Copilot as language-model tools.
 */
import * as vscode from 'vscode';
import { type ConnectSnippet, connectSnippets, httpPort, serverCommand } from '../../core/catalog/connect';
import { stateToken } from '../../node/mcp/httpToken';
import type { Dialogs } from '../dialogs';
import type { EditorSession } from '../session';

export interface ConnectDependencies {
  readonly session: EditorSession;
  /** The installed extension's folder (context.extensionUri): dist/mcp.js is inside it. */
  readonly extensionUri: vscode.Uri;
  /** The history store's folder (history.ts historyDirectory). */
  readonly historyDirectory: vscode.Uri;
  readonly dialogs: () => Dialogs;
}

/** The snippets for this window, or why there can be none. */
async function snippetsFor(deps: ConnectDependencies): Promise<readonly ConnectSnippet[] | { error: string }> {
  const described = await deps.session.describe();
  if ('error' in described) return described;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (
    folders.some((folder) => folder.uri.scheme !== 'file') ||
    deps.historyDirectory.scheme !== 'file' ||
    deps.extensionUri.scheme !== 'file'
  ) {
    return {
      error: vscode.l10n.t(
        "Agent FS can connect other agents only to folders on this machine's disk; this workspace is remote or virtual.",
      ),
    };
  }
  const native = (path: string): string => vscode.Uri.from({ scheme: 'file', path }).fsPath;
  const server = vscode.Uri.joinPath(deps.extensionUri, 'dist', 'mcp.js').fsPath;
  const command = serverCommand(
    server,
    described.roots.map((root) => native(root.path)),
    deps.historyDirectory.fsPath,
  );
  // The token the HTTP server on this state folder will use; made now if no server made it before.
  const token = stateToken(deps.historyDirectory.fsPath);
  const http = typeof token === 'string' ? undefined : { port: httpPort(deps.historyDirectory.fsPath), token: token.token };
  return connectSnippets(command, process.platform, http);
}

/**
 * Shows the configuration for the client the person picks (or `clientId`, from tests and keybindings) in an
 * untitled editor and on the clipboard; returns its text, undefined when cancelled or impossible.
 */
async function connectAgent(deps: ConnectDependencies, clientId?: string): Promise<string | undefined> {
  const dialogs = deps.dialogs();
  const snippets = await snippetsFor(deps);
  if ('error' in snippets) {
    dialogs.error(snippets.error);
    return undefined;
  }
  const id =
    clientId ??
    (await dialogs.pickConnection(snippets.map((snippet) => ({ id: snippet.id, label: snippet.label, description: snippet.where }))));
  const snippet = snippets.find((each) => each.id === id);
  if (!snippet) return undefined;
  const document = await vscode.workspace.openTextDocument({ language: snippet.language, content: snippet.text });
  await vscode.window.showTextDocument(document, { preview: false });
  try {
    await vscode.env.clipboard.writeText(snippet.text);
  } catch {
    // A browser window may refuse the clipboard; the editor shows the text either way.
  }
  dialogs.info(
    vscode.l10n.t(
      'Agent FS: the {0} configuration is open and copied. Put it into {1}. Node.js 20 or later must be on the PATH that agent uses.',
      snippet.label,
      snippet.where,
    ),
  );
  return snippet.text;
}

export function registerConnectCommand(deps: ConnectDependencies): vscode.Disposable {
  return vscode.commands.registerCommand('agentFs.connectAgent', (clientId?: string) => connectAgent(deps, clientId));
}
