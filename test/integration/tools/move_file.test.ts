import * as assert from 'node:assert/strict';
import { callTool, exists, expectError, expectFields, expectOk, readText, scratch } from '../helpers';

describe('move_file', () => {
  it('moves (renames) a file into a new folder', async () => {
    const s = scratch('move', { 'src.txt': 'payload' });
    const { data } = expectOk(await callTool('move_file', { source_path: s.rel('src.txt'), destination_path: s.rel('moved/dst.txt') }));
    expectFields(data, { source_path: s.rel('src.txt'), destination_path: s.rel('moved/dst.txt'), moved: true, overwritten: false });
    assert.equal(exists(s.abs('src.txt')), false);
    assert.equal(readText(s.abs('moved/dst.txt')), 'payload');
  });

  it('refuses an existing destination and the source itself', async () => {
    const s = scratch('move-over', { 'a.txt': 'a', 'b.txt': 'b' });
    expectError(await callTool('move_file', { source_path: s.rel('a.txt'), destination_path: s.rel('b.txt') }), 'DESTINATION_EXISTS');
    expectError(
      await callTool('move_file', { source_path: s.rel('a.txt'), destination_path: s.rel('a.txt') }),
      'SOURCE_EQUALS_DESTINATION',
    );
    assert.equal(readText(s.abs('a.txt')), 'a');
    assert.equal(readText(s.abs('b.txt')), 'b');
  });
});
