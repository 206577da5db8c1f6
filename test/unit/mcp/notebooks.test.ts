/**
 * Notebooks over MCP, with the SDK's client on real stdio: a client reads a notebook as cells, deletes a cell (which
 * asks the person, naming the cell), and changes another; Jupyter's validator accepts the result, every other byte
 * is as it was, and the change is in the shared history.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { jupyterVerdicts, notebookStyles, sampleNotebook, writeNotebook } from '../../shared/notebooks';
import { expectOk, removeTree } from '../helpers';
import { buildOnce, serve, tempLayout } from './serve';

describe('MCP server: notebooks', function () {
  before(buildOnce);

  it('a client reads cells, deletes one after the person agrees, edits another, and the notebook stays valid', async function () {
    const { tmp, base, state } = tempLayout('agentfs-mcp-notebook-');
    const style = notebookStyles().find((each) => each.minor === 5 && each.indent === 2) ?? assert.fail('a style');
    const file = path.join(base, 'analysis.ipynb');
    fs.writeFileSync(file, writeNotebook(sampleNotebook(style), style));
    const served = await serve(['--root', base, '--state', state], { elicit: () => ({ action: 'accept', content: {} }) });
    try {
      const read = expectOk((await served.call('read_file', { file_name: 'analysis.ipynb' })).envelope);
      assert.deepEqual(
        (read.cells as { id: string }[]).map((cell) => cell.id),
        ['first-cell', 'notes', 'boom', 'raw1'],
      );
      const edited = expectOk(
        (
          await served.call('edit_notebook', {
            path: 'analysis.ipynb',
            expected_hash: read.content_hash,
            edits: [
              { action: 'delete', cell: 'boom' },
              { action: 'edit', cell: 'first-cell', old_string: 'print(x)', new_string: 'print(x.sum())' },
            ],
          })
        ).envelope,
      );
      assert.equal(typeof edited.operation_id, 'string');
      assert.equal(served.elicitations.length, 1);
      assert.match(served.elicitations[0]?.message ?? '', /deletes cell 2 \(id boom\)/);
      const expected = sampleNotebook(style);
      expected.cells.splice(2, 1);
      const first = expected.cells[0] ?? assert.fail('cell 0');
      first.source = style.sourceAsString
        ? 'import numpy as np\nx = np.arange(3)\nprint(x.sum())'
        : ['import numpy as np\n', 'x = np.arange(3)\n', 'print(x.sum())'];
      assert.deepEqual(fs.readFileSync(file), writeNotebook(expected, style));
      assert.deepEqual(jupyterVerdicts([file]), [undefined]);
      const history = expectOk((await served.call('history_list', {})).envelope);
      assert.equal((history.operations as { operation: string }[])[0]?.operation, 'edit_notebook');
    } finally {
      await served.close();
      removeTree(tmp);
    }
  });
});
