/** Protected and hidden paths and unsaved editors, across every mutating tool. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation } from '../../src/core/invoke';
import { isHidden, isProtected } from '../../src/core/policy/policy';
import { DEFAULT_POLICY } from '../../src/core/settings';
import { NodeFileSystem } from '../../src/node/fs/nodeFileSystem';
import { toPosixPath } from '../../src/node/fs/nativePaths';
import { createNodeSession } from '../../src/node/host/session';
import { sessionOver } from './faultInjection';
import {
  assertTree,
  call,
  expectError,
  expectOk,
  makeTempDir,
  nodeSession,
  removeTree,
  tempWorkspace,
  type TempWorkspace,
} from './helpers';

describe('protected and hidden path patterns', function () {
  const cases: readonly (readonly [string, boolean, boolean])[] = [
    // path, protected, hidden
    ['.env', true, true],
    ['app/.env', true, true],
    ['.env.local', true, true],
    ['.ENV', true, true],
    ['certs/server.pem', true, true],
    ['keys/deploy.key', true, true],
    ['home/.ssh/id_rsa.pub', true, true],
    ['.ssh/config', true, false],
    ['.ssh', true, false],
    ['.npmrc', true, false],
    ['.git/config', true, false],
    ['.git/hooks/pre-commit', true, false],
    ['vendor/lib/.git/HEAD', true, false],
    ['.vscode/settings.json', true, false],
    ['team.code-workspace', true, false],
    ['.vscode/extensions/notes.md', false, false],
    ['.gitignore', false, false],
    ['src/env.ts', false, false],
    ['docs/keyboard.md', false, false],
    ['environment/.envrc', false, false],
  ];
  for (const [relative, protectedPath, hidden] of cases) {
    it(`${relative}: ${protectedPath ? 'protected' : 'writable'}, ${hidden ? 'hidden' : 'visible'}`, function () {
      assert.equal(isProtected(DEFAULT_POLICY, relative, relative === '.ssh' ? 'directory' : 'file'), protectedPath);
      assert.equal(isHidden(DEFAULT_POLICY, relative, 'file'), hidden);
    });
  }

  it('a leading "/" anchors a pattern to the root; a trailing "/" covers a directory and its contents', function () {
    const policy = { protectedPaths: ['/build', 'secrets/'], hiddenPaths: [] };
    assert.equal(isProtected(policy, 'build/out.js'), true);
    assert.equal(isProtected(policy, 'pkg/build/out.js'), false);
    assert.equal(isProtected(policy, 'secrets/a.txt'), true);
    assert.equal(isProtected(policy, 'x/secrets/deep/a.txt'), true);
    assert.equal(isProtected({ protectedPaths: [], hiddenPaths: [] }, '.env'), false);
  });
});

describe('SENSITIVE_PATH_REFUSED in every mutating tool', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({
      '.env': 'SECRET=1\n',
      '.git/config': '[core]\n',
      '.vscode/settings.json': '{}\n',
      'plain.txt': 'plain\n',
      'app/.env.local': 'TOKEN=2\n',
      'app/main.ts': 'main\n',
      'certs/x.pem': 'PEM\n',
    });
  });
  afterEach(function () {
    ws.cleanup();
  });

  const refusals: readonly (readonly [string, Record<string, unknown>, string])[] = [
    ['write_file', { file_name: '.env', content: 'x' }, 'agentFs.protectedPaths'],
    ['write_file', { file_name: '.git/config', content: 'x' }, 'agentFs.protectedPaths'],
    ['write_file', { file_name: 'nested/.ssh/authorized_keys', content: 'x' }, 'agentFs.protectedPaths'],
    ['create_file', { path: '.vscode/launch.json', content: '{}' }, 'agentFs.protectedPaths'],
    ['create_file', { path: 'new/id_ed25519', content: 'k' }, 'agentFs.protectedPaths'],
    ['edit_file', { path: '.vscode/settings.json', old_string: '{}', new_string: '{"a":1}' }, 'agentFs.protectedPaths'],
    ['replace_lines', { path: '.git/config', start_line: 1, end_line: 1, content: 'x' }, 'agentFs.protectedPaths'],
    ['insert_lines', { path: 'app/.env.local', position: 'end', content: 'x' }, 'agentFs.protectedPaths'],
    ['delete_lines', { path: '.env', start_line: 1, end_line: 1 }, 'agentFs.protectedPaths'],
    ['apply_patch', { patch: '--- a/.git/config\n+++ b/.git/config\n@@ -1 +1 @@\n-[core]\n+[x]\n' }, 'agentFs.protectedPaths'],
    ['apply_patch', { patch: '--- /dev/null\n+++ b/deploy.key\n@@ -0,0 +1 @@\n+k\n' }, 'agentFs.protectedPaths'],
    ['delete_file', { file_name: 'certs/x.pem' }, 'agentFs.protectedPaths'],
    ['copy_file', { source_path: 'plain.txt', destination_path: '.npmrc' }, 'agentFs.protectedPaths'],
    ['copy_file', { source_path: '.env', destination_path: 'leak.txt' }, 'agentFs.hiddenPaths'],
    ['move_file', { source_path: '.git/config', destination_path: 'config.txt' }, 'agentFs.protectedPaths'],
    ['move_file', { source_path: 'plain.txt', destination_path: 'x.code-workspace' }, 'agentFs.protectedPaths'],
    ['create_directory', { directory_name: '.git/hooks' }, 'agentFs.protectedPaths'],
    ['create_directory', { directory_name: '.ssh' }, 'agentFs.protectedPaths'],
    ['delete_directory', { directory_path: 'app', recursive: true }, 'agentFs.protectedPaths'],
    ['delete_directory', { directory_path: '.git', recursive: true }, 'agentFs.protectedPaths'],
    ['copy_directory', { source_path: 'app', destination_path: 'app-copy' }, 'agentFs.hiddenPaths'],
    ['move_directory', { source_path: 'app', destination_path: 'moved' }, 'agentFs.protectedPaths'],
    ['move_directory', { source_path: 'certs', destination_path: 'c2' }, 'agentFs.protectedPaths'],
    // A match in one protected file refuses the whole call, naming it; a hidden file named outright is refused too.
    ['replace_in_files', { query: '{}', replacement: '{"a":1}' }, 'agentFs.protectedPaths'],
    ['replace_in_files', { query: 'SECRET', replacement: 'x', paths: ['.env'] }, 'agentFs.hiddenPaths'],
  ];
  for (const [operation, input, setting] of refusals) {
    it(`${operation} ${JSON.stringify(input).slice(0, 90)} → names ${setting}, changes nothing`, async function () {
      const before = ws.snap();
      const error = expectError(await call(ws.session, operation, input), 'SENSITIVE_PATH_REFUSED', operation);
      assert.match(error.message, new RegExp(setting.replace('.', '\\.')));
      assert.equal(error.details?.setting, setting);
      assertTree(ws.snap(), before);
    });
  }

  it('reads of hidden paths are refused too; protected but visible paths still read', async function () {
    const before = ws.snap();
    const envelope = await call(ws.session, 'read_file', { file_name: '.env' });
    expectError(envelope, 'SENSITIVE_PATH_REFUSED');
    assert.doesNotMatch(JSON.stringify(envelope), /SECRET/);
    expectError(await call(ws.session, 'path_exists', { path: 'app/.env.local' }), 'SENSITIVE_PATH_REFUSED');
    expectOk(await call(ws.session, 'read_file', { file_name: '.git/config' }));
    assertTree(ws.snap(), before);
  });

  // On Windows too: where this process may not make links, symlinkSync fails the test saying so (EPERM).
  it('a symbolic link to a protected file is as protected as the file', async function () {
    fs.symlinkSync(path.join(ws.base, '.env'), path.join(ws.base, 'innocent.txt'));
    fs.symlinkSync(path.join(ws.base, '.git'), path.join(ws.base, 'gitdir'));
    const before = ws.snap();
    expectError(await call(ws.session, 'write_file', { file_name: 'innocent.txt', content: 'x' }), 'SENSITIVE_PATH_REFUSED');
    expectError(
      await call(ws.session, 'edit_file', { path: 'innocent.txt', old_string: 'SECRET', new_string: 'x' }),
      'SENSITIVE_PATH_REFUSED',
    );
    expectError(await call(ws.session, 'read_file', { file_name: 'innocent.txt' }), 'SENSITIVE_PATH_REFUSED');
    expectError(await call(ws.session, 'create_file', { path: 'gitdir/new-hook', content: 'x' }), 'SENSITIVE_PATH_REFUSED');
    assertTree(ws.snap(), before);
  });

  it('the user can remove a protection (an empty list) and then the write goes through', async function () {
    const session = nodeSession(ws.base, { protectedPaths: [], hiddenPaths: [] });
    expectOk(await call(session, 'write_file', { file_name: '.env', content: 'SECRET=2\n' }));
    assert.equal(ws.read('.env'), 'SECRET=2\n');
  });

  it('unprotected neighbours are unaffected', async function () {
    expectOk(await call(ws.session, 'edit_file', { path: 'app/main.ts', old_string: 'main', new_string: 'MAIN' }));
    expectOk(await call(ws.session, 'copy_file', { source_path: '.git/config', destination_path: 'config-copy.txt' }));
    assert.equal(ws.read('config-copy.txt'), '[core]\n');
  });
});

describe('FILE_DIRTY_IN_EDITOR', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'open.ts': 'let x = 1;\n', 'dir/open-inside.ts': 'y\n', 'clean.ts': 'z\n' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  const session = (): ReturnType<typeof sessionOver> => {
    const dirty = new Set([toPosixPath(path.join(ws.base, 'open.ts')), toPosixPath(path.join(ws.base, 'dir/open-inside.ts'))]);
    return sessionOver(new NodeFileSystem(), ws.base, { editors: { isDirty: (absolute) => dirty.has(absolute) } });
  };

  const refusals: readonly (readonly [string, Record<string, unknown>])[] = [
    ['write_file', { file_name: 'open.ts', content: 'x' }],
    ['edit_file', { path: 'open.ts', old_string: '1', new_string: '2' }],
    ['replace_lines', { path: 'open.ts', start_line: 1, end_line: 1, content: 'x' }],
    ['insert_lines', { path: 'open.ts', position: 'end', content: 'x' }],
    ['delete_lines', { path: 'open.ts', start_line: 1, end_line: 1 }],
    ['apply_patch', { patch: '--- a/open.ts\n+++ b/open.ts\n@@ -1 +1 @@\n-let x = 1;\n+let x = 2;\n' }],
    ['delete_file', { file_name: 'open.ts' }],
    ['move_file', { source_path: 'open.ts', destination_path: 'moved.ts' }],
    ['copy_file', { source_path: 'clean.ts', destination_path: 'open.ts', overwrite: true }],
    ['delete_directory', { directory_path: 'dir', recursive: true }],
    ['move_directory', { source_path: 'dir', destination_path: 'dir2' }],
    ['replace_in_files', { query: 'let x', replacement: 'let y' }],
  ];
  for (const [operation, input] of refusals) {
    it(`${operation} refuses a file with unsaved changes and writes nothing`, async function () {
      const before = ws.snap();
      const error = expectError(await invokeOperation(operation, input, session()), 'FILE_DIRTY_IN_EDITOR', operation);
      assert.match(error.message, /unsaved changes/);
      assertTree(ws.snap(), before);
    });
  }

  it('files that are not dirty are edited as usual', async function () {
    expectOk(await invokeOperation('edit_file', { path: 'clean.ts', old_string: 'z', new_string: 'Z' }, session()));
    expectOk(await invokeOperation('copy_file', { source_path: 'open.ts', destination_path: 'copy.ts' }, session()));
    assert.equal(ws.read('clean.ts'), 'Z\n');
  });
});

describe("VS Code's storage of Agent FS is out of reach in every host", function () {
  it('a root that holds the editor history (a home folder) neither lists, reads nor changes it', async function () {
    const home = makeTempDir('agentfs-home-');
    try {
      const storage = path.join(home, '.config', 'Code', 'User', 'workspaceStorage', 'f00d', 'agent-fs.agent-fs');
      fs.mkdirSync(storage, { recursive: true });
      fs.writeFileSync(path.join(storage, 'journal'), 'agentfs-history-journal 1 abc\n');
      fs.writeFileSync(path.join(home, 'notes.txt'), 'n\n');
      const session = createNodeSession(home, {}, {});
      const relative = '.config/Code/User/workspaceStorage/f00d/agent-fs.agent-fs/journal';
      expectError(await call(session, 'read_file', { file_name: relative }), 'SENSITIVE_PATH_REFUSED');
      expectError(await call(session, 'write_file', { file_name: relative, content: 'x' }), 'SENSITIVE_PATH_REFUSED');
      const listed = expectOk(await call(session, 'list_files', { include_ignored: true }));
      assert.deepEqual(listed.files, ['notes.txt']);
      assert.equal(fs.readFileSync(path.join(storage, 'journal'), 'utf8'), 'agentfs-history-journal 1 abc\n');
    } finally {
      removeTree(home);
    }
  });
});
