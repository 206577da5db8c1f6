/** create_directory, delete_directory, list_files, path_exists: data shapes, error codes, the disk afterwards. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FsError } from '../../src/core/ports/fs';
import { faultySession } from './faultInjection';
import { assertFields, assertTree, call, edit, expectError, expectOk, nodeSession, tempWorkspace, type TempWorkspace } from './helpers';

describe('directory operations', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'alpha', 'full/one.txt': '1', 'full/sub/two.txt': '2', 'full/sub/deeper/three.txt': '3' });
    fs.mkdirSync(path.join(ws.base, 'empty'));
  });
  afterEach(function () {
    ws.cleanup();
  });

  describe('create_directory', function () {
    it('creates the directory and its parents: {directory_name, relative_path, created: true}', async function () {
      const before = ws.snap();
      assertFields(expectOk(await call(ws.session, 'create_directory', { directory_name: 'x/y z/ünï' }), 'create_directory'), {
        directory_name: 'ünï',
        relative_path: 'x/y z/ünï',
        created: true,
      });
      const expected = edit.clone(before);
      edit.addDir(expected, 'base/x/y z/ünï');
      assertTree(ws.snap(), expected);
    });

    it('an existing directory is not an error: created false, contents untouched', async function () {
      const before = ws.snap();
      assertFields(expectOk(await call(ws.session, 'create_directory', { directory_name: 'full/' })), {
        directory_name: 'full',
        relative_path: 'full',
        created: false,
      });
      assertTree(ws.snap(), before);
    });

    it('DIRECTORY_NOT_DIRECTORY when a file is in the way or is a parent; nothing changes', async function () {
      const before = ws.snap();
      expectError(await call(ws.session, 'create_directory', { directory_name: 'a.txt' }), 'DIRECTORY_NOT_DIRECTORY');
      expectError(await call(ws.session, 'create_directory', { directory_name: 'a.txt/sub/deeper' }), 'DIRECTORY_NOT_DIRECTORY');
      assertTree(ws.snap(), before);
    });

    it('DIRECTORY_PATH_OUTSIDE_BASE and SYMLINK_OUTSIDE_BASE create nothing', async function () {
      fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
      const before = ws.snap();
      expectError(await call(ws.session, 'create_directory', { directory_name: '../base2/new' }), 'DIRECTORY_PATH_OUTSIDE_BASE');
      expectError(
        await call(ws.session, 'create_directory', { directory_name: '/tmp/agentfs-should-not-exist' }),
        'DIRECTORY_PATH_OUTSIDE_BASE',
      );
      expectError(await call(ws.session, 'create_directory', { directory_name: 'out/new/deeper' }), 'SYMLINK_OUTSIDE_BASE');
      assertTree(ws.snap(), before);
      assert.equal(fs.existsSync('/tmp/agentfs-should-not-exist'), false);
    });

    it('WRITE_FAILED when the file system refuses; READ_ONLY_MODE; WORKSPACE_UNTRUSTED', async function () {
      const before = ws.snap();
      const session = faultySession(ws.base, (method) => (method === 'createDirectory' ? new FsError('permission', 'EACCES') : undefined));
      expectError(await call(session, 'create_directory', { directory_name: 'n' }), 'WRITE_FAILED', 'create_directory');
      expectError(await call(nodeSession(ws.base, { readOnly: true }), 'create_directory', { directory_name: 'n' }), 'READ_ONLY_MODE');
      expectError(await call(nodeSession(ws.base, { trusted: false }), 'create_directory', { directory_name: 'n' }), 'WORKSPACE_UNTRUSTED');
      assertTree(ws.snap(), before);
    });
  });

  describe('delete_directory', function () {
    it('deletes an empty directory with recursive defaulting to false: {directory_name, relative_path, deleted, recursive}', async function () {
      const before = ws.snap();
      assertFields(expectOk(await call(ws.session, 'delete_directory', { directory_path: 'empty' }), 'delete_directory'), {
        directory_name: 'empty',
        relative_path: 'empty',
        deleted: true,
        recursive: false,
      });
      const expected = edit.clone(before);
      edit.remove(expected, 'base/empty');
      assertTree(ws.snap(), expected);
    });

    it('DIRECTORY_NOT_EMPTY unless recursive is true; then everything inside goes and nothing else', async function () {
      const before = ws.snap();
      const error = expectError(await call(ws.session, 'delete_directory', { directory_path: 'full' }), 'DIRECTORY_NOT_EMPTY');
      assert.match(error.message, /recursive/);
      expectError(await call(ws.session, 'delete_directory', { directory_path: 'full', recursive: false }), 'DIRECTORY_NOT_EMPTY');
      assertTree(ws.snap(), before);
      assertFields(expectOk(await call(ws.session, 'delete_directory', { directory_path: 'full', recursive: true })), {
        directory_name: 'full',
        relative_path: 'full',
        deleted: true,
        recursive: true,
      });
      const expected = edit.clone(before);
      edit.remove(expected, 'base/full');
      assertTree(ws.snap(), expected);
    });

    it('a directory holding links to outside: the links go, the outside targets never', async function () {
      fs.symlinkSync(ws.outside, path.join(ws.base, 'full', 'sub', 'out-dir'));
      fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.base, 'full', 'out-file'));
      fs.symlinkSync('../a.txt', path.join(ws.base, 'full', 'in-file'));
      const before = ws.snap();
      expectOk(await call(ws.session, 'delete_directory', { directory_path: 'full', recursive: true }));
      const expected = edit.clone(before);
      edit.remove(expected, 'base/full');
      assertTree(ws.snap(), expected);
      assert.equal(fs.readFileSync(path.join(ws.outside, 'secret.txt'), 'utf8'), 'outside secret');
      assert.equal(ws.read('a.txt'), 'alpha');
    });

    it('a link to a directory inside is deleted as a link, its target kept', async function () {
      fs.symlinkSync('full', path.join(ws.base, 'full-link'));
      const before = ws.snap();
      expectOk(await call(ws.session, 'delete_directory', { directory_path: 'full-link', recursive: true }));
      const expected = edit.clone(before);
      edit.remove(expected, 'base/full-link');
      assertTree(ws.snap(), expected);
    });

    it('DIRECTORY_NOT_FOUND, DIRECTORY_NOT_DIRECTORY, and the base itself is refused; nothing changes', async function () {
      const before = ws.snap();
      expectError(await call(ws.session, 'delete_directory', { directory_path: 'nope', recursive: true }), 'DIRECTORY_NOT_FOUND');
      expectError(await call(ws.session, 'delete_directory', { directory_path: 'a.txt', recursive: true }), 'DIRECTORY_NOT_DIRECTORY');
      // Not in the plugin's contract: Agent FS refuses to delete the base directory with INVALID_INPUT.
      expectError(await call(ws.session, 'delete_directory', { directory_path: '.', recursive: true }), 'INVALID_INPUT');
      expectError(await call(ws.session, 'delete_directory', { directory_path: ws.base, recursive: true }), 'INVALID_INPUT');
      expectError(await call(ws.session, 'delete_directory', { directory_path: 'full/..', recursive: true }), 'INVALID_INPUT');
      assertTree(ws.snap(), before);
    });

    it('DIRECTORY_PATH_OUTSIDE_BASE and SYMLINK_OUTSIDE_BASE delete nothing', async function () {
      fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
      const before = ws.snap();
      expectError(
        await call(ws.session, 'delete_directory', { directory_path: '../outside', recursive: true }),
        'DIRECTORY_PATH_OUTSIDE_BASE',
      );
      expectError(await call(ws.session, 'delete_directory', { directory_path: '..', recursive: true }), 'DIRECTORY_PATH_OUTSIDE_BASE');
      expectError(
        await call(ws.session, 'delete_directory', { directory_path: path.join(ws.tmp, 'base2'), recursive: true }),
        'DIRECTORY_PATH_OUTSIDE_BASE',
      );
      expectError(await call(ws.session, 'delete_directory', { directory_path: 'out', recursive: true }), 'SYMLINK_OUTSIDE_BASE');
      assertTree(ws.snap(), before);
    });

    it('DELETE_FAILED when the file system refuses; READ_ONLY_MODE; WORKSPACE_UNTRUSTED', async function () {
      const before = ws.snap();
      const session = faultySession(ws.base, (method) => (method === 'delete' ? new FsError('permission', 'EACCES') : undefined));
      expectError(
        await call(session, 'delete_directory', { directory_path: 'full', recursive: true }),
        'DELETE_FAILED',
        'delete_directory',
      );
      expectError(await call(nodeSession(ws.base, { readOnly: true }), 'delete_directory', { directory_path: 'empty' }), 'READ_ONLY_MODE');
      expectError(
        await call(nodeSession(ws.base, { trusted: false }), 'delete_directory', { directory_path: 'empty' }),
        'WORKSPACE_UNTRUSTED',
      );
      assertTree(ws.snap(), before);
    });
  });

  describe('list_files', function () {
    beforeEach(function () {
      ws.write({ 'B.txt': 'b', 'z/ä.txt': 'u', 'z/_x.txt': 'x', '.hidden/h.txt': 'h' });
    });

    it('lists files only, sorted, recursive by default: {count, recursive: true, files}', async function () {
      const before = ws.snap();
      const data = expectOk(await call(ws.session, 'list_files', {}), 'list_files');
      const files = [
        '.hidden/h.txt',
        'B.txt',
        'a.txt',
        'full/one.txt',
        'full/sub/deeper/three.txt',
        'full/sub/two.txt',
        'z/_x.txt',
        'z/ä.txt',
      ];
      assertFields(data, { count: files.length, recursive: true, files });
      assertTree(ws.snap(), before);
    });

    it('recursive: false lists the top level only; path narrows to a directory (paths stay relative to the base)', async function () {
      assertFields(expectOk(await call(ws.session, 'list_files', { recursive: false })), {
        count: 2,
        recursive: false,
        files: ['B.txt', 'a.txt'],
      });
      assertFields(expectOk(await call(ws.session, 'list_files', { path: 'full/sub' })), {
        count: 2,
        recursive: true,
        files: ['full/sub/deeper/three.txt', 'full/sub/two.txt'],
      });
      assertFields(expectOk(await call(ws.session, 'list_files', { path: 'full', recursive: false })), {
        count: 1,
        files: ['full/one.txt'],
      });
      assertFields(expectOk(await call(ws.session, 'list_files', { path: 'empty' })), { count: 0, files: [] });
    });

    it('max_results cuts the sorted list honestly: truncated true, count = what is shown', async function () {
      const data = expectOk(await call(ws.session, 'list_files', { max_results: 3 }));
      assertFields(data, { count: 3, files: ['.hidden/h.txt', 'B.txt', 'a.txt'], truncated: true });
      if ('total' in data) assert.equal(data.total, 8);
      assertFields(expectOk(await call(ws.session, 'list_files', { max_results: 8 })), { count: 8, truncated: false });
    });

    it('LIMIT_EXCEEDED above 5000, 5000 itself accepted', async function () {
      const error = expectError(await call(ws.session, 'list_files', { max_results: 5001 }), 'LIMIT_EXCEEDED', 'list_files');
      assert.match(error.message, /5000/);
      expectOk(await call(ws.session, 'list_files', { max_results: 5000 }));
    });

    it('links: a link to a file inside is listed, links out are not, link directories are not descended', async function () {
      fs.symlinkSync('a.txt', path.join(ws.base, 'alias.txt'));
      fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.base, 'secret-link.txt'));
      fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
      fs.symlinkSync('full', path.join(ws.base, 'full-link'));
      fs.symlinkSync('nowhere', path.join(ws.base, 'dangling.txt'));
      const data = expectOk(await call(ws.session, 'list_files', {}));
      const files = data.files as string[];
      assert.ok(files.includes('alias.txt'));
      for (const hidden of ['secret-link.txt', 'out/secret.txt', 'full-link/one.txt', 'dangling.txt'])
        assert.ok(!files.includes(hidden), hidden);
      assert.ok(!JSON.stringify(data).includes('secret.txt'));
    });

    it('DIRECTORY_NOT_FOUND, DIRECTORY_NOT_DIRECTORY, DIRECTORY_PATH_OUTSIDE_BASE, SYMLINK_OUTSIDE_BASE', async function () {
      fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
      expectError(await call(ws.session, 'list_files', { path: 'nope' }), 'DIRECTORY_NOT_FOUND');
      expectError(await call(ws.session, 'list_files', { path: 'a.txt' }), 'DIRECTORY_NOT_DIRECTORY');
      expectError(await call(ws.session, 'list_files', { path: '..' }), 'DIRECTORY_PATH_OUTSIDE_BASE');
      expectError(await call(ws.session, 'list_files', { path: path.join(ws.tmp, 'base2') }), 'DIRECTORY_PATH_OUTSIDE_BASE');
      expectError(await call(ws.session, 'list_files', { path: 'out' }), 'SYMLINK_OUTSIDE_BASE');
    });

    it('LIST_FAILED when a directory cannot be read', async function () {
      const session = faultySession(ws.base, (method) => (method === 'readDirectory' ? new FsError('permission', 'EACCES') : undefined));
      expectError(await call(session, 'list_files', {}), 'LIST_FAILED', 'list_files');
    });

    it('works in read-only mode and in an untrusted workspace', async function () {
      assertFields(expectOk(await call(nodeSession(ws.base, { readOnly: true }), 'list_files', { recursive: false })), {
        files: ['B.txt', 'a.txt'],
      });
      assertFields(expectOk(await call(nodeSession(ws.base, { trusted: false }), 'list_files', { recursive: false })), {
        files: ['B.txt', 'a.txt'],
      });
    });
  });

  describe('path_exists', function () {
    it('file, directory, missing (ok: true): {path, exists, path_type}', async function () {
      const before = ws.snap();
      assertFields(expectOk(await call(ws.session, 'path_exists', { path: 'a.txt' }), 'path_exists'), {
        path: 'a.txt',
        exists: true,
        path_type: 'file',
      });
      assertFields(expectOk(await call(ws.session, 'path_exists', { path: 'full/sub/' })), {
        path: 'full/sub',
        exists: true,
        path_type: 'directory',
      });
      assertFields(expectOk(await call(ws.session, 'path_exists', { path: '.' })), { path: '.', exists: true, path_type: 'directory' });
      assertFields(expectOk(await call(ws.session, 'path_exists', { path: 'no/such/thing' })), {
        path: 'no/such/thing',
        exists: false,
        path_type: 'missing',
      });
      assertTree(ws.snap(), before);
    });

    it('PATH_OUTSIDE_BASE for a path outside, even one that exists; SYMLINK_OUTSIDE_BASE through a link', async function () {
      fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
      expectError(await call(ws.session, 'path_exists', { path: '../outside/secret.txt' }), 'PATH_OUTSIDE_BASE', 'path_exists');
      expectError(await call(ws.session, 'path_exists', { path: path.join(ws.tmp, 'base2') }), 'PATH_OUTSIDE_BASE');
      expectError(await call(ws.session, 'path_exists', { path: 'out/secret.txt' }), 'SYMLINK_OUTSIDE_BASE');
      expectError(await call(ws.session, 'path_exists', { path: 'out/missing.txt' }), 'SYMLINK_OUTSIDE_BASE');
    });

    it('READ_FAILED when the stat fails', async function () {
      const session = faultySession(ws.base, (method, args) =>
        method === 'stat' && args[0] === path.join(ws.base, 'a.txt') ? new FsError('other', 'EIO') : undefined,
      );
      expectError(await call(session, 'path_exists', { path: 'a.txt' }), 'READ_FAILED', 'path_exists');
    });
  });
});
