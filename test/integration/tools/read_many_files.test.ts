import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, scratch } from '../helpers';

describe('read_many_files', () => {
  it('reads several files, one entry per path, one failure hiding nothing', async () => {
    const s = scratch('read-many', { 'a.txt': 'alpha\n', 'b.txt': 'beta\r\n' });
    const { data } = expectOk(await callTool('read_many_files', { paths: [s.rel('a.txt'), s.rel('missing.txt'), s.rel('b.txt')] }));
    expectFields(data, { count: 3, succeeded: 2, failed: 1 });
    const files = data.files as { path: string; ok: boolean; data?: { content: string }; error?: { code: string } }[];
    assert.deepEqual(
      files.map((file) => [file.path, file.ok]),
      [
        [s.rel('a.txt'), true],
        [s.rel('missing.txt'), false],
        [s.rel('b.txt'), true],
      ],
    );
    assert.equal(files[0]?.data?.content, 'alpha\n');
    assert.equal(files[1]?.error?.code, 'FILE_NOT_FOUND');
    assert.equal(files[2]?.data?.content, 'beta\r\n');
  });

  it('refuses more than 32 paths with LIMIT_EXCEEDED', async () => {
    const paths = Array.from({ length: 33 }, (_, index) => `f${index}.txt`);
    expectError(await callTool('read_many_files', { paths }), 'LIMIT_EXCEEDED');
  });
});
