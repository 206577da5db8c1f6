/**
 * The status bar item: where the tools reach and whether they may change anything (read-only, untrusted); a click
 * opens the Agent FS Activity view. It follows the settings, the workspace folders and the workspace trust.
 */
import * as vscode from 'vscode';
import { basename } from '../core/paths';
import { ACTIVITY_VIEW } from './history/view';
import type { EditorSession } from './session';

class BaseDirectoryStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentFs.status', vscode.StatusBarAlignment.Left, 50);

  constructor(private readonly session: EditorSession) {
    this.item.name = 'Agent FS';
    this.item.command = `${ACTIVITY_VIEW}.focus`;
  }

  async update(): Promise<void> {
    const described = await this.session.describe();
    const policy = this.session.policy();
    const mode = !policy.trusted ? vscode.l10n.t('untrusted: read-only') : policy.readOnly ? vscode.l10n.t('read-only') : '';
    if ('error' in described) {
      this.item.text = '$(warning) Agent FS';
      this.item.tooltip = described.error;
    } else {
      const names = described.roots.map((root) => basename(root.path) || root.path).join(', ');
      this.item.text = `${mode === '' ? '$(folder)' : '$(lock)'} Agent FS: ${names}${mode === '' ? '' : ` (${mode})`}`;
      const base = vscode.l10n.t('Agent FS base directory: {0}', described.roots.map((root) => root.path).join(', '));
      this.item.tooltip = `${base}${mode === '' ? '' : ` — ${mode}`}\n${vscode.l10n.t('Click to show the Agent FS Activity view.')}`;
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

/** Shows the item and keeps it current: the settings, the workspace folders and the trust change what it says. */
export function registerBaseDirectoryStatus(session: EditorSession): vscode.Disposable[] {
  const status = new BaseDirectoryStatus(session);
  const update = (): void => void status.update();
  update();
  return [
    status,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('agentFs')) update();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.workspace.onDidGrantWorkspaceTrust(update),
  ];
}
