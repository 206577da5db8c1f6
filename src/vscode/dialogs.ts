/**
 * Every dialog the commands show, behind one replaceable object: tests inject answers (inside a test run VS Code
 * refuses modal dialogs), and the commands stay free of UI plumbing.
 */
import * as vscode from 'vscode';

interface ToolChoice {
  readonly name: string;
  readonly label: string;
  readonly description: string;
}

/** One recorded operation offered by "Show Change History". */
export interface OperationChoice {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly detail: string;
}

/** One client "Connect Another Agent…" can configure. */
interface ConnectionChoice {
  readonly id: string;
  readonly label: string;
  readonly description: string;
}

export interface Dialogs {
  pickFolder(defaultUri: vscode.Uri | undefined): Promise<vscode.Uri | undefined>;
  pickTool(choices: readonly ToolChoice[]): Promise<string | undefined>;
  /** Lets the person edit a JSON input; `undefined` when they cancel. */
  editInput(toolName: string, prefilled: string): Promise<string | undefined>;
  info(message: string): void;
  error(message: string): void;
  /** A modal question with one action button; true only when the person chose `action`. */
  confirm(message: string, action: string): Promise<boolean>;
  /** Picks one recorded operation; its id, or `undefined` when cancelled. */
  pickOperation(choices: readonly OperationChoice[]): Promise<string | undefined>;
  /** Picks an agent session to undo (choices as OperationChoice, by session id); its id, or `undefined` when cancelled. */
  pickSession(choices: readonly OperationChoice[]): Promise<string | undefined>;
  /** Picks the client to configure; its id, or `undefined` when cancelled. */
  pickConnection(choices: readonly ConnectionChoice[]): Promise<string | undefined>;
}

export const defaultDialogs: Dialogs = {
  async pickFolder(defaultUri) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      defaultUri,
      openLabel: vscode.l10n.t('Use as Agent FS Base Directory'),
    });
    return picked?.[0];
  },
  async pickTool(choices) {
    const picked = await vscode.window.showQuickPick(
      choices.map((choice) => ({ label: choice.label, description: choice.name, detail: choice.description, name: choice.name })),
      {
        title: vscode.l10n.t('Agent FS: Run Tool'),
        placeHolder: vscode.l10n.t('Pick a tool to run'),
        matchOnDescription: true,
        matchOnDetail: true,
      },
    );
    return picked?.name;
  },
  editInput(toolName, prefilled) {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: vscode.l10n.t('Agent FS: input for {0}', toolName),
        prompt: vscode.l10n.t('JSON object of parameters, exactly as a model would send it'),
        value: prefilled,
        valueSelection: [0, prefilled.length],
        ignoreFocusOut: true,
      }),
    );
  },
  info(message) {
    void vscode.window.showInformationMessage(message);
  },
  error(message) {
    void vscode.window.showErrorMessage(message);
  },
  async confirm(message, action) {
    return (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action;
  },
  async pickOperation(choices) {
    const picked = await vscode.window.showQuickPick(
      choices.map((choice) => ({ label: choice.label, description: choice.description, detail: choice.detail, id: choice.id })),
      {
        title: vscode.l10n.t('Agent FS: Change History'),
        placeHolder: vscode.l10n.t('Pick a change to see its diff'),
        matchOnDescription: true,
        matchOnDetail: true,
      },
    );
    return picked?.id;
  },
  async pickSession(choices) {
    const picked = await vscode.window.showQuickPick(
      choices.map((choice) => ({ label: choice.label, description: choice.description, detail: choice.detail, id: choice.id })),
      {
        title: vscode.l10n.t('Agent FS: Undo an Agent Session'),
        placeHolder: vscode.l10n.t('Pick the session whose changes to undo; its diff opens before you confirm'),
        matchOnDescription: true,
        matchOnDetail: true,
      },
    );
    return picked?.id;
  },
  async pickConnection(choices) {
    const picked = await vscode.window.showQuickPick(
      choices.map((choice) => ({ label: choice.label, detail: choice.description, id: choice.id })),
      {
        title: vscode.l10n.t('Agent FS: Connect Another Agent'),
        placeHolder: vscode.l10n.t("Which agent should get the Agent FS tools, with this window's base directory and history?"),
        matchOnDetail: true,
      },
    );
    return picked?.id;
  },
};
