import * as assert from 'node:assert/strict';
import { callTool, expectError, expectOk, readText, scratch } from '../helpers';

describe('read_outline', () => {
  it("lists a file's symbols by name path, with the lines of each whole declaration, and read_file reads one", async () => {
    const s = scratch('read-outline', {
      'server.ts': '// Serves.\n@injectable()\nexport class Server {\n  @get("/")\n  listen(): void {}\n}\n',
    });
    const { data } = expectOk(await callTool('read_outline', { path: s.rel('server.ts') }));
    assert.deepEqual(data.symbols, [
      {
        name_path: 'Server',
        kind: 'class',
        start_line: 2,
        end_line: 6,
        children: [{ name_path: 'Server/listen', kind: 'method', start_line: 4, end_line: 5 }],
      },
    ]);
    const read = expectOk(await callTool('read_file', { file_name: s.rel('server.ts'), symbol: 'Server/listen' }));
    assert.equal(read.data.content, '  @get("/")\n  listen(): void {}\n');
    assert.equal(readText(s.abs('server.ts')).length > 0, true);
  });

  it('names the languages it has for a file it cannot outline', async () => {
    const s = scratch('read-outline-unsupported', { 'notes.txt': 'plain\n' });
    const refused = expectError(await callTool('read_outline', { path: s.rel('notes.txt') }), 'LANGUAGE_UNSUPPORTED');
    assert.match(refused.error.message, /python \(\.py/);
  });
});
