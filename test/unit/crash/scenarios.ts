/**
 * The change paths the crash-state checker records, one call each: every tool that changes files, the two undos, at
 * several sizes. `setup` makes the tree (and, for the undos, the history) the call starts from; the recording covers
 * the call alone.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export type Size = 'small' | 'medium' | 'large';

/** Bytes of the text files a scenario of each size works on: a line, a few hundred KB, past LARGE_CONTENT_BYTES. */
export const SIZE_BYTES: Readonly<Record<Size, number>> = { small: 120, medium: 300 * 1024, large: 9 * 1024 * 1024 };

/** Numbered lines, `bytes` long or a little more: each line says its number and the text's name, so every edit is unique. */
function text(bytes: number, name: string): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 1; length < bytes; line++) {
    const each = `line ${String(line).padStart(6, '0')} of ${name}\n`;
    lines.push(each);
    length += each.length;
  }
  return lines.join('');
}

/** What a scenario's setup may call: the tool, through the session the recorded call then uses, with an origin. */
type Run = (operation: string, input: Record<string, unknown>, session?: string) => Promise<Record<string, unknown>>;

export interface Scenario {
  readonly name: string;
  readonly sizes: readonly Size[];
  /** The tool reads its file whole (a V4A patch, a notebook): it keeps the default in-memory limit, not the low one. */
  readonly whole?: true;
  /** Makes the tree under `base` (and history through `run`); returns values the call's input needs. */
  readonly setup: (base: string, bytes: number, run: Run) => Promise<Record<string, string>>;
  readonly call: (bytes: number, values: Record<string, string>) => { operation: string; input: Record<string, unknown> };
}

const ALL: readonly Size[] = ['small', 'medium', 'large'];
const SMALL_AND_MEDIUM: readonly Size[] = ['small', 'medium'];

function write(base: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(base, name)), { recursive: true });
    fs.writeFileSync(path.join(base, name), content);
  }
}

const notebook = (bytes: number): string =>
  `${JSON.stringify(
    {
      cells: [
        { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Notes\n', text(bytes, 'cell')] },
        { cell_type: 'code', execution_count: null, id: 'code', metadata: {}, outputs: [], source: ['print(1)\n'] },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  )}\n`;

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'write_file (new file)',
    sizes: ALL,
    setup: (base) => Promise.resolve(write(base, { 'dir/keep.txt': 'keep\n' })).then(() => ({})),
    call: (bytes) => ({ operation: 'write_file', input: { file_name: 'dir/new.txt', content: text(bytes, 'new') } }),
  },
  {
    name: 'write_file (replace)',
    sizes: ALL,
    setup: (base, bytes) => Promise.resolve(write(base, { 'dir/a.txt': text(bytes, 'old') })).then(() => ({})),
    call: (bytes) => ({ operation: 'write_file', input: { file_name: 'dir/a.txt', content: text(bytes, 'new') } }),
  },
  {
    name: 'write_file (new folders)',
    sizes: ['small'],
    setup: () => Promise.resolve({}),
    call: (bytes) => ({ operation: 'write_file', input: { file_name: 'made/deeper/x.txt', content: text(bytes, 'x') } }),
  },
  {
    name: 'create_file',
    sizes: SMALL_AND_MEDIUM,
    setup: (base) => Promise.resolve(write(base, { 'dir/keep.txt': 'keep\n' })).then(() => ({})),
    call: (bytes) => ({ operation: 'create_file', input: { path: 'dir/c.txt', content: text(bytes, 'created') } }),
  },
  {
    name: 'edit_file',
    sizes: ALL,
    setup: (base, bytes) => Promise.resolve(write(base, { 'a.txt': text(bytes, 'old') })).then(() => ({})),
    call: () => ({ operation: 'edit_file', input: { path: 'a.txt', old_string: 'line 000002 of old', new_string: 'line 000002 EDITED' } }),
  },
  {
    name: 'replace_lines',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) => Promise.resolve(write(base, { 'a.txt': text(bytes, 'old') })).then(() => ({})),
    call: () => ({ operation: 'replace_lines', input: { path: 'a.txt', start_line: 2, end_line: 3, content: 'replaced\n' } }),
  },
  {
    name: 'insert_lines',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) => Promise.resolve(write(base, { 'a.txt': text(bytes, 'old') })).then(() => ({})),
    call: () => ({ operation: 'insert_lines', input: { path: 'a.txt', position: 'after', line: 1, content: 'inserted\n' } }),
  },
  {
    name: 'delete_lines',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) => Promise.resolve(write(base, { 'a.txt': text(bytes, 'old') })).then(() => ({})),
    call: () => ({ operation: 'delete_lines', input: { path: 'a.txt', start_line: 2, end_line: 2 } }),
  },
  {
    name: 'apply_patch (unified, several files)',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) =>
      Promise.resolve(write(base, { 'a.txt': text(bytes, 'a'), 'b.txt': text(bytes, 'b'), 'gone.txt': 'gone\n' })).then(() => ({})),
    call: () => ({
      operation: 'apply_patch',
      input: {
        patch: [
          '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n line 000001 of a\n-line 000002 of a\n+line 000002 PATCHED\n',
          '--- a/b.txt\n+++ b/b.txt\n@@ -1,1 +1,1 @@\n-line 000001 of b\n+line 000001 PATCHED\n',
          '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+new\n',
          '--- a/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gone\n',
        ].join(''),
      },
    }),
  },
  {
    name: 'apply_patch (V4A: update, move, add, delete)',
    sizes: SMALL_AND_MEDIUM,
    whole: true,
    setup: (base, bytes) =>
      Promise.resolve(write(base, { 'a.txt': text(bytes, 'a'), 'b.txt': text(bytes, 'b'), 'gone.txt': 'gone\n' })).then(() => ({})),
    call: () => ({
      operation: 'apply_patch',
      input: {
        patch: [
          '*** Begin Patch',
          '*** Update File: a.txt',
          '@@',
          ' line 000001 of a',
          '-line 000002 of a',
          '+line 000002 V4A',
          '*** Update File: b.txt',
          '*** Move to: moved/b.txt',
          '@@',
          '-line 000001 of b',
          '+line 000001 MOVED',
          '*** Add File: added.txt',
          '+added',
          '*** Delete File: gone.txt',
          '*** End Patch',
          '',
        ].join('\n'),
      },
    }),
  },
  {
    // Three files swapped in one after another (at medium, two above the low in-memory limit are streamed), a folder
    // of their own for one, and a file without the word that must stay as it is.
    name: 'replace_in_files (several files)',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) =>
      Promise.resolve(
        write(base, {
          'a.txt': text(bytes, 'a'),
          'b.txt': text(bytes, 'b'),
          'dir/c.txt': text(SIZE_BYTES.small, 'c'),
          'keep.txt': 'keep\n',
        }),
      ).then(() => ({})),
    call: () => ({ operation: 'replace_in_files', input: { query: 'line (0+2) of', replacement: 'LINE $1 of', is_regex: true } }),
  },
  {
    name: 'edit_notebook',
    sizes: SMALL_AND_MEDIUM,
    whole: true,
    setup: (base, bytes) => Promise.resolve(write(base, { 'nb.ipynb': notebook(bytes) })).then(() => ({})),
    call: () => ({
      operation: 'edit_notebook',
      input: { path: 'nb.ipynb', edits: [{ action: 'edit', cell: 'code', source: 'print(2)\n' }] },
    }),
  },
  {
    name: 'copy_file (over an existing file)',
    sizes: ALL,
    setup: (base, bytes) =>
      Promise.resolve(write(base, { 'src/a.txt': text(bytes, 'a'), 'dst/a.txt': text(bytes, 'old') })).then(() => ({})),
    call: () => ({ operation: 'copy_file', input: { source_path: 'src/a.txt', destination_path: 'dst/a.txt', overwrite: true } }),
  },
  {
    name: 'move_file (to another folder)',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) => Promise.resolve(write(base, { 'src/a.txt': text(bytes, 'a'), 'dst/keep.txt': 'keep\n' })).then(() => ({})),
    call: () => ({ operation: 'move_file', input: { source_path: 'src/a.txt', destination_path: 'dst/a.txt' } }),
  },
  {
    name: 'delete_file',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) => Promise.resolve(write(base, { 'dir/a.txt': text(bytes, 'a'), 'dir/keep.txt': 'keep\n' })).then(() => ({})),
    call: () => ({ operation: 'delete_file', input: { file_name: 'dir/a.txt' } }),
  },
  {
    name: 'create_directory (nested)',
    sizes: ['small'],
    setup: () => Promise.resolve({}),
    call: () => ({ operation: 'create_directory', input: { directory_name: 'one/two/three' } }),
  },
  {
    name: 'copy_directory (over an existing one)',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) =>
      Promise.resolve(write(base, { 'tree/a.txt': text(bytes, 'a'), 'tree/deep/b.txt': 'b\n', 'copy/old.txt': text(bytes, 'old') })).then(
        () => ({}),
      ),
    call: () => ({ operation: 'copy_directory', input: { source_path: 'tree', destination_path: 'copy', overwrite: true } }),
  },
  {
    name: 'move_directory (over an existing one)',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) =>
      Promise.resolve(write(base, { 'tree/a.txt': text(bytes, 'a'), 'tree/deep/b.txt': 'b\n', 'other/old.txt': text(bytes, 'old') })).then(
        () => ({}),
      ),
    call: () => ({ operation: 'move_directory', input: { source_path: 'tree', destination_path: 'other', overwrite: true } }),
  },
  {
    name: 'delete_directory (recursive)',
    sizes: SMALL_AND_MEDIUM,
    setup: (base, bytes) =>
      Promise.resolve(write(base, { 'tree/a.txt': text(bytes, 'a'), 'tree/deep/b.txt': 'b\n', 'keep.txt': 'keep\n' })).then(() => ({})),
    call: () => ({ operation: 'delete_directory', input: { directory_path: 'tree', recursive: true } }),
  },
  {
    name: 'undo_operation (of a write)',
    sizes: ALL,
    setup: async (base, bytes, run) => {
      write(base, { 'a.txt': text(bytes, 'old') });
      const written = await run('write_file', { file_name: 'a.txt', content: text(bytes, 'new') });
      return { id: String(written.operation_id) };
    },
    call: (_bytes, values) => ({ operation: 'undo_operation', input: { operation_id: values.id } }),
  },
  {
    // The undo sees the change made outside first (recorded as its own operation), then merges around it.
    name: 'undo_operation (a merge around a change made outside)',
    sizes: SMALL_AND_MEDIUM,
    setup: async (base, bytes, run) => {
      write(base, { 'a.txt': text(bytes, 'old') });
      const edited = await run('edit_file', { path: 'a.txt', old_string: 'line 000001 of old\n', new_string: 'line 000001 edited\n' });
      const file = path.join(base, 'a.txt');
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('line 000004 of old\n', 'line 000004 by hand\n'));
      return { id: String(edited.operation_id) };
    },
    call: (_bytes, values) => ({ operation: 'undo_operation', input: { operation_id: values.id } }),
  },
  {
    name: 'undo_last (a session: folders, writes, a move)',
    sizes: SMALL_AND_MEDIUM,
    setup: async (base, bytes, run) => {
      write(base, { 'a.txt': text(bytes, 'old') });
      await run('write_file', { file_name: 'a.txt', content: text(bytes, 'new') }, 'crash-session');
      await run('create_directory', { directory_name: 'made' }, 'crash-session');
      await run('write_file', { file_name: 'made/n.txt', content: 'n\n' }, 'crash-session');
      await run('move_file', { source_path: 'made/n.txt', destination_path: 'moved.txt' }, 'crash-session');
      return {};
    },
    call: () => ({ operation: 'undo_last', input: { session: 'crash-session' } }),
  },
];
