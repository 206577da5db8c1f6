import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { type NotebookStyle, notebookStyles, sampleNotebook, writeNotebook, jupyterVerdicts } from '../../shared/notebooks';
import { callTool, eventually, expectError, expectOk, scratch, withoutAutoSave } from '../helpers';

function style(find: (each: NotebookStyle) => boolean): NotebookStyle {
  return notebookStyles().find(find) ?? assert.fail('a notebook style');
}

/** Jupyter's own style: one-space indentation, LF, sorted keys, lists of lines, raw non-ASCII, a final newline. */
const JUPYTER: NotebookStyle = {
  minor: 5,
  indent: 1,
  crlf: false,
  sorted: true,
  sourceAsString: false,
  asciiOnly: false,
  finalNewline: true,
};

/** A notebook's value with base64 image data as VS Code's ipynb serializer writes it: without a final newline. */
function asVscodeWrites(value: unknown): unknown {
  if (typeof value === 'string' || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(asVscodeWrites);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key.startsWith('image/') && typeof item === 'string' ? item.trimEnd() : asVscodeWrites(item),
    ]),
  );
}

async function openNotebook(file: string): Promise<vscode.NotebookDocument> {
  const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
  await vscode.window.showNotebookDocument(notebook);
  return notebook;
}

async function closeEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

describe('edit_notebook', () => {
  withoutAutoSave();
  afterEach(closeEditors);

  it('changes a notebook no editor has open on disk, every other byte as it was', async () => {
    const crlf = style((each) => each.minor === 4 && each.crlf && !each.sorted);
    const s = scratch('notebook-closed', { 'a.ipynb': writeNotebook(sampleNotebook(crlf), crlf).toString('utf8') });
    const { data } = expectOk(
      await callTool('edit_notebook', { path: s.rel('a.ipynb'), edits: [{ action: 'edit', cell: 2, source: '2/1\n' }] }),
    );
    assert.equal(data.total_cells, 4);
    const expected = sampleNotebook(crlf);
    const boom = expected.cells[2] ?? assert.fail('cell 2');
    boom.source = crlf.sourceAsString ? '2/1\n' : ['2/1\n'];
    assert.deepEqual(fs.readFileSync(s.abs('a.ipynb')), writeNotebook(expected, crlf));
    const read = expectOk(await callTool('read_file', { file_name: s.rel('a.ipynb'), cells: '2' }));
    assert.deepEqual(read.data.cells, [
      { index: 2, kind: 'code', source: '1: 2/1', execution_count: 2, outputs: (read.data.cells as { outputs: unknown }[])[0]?.outputs },
    ]);
  });

  it('changes an open notebook through the editor: the notebook shows it, it is saved valid, and undo puts it back', async () => {
    const original = writeNotebook(sampleNotebook(JUPYTER), JUPYTER);
    const s = scratch('notebook-open', { 'a.ipynb': original.toString('utf8') });
    const notebook = await openNotebook(s.abs('a.ipynb'));
    assert.equal(notebook.cellCount, 4);
    expectOk(
      await callTool('edit_notebook', {
        path: s.rel('a.ipynb'),
        edits: [{ action: 'edit', cell: 'first-cell', old_string: 'np.arange(3)', new_string: 'np.arange(5)' }],
      }),
    );
    // VS Code's ipynb serializer saved the file, as when the person saves: the edited cell has lost its execution count
    // (VS Code drops it from any edited cell), images their final newline, and every other value is kept.
    const expected = sampleNotebook(JUPYTER);
    const first = expected.cells[0] ?? assert.fail('cell 0');
    first.source = ['import numpy as np\n', 'x = np.arange(5)\n', 'print(x)'];
    first.execution_count = null;
    assert.deepEqual(JSON.parse(fs.readFileSync(s.abs('a.ipynb'), 'utf8')), asVscodeWrites(expected));
    const { data } = expectOk(
      await callTool('edit_notebook', { path: s.rel('a.ipynb'), edits: [{ action: 'insert', cell: 'notes', source: 'print("added")' }] }),
    );
    assert.equal(notebook.cellCount, 5);
    assert.equal(notebook.cellAt(0).document.getText(), 'import numpy as np\nx = np.arange(5)\nprint(x)');
    assert.equal(notebook.cellAt(2).document.getText(), 'print("added")');
    assert.equal(notebook.isDirty, false, 'saved');
    const onDisk = JSON.parse(fs.readFileSync(s.abs('a.ipynb'), 'utf8')) as {
      cells: { id?: string; source: string[]; outputs?: unknown[] }[];
    };
    assert.deepEqual(onDisk.cells[0]?.source, ['import numpy as np\n', 'x = np.arange(5)\n', 'print(x)']);
    assert.equal(onDisk.cells[0]?.outputs?.length, 4, 'the outputs stay');
    assert.deepEqual(onDisk.cells[2]?.source, ['print("added")']);
    const inserted = (data.edits as { id: string | null }[])[0]?.id;
    assert.equal(inserted, onDisk.cells[2]?.id ?? null, "the result names the id the editor's serializer gave the new cell");
    assert.deepEqual(jupyterVerdicts([s.abs('a.ipynb')]), [undefined]);
    expectOk(await callTool('undo_last', {}));
    expectOk(await callTool('undo_last', {}));
    assert.deepEqual(fs.readFileSync(s.abs('a.ipynb')), original);
    await eventually(() => notebook.cellCount === 4, 'the editor shows the notebook as it was');
  });

  it('refuses a notebook with unsaved changes in the editor (FILE_DIRTY_IN_EDITOR), changing nothing', async () => {
    const bytes = writeNotebook(sampleNotebook(JUPYTER), JUPYTER);
    const s = scratch('notebook-dirty', { 'a.ipynb': bytes.toString('utf8') });
    const notebook = await openNotebook(s.abs('a.ipynb'));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(notebook.cellAt(0).document.uri, new vscode.Position(0, 0), '# unsaved\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await eventually(() => notebook.isDirty, 'the notebook has unsaved changes');
    expectError(await callTool('edit_notebook', { path: s.rel('a.ipynb'), edits: [{ action: 'clear_outputs' }] }), 'FILE_DIRTY_IN_EDITOR');
    expectError(await callTool('write_file', { file_name: s.rel('a.ipynb'), content: '{}' }), 'FILE_DIRTY_IN_EDITOR');
    assert.deepEqual(fs.readFileSync(s.abs('a.ipynb')), bytes);
    assert.equal(notebook.cellAt(0).document.getText().startsWith('# unsaved\n'), true, "the person's change is still there");
  });
});
