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
    nbformat_minor: 5,
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

  it('the "Agent FS" agent runs a cell of the open notebook with run_notebook_cell and reads its output with read_notebook_cell_output', async function () {
    const F = folderOf('notebook');
    const file = path.join(workspaceRoot(), F, 'calc.ipynb');
    // The cell the model works on (the first code cell), and what it prints when it runs.
    const CELL = 1;
    const source = 'print(6 * 7)';
    const printed = '42\n';
    const original = ipynb([
      { kind: 'markdown', source: '# Sums' },
      { kind: 'code', source },
      { kind: 'code', source: 'print((1 + 2) * 3)\nprint(10 / 4)' },
    ]);
    const output = `<cell-output mimeType="${STDOUT}">\nOutput 1: ${printed}\n</cell-output>`;
    const { kernel } = await scriptedModel();
    const runsBefore = kernel.runs.length;
    let notebook: vscode.NotebookDocument | undefined;
    // Nothing Copilot gives this agent names a cell id (its prompt names the notebook only, and the summary tool
    // that lists them is not the agent's): the model is given the id Copilot computes, once, as a model keeps one.
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
        // Once Agent FS edits notebooks: its edit of this cell comes before the run, and undo_last after the read.
        steps: [
          {
            tool: 'run_notebook_cell',
            input: () => ({ filePath: file, cellId }),
            confirm: { answer: 'Allow Once', title: 'Run Notebook Cell', message: [`calc.ipynb • cell ${CELL + 1}`, source] },
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
        ],
        afterTurn: async () => {
          assert.ok(notebook);
          const ran = notebook.cellAt(CELL);
          assert.equal(ran.document.getText(), source);
          assert.deepEqual(outputsOf(ran), [`${STDOUT}: ${printed}`], 'the cell the model ran holds its output');
          assert.equal(ran.executionSummary?.success, true);
          for (const other of notebook.getCells().filter((cell) => cell.index !== CELL))
            assert.deepEqual(outputsOf(other), [], 'no other cell ran');
          assert.deepEqual(
            kernel.runs.slice(runsBefore).map((run) => [run.cell, run.source, run.output]),
            [[ran.document.uri.toString(), source, printed]],
            'the kernel ran that cell once',
          );
          assert.equal(ran.executionSummary?.executionOrder, kernel.runs.at(-1)?.order);
          assert.equal(notebook.isDirty, true, 'the output is in the document, not saved');
          await vscode.window.showNotebookDocument(notebook);
          await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
        },
      },
      'run the first calculation in the notebook',
    );
    assert.deepEqual(result.after, { 'calc.ipynb': original }, 'the file on disk is as it was');
    assert.deepEqual(
      result.rows.map((row) => row.text),
      [`Ran calc.ipynb • cell ${CELL + 1}`, `Read output of calc.ipynb • cell ${CELL + 1}`],
    );
    const offered = result.firstTools.map((tool) => tool.name);
    for (const name of ['run_notebook_cell', 'read_notebook_cell_output']) assert.ok(offered.includes(name), `${name} is offered`);
    for (const name of ['copilot_getNotebookSummary', 'read_file', 'edit_notebook_file'])
      assert.ok(!offered.includes(name), `${name} is not offered: ${offered.filter((each) => !each.startsWith('agentfs_')).join(' ')}`);
    const prompt = result.run.firstRequest?.text ?? '';
    assert.ok(prompt.includes(`The user's current notebook is ${file}.`), 'the prompt names the open notebook');
    assert.ok(!prompt.includes('#VSC-'), 'the prompt gives no cell id');
  });
});
