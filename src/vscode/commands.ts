/** The command palette actions (category "Agent FS"): the same power the tools give a model, for the person. */
import * as vscode from 'vscode';
import type { JsonSchema } from '../core/catalog/manifest';
import { operationOf, toolNameOf } from '../core/catalog/manifest';
import { findTool, TOOL_DEFINITIONS } from '../core/tools';
import { isWithin, normalizeAbsolute, relativeTo } from '../core/paths';
import type { Dialogs } from './dialogs';
import type { CallLog } from './log';
import { PICKED_BASE_KEY, type EditorSession } from './session';
import { SECTION } from './settings';

export const RESULT_SCHEME = 'agentfs-result';

/** Serves Run Tool… results as read-only JSON documents. */
export class ResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  show(toolName: string, text: string): Thenable<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${++this.counter}/${toolName}.json` });
    this.texts.set(uri.toString(), text);
    return vscode.workspace.openTextDocument(uri).then((document) => vscode.window.showTextDocument(document, { preview: false }));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
}

/** A JSON input with every required parameter and every parameter that has a default, for the person to edit. */
function prefilledInput(schema: JsonSchema): string {
  const input: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const required = schema.required?.includes(name) ?? false;
    if (property.default !== undefined) input[name] = property.default;
    else if (required)
      input[name] =
        property.type === 'boolean'
          ? false
          : property.type === 'integer' || property.type === 'number'
            ? 1
            : property.type === 'array'
              ? []
              : '';
  }
  return JSON.stringify(input);
}

export interface CommandDependencies {
  readonly session: EditorSession;
  readonly state: vscode.Memento;
  readonly log: CallLog;
  readonly results: ResultDocuments;
  readonly dialogs: () => Dialogs;
  /** Says that the next call of this tool with this input is the person's (Run Tool…), for the history. */
  readonly byPerson?: (operation: string) => void;
}

export function registerCommands(deps: CommandDependencies): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentFs.selectBaseDirectory', () => selectBaseDirectory(deps)),
    vscode.commands.registerCommand('agentFs.showBaseDirectory', () => showBaseDirectory(deps)),
    vscode.commands.registerCommand('agentFs.runTool', (operation?: string, input?: string) => runTool(deps, operation, input)),
    vscode.commands.registerCommand('agentFs.showLog', () => deps.log.channel.show()),
  ];
}

/** Returns the base directory now in force (a URI string), or undefined when the person cancelled or it was refused. */
async function selectBaseDirectory(deps: CommandDependencies): Promise<string | undefined> {
  const dialogs = deps.dialogs();
  const folders = vscode.workspace.workspaceFolders ?? [];
  const picked = await dialogs.pickFolder(folders[0]?.uri);
  if (!picked) return undefined;
  if (folders.length === 0) {
    // No workspace to hold a setting: remember the folder for this window only.
    await deps.state.update(PICKED_BASE_KEY, picked.toString());
    dialogs.info(vscode.l10n.t('Agent FS base directory: {0}', picked.fsPath));
    return picked.toString();
  }
  const pickedPath = normalizeAbsolute(picked.path);
  const folder = folders.find(
    (candidate) =>
      candidate.uri.scheme === picked.scheme &&
      candidate.uri.authority === picked.authority &&
      isWithin(normalizeAbsolute(candidate.uri.path), pickedPath),
  );
  if (!folder) {
    dialogs.error(
      vscode.l10n.t('{0} is not inside a workspace folder. Agent FS can only narrow the workspace, never widen it.', picked.fsPath),
    );
    return undefined;
  }
  const relative = relativeTo(normalizeAbsolute(folder.uri.path), pickedPath);
  // The setting is relative to the first folder; a folder further down the list is named by its absolute path.
  const value = folder === folders[0] ? relative : pickedPath;
  await vscode.workspace.getConfiguration(SECTION).update('baseDirectory', value, vscode.ConfigurationTarget.Workspace);
  dialogs.info(vscode.l10n.t('Agent FS base directory: {0}', picked.fsPath));
  return picked.toString();
}

async function showBaseDirectory(deps: CommandDependencies): Promise<string> {
  const described = await deps.session.describe();
  const policy = deps.session.policy();
  const roots = 'error' in described ? '' : described.roots.map((root) => root.path).join(', ');
  const message =
    'error' in described
      ? described.error
      : !policy.trusted
        ? vscode.l10n.t('Agent FS base directory: {0} (untrusted workspace: read-only)', roots)
        : policy.readOnly
          ? vscode.l10n.t('Agent FS base directory: {0} (read-only)', roots)
          : vscode.l10n.t('Agent FS base directory: {0}', roots);
  deps.dialogs().info(message);
  return message;
}

/**
 * Runs a tool through vscode.lm.invokeTool, the path a model's call takes (validation and confirmation
 * included), and shows the envelope. Arguments let tests and keybindings skip the pickers.
 */
async function runTool(deps: CommandDependencies, operationArgument?: string, inputArgument?: string): Promise<string | undefined> {
  const dialogs = deps.dialogs();
  const toolName =
    operationArgument !== undefined
      ? toolNameOf(operationOf(operationArgument))
      : await dialogs.pickTool(
          TOOL_DEFINITIONS.map((tool) => ({ name: toolNameOf(tool.name), label: tool.title, description: tool.userDescription })),
        );
  const definition = toolName === undefined ? undefined : findTool(operationOf(toolName));
  if (!definition) return undefined;
  const tool = { name: toolNameOf(definition.name), inputSchema: definition.inputSchema };
  const text = inputArgument ?? (await dialogs.editInput(tool.name, prefilledInput(tool.inputSchema)));
  if (text === undefined) return undefined;
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    dialogs.error(vscode.l10n.t('Agent FS: the input is not valid JSON ({0}).', error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    dialogs.error(vscode.l10n.t('Agent FS: the input must be a JSON object of parameters, like {0}.', '{"file_name": "notes.md"}'));
    return undefined;
  }
  let result: vscode.LanguageModelToolResult;
  try {
    deps.byPerson?.(definition.name);
    result = await vscode.lm.invokeTool(tool.name, { input, toolInvocationToken: undefined });
  } catch (error) {
    // Cancel on the tool's confirmation is the person's answer, not a failure worth a second dialog.
    if (error instanceof vscode.CancellationError || (error instanceof Error && error.name === 'Canceled')) return undefined;
    throw error;
  }
  const reply = result.content.map(textOf).join('');
  const pretty = JSON.stringify(JSON.parse(reply), null, 2);
  await deps.results.show(tool.name, pretty);
  return pretty;
}

/** The text of a result part. Duck-typed: in VS Code 1.100 the parts invokeTool returns are not instances of the API's classes. */
function textOf(part: unknown): string {
  return typeof part === 'object' && part !== null && 'value' in part && typeof part.value === 'string' ? part.value : '';
}
