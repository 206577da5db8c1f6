/**
 * edit_notebook over the runner's pipeline and a real temp folder: every edit, in every writer's style, leaves
 * exactly the bytes of the expected notebook written in that style (so every cell and byte the edit did not touch is
 * as it was), and Jupyter's own validator accepts the result. Refusals change nothing; undo puts the bytes back.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type Cell,
  codeCell,
  hasJupyterValidator,
  jupyterVerdicts,
  markdownCell,
  type Notebook,
  type NotebookStyle,
  notebookStyles,
  sampleNotebook,
  writeNotebook,
} from '../shared/notebooks';
import type { Session } from '../../src/core/invoke';
import { createNodeSession } from '../../src/node/host/session';
import { call, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

type Edit = Record<string, unknown>;

interface Case {
  readonly name: string;
  /** The edits, given the style (cells named by id where the notebook has ids, else by index). */
  edits(style: NotebookStyle): Edit[];
  /** The expected notebook, given the sample and the ids the result gave new cells. */
  expect(notebook: Notebook, style: NotebookStyle, newIds: readonly (string | null)[]): void;
}

const ref = (style: NotebookStyle, id: string, index: number): string | number => (style.minor >= 5 ? id : index);
const source = (text: string, style: NotebookStyle): string | string[] =>
  style.sourceAsString ? text : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
const cellAt = (notebook: Notebook, index: number): Cell => {
  const cell = notebook.cells[index];
  assert.ok(cell, `cell ${index}`);
  return cell;
};

const CASES: readonly Case[] = [
  {
    name: 'replaces text inside a cell',
    edits: (style) => [{ action: 'edit', cell: ref(style, 'first-cell', 0), old_string: 'np.arange(3)', new_string: 'np.arange(5)' }],
    expect: (notebook, style) => {
      cellAt(notebook, 0).source = source('import numpy as np\nx = np.arange(5)\nprint(x)', style);
    },
  },
  {
    name: "replaces a markdown cell's whole source with non-ASCII text",
    edits: (style) => [{ action: 'edit', cell: ref(style, 'notes', 1), source: 'New *text*\nÜber 你好 🎉\n' }],
    expect: (notebook, style) => {
      cellAt(notebook, 1).source = source('New *text*\nÜber 你好 🎉\n', style);
    },
  },
  {
    name: 'inserts a code cell after another',
    edits: (style) => [{ action: 'insert', cell: ref(style, 'notes', 1), source: 'print("hi")\n' }],
    expect: (notebook, style, ids) => {
      notebook.cells.splice(2, 0, codeCell('print("hi")\n', style, { id: ids[0] ?? undefined }));
    },
  },
  {
    name: 'inserts a markdown cell before the first',
    edits: (style) => [{ action: 'insert', cell: ref(style, 'first-cell', 0), position: 'before', kind: 'markdown', source: '# Intro' }],
    expect: (notebook, style, ids) => {
      notebook.cells.unshift(markdownCell('# Intro', style, ids[0] ?? undefined));
    },
  },
  {
    name: 'deletes a cell',
    edits: (style) => [{ action: 'delete', cell: ref(style, 'boom', 2) }],
    expect: (notebook) => {
      notebook.cells.splice(2, 1);
    },
  },
  {
    name: 'moves the first cell to the end, outputs and all',
    edits: (style) => [{ action: 'move', cell: ref(style, 'first-cell', 0), to: 3 }],
    expect: (notebook) => {
      notebook.cells.push(notebook.cells.shift() ?? {});
    },
  },
  {
    name: "clears every code cell's outputs",
    edits: () => [{ action: 'clear_outputs' }],
    expect: (notebook) => {
      for (const cell of notebook.cells) {
        if (cell.cell_type !== 'code') continue;
        cell.outputs = [];
        cell.execution_count = null;
      }
    },
  },
  {
    name: 'makes several edits in order in one call',
    edits: (style) => [
      { action: 'edit', cell: ref(style, 'boom', 2), source: 'x = 1' },
      { action: 'insert', source: 'x', kind: 'code' },
      { action: 'delete', cell: ref(style, 'notes', 1) },
      { action: 'clear_outputs', cell: ref(style, 'boom', 1) },
    ],
    expect: (notebook, style, ids) => {
      const boom = cellAt(notebook, 2);
      boom.source = source('x = 1', style);
      boom.outputs = [];
      boom.execution_count = null;
      notebook.cells.push(codeCell('x', style, { id: ids[1] ?? undefined }));
      notebook.cells.splice(1, 1);
    },
  },
];

function describeStyle(style: NotebookStyle): string {
  return `4.${style.minor}, indent ${style.indent}, ${style.crlf ? 'CRLF' : 'LF'}, ${style.sorted ? 'sorted' : 'unsorted'} keys, ${style.sourceAsString ? 'string' : 'list'} sources${style.asciiOnly ? ', ASCII only' : ''}${style.finalNewline ? '' : ', no final newline'}`;
}

describe('edit_notebook', function () {
  let ws: TempWorkspace;
  /** The runner's session with its history on, as users run it. */
  let recorded: Session;
  beforeEach(function () {
    ws = tempWorkspace();
    recorded = createNodeSession(ws.base, {}, { stateDirectory: path.join(ws.tmp, 'state') });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('leaves exactly the expected bytes for every edit in every style, and Jupyter validates each result', async function () {
    assert.ok(hasJupyterValidator(), 'nbformat is installed (npm test installs python3-nbformat)');
    const written: string[] = [];
    let calls = 0;
    for (const [styleIndex, style] of notebookStyles().entries()) {
      for (const [caseIndex, each] of CASES.entries()) {
        const name = `nb-${styleIndex}-${caseIndex}.ipynb`;
        const file = path.join(ws.base, name);
        fs.writeFileSync(file, writeNotebook(sampleNotebook(style), style));
        const data = expectOk(await call(ws.session, 'edit_notebook', { path: name, edits: each.edits(style) }));
        calls++;
        const done = data.edits as { id: string | null; action: string }[];
        const newIds = done.map((one) => (one.action === 'insert' ? one.id : null));
        for (const id of newIds) if (style.minor >= 5 && id !== null) assert.match(id, /^[0-9a-f]{8}$/);
        const expected = sampleNotebook(style);
        each.expect(expected, style, newIds);
        const label = `${each.name} (${describeStyle(style)})`;
        assert.equal(fs.readFileSync(file, 'utf8'), writeNotebook(expected, style).toString('utf8'), label);
        written.push(file);
      }
    }
    const verdicts = jupyterVerdicts(written);
    const invalid = verdicts.map((verdict, index) => (verdict === undefined ? undefined : `${written[index]}: ${verdict}`)).filter(Boolean);
    assert.deepEqual(invalid, []);
    assert.equal(calls, 48 * CASES.length);
  });

  it('takes a cell by index given as a string, and undo_last puts back every byte', async function () {
    const style = notebookStyles()[0] ?? assert.fail('a style');
    const original = writeNotebook(sampleNotebook(style), style);
    ws.write({ 'a.ipynb': original });
    expectOk(await call(recorded, 'edit_notebook', { path: 'a.ipynb', edits: [{ action: 'delete', cell: '3' }] }));
    assert.equal((JSON.parse(ws.read('a.ipynb')) as Notebook).cells.length, 3);
    expectOk(await call(recorded, 'undo_last', {}));
    assert.deepEqual(fs.readFileSync(path.join(ws.base, 'a.ipynb')), original);
  });

  it('creates a missing notebook from inserts, valid for Jupyter, and undo removes it', async function () {
    const data = expectOk(
      await call(recorded, 'edit_notebook', {
        path: 'new/analysis.ipynb',
        edits: [
          { action: 'insert', kind: 'markdown', source: '# Analysis' },
          { action: 'insert', source: 'import pandas as pd\n' },
        ],
      }),
    );
    assert.equal(data.total_cells, 2);
    const file = path.join(ws.base, 'new', 'analysis.ipynb');
    const notebook = JSON.parse(fs.readFileSync(file, 'utf8')) as Notebook;
    assert.deepEqual(
      notebook.cells.map((cell) => [cell.cell_type, cell.source]),
      [
        ['markdown', ['# Analysis']],
        ['code', ['import pandas as pd\n']],
      ],
    );
    assert.deepEqual(notebook.metadata, {});
    assert.deepEqual(jupyterVerdicts([file]), [undefined]);
    expectOk(await call(recorded, 'undo_last', {}));
    assert.equal(fs.existsSync(file), false);
  });

  it('refuses, changing nothing: an unknown cell, no match, two matches, a stale hash, an invalid notebook, an edit of a missing one', async function () {
    const style = notebookStyles()[5] ?? assert.fail('a style');
    const original = writeNotebook(sampleNotebook(style), style);
    ws.write({
      'a.ipynb': original,
      'bad.ipynb': '{"cells": [{"cell_type": "code"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}\n',
    });
    const before = ws.snap();
    const refusals: [Edit[], string, string?][] = [
      [[{ action: 'delete', cell: 'nope' }], 'CELL_NOT_FOUND'],
      [[{ action: 'delete', cell: 9 }], 'CELL_NOT_FOUND'],
      [[{ action: 'edit', cell: 0, old_string: 'np.zeros', new_string: 'x' }], 'NO_MATCH'],
      [[{ action: 'edit', cell: 0, old_string: 'np', new_string: 'numpy' }], 'MULTIPLE_MATCHES'],
      [[{ action: 'move', cell: 0, to: 7 }], 'INVALID_INPUT'],
      [[{ action: 'delete', cell: 0, source: 'x' }], 'INVALID_INPUT'],
      [[{ action: 'edit', cell: 0 }], 'INVALID_INPUT'],
      [
        [
          { action: 'insert', source: 'ok' },
          { action: 'delete', cell: 'missing' },
        ],
        'CELL_NOT_FOUND',
      ],
    ];
    for (const [edits, code] of refusals) expectError(await call(ws.session, 'edit_notebook', { path: 'a.ipynb', edits }), code);
    const noMatch = expectError(
      await call(ws.session, 'edit_notebook', {
        path: 'a.ipynb',
        edits: [{ action: 'edit', cell: 0, old_string: 'x = np.arange(4)', new_string: 'y' }],
      }),
      'NO_MATCH',
    );
    assert.match(noMatch.message, /nearest text is at lines 2-2 of the cell/);
    expectError(
      await call(ws.session, 'edit_notebook', {
        path: 'a.ipynb',
        edits: [{ action: 'clear_outputs' }],
        expected_hash: `sha256:${'0'.repeat(64)}`,
      }),
      'CONTENT_CONFLICT',
    );
    const invalid = expectError(
      await call(ws.session, 'edit_notebook', { path: 'bad.ipynb', edits: [{ action: 'clear_outputs' }] }),
      'NOTEBOOK_INVALID',
    );
    assert.match(invalid.message, /not valid nbformat 4 \(cells\.0 must have required property '(metadata|source)'\)/);
    expectError(await call(ws.session, 'edit_notebook', { path: 'gone.ipynb', edits: [{ action: 'delete', cell: 0 }] }), 'FILE_NOT_FOUND');
    assert.deepEqual(ws.snap(), before);
  });

  it('dry_run shows the cells that change as a diff and writes nothing; a read gives the hash the edit checks', async function () {
    const style = notebookStyles()[2] ?? assert.fail('a style');
    ws.write({ 'a.ipynb': writeNotebook(sampleNotebook(style), style) });
    const before = ws.snap();
    const read = expectOk(await call(ws.session, 'read_file', { file_name: 'a.ipynb' }));
    const data = expectOk(
      await call(ws.session, 'edit_notebook', {
        path: 'a.ipynb',
        dry_run: true,
        expected_hash: read.content_hash,
        edits: [{ action: 'edit', cell: 2, source: '2/1\n' }],
      }),
    );
    assert.equal(data.changed, true);
    assert.match(String(data.diff), /^ # %% \[2\] python\n-1\/0\n\+2\/1\n/m);
    assert.deepEqual(ws.snap(), before);
  });
});
