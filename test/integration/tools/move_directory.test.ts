import * as assert from 'node:assert/strict';
import { callTool, exists, expectError, expectFields, expectOk, scratch, snapshot } from '../helpers';

describe('move_directory', () => {
  it('moves a whole tree', async () => {
    const s = scratch('mvdir', { 'tree/a.txt': 'a', 'tree/sub/b.txt': 'b' });
    const before = snapshot(s.abs('tree'));
    const { data } = expectOk(await callTool('move_directory', { source_path: s.rel('tree'), destination_path: s.rel('moved/tree') }));
    expectFields(data, { source_path: s.rel('tree'), destination_path: s.rel('moved/tree'), moved: true, overwritten: false });
    assert.equal(exists(s.abs('tree')), false);
    assert.deepEqual(snapshot(s.abs('moved/tree')), before);
  });

  it('keeps an existing destination unless overwrite is true', async () => {
    const s = scratch('mvdir-over', { 'src/new.txt': 'new', 'dst/old.txt': 'old' });
    expectError(await callTool('move_directory', { source_path: s.rel('src'), destination_path: s.rel('dst') }), 'DESTINATION_EXISTS');
    assert.equal(exists(s.abs('dst/old.txt')), true);
    const { data } = expectOk(
      await callTool('move_directory', { source_path: s.rel('src'), destination_path: s.rel('dst'), overwrite: true }),
    );
    expectFields(data, { moved: true, overwritten: true });
    assert.deepEqual(snapshot(s.abs('dst')), { 'new.txt': 'new' });
    assert.equal(exists(s.abs('src')), false);
  });
});
