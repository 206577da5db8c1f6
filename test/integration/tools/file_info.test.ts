import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('file_info', () => {
  it('reports size, type, hash, encoding, BOM and newline style of a text file', async () => {
    const s = scratch('info', { 'crlf.txt': '\uFEFFone\r\ntwo\r\n' });
    const { data } = expectOk(await callTool('file_info', { path: s.rel('crlf.txt') }));
    expectFields(data, {
      type: 'file',
      is_symlink: false,
      size_bytes: 13,
      extension: '.txt',
      encoding: 'utf-8',
      bom: true,
      newline: 'crlf',
      line_count: 2,
    });
    assert.match(String(data.content_hash), /^sha256:[0-9a-f]{64}$/);
    assert.ok(!Number.isNaN(Date.parse(String(data.modified))), 'modified is ISO 8601');
  });

  it('answers FILE_NOT_FOUND for a missing path', async () => {
    const s = scratch('info-missing');
    expectError(await callTool('file_info', { path: s.rel('nothing-here') }), 'FILE_NOT_FOUND');
  });
});
