/**
 * A notebook kernel for the agent-mode tests: no Jupyter extension or Python is there offline, and Copilot's notebook
 * tools run cells through whatever kernel the notebook has selected. It runs a tiny language deterministically: each
 * non-blank line is `print(<arithmetic>)` (numbers, + - * /, parentheses), and what the lines print becomes the
 * cell's stdout, as a Jupyter kernel's print does. Anything else fails the cell with an error output.
 *
 * Loaded by the scripted model's extension (extension.ts), which exports it to the tests.
 */
import * as vscode from 'vscode';

/** The controller's id; the workbench knows the kernel as `<extension id>/<this>`. */
const KERNEL_ID = 'agentfs-test-kernel';
const NOTEBOOK_TYPE = 'jupyter-notebook';

/** One cell the kernel ran, as it ran it. */
interface KernelRun {
  readonly cell: string;
  readonly source: string;
  readonly order: number;
  readonly success: boolean;
  readonly output: string;
}

export interface TestKernelApi {
  /** What `notebook.selectKernel` takes to select this kernel. */
  readonly id: string;
  readonly extension: string;
  /** Every cell run so far, oldest first. */
  readonly runs: readonly KernelRun[];
  /** Whether the workbench has this kernel selected for the notebook. */
  isSelectedFor(notebook: vscode.NotebookDocument): boolean;
  /** Makes this the notebook's preferred kernel, so a kernel picker lists it first. */
  prefer(notebook: vscode.NotebookDocument): void;
}

/** Evaluates arithmetic over numbers with + - * / and parentheses; throws on anything else. */
function evaluate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/()]|\S/g) ?? [];
  let at = 0;
  const peek = (): string | undefined => tokens[at];
  const take = (): string => {
    const token = tokens[at++];
    if (token === undefined) throw new Error(`unexpected end of ${expression}`);
    return token;
  };
  const primary = (): number => {
    const token = take();
    if (token === '-') return -primary();
    if (token === '(') {
      const value = sum();
      if (take() !== ')') throw new Error(`missing ) in ${expression}`);
      return value;
    }
    if (/^\d/.test(token)) return Number(token);
    throw new Error(`unexpected ${token} in ${expression}`);
  };
  const product = (): number => {
    let value = primary();
    for (let op = peek(); op === '*' || op === '/'; op = peek()) {
      take();
      value = op === '*' ? value * primary() : value / primary();
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      take();
      value = op === '+' ? value + product() : value - product();
    }
    return value;
  };
  const value = sum();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at] ?? ''} in ${expression}`);
  return value;
}

/** What the cell prints. */
function runSource(source: string): string {
  return source
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const call = /^\s*print\((.*)\)\s*$/.exec(line);
      if (!call) throw new Error(`not a print(...) line: ${line}`);
      return `${evaluate(call[1] ?? '')}\n`;
    })
    .join('');
}

export function registerKernel(context: vscode.ExtensionContext): TestKernelApi {
  const runs: KernelRun[] = [];
  const selected = new Set<string>();
  const controller = vscode.notebooks.createNotebookController(KERNEL_ID, NOTEBOOK_TYPE, 'Agent FS test kernel');
  controller.supportsExecutionOrder = true;
  controller.description = 'print(<arithmetic>) per line';
  let order = 0;
  controller.executeHandler = async (cells) => {
    for (const cell of cells) {
      const execution = controller.createNotebookCellExecution(cell);
      execution.executionOrder = ++order;
      execution.start(Date.now());
      const source = cell.document.getText();
      let output: string;
      let success: boolean;
      try {
        output = runSource(source);
        success = true;
        await execution.replaceOutput([new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.stdout(output)])]);
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        output = failure.message;
        success = false;
        await execution.replaceOutput([new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.error(failure)])]);
      }
      execution.end(success, Date.now());
      runs.push({ cell: cell.document.uri.toString(), source, order, success, output });
    }
  };
  context.subscriptions.push(
    controller,
    controller.onDidChangeSelectedNotebooks(({ notebook, selected: isSelected }) => {
      if (isSelected) selected.add(notebook.uri.toString());
      else selected.delete(notebook.uri.toString());
    }),
  );
  return {
    id: KERNEL_ID,
    extension: context.extension.id,
    runs,
    isSelectedFor: (notebook) => selected.has(notebook.uri.toString()),
    prefer: (notebook) => controller.updateNotebookAffinity(notebook, vscode.NotebookControllerAffinity.Preferred),
  };
}
