/**
 * Agent FS settings, read once per call into a typed object with defaults. A workspace (or folder) value can
 * only make Agent FS stricter than the user's own settings, never looser (DESIGN.md §3): a cloned repository's
 * .vscode/settings.json must not be able to switch confirmations or read-only mode off.
 */
import * as vscode from 'vscode';
import type { Policy } from '../core/tool';

export const SECTION = 'agentFs';

export interface Settings {
  /** As written in the setting; '' means the whole workspace folder. */
  readonly baseDirectory: string;
  readonly policy: Policy;
}

interface Layers<T> {
  readonly defaultValue?: T;
  readonly globalValue?: T;
  readonly workspaceValue?: T;
  readonly workspaceFolderValue?: T;
}

function layers<T>(configuration: vscode.WorkspaceConfiguration, key: string): Layers<T> {
  return configuration.inspect<T>(key) ?? {};
}

/** True when any layer says true: a workspace can turn a safety switch on, not off. */
function anyTrue(value: Layers<boolean>): boolean {
  return [value.defaultValue, value.globalValue, value.workspaceValue, value.workspaceFolderValue].some((each) => each === true);
}

export function readSettings(scope?: vscode.Uri): Settings {
  const configuration = vscode.workspace.getConfiguration(SECTION, scope);
  const confirm = layers<boolean>(configuration, 'confirmDestructive');
  const userConfirm = confirm.globalValue ?? confirm.defaultValue ?? true;
  return {
    baseDirectory: (configuration.get<string>('baseDirectory') ?? '').trim(),
    policy: {
      readOnly: anyTrue(layers<boolean>(configuration, 'readOnly')),
      trusted: vscode.workspace.isTrusted,
      // Only the user's own settings may turn confirmations off; a workspace value can only turn them back on.
      confirmDestructive: userConfirm || confirm.workspaceValue === true || confirm.workspaceFolderValue === true,
    },
  };
}
