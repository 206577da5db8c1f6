import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { callTool, expectError, expectFields, expectOk, folders, readText, snapshot } from '../helpers';

/** The launcher opens a .code-workspace with two folders, and a third folder beside them that is in neither. */
describe('multi-root workspace', () => {
  const outside = process.env.AGENTFS_IT_OUTSIDE ?? '';

  function folderPath(index: number): string {
    const folder = folders()[index];
    assert.ok(folder, `workspace folder ${index} is open`);
    return folder.uri.fsPath;
  }

  it('opens two folders', () => {
    assert.equal(folders().length, 2);
    assert.ok(outside !== '' && fs.existsSync(outside), 'the launcher made a folder outside both');
  });

  it('resolves a relative path against the first folder', async () => {
    expectOk(await callTool('write_file', { file_name: 'relative.txt', content: 'first' }));
    assert.equal(readText(path.join(folderPath(0), 'relative.txt')), 'first');
  });

  it('resolves a relative path that starts with a folder name against that folder', async () => {
    const second = folders()[1];
    assert.ok(second);
    expectOk(await callTool('write_file', { file_name: `${second.name}/by-name.txt`, content: 'named' }));
    assert.equal(readText(path.join(folderPath(1), 'by-name.txt')), 'named');
    assert.equal(fs.existsSync(path.join(folderPath(0), second.name)), false);
  });

  it('reaches the second folder with absolute paths', async () => {
    const second = folderPath(1);
    const file = path.join(second, 'sub', 'absolute.txt');
    expectOk(await callTool('write_file', { file_name: file, content: 'second' }));
    assert.equal(readText(file), 'second');
    expectFields(expectOk(await callTool('read_file', { file_name: file })).data, { content: 'second' });
    expectFields(expectOk(await callTool('path_exists', { path: path.join(second, 'sub') })).data, { path_type: 'directory' });
    const listed = expectOk(await callTool('list_files', { path: second })).data;
    assert.ok(
      (listed.files as string[]).some((file) => file.endsWith('sub/absolute.txt')),
      JSON.stringify(listed.files),
    );
  });

  it('copies and moves between the two folders', async () => {
    const source = path.join(folderPath(0), 'cross.txt');
    fs.writeFileSync(source, 'cross');
    const copied = path.join(folderPath(1), 'cross-copy.txt');
    expectOk(await callTool('copy_file', { source_path: source, destination_path: copied }));
    assert.equal(readText(copied), 'cross');
    const moved = path.join(folderPath(1), 'moved', 'cross.txt');
    expectOk(await callTool('move_file', { source_path: source, destination_path: moved }));
    assert.equal(fs.existsSync(source), false);
    assert.equal(readText(moved), 'cross');
  });

  it('refuses paths into neither folder, and leaves that folder as it was', async () => {
    const before = snapshot(outside);
    const secret = path.join(outside, 'secret.txt');
    expectError(await callTool('read_file', { file_name: secret }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await callTool('write_file', { file_name: path.join(outside, 'planted.txt'), content: 'x' }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await callTool('delete_file', { file_name: secret }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(
      await callTool('copy_file', {
        source_path: path.join(folderPath(1), 'sub', 'absolute.txt'),
        destination_path: path.join(outside, 'copied.txt'),
      }),
      'DESTINATION_PATH_OUTSIDE_BASE',
    );
    expectError(await callTool('list_files', { path: outside }), 'DIRECTORY_PATH_OUTSIDE_BASE');
    expectError(await callTool('read_file', { file_name: `${folderPath(1)}-sibling/x.txt` }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await callTool('read_file', { file_name: '../outside/secret.txt' }), 'FILE_PATH_OUTSIDE_BASE');
    assert.deepEqual(snapshot(outside), before);
  });
});
