import * as assert from 'node:assert/strict';
import { callTool, expectOk, readText, scratch } from '../helpers';

describe('undo_last', () => {
  it('undoes the newest change, then the one before it', async () => {
    const s = scratch('undo-last', { 'n.txt': 'v1\n' });
    expectOk(await callTool('write_file', { file_name: s.rel('n.txt'), content: 'v2\n' }));
    const third = expectOk(await callTool('write_file', { file_name: s.rel('n.txt'), content: 'v3\n' }));
    const undone = expectOk(await callTool('undo_last', {}));
    assert.equal(undone.data.undone_operation_id, third.data.operation_id);
    assert.equal(readText(s.abs('n.txt')), 'v2\n');
    expectOk(await callTool('undo_last', {}));
    assert.equal(readText(s.abs('n.txt')), 'v1\n');
  });
});
