import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { callTool, expectFields, expectOk, folders } from '../helpers';

describe('workspace_info', () => {
  it('reports the base directory, the workspace folders, the modes and the version', async () => {
    const { data } = expectOk(await callTool('workspace_info', {}));
    expectFields(data, { read_only: false, trusted: vscode.workspace.isTrusted });
    const reported = (data.workspace_folders as { path: string }[]).map((folder) => folder.path);
    assert.deepEqual(
      reported,
      folders().map((folder) => folder.uri.path),
    );
    assert.equal(typeof data.base_directory, 'string');
    assert.ok(JSON.stringify(data).includes('"max_read_bytes"'), 'limits in force are reported');
  });
});
