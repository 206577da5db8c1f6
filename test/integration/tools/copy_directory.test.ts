import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, scratch, snapshot } from '../helpers';

describe('copy_directory', () => {
  it('copies a whole tree', async () => {
    const s = scratch('cpdir', { 'tree/a.txt': 'a', 'tree/sub/b.txt': 'b', 'tree/empty/': '' });
    const { data } = expectOk(await callTool('copy_directory', { source_path: s.rel('tree'), destination_path: s.rel('copy/tree') }));
    expectFields(data, { source_path: s.rel('tree'), destination_path: s.rel('copy/tree'), copied: true, overwritten: false });
    assert.deepEqual(snapshot(s.abs('copy/tree')), snapshot(s.abs('tree')));
  });

  it('refuses a destination inside the source', async () => {
    const s = scratch('cpdir-inside', { 'tree/a.txt': 'a' });
    const before = snapshot(s.abs());
    expectError(
      await callTool('copy_directory', { source_path: s.rel('tree'), destination_path: s.rel('tree/inner') }),
      'DESTINATION_INSIDE_SOURCE',
    );
    assert.deepEqual(snapshot(s.abs()), before);
  });
});
