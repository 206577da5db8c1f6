/**
 * Notebooks in Copilot Chat's real agent mode, with the "Agent FS" custom agent and the scripted model: a Jupyter
 * notebook is open in the notebook editor with the test kernel (test/agent/model/kernel.ts) selected, and the model
 * runs one of its cells with Copilot's own run_notebook_cell, then reads the output with read_notebook_cell_output.
 * Checked: what the model received from each, the card the run asks with, and the notebook document afterwards.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, eventually, withoutAutoSave, workspaceRoot } from '../helpers';
import { scriptedModel } from './bridge';
import { remember } from './coverage';
import { folderOf, runScenario } from './scenario';

const STDOUT = 'application/vnd.code.notebook.stdout';

/**
 * The id Copilot's notebook tools know a cell by: "#VSC-" and the first 8 hex digits of the SHA-1 of the cell
 * document's URI. The URI holds the cell's handle, which the window gives out as it opens the notebook: the id is
 * only known once the notebook is open.
 */
function copilotCellId(cell: vscode.NotebookCell): string {
  return `#VSC-${createHash('sha1').update(cell.document.uri.toString()).digest('hex').slice(0, 8)}`;
}

/**
 * A notebook as Jupyter writes it. Its cells are plain text: with a Python cell in a .ipynb, run_notebook_cell first
 * has Copilot install the Jupyter extension, which cannot happen offline; and plain text starts no language service.
 */
function ipynb(cells: readonly { readonly kind: 'markdown' | 'code'; readonly source: string }[]): string {
  const notebook = {
    cells: cells.map((cell) =>
      cell.kind === 'markdown'
        ? { cell_type: 'markdown', metadata: {}, source: cell.source.split(/(?<=\n)/) }
        : { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: cell.source.split(/(?<=\n)/) },
    ),
    metadata: { language_info: { name: 'plaintext' } },
    nbformat: 4,
    nbformat_minor: 4,
  };
  return `${JSON.stringify(notebook, null, 1)}\n`;
}

/** Opens the notebook in the notebook editor and selects the test kernel for it, as a person would from the picker. */
async function openWithTestKernel(file: string): Promise<vscode.NotebookDocument> {
  const { kernel } = await scriptedModel();
  const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
  assert.equal(notebook.notebookType, 'jupyter-notebook', 'the built-in ipynb serializer opened it');
  kernel.prefer(notebook);
  await vscode.window.showNotebookDocument(notebook, { preview: false });
  // Without a selected kernel run_notebook_cell opens the kernel picker and waits for a person.
  await vscode.commands.executeCommand('notebook.selectKernel', { id: kernel.id, extension: kernel.extension });
  await eventually(() => kernel.isSelectedFor(notebook), 'the test kernel is selected for the notebook', 10_000);
  return notebook;
}

/** The text of a cell's outputs, item by item: mime type and content. */
function outputsOf(cell: vscode.NotebookCell): string[] {
  return cell.outputs.flatMap((output) => output.items.map((item) => `${item.mime}: ${new TextDecoder().decode(item.data)}`));
}

describe('Copilot agent mode with a scripted model: notebooks', function () {
  this.timeout(240_000);
  // Running a cell changes the document; the checks decide when it reaches the disk, not the auto save's delay.
  withoutAutoSave();

  before(async function () {
    await api();
    await scriptedModel();
    // The notebook shows beside the chat (other specs maximise the chat, which hides the editors).
    await vscode.commands.executeCommand('workbench.action.restoreAuxiliaryBar').then(undefined, () => undefined);
  });

  it('the "Agent FS" agent edits a cell of the open notebook, runs it, reads its output and undoes the edit', async function () {
    const F = folderOf('notebook');
    const file = path.join(workspaceRoot(), F, 'calc.ipynb');
    // The cell the model works on (the first code cell): what it holds, what the edit makes of it, what that prints.
    const CELL = 1;
    const source = 'print(6 * 7)';
    const edited = 'print(6 * 7 + 1)';
    const printed = '43\n';
    const original = ipynb([
      { kind: 'markdown', source: '# Sums' },
      { kind: 'code', source },
      { kind: 'code', source: 'print((1 + 2) * 3)\nprint(10 / 4)' },
    ]);
    const output = `<cell-output mimeType="${STDOUT}">\nOutput 1: ${printed}\n</cell-output>`;
    const { kernel } = await scriptedModel();
    const runsBefore = kernel.runs.length;
    let notebook: vscode.NotebookDocument | undefined;
    // The id Copilot's notebook tools take, as its summary gives it (checked against how Copilot computes it).
    let cellId = '';
    const result = await runScenario(
      {
        name: 'notebook',
        mode: 'Agent FS',
        files: { 'calc.ipynb': original },
        setUp: async () => {
          notebook = await openWithTestKernel(file);
          cellId = copilotCellId(notebook.cellAt(CELL));
        },
        // The edit goes through the notebook editor and the undo follows the person's revert: the replay, on a
        // closed notebook, would take other ways.
        noReplay: [0, 4],
        steps: [
          {
            tool: 'agentfs_edit_notebook',
            input: () => ({
              path: `${F}/calc.ipynb`,
              edits: [{ action: 'edit', cell: CELL, old_string: '6 * 7', new_string: '6 * 7 + 1' }],
            }),
            expect: (_text, envelope) => {
              assert.ok(envelope?.ok, JSON.stringify(envelope));
              const data = envelope.data as { changed: boolean; edits: { index: number }[] };
              assert.equal(data.changed, true);
              assert.equal(data.edits[0]?.index, CELL);
            },
          },
          {
            tool: 'copilot_getNotebookSummary',
            input: () => ({ filePath: file }),
            expect: (_text, _envelope, content) => assert.ok(content.includes(cellId), `the summary names ${cellId}: ${content}`),
          },
          {
            tool: 'run_notebook_cell',
            input: () => ({ filePath: file, cellId }),
            confirm: { answer: 'Allow Once', title: 'Run Notebook Cell', message: [`calc.ipynb • cell ${CELL + 1}`, edited] },
            expect: (_text, _envelope, content) => {
              const summary =
                /^<execution-summaries>\ncell cellId executed successfully \nTotal Duration: \d+ms \nLast Execution Order: (\d+) \n<\/execution-summaries>\n/.exec(
                  content,
                );
              assert.ok(summary, content);
              assert.equal(Number(summary[1]), kernel.runs.at(-1)?.order, "the run it reports is the kernel's last");
              assert.ok(content.includes(output), content);
            },
          },
          {
            tool: 'read_notebook_cell_output',
            input: () => ({ filePath: file, cellId }),
            expect: (_text, _envelope, content) => assert.equal(content.trim(), output),
          },
          {
            tool: 'agentfs_undo_last',
            input: () => ({}),
            // The run left its output unsaved in the notebook, which Agent FS will not overwrite: the person reverts
            // it (the file is then as the edit left it), and the undo can put the file back.
            before: async () => {
              assert.ok(notebook);
              assert.deepEqual(outputsOf(notebook.cellAt(CELL)), [`${STDOUT}: ${printed}`], 'the cell holds its output');
              assert.equal(notebook.isDirty, true, 'the output is in the document, not saved');
              await vscode.window.showNotebookDocument(notebook);
              await vscode.commands.executeCommand('workbench.action.files.revert');
              await eventually(() => notebook?.isDirty === false, 'the notebook is reverted');
            },
            confirm: {
              answer: 'Allow Once',
              title: `Undo editing ${F}/calc.ipynb?`,
              message: [`Put back the earlier content of ${F}/calc.ipynb`],
            },
            expect: (_text, envelope) => assert.ok(envelope?.ok, JSON.stringify(envelope)),
          },
        ],
        afterTurn: async () => {
          assert.ok(notebook);
          const open = notebook;
          await eventually(() => open.cellAt(CELL).document.getText() === source, 'the editor shows the cell as it was', 10_000);
          assert.deepEqual(
            kernel.runs.slice(runsBefore).map((run) => [run.source, run.output]),
            [[edited, printed]],
            'the kernel ran the edited cell once',
          );
          await vscode.window.showNotebookDocument(open);
          await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
        },
      },
      'change the first calculation, run it, then take the change back',
    );
    remember(result);
    assert.deepEqual(result.after, { 'calc.ipynb': original }, 'the file on disk is as it was, byte for byte');
    const texts = result.rows.map((row) => row.text);
    for (const text of [`Editing ${F}/calc.ipynb`, `Ran calc.ipynb • cell ${CELL + 1}`, `Read output of calc.ipynb • cell ${CELL + 1}`])
      assert.ok(texts.includes(text), `a row says ${text}: ${JSON.stringify(texts)}`);
    assert.ok(!result.rows.some((row) => row.icons.includes('codicon-error')), JSON.stringify(result.rows));
    const offered = result.firstTools.map((tool) => tool.name);
    for (const name of ['agentfs_edit_notebook', 'copilot_getNotebookSummary', 'run_notebook_cell', 'read_notebook_cell_output'])
      assert.ok(offered.includes(name), `${name} is offered`);
    for (const name of ['read_file', 'edit_notebook_file', 'create_new_jupyter_notebook'])
      assert.ok(!offered.includes(name), `${name} is not offered: ${offered.filter((each) => !each.startsWith('agentfs_')).join(' ')}`);
    const prompt = result.run.firstRequest?.text ?? '';
    assert.ok(prompt.includes(`The user's current notebook is ${file}.`), 'the prompt names the open notebook');
  });
});
