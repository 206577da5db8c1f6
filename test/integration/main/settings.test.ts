import * as assert from 'node:assert/strict';
import {
  callTool,
  contributedTools,
  expectError,
  expectFields,
  expectOk,
  minimalInput,
  mutatingTools,
  readText,
  scratch,
  snapshot,
  TOOL_PREFIX,
  withSetting,
  workspaceRoot,
} from '../helpers';

describe('settings take effect without a reload', () => {
  it('agentFs.baseDirectory narrows the base directory', async () => {
    const s = scratch('narrow', { 'inner/in.txt': 'inside', 'outer.txt': 'outside' });
    await withSetting('baseDirectory', s.rel('inner'), async () => {
      expectFields(expectOk(await callTool('read_file', { file_name: 'in.txt' })).data, { content: 'inside', relative_path: 'in.txt' });
      expectError(await callTool('read_file', { file_name: '../outer.txt' }), 'FILE_PATH_OUTSIDE_BASE');
      expectError(await callTool('read_file', { file_name: s.abs('outer.txt') }), 'FILE_PATH_OUTSIDE_BASE');
      expectFields(expectOk(await callTool('list_files', {})).data, { files: ['in.txt'] });
      expectOk(await callTool('write_file', { file_name: 'made-here.txt', content: 'x' }));
      assert.equal(readText(s.abs('inner/made-here.txt')), 'x');
    });
    // Cleared: the whole workspace folder again.
    expectFields(expectOk(await callTool('read_file', { file_name: s.rel('outer.txt') })).data, { content: 'outside' });
  });

  it('a baseDirectory that escapes the folder or does not exist answers DIR_NOT_AVAILABLE naming the setting', async () => {
    for (const value of ['..', '/', 'no/such/folder']) {
      await withSetting('baseDirectory', value, async () => {
        const refused = expectError(await callTool('list_files', {}), 'DIR_NOT_AVAILABLE');
        assert.match(refused.error.message, /agentFs\.baseDirectory/);
      });
    }
  });

  it('agentFs.readOnly refuses every mutating tool with READ_ONLY_MODE; reads go on', async () => {
    const s = scratch('readonly', { 'keep.txt': 'keep' });
    const before = snapshot(workspaceRoot(), ['.vscode']);
    await withSetting('readOnly', true, async () => {
      for (const tool of mutatingTools()) {
        expectError(await callTool(tool.name.slice(TOOL_PREFIX.length), minimalInput(tool.inputSchema)), 'READ_ONLY_MODE');
      }
      const hidden = new Set(mutatingTools().map((tool) => tool.name));
      for (const tool of contributedTools().filter((each) => !hidden.has(each.name))) {
        const envelope = await callTool(tool.name.slice(TOOL_PREFIX.length), minimalInput(tool.inputSchema));
        assert.ok(
          envelope.ok || envelope.error.code !== 'READ_ONLY_MODE',
          `${tool.name} refuses in read-only mode but has no when clause hiding it`,
        );
      }
      expectError(await callTool('write_file', { file_name: s.rel('keep.txt'), content: 'changed' }), 'READ_ONLY_MODE');
      expectFields(expectOk(await callTool('read_file', { file_name: s.rel('keep.txt') })).data, { content: 'keep' });
    });
    assert.deepEqual(snapshot(workspaceRoot(), ['.vscode']), before);
    expectOk(await callTool('write_file', { file_name: s.rel('keep.txt'), content: 'changed' }));
    assert.equal(readText(s.abs('keep.txt')), 'changed');
  });
});
