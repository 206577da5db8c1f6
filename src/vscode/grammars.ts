/**
 * The parsers' WebAssembly in the editor: the files the build puts into the extension's dist/grammars/, read through
 * workspace.fs on the first outline of each language, which works wherever the extension runs (a local or remote
 * extension host alike), as the core asks (ports/grammars.ts).
 */
import * as vscode from 'vscode';
import type { GrammarSource } from '../core/ports/grammars';

export function editorGrammarSource(extensionUri: vscode.Uri): GrammarSource {
  return { read: async (file) => vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'dist', 'grammars', file)) };
}
