/**
 * Agent FS settings, read once per call into a typed object with defaults. A workspace (or folder) value can
 * only make Agent FS stricter than the user's own settings, never looser: a cloned repository's
 * .vscode/settings.json must not be able to switch confirmations or read-only mode off.
 */
import * as vscode from 'vscode';
import {
  DEFAULT_HISTORY_LIMITS,
  type Durability,
  type HistoryLimits,
  type IgnoreFileSettings,
  DEFAULT_CONFIRM_EDITS_OVER_LINES,
  AGENT_FS_STORAGE_PATHS,
  DEFAULT_EDIT_IN_MEMORY_BYTES,
  DEFAULT_HIDDEN_PATHS,
  DEFAULT_MAX_READ_BYTES,
  DEFAULT_PROTECTED_PATHS,
  EDITOR_WORDING,
  type Policy,
} from '../core/settings';

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

function globs(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string' && each.trim() !== '') : [];
}

/**
 * The user's list (or the default) plus whatever a workspace or folder adds: a workspace can add a protection, never
 * remove one. A user removes a default by writing the whole list without it in their user settings.
 */
function unionOfLayers(value: Layers<unknown>, fallback: readonly string[]): readonly string[] {
  const base =
    value.globalValue !== undefined ? globs(value.globalValue) : value.defaultValue !== undefined ? globs(value.defaultValue) : fallback;
  return [...new Set([...base, ...globs(value.workspaceValue), ...globs(value.workspaceFolderValue)])];
}

/** The user's threshold (or the default), lowered but never raised by a workspace or folder value. */
function lowestOfLayers(value: Layers<unknown>, fallback: number): number {
  const valid = (each: unknown): each is number => typeof each === 'number' && Number.isFinite(each) && each >= 0;
  const user = valid(value.globalValue) ? value.globalValue : valid(value.defaultValue) ? value.defaultValue : fallback;
  return Math.min(user, ...[value.workspaceValue, value.workspaceFolderValue].filter(valid));
}

/**
 * The patterns of a VS Code glob map (files.exclude, search.exclude) that are on. Conditional entries
 * (`{ "when": … }`) depend on sibling files and are left out. Exclusions only tidy listings, so every layer counts.
 */
function enabledGlobs(section: string, key: string, scope?: vscode.Uri): string[] {
  const map = vscode.workspace.getConfiguration(section, scope).get<Record<string, unknown>>(key) ?? {};
  return Object.entries(map)
    .filter(([, on]) => on === true)
    .map(([pattern]) => pattern);
}

/**
 * Settings by scope, computed once and dropped whenever the configuration, the folders or the trust change: reading
 * them costs most of a millisecond in a large host (a scoped getConfiguration and a dozen inspects), and every call
 * reads them several times. The extension host updates its configuration model and fires onDidChangeConfiguration
 * in the same step, so a value read from here is never staler than getConfiguration's own; settings still apply
 * to the very next call.
 */
const settingsByScope = new Map<string, Settings>();
let watching = false;

export function readSettings(scope?: vscode.Uri): Settings {
  if (!watching) {
    watching = true;
    const forget = (): void => settingsByScope.clear();
    vscode.workspace.onDidChangeConfiguration(forget);
    vscode.workspace.onDidChangeWorkspaceFolders(forget);
    vscode.workspace.onDidGrantWorkspaceTrust(forget);
  }
  const key = scope?.toString() ?? '';
  let settings = settingsByScope.get(key);
  if (!settings) {
    settings = computeSettings(scope);
    settingsByScope.set(key, settings);
  }
  // Trust is read fresh all the same: it is one property, and the reason read-only tools exist.
  return settings.policy.trusted === vscode.workspace.isTrusted
    ? settings
    : { ...settings, policy: { ...settings.policy, trusted: vscode.workspace.isTrusted } };
}

/**
 * Which ignore sources count, from VS Code's search settings: a source counts unless one of its settings is set to
 * false somewhere. Their defaults are VS Code's choice for its search view (global and parent ignore files off);
 * Agent FS shows a model what git shows, so only a value someone wrote turns a source off.
 */
function ignoreFiles(scope?: vscode.Uri): IgnoreFileSettings {
  const search = vscode.workspace.getConfiguration('search', scope);
  const on = (key: string): boolean => {
    const value = layers<unknown>(search, key);
    return ![value.globalValue, value.workspaceValue, value.workspaceFolderValue].includes(false);
  };
  const enabled = on('useIgnoreFiles');
  return { enabled, global: enabled && on('useGlobalIgnoreFiles'), parents: enabled && on('useParentIgnoreFiles') };
}

/**
 * agentFs.durability: "fast" only where the user's own settings say so and no workspace or folder value says "full":
 * a cloned repository must not be able to make the changes a model makes in it less safe.
 */
function durability(value: Layers<unknown>): Durability {
  const user = value.globalValue ?? value.defaultValue;
  return user === 'fast' && value.workspaceValue !== 'full' && value.workspaceFolderValue !== 'full' ? 'fast' : 'full';
}

function computeSettings(scope?: vscode.Uri): Settings {
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
      protectedPaths: unionOfLayers(layers<unknown>(configuration, 'protectedPaths'), DEFAULT_PROTECTED_PATHS),
      // VS Code's own storage of Agent FS (its history) stays out of reach even in a workspace that holds it.
      hiddenPaths: [...unionOfLayers(layers<unknown>(configuration, 'hiddenPaths'), DEFAULT_HIDDEN_PATHS), ...AGENT_FS_STORAGE_PATHS],
      confirmEditsOverLines: lowestOfLayers(layers<unknown>(configuration, 'confirmEditsOverLines'), DEFAULT_CONFIRM_EDITS_OVER_LINES),
      // A workspace may lower the read cap (less context per call), never raise it.
      maxReadBytes: Math.max(1024, lowestOfLayers(layers<unknown>(configuration, 'maxReadBytes'), DEFAULT_MAX_READ_BYTES)),
      exclude: [...enabledGlobs('files', 'exclude', scope), ...globs(configuration.get<unknown>('exclude'))],
      searchExclude: enabledGlobs('search', 'exclude', scope),
      ignoreFiles: ignoreFiles(scope),
      editInMemoryBytes: DEFAULT_EDIT_IN_MEMORY_BYTES,
      durability: durability(layers<unknown>(configuration, 'durability')),
      wording: EDITOR_WORDING,
    },
  };
}

/**
 * agentFs.history.*: the user's value (or the default), raised but never lowered by a workspace or folder value, so
 * a cloned repository cannot shrink the history that lets the person undo what a model did in it.
 */
export function readHistoryLimits(scope?: vscode.Uri): HistoryLimits {
  const configuration = vscode.workspace.getConfiguration(SECTION, scope);
  const highest = (key: string, fallback: number): number => {
    const value = layers<unknown>(configuration, key);
    const valid = (each: unknown): each is number => typeof each === 'number' && Number.isFinite(each) && each >= 0;
    const user = valid(value.globalValue) ? value.globalValue : valid(value.defaultValue) ? value.defaultValue : fallback;
    return Math.max(user, ...[value.workspaceValue, value.workspaceFolderValue].filter(valid));
  };
  return {
    maxOperations: highest('history.maxOperations', DEFAULT_HISTORY_LIMITS.maxOperations),
    maxBytes: highest('history.maxBytes', DEFAULT_HISTORY_LIMITS.maxBytes),
    maxAgeDays: highest('history.maxAgeDays', DEFAULT_HISTORY_LIMITS.maxAgeDays ?? 30),
  };
}
