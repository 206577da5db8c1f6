/**
 * Every dialog the commands show, behind one replaceable object: tests inject answers (inside a test run VS Code
 * refuses modal dialogs), and the commands stay free of UI plumbing.
 */
import * as vscode from 'vscode';

export interface ToolChoice {
  readonly name: string;
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
}

export const defaultDialogs: Dialogs = {
  async pickFolder(defaultUri) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      defaultUri,
      openLabel: 'Use as Agent FS Base Directory',
    });
    return picked?.[0];
  },
  async pickTool(choices) {
    const picked = await vscode.window.showQuickPick(
      choices.map((choice) => ({ label: choice.label, description: choice.name, detail: choice.description, name: choice.name })),
      { title: 'Agent FS: Run Tool', placeHolder: 'Pick a tool to run', matchOnDescription: true, matchOnDetail: true },
    );
    return picked?.name;
  },
  editInput(toolName, prefilled) {
    return Promise.resolve(
      vscode.window.showInputBox({
        title: `Agent FS: input for ${toolName}`,
        prompt: 'JSON object of parameters, exactly as a model would send it',
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
};
