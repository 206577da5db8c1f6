import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, readText, scratch } from '../helpers';

describe('copy_file', () => {
  it('copies into a new folder', async () => {
    const s = scratch('copy', { 'src.txt': 'payload' });
    const { data } = expectOk(await callTool('copy_file', { source_path: s.rel('src.txt'), destination_path: s.rel('out/dst.txt') }));
    expectFields(data, { source_path: s.rel('src.txt'), destination_path: s.rel('out/dst.txt'), copied: true, overwritten: false });
    assert.equal(readText(s.abs('out/dst.txt')), 'payload');
    assert.equal(readText(s.abs('src.txt')), 'payload');
  });

  it('keeps an existing destination unless overwrite is true', async () => {
    const s = scratch('copy-over', { 'src.txt': 'new', 'dst.txt': 'old' });
    expectError(await callTool('copy_file', { source_path: s.rel('src.txt'), destination_path: s.rel('dst.txt') }), 'DESTINATION_EXISTS');
    assert.equal(readText(s.abs('dst.txt')), 'old');
    const { data } = expectOk(
      await callTool('copy_file', { source_path: s.rel('src.txt'), destination_path: s.rel('dst.txt'), overwrite: true }),
    );
    expectFields(data, { copied: true, overwritten: true });
    assert.equal(readText(s.abs('dst.txt')), 'new');
  });
});
