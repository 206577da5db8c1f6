/**
 * The process `syncTrace.ts` runs under strace: `node out/bench/syncTraceCalls.js <root> <full|fast>`. It makes one
 * call of every change path (history on) in `<root>/base`, with the store in `<root>/state`, and writes a marker line
 * to fd 3 before and after each call ("BEGIN label", "ACK label"), so the trace shows which system calls were made
 * between a call's start and its reply.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation } from '../src/core/invoke';
import type { Origin } from '../src/core/history/origin';
import { createNodeSession } from '../src/node/host/session';

const [root = '', durability = 'full'] = process.argv.slice(2);
const base = path.join(root, 'base');

const mark = (text: string): void => void fs.writeSync(3, `${text}\n`);

function write(name: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(base, name)), { recursive: true });
  fs.writeFileSync(path.join(base, name), content);
}

async function main(): Promise<void> {
  if (durability !== 'full' && durability !== 'fast') throw new Error(`durability ${durability}: full or fast`);
  fs.mkdirSync(base, { recursive: true });
  const session = createNodeSession(
    base,
    { durability },
    { stateDirectory: path.join(root, 'state'), ripgrep: false, locks: { directory: path.join(root, 'locks') } },
  );
  const call = async (
    label: string,
    operation: string,
    input: Record<string, unknown>,
    origin?: Origin,
  ): Promise<Record<string, unknown>> => {
    mark(`BEGIN ${label}`);
    const envelope = await invokeOperation(operation, input, session, () => false, undefined, origin);
    mark(`ACK ${label}`);
    if (!envelope.ok) throw new Error(`${label}: ${JSON.stringify(envelope.error)}`);
    return envelope.data as Record<string, unknown>;
  };
  write('dir/a.txt', 'line 1\nline 2\nline 3\n');
  write('b.txt', 'b1\nb2\n');
  write('gone.txt', 'gone\n');
  write('tree/x.txt', 'x\n');
  write('tree/deep/y.txt', 'y\n');
  write('other/old.txt', 'old\n');
  write('r/one.txt', 'alpha one\nkeep\n');
  write('r/two.txt', 'two alpha\r\n');
  write('r/deep/three.txt', 'alpha\nalpha three\n');
  write('r/none.txt', 'no match\n');
  const cell = { cell_type: 'code', execution_count: null, id: 'c', metadata: {}, outputs: [], source: ['print(1)\n'] };
  write('nb.ipynb', `${JSON.stringify({ cells: [cell], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`);

  await call('write_file (new file)', 'write_file', { file_name: 'dir/new.txt', content: 'new\n' });
  await call('write_file (replace)', 'write_file', { file_name: 'dir/a.txt', content: 'line 1\nline 2\nline 3\nline 4\n' });
  await call('write_file (new folders)', 'write_file', { file_name: 'made/deeper/x.txt', content: 'x\n' });
  await call('create_file', 'create_file', { path: 'dir/c.txt', content: 'c\n' });
  await call('edit_file', 'edit_file', { path: 'dir/a.txt', old_string: 'line 2', new_string: 'LINE 2' });
  await call('replace_lines', 'replace_lines', { path: 'dir/a.txt', start_line: 1, end_line: 1, content: 'first\n' });
  await call('insert_lines', 'insert_lines', { path: 'dir/a.txt', position: 'end', content: 'end\n' });
  await call('delete_lines', 'delete_lines', { path: 'dir/a.txt', start_line: 3, end_line: 3 });
  await call('apply_patch (unified, two files)', 'apply_patch', {
    patch: '--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n-b1\n+B1\n b2\n--- /dev/null\n+++ b/p.txt\n@@ -0,0 +1,1 @@\n+p\n',
  });
  await call('apply_patch (V4A: update, move, delete)', 'apply_patch', {
    patch: '*** Begin Patch\n*** Update File: b.txt\n*** Move to: moved/b.txt\n@@\n-B1\n+b one\n*** Delete File: gone.txt\n*** End Patch\n',
  });
  await call('edit_notebook', 'edit_notebook', { path: 'nb.ipynb', edits: [{ action: 'edit', cell: 'c', source: 'print(2)\n' }] });
  await call('replace_in_files (three files, two folders)', 'replace_in_files', { query: 'alpha', replacement: 'beta', paths: ['r'] });
  await call('copy_file', 'copy_file', { source_path: 'dir/a.txt', destination_path: 'copies/a.txt' });
  await call('move_file', 'move_file', { source_path: 'copies/a.txt', destination_path: 'dir/moved.txt' });
  await call('delete_file', 'delete_file', { file_name: 'dir/moved.txt' });
  await call('create_directory', 'create_directory', { directory_name: 'one/two' });
  await call('copy_directory (over one)', 'copy_directory', { source_path: 'tree', destination_path: 'other', overwrite: true });
  await call('move_directory', 'move_directory', { source_path: 'other', destination_path: 'moved-tree' });
  const deleted = await call('delete_directory', 'delete_directory', { directory_path: 'moved-tree', recursive: true });
  await call('undo_operation', 'undo_operation', { operation_id: deleted.operation_id });
  const origin: Origin = { host: 'runner', agent: 'strace', session: 'trace-session' };
  await call('write_file (in a session)', 'write_file', { file_name: 's/one.txt', content: '1\n' }, origin);
  await call('write_file (in a session, again)', 'write_file', { file_name: 's/two.txt', content: '2\n' }, origin);
  await call('undo_last (the session)', 'undo_last', { session: 'trace-session' });
  await session.history?.settled();
}

main().catch((error: unknown) => {
  process.stderr.write(`syncTraceCalls: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
