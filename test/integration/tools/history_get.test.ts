import * as assert from 'node:assert/strict';
import { callTool, expectError, expectOk, scratch } from '../helpers';

describe('history_get', () => {
  it('shows a recorded change with a unified diff per text file', async () => {
    const s = scratch('history-get', { 'src/x.ts': 'export const x = 1;\n' });
    const written = expectOk(await callTool('write_file', { file_name: s.rel('src/x.ts'), content: 'export const x = 2;\n' }));
    const { data } = expectOk(await callTool('history_get', { operation_id: written.data.operation_id as string }));
    assert.equal(data.operation, 'write_file');
    const changes = data.changes as { path: string; change: string; is_binary: boolean; diff: string }[];
    assert.equal(changes.length, 1);
    assert.equal(changes[0]?.change, 'modified');
    assert.equal(changes[0]?.is_binary, false);
    assert.equal(
      changes[0]?.diff,
      `--- a/${s.rel('src/x.ts')}\n+++ b/${s.rel('src/x.ts')}\n@@ -1,1 +1,1 @@\n-export const x = 1;\n+export const x = 2;\n`,
    );
    assert.equal(JSON.stringify(data.input).includes('export const'), false, 'no file content in the input summary');
  });

  it('answers OPERATION_NOT_FOUND for an unknown id', async () => {
    expectError(await callTool('history_get', { operation_id: 'no-such-operation' }), 'OPERATION_NOT_FOUND');
  });
});
