import * as assert from 'node:assert/strict';
import { callTool, expectError, expectFields, expectOk, readText, scratch, snapshot } from '../helpers';

describe('create_file', () => {
  it('creates a file and its missing parents', async () => {
    const s = scratch('create');
    const { data } = expectOk(await callTool('create_file', { path: s.rel('deep/new.txt'), content: 'hello\n' }));
    expectFields(data, { path: s.rel('deep/new.txt'), created: true, dry_run: false, total_lines: 1 });
    assert.equal(readText(s.abs('deep/new.txt')), 'hello\n');
  });

  it('never replaces an existing file (ALREADY_EXISTS)', async () => {
    const s = scratch('create-exists', { 'a.txt': 'keep' });
    expectError(await callTool('create_file', { path: s.rel('a.txt'), content: 'x' }), 'ALREADY_EXISTS');
    assert.deepEqual(snapshot(s.abs()), { 'a.txt': 'keep' });
  });

  it('refuses a protected path (SENSITIVE_PATH_REFUSED)', async () => {
    const s = scratch('create-protected');
    expectError(await callTool('create_file', { path: s.rel('.env'), content: 'SECRET=1' }), 'SENSITIVE_PATH_REFUSED');
    assert.deepEqual(snapshot(s.abs()), {});
  });
});
