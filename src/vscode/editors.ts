/**
 * The editor's side of FILE_DIRTY_IN_EDITOR: a mutating tool refuses a file whose open document has unsaved
 * changes, so a person's work is never overwritten behind their back. A clean open document needs nothing here:
 * VS Code reloads it when the file changes on disk.
 */
import * as vscode from 'vscode';
import type { EditorState } from '../core/context';

/**
 * Case-insensitive where the platform's disks usually are; a false match only refuses a write, never allows one. The
 * browser's extension host has no platform of its own (no `process`): its file systems are the workspace's.
 */
const platform = (globalThis as { process?: { platform?: string } }).process?.platform;
const caseInsensitive = platform === 'win32' || platform === 'darwin';

function samePath(documentPath: string, corePath: string): boolean {
  if (documentPath === corePath) return true;
  // VS Code writes a Windows drive letter in lower case ("/c:/x") wherever it came from.
  return (caseInsensitive || /^\/[a-zA-Z]:\//.test(documentPath)) && documentPath.toLowerCase() === corePath.toLowerCase();
}

/** The open documents, text and notebooks alike, with unsaved changes and a path on disk. */
export function dirtyDocuments(): vscode.Uri[] {
  // Untitled documents have no path on disk; other schemes' paths are compared as they are.
  return [...vscode.workspace.textDocuments, ...vscode.workspace.notebookDocuments]
    .filter((document) => document.isDirty && document.uri.scheme !== 'untitled')
    .map((document) => document.uri);
}

export const openEditors: EditorState = {
  isDirty(absolutePath: string): boolean {
    return dirtyDocuments().some((uri) => samePath(uri.path, absolutePath));
  },
};

/** The open notebook document of a core path, if any. */
export function openNotebook(absolutePath: string): vscode.NotebookDocument | undefined {
  return vscode.workspace.notebookDocuments.find(
    (document) => document.uri.scheme !== 'untitled' && samePath(document.uri.path, absolutePath),
  );
}
