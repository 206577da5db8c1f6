import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { callTool, exists, expectError, expectOk, readText, scratch, snapshot } from '../helpers';

describe('undo_operation', () => {
  it('puts a deleted tree back, and an undo of the undo deletes it again', async () => {
    const s = scratch('undo-tree', { 'tree/a.txt': 'a\n', 'tree/sub/b.txt': 'b\n', 'tree/empty/': '' });
    const before = snapshot(s.abs());
    const deleted = expectOk(await callTool('delete_directory', { directory_path: s.rel('tree'), recursive: true }));
    assert.equal(exists(s.abs('tree')), false);
    const undo = expectOk(await callTool('undo_operation', { operation_id: deleted.data.operation_id as string }));
    assert.equal(undo.data.undone_operation_id, deleted.data.operation_id);
    assert.deepEqual(snapshot(s.abs()), before);
    expectOk(await callTool('undo_operation', { operation_id: undo.data.operation_id as string }));
    assert.equal(exists(s.abs('tree')), false);
  });

  it('moves a moved file back', async () => {
    const s = scratch('undo-move', { 'from.txt': 'f\n' });
    const moved = expectOk(await callTool('move_file', { source_path: s.rel('from.txt'), destination_path: s.rel('to/there.txt') }));
    expectOk(await callTool('undo_operation', { operation_id: moved.data.operation_id as string }));
    assert.equal(readText(s.abs('from.txt')), 'f\n');
    assert.equal(exists(s.abs('to')), false);
  });

  it('refuses with UNDO_CONFLICT when the file changed since, and changes nothing', async () => {
    const s = scratch('undo-conflict', { 'c.txt': 'one\n' });
    const written = expectOk(await callTool('write_file', { file_name: s.rel('c.txt'), content: 'two\n' }));
    fs.writeFileSync(s.abs('c.txt'), 'three\n');
    const refused = expectError(await callTool('undo_operation', { operation_id: written.data.operation_id as string }), 'UNDO_CONFLICT');
    assert.match(refused.error.message, /c\.txt/);
    assert.equal(readText(s.abs('c.txt')), 'three\n');
  });

  it('answers OPERATION_NOT_FOUND for an unknown id', async () => {
    expectError(await callTool('undo_operation', { operation_id: 'no-such-operation' }), 'OPERATION_NOT_FOUND');
  });
});
