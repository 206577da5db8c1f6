import * as assert from 'node:assert/strict';
import { callTool, expectError, expectOk, scratch } from '../helpers';

describe('history_list', () => {
  it('lists recorded changes newest first, narrowed by path', async () => {
    const s = scratch('history-list', { 'a.txt': 'a', 'b.txt': 'b' });
    const first = expectOk(await callTool('write_file', { file_name: s.rel('a.txt'), content: 'A' }));
    const second = expectOk(await callTool('delete_file', { file_name: s.rel('b.txt') }));
    const { data } = expectOk(await callTool('history_list', { path: s.rel() }));
    const operations = data.operations as {
      operation_id: string;
      operation: string;
      paths: string[];
      undo_available: boolean;
      undone: boolean;
    }[];
    assert.deepEqual(
      operations.map((each) => each.operation_id),
      [second.data.operation_id, first.data.operation_id],
    );
    assert.deepEqual(operations[0]?.paths, [s.rel('b.txt')]);
    assert.equal(operations[0]?.undo_available, true);
    assert.equal(operations[0]?.undone, false);
    const byFile = expectOk(await callTool('history_list', { path: s.rel('a.txt') }));
    assert.equal(byFile.data.total, 1);
  });

  it('refuses a limit above 200 and a path outside the base', async () => {
    expectError(await callTool('history_list', { limit: 201 }), 'LIMIT_EXCEEDED');
    expectError(await callTool('history_list', { path: '../elsewhere' }), 'PATH_OUTSIDE_BASE');
  });
});
