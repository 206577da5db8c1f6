/**
 * Notebooks open in the editor, changed through VS Code's notebook API (the core's NotebookEditors port): a cell's
 * text through its document, cells inserted, deleted, moved and cleared with NotebookEdit, each step one workspace
 * edit, so the notebook editor's undo stack holds them and its kernel keeps its state. The notebook is then saved,
 * so the file on disk is what the editor shows, written by the notebook's own serializer.
 */
import * as vscode from 'vscode';
import type { EditorCell, EditorStep, NotebookEditors } from '../core/ports/notebooks';
import { openNotebook } from './editors';

function cellData(cell: EditorCell): vscode.NotebookCellData {
  const kind = cell.kind === 'markdown' ? vscode.NotebookCellKind.Markup : vscode.NotebookCellKind.Code;
  return new vscode.NotebookCellData(kind, cell.source, cell.language);
}

/** A cell as data to insert again elsewhere, or again without its outputs. */
function copyOf(cell: vscode.NotebookCell, outputs: boolean): vscode.NotebookCellData {
  const data = new vscode.NotebookCellData(cell.kind, cell.document.getText(), cell.document.languageId);
  data.metadata = { ...cell.metadata };
  if (outputs) {
    data.outputs = [...cell.outputs];
    data.executionSummary = cell.executionSummary;
  } else if (typeof data.metadata.execution_count === 'number') data.metadata.execution_count = null;
  return data;
}

function stepEdit(notebook: vscode.NotebookDocument, step: EditorStep): vscode.WorkspaceEdit[] {
  const edit = new vscode.WorkspaceEdit();
  const range = (index: number): vscode.NotebookRange => new vscode.NotebookRange(index, index + 1);
  switch (step.kind) {
    case 'source': {
      const text = notebook.cellAt(step.index).document;
      edit.replace(text.uri, text.validateRange(new vscode.Range(0, 0, text.lineCount, 0)), step.source);
      return [edit];
    }
    case 'insert':
      edit.set(notebook.uri, [vscode.NotebookEdit.insertCells(step.index, [cellData(step.cell)])]);
      return [edit];
    case 'delete':
      edit.set(notebook.uri, [vscode.NotebookEdit.deleteCells(range(step.index))]);
      return [edit];
    case 'move': {
      const data = copyOf(notebook.cellAt(step.from), true);
      edit.set(notebook.uri, [vscode.NotebookEdit.deleteCells(range(step.from))]);
      const insert = new vscode.WorkspaceEdit();
      insert.set(notebook.uri, [vscode.NotebookEdit.insertCells(step.to, [data])]);
      return [edit, insert];
    }
    case 'clear_outputs':
      edit.set(notebook.uri, [vscode.NotebookEdit.replaceCells(range(step.index), [copyOf(notebook.cellAt(step.index), false)])]);
      return [edit];
  }
}

export const editorNotebooks: NotebookEditors = {
  isOpen: (absolutePath) => openNotebook(absolutePath) !== undefined,
  async apply(absolutePath, steps) {
    const notebook = openNotebook(absolutePath);
    if (!notebook) throw new Error(`The notebook ${absolutePath} is no longer open.`);
    for (const step of steps) {
      for (const edit of stepEdit(notebook, step)) {
        // A refused step leaves the steps before it as unsaved changes in the editor, where the person sees them;
        // the file on disk is untouched until the save below.
        if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The editor refused to change ${absolutePath} (${step.kind}).`);
      }
    }
    if (!(await notebook.save())) throw new Error(`The editor did not save ${absolutePath}.`);
  },
};
