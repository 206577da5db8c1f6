/**
 * Activation in the browser (vscode.dev, github.dev: VS Code's web worker extension host), the `browser` entry
 * esbuild.mjs bundles without Node built-ins. The tools, the history (in the extension's storage, through
 * workspace.fs), undo, confirmations and the Activity view are the desktop's; what needs a local disk or a process is
 * not here by design: ripgrep (search_content scans), the path and content indexes (listings walk), the runner and
 * the MCP server, and so "Connect Another Agent…".
 */
import type * as vscode from 'vscode';
import { activateAgentFs, type AgentFsApi } from './vscode/activate';

export function activate(context: vscode.ExtensionContext): AgentFsApi {
  return activateAgentFs(context, {});
}
