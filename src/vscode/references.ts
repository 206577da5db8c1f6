/**
 * find_references in the editor: VS Code's reference provider (`vscode.executeReferenceProvider`), which asks the
 * language services of the file's language, so what a name refers to is told by the compiler, not by its spelling.
 * An answer with no location at all means no service answered for the file (a declaration is always one of its
 * own references), and the core falls back to whole-word matches (ports/references.ts).
 */
import * as vscode from 'vscode';
import { normalizeAbsolute } from '../core/paths';
import type { ReferenceLocation, ReferenceProvider } from '../core/ports/references';

export function editorReferences(uriOf: (absolute: string) => vscode.Uri): ReferenceProvider {
  return {
    async references(absolute, line, column): Promise<readonly ReferenceLocation[] | undefined> {
      const uri = uriOf(absolute);
      const locations = await vscode.commands.executeCommand<vscode.Location[] | undefined>(
        'vscode.executeReferenceProvider',
        uri,
        new vscode.Position(line - 1, column - 1),
      );
      if (!locations || locations.length === 0) return undefined;
      // Only the workspace's own scheme: a location in another (a library's virtual document) is no path of the tools.
      return locations
        .filter((location) => location.uri.scheme === uri.scheme)
        .map((location) => ({
          absolute: normalizeAbsolute(location.uri.path),
          line: location.range.start.line + 1,
          column: location.range.start.character + 1,
        }));
    },
  };
}
