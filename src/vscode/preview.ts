/**
 * The change a confirmation asks about, shown whole before it is made: for a call whose preparation carries a preview
 * (replace_in_files, core/tool.ts `Preparation.preview`), every file it touches opens in VS Code's multi-file diff
 * editor (`vscode.changes`) beside the chat's card, its text now against its text after the change. The person reads
 * every hunk there and answers the card; declining changes nothing, since nothing was written to show it.
 *
 * The texts are documents of this provider's own scheme, worked out by the core when the editor first asks for one, so
 * a preview of a thousand files costs what the person scrolls through. Only the last few previews are kept.
 */
import * as vscode from 'vscode';
import type { Preparation } from '../core/tool';

export const PREVIEW_SCHEME = 'agentfs-preview';

/** Previews whose documents stay served: an older one's tab shows empty documents once reopened. */
const KEPT_PREVIEWS = 4;

/** A preview as it was opened: its tab's title and, per file, the file and its two sides. */
export interface ShownPreview {
  readonly title: string;
  readonly resources: readonly (readonly [file: vscode.Uri, before: vscode.Uri, after: vscode.Uri])[];
}

export class ChangePreviews implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, () => Promise<string>>();
  private readonly kept: string[][] = [];
  private counter = 0;

  /** `uriOf` turns the core's absolute paths into the workspace's URIs (the files the diff editor names). */
  constructor(private readonly uriOf: (path: string) => vscode.Uri) {}

  /** Opens the multi-file diff editor on `preview`; resolves once VS Code has been asked to show it. */
  async show(preview: NonNullable<Preparation['preview']>): Promise<ShownPreview> {
    const id = ++this.counter;
    const keys: string[] = [];
    const resources = preview.files.map((file) => {
      let both: Promise<{ readonly before: string; readonly after: string }> | undefined;
      const texts = (): Promise<{ readonly before: string; readonly after: string }> => (both ??= file.texts());
      const side = (name: 'before' | 'after'): vscode.Uri => {
        const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${id}/${name}/${file.display}` });
        this.texts.set(uri.toString(), async () => (await texts())[name]);
        keys.push(uri.toString());
        return uri;
      };
      return [this.uriOf(file.absolute), side('before'), side('after')] as const;
    });
    this.kept.push(keys);
    while (this.kept.length > KEPT_PREVIEWS) for (const key of this.kept.shift() ?? []) this.texts.delete(key);
    // The editor's tab adds the count of files to the title itself.
    const { title } = preview;
    await vscode.commands.executeCommand('vscode.changes', title, resources);
    // Opened as a preview tab, the next file opened in preview (a changed file shown for its problems) would close it
    // while the person reads: kept open instead.
    if (vscode.window.tabGroups.activeTabGroup.activeTab?.label.startsWith(title))
      await vscode.commands.executeCommand('workbench.action.keepEditor');
    return { title, resources };
  }

  provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    return this.texts.get(uri.toString())?.() ?? Promise.resolve('');
  }
}
