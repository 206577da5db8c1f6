/**
 * read_file of a notebook: its cells with numbered sources and their outputs summed up, a cell range, a cut that
 * says where to go on and stays under the reply budget with large outputs, and the JSON itself when asked.
 */
import * as assert from 'node:assert/strict';
import { codeCell, type Notebook, notebookStyles, sampleNotebook, writeNotebook } from '../shared/notebooks';
import { call, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

const REPLY_BUDGET = 32 * 1024;

describe('read_file of a notebook', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('answers cells: numbered sources, outputs summed up, errors by their last lines, images by type and size', async function () {
    const style = notebookStyles().find((each) => each.minor === 5 && each.crlf) ?? assert.fail('a style');
    ws.write({ 'a.ipynb': writeNotebook(sampleNotebook(style), style) });
    const data = expectOk(await call(ws.session, 'read_file', { file_name: 'a.ipynb' }));
    assert.equal(data.format, 'notebook');
    assert.equal(data.nbformat, '4.5');
    assert.equal(data.language, 'python');
    assert.equal(data.total_cells, 4);
    assert.equal(data.truncated, false);
    assert.equal(data.next_cell, null);
    assert.deepEqual(data.cells, [
      {
        index: 0,
        id: 'first-cell',
        kind: 'code',
        source: '1: import numpy as np\n2: x = np.arange(3)\n3: print(x)',
        execution_count: 1,
        outputs: [
          { type: 'stream', name: 'stdout', text: '[0 1 2]\nGrüße, 你好 🎉\n' },
          { type: 'stream', name: 'stderr', text: 'warning: slow\n' },
          { type: 'execute_result', text: '3', data: ['text/html, 8 characters (not shown)'] },
          { type: 'display_data', text: '<Figure size 640x480>', data: ['image/png, 70 B (not shown)'] },
        ],
      },
      { index: 1, id: 'notes', kind: 'markdown', source: '1: # Überschrift\n2: Κείμενο και 中文\n3: - item' },
      {
        index: 2,
        id: 'boom',
        kind: 'code',
        source: '1: 1/0',
        execution_count: 2,
        outputs: [
          {
            type: 'error',
            ename: 'ZeroDivisionError',
            evalue: 'division by zero',
            traceback: '----\nCell In[2], line 1\nZeroDivisionError: division by zero',
          },
        ],
      },
      { index: 3, id: 'raw1', kind: 'raw', source: '1: raw text' },
    ]);
  });

  it('reads a range of cells, refuses one past the end, and gives the JSON itself with raw or a line range', async function () {
    const style = notebookStyles()[0] ?? assert.fail('a style');
    const bytes = writeNotebook(sampleNotebook(style), style);
    ws.write({ 'a.ipynb': bytes });
    const range = expectOk(await call(ws.session, 'read_file', { file_name: 'a.ipynb', cells: '1-2' }));
    assert.deepEqual(
      (range.cells as { index: number }[]).map((cell) => cell.index),
      [1, 2],
    );
    assert.equal(range.next_cell, null);
    const open = expectOk(await call(ws.session, 'read_file', { file_name: 'a.ipynb', cells: '3-' }));
    assert.deepEqual(
      (open.cells as { index: number }[]).map((cell) => cell.index),
      [3],
    );
    expectError(await call(ws.session, 'read_file', { file_name: 'a.ipynb', cells: '4' }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'read_file', { file_name: 'a.ipynb', cells: 'two' }), 'INVALID_INPUT');
    const raw = expectOk(await call(ws.session, 'read_file', { file_name: 'a.ipynb', raw: true }));
    assert.equal(raw.content, bytes.toString('utf8'));
    const lines = expectOk(await call(ws.session, 'read_file', { file_name: 'a.ipynb', start_line: 1, end_line: 2 }));
    assert.equal(lines.content, bytes.toString('utf8').split('\n').slice(0, 2).join('\n') + '\n');
  });

  it('cuts a notebook with large outputs under the reply budget, and next_cell leads through every cell once', async function () {
    const style = notebookStyles()[0] ?? assert.fail('a style');
    const notebook: Notebook = { ...sampleNotebook(style), cells: [] };
    const bigText = `${'0123456789 '.repeat(9)}\n`.repeat(400);
    const png = 'A'.repeat(30_000);
    for (let index = 0; index < 100; index++) {
      notebook.cells.push(
        codeCell(`value_${index} = compute(${index})\nvalue_${index}`, style, {
          id: `c${index}`,
          count: index + 1,
          outputs: [
            { name: 'stdout', output_type: 'stream', text: bigText },
            { data: { 'image/png': png, 'text/plain': ['<Figure>'] }, metadata: {}, output_type: 'display_data' },
          ],
        }),
      );
    }
    ws.write({ 'big.ipynb': writeNotebook(notebook, style) });
    const seen: number[] = [];
    let next: number | null = 0;
    let pages = 0;
    while (next !== null) {
      const envelope = await call(ws.session, 'read_file', { file_name: 'big.ipynb', cells: `${next}-` });
      const data = expectOk(envelope);
      assert.ok(
        Buffer.byteLength(JSON.stringify(envelope)) <= REPLY_BUDGET,
        `page ${pages} is ${Buffer.byteLength(JSON.stringify(envelope))} bytes`,
      );
      const cells = data.cells as { index: number; outputs: { text?: string }[] }[];
      for (const cell of cells) {
        seen.push(cell.index);
        assert.match(cell.outputs[0]?.text ?? '', /more characters; raw: true shows all\]$/);
      }
      next = data.next_cell as number | null;
      assert.equal(data.truncated, next !== null);
      pages++;
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 100 }, (_, index) => index),
    );
    assert.ok(pages > 1);
  });

  it('reads a file that is not a version-4 notebook as text', async function () {
    ws.write({ 'old.ipynb': '{"nbformat": 3, "worksheets": []}\n', 'broken.ipynb': '{"cells": [\n' });
    for (const name of ['old.ipynb', 'broken.ipynb']) {
      const data = expectOk(await call(ws.session, 'read_file', { file_name: name }));
      assert.equal(data.content, ws.read(name));
    }
  });
});
