/** read_file, write_file, delete_file: the plugin's data shapes, every error code, and the disk afterwards. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FsError } from '../../src/core/ports/fs';
import { faultySession } from './faultInjection';
import { assertFields, assertTree, call, edit, expectError, expectOk, nodeSession, tempWorkspace, type TempWorkspace } from './helpers';

describe('read_file', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'alpha\n', 'notes/ünï code.md': '# Títle ✓\r\nline two\r\n', 'bom.txt': '\uFEFFwith bom\n', 'empty.txt': '' });
    fs.mkdirSync(path.join(ws.base, 'dir'));
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('returns {file_name, relative_path, content} with the text exactly (unicode, CRLF; a BOM said by bom, not in content) and changes nothing', async function () {
    const before = ws.snap();
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'notes/ünï code.md' }), 'read_file'), {
      file_name: 'ünï code.md',
      relative_path: 'notes/ünï code.md',
      content: '# Títle ✓\r\nline two\r\n',
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'bom.txt' })), { content: 'with bom\n', bom: true });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'empty.txt' })), {
      file_name: 'empty.txt',
      relative_path: 'empty.txt',
      content: '',
    });
    assertTree(ws.snap(), before);
  });

  it('normalises the relative path it reports', async function () {
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: './notes/../a.txt' })), {
      file_name: 'a.txt',
      relative_path: 'a.txt',
      content: 'alpha\n',
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: path.join(ws.base, 'a.txt') })), { relative_path: 'a.txt' });
  });

  it('FILE_NOT_FOUND names the path', async function () {
    const error = expectError(await call(ws.session, 'read_file', { file_name: 'nope/missing.txt' }), 'FILE_NOT_FOUND', 'read_file');
    assert.match(error.message, /nope\/missing\.txt/);
  });

  it('FILE_NOT_FILE for a directory', async function () {
    expectError(await call(ws.session, 'read_file', { file_name: 'dir' }), 'FILE_NOT_FILE');
  });

  it('FILE_PATH_OUTSIDE_BASE and SYMLINK_OUTSIDE_BASE never reveal the outside file', async function () {
    fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.base, 'leak.txt'));
    for (const [input, code] of [
      ['../outside/secret.txt', 'FILE_PATH_OUTSIDE_BASE'],
      [path.join(ws.outside, 'secret.txt'), 'FILE_PATH_OUTSIDE_BASE'],
      ['leak.txt', 'SYMLINK_OUTSIDE_BASE'],
    ] as const) {
      const envelope = await call(ws.session, 'read_file', { file_name: input });
      expectError(envelope, code);
      assert.doesNotMatch(JSON.stringify(envelope), /outside secret/);
    }
  });

  it('READ_FAILED when the read itself fails', async function () {
    const session = faultySession(ws.base, (method) =>
      method === 'readFile' || method === 'readRange' ? new FsError('other', 'EIO: i/o error') : undefined,
    );
    const error = expectError(await call(session, 'read_file', { file_name: 'a.txt' }), 'READ_FAILED', 'read_file');
    assert.match(error.message, /EIO/);
  });
});

describe('write_file', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'alpha\n', blocker: 'a file' });
    fs.mkdirSync(path.join(ws.base, 'dir'));
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('creates a new file and its missing parents: {file_name, relative_path, created: true, updated: false}', async function () {
    const before = ws.snap();
    const content = 'héllo ✓\r\nsecond line\n';
    assertFields(expectOk(await call(ws.session, 'write_file', { file_name: 'new/deep/file.txt', content }), 'write_file'), {
      file_name: 'file.txt',
      relative_path: 'new/deep/file.txt',
      created: true,
      updated: false,
    });
    const expected = edit.clone(before);
    edit.setFile(expected, 'base/new/deep/file.txt', content);
    assertTree(ws.snap(), expected);
  });

  it('replaces an existing file whole: created false, updated true, no temporary file left', async function () {
    const before = ws.snap();
    assertFields(expectOk(await call(ws.session, 'write_file', { file_name: 'a.txt', content: 'short' })), {
      file_name: 'a.txt',
      relative_path: 'a.txt',
      created: false,
      updated: true,
    });
    const expected = edit.clone(before);
    edit.setFile(expected, 'base/a.txt', 'short');
    assertTree(ws.snap(), expected);
  });

  it('writes empty content and 1 MiB of content exactly', async function () {
    expectOk(await call(ws.session, 'write_file', { file_name: 'empty.txt', content: '' }));
    assert.equal(ws.read('empty.txt'), '');
    const big = 'x'.repeat(1024 * 1024 - 3) + 'end';
    expectOk(await call(ws.session, 'write_file', { file_name: 'big.txt', content: big }));
    assert.equal(ws.read('big.txt'), big);
  });

  it('keeps the permission bits of a file it replaces', async function () {
    fs.chmodSync(path.join(ws.base, 'a.txt'), 0o640);
    expectOk(await call(ws.session, 'write_file', { file_name: 'a.txt', content: 'new' }));
    assert.equal(fs.statSync(path.join(ws.base, 'a.txt')).mode & 0o777, 0o640);
  });

  it('writes through a link inside the base to its target, keeping the link', async function () {
    fs.symlinkSync('a.txt', path.join(ws.base, 'alias.txt'));
    assertFields(expectOk(await call(ws.session, 'write_file', { file_name: 'alias.txt', content: 'via link' })), {
      relative_path: 'alias.txt',
      updated: true,
    });
    assert.equal(fs.readlinkSync(path.join(ws.base, 'alias.txt')), 'a.txt');
    assert.equal(ws.read('a.txt'), 'via link');
  });

  it('FILE_NOT_FILE for a directory, DIRECTORY_NOT_DIRECTORY when a parent is a file; nothing changes', async function () {
    const before = ws.snap();
    expectError(await call(ws.session, 'write_file', { file_name: 'dir', content: 'x' }), 'FILE_NOT_FILE');
    expectError(await call(ws.session, 'write_file', { file_name: 'blocker/child.txt', content: 'x' }), 'DIRECTORY_NOT_DIRECTORY');
    expectError(await call(ws.session, 'write_file', { file_name: 'blocker/deeper/child.txt', content: 'x' }), 'DIRECTORY_NOT_DIRECTORY');
    assertTree(ws.snap(), before);
  });

  it('FILE_PATH_OUTSIDE_BASE and SYMLINK_OUTSIDE_BASE write nothing anywhere', async function () {
    fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
    fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.base, 'secret-link'));
    const before = ws.snap();
    expectError(await call(ws.session, 'write_file', { file_name: '../outside/secret.txt', content: 'pwned' }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await call(ws.session, 'write_file', { file_name: '../base2/file.txt', content: 'pwned' }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await call(ws.session, 'write_file', { file_name: 'out/new.txt', content: 'pwned' }), 'SYMLINK_OUTSIDE_BASE');
    expectError(await call(ws.session, 'write_file', { file_name: 'out/secret.txt', content: 'pwned' }), 'SYMLINK_OUTSIDE_BASE');
    expectError(await call(ws.session, 'write_file', { file_name: 'secret-link', content: 'pwned' }), 'SYMLINK_OUTSIDE_BASE');
    assertTree(ws.snap(), before);
  });

  it('WRITE_FAILED when the write fails, leaving the old content and no temporary file', async function () {
    const before = ws.snap();
    const session = faultySession(ws.base, (method) =>
      method === 'writeFile' ? new FsError('other', 'ENOSPC: no space left on device') : undefined,
    );
    const error = expectError(await call(session, 'write_file', { file_name: 'a.txt', content: 'new' }), 'WRITE_FAILED', 'write_file');
    assert.match(error.message, /ENOSPC/);
    assertTree(ws.snap(), before);
  });

  it('a failed rename leaves the old bytes whole and removes the temporary file', async function () {
    const before = ws.snap();
    const session = faultySession(ws.base, (method) => (method === 'rename' ? new FsError('other', 'EIO') : undefined));
    expectError(await call(session, 'write_file', { file_name: 'a.txt', content: 'new' }), 'WRITE_FAILED');
    assertTree(ws.snap(), before);
  });

  it('READ_ONLY_MODE and WORKSPACE_UNTRUSTED write nothing', async function () {
    const before = ws.snap();
    for (const [policy, code] of [
      [{ readOnly: true }, 'READ_ONLY_MODE'],
      [{ trusted: false }, 'WORKSPACE_UNTRUSTED'],
    ] as const) {
      const session = nodeSession(ws.base, policy);
      expectError(await call(session, 'write_file', { file_name: 'a.txt', content: 'x' }), code);
      expectError(await call(session, 'write_file', { file_name: 'brand-new.txt', content: 'x' }), code);
    }
    assertTree(ws.snap(), before);
  });
});

describe('delete_file', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'alpha', 'dir/b.txt': 'beta', 'keep.txt': 'keep' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('deletes one file: {file_name, relative_path, deleted: true}; nothing else goes', async function () {
    const before = ws.snap();
    assertFields(expectOk(await call(ws.session, 'delete_file', { file_name: 'dir/b.txt' }), 'delete_file'), {
      file_name: 'b.txt',
      relative_path: 'dir/b.txt',
      deleted: true,
    });
    const expected = edit.clone(before);
    edit.remove(expected, 'base/dir/b.txt');
    assertTree(ws.snap(), expected);
  });

  it('a link inside the base is deleted as a link: its target stays', async function () {
    fs.symlinkSync('a.txt', path.join(ws.base, 'alias.txt'));
    expectOk(await call(ws.session, 'delete_file', { file_name: 'alias.txt' }));
    assert.equal(ws.exists('alias.txt'), false);
    assert.equal(ws.read('a.txt'), 'alpha');
  });

  it('FILE_NOT_FOUND, FILE_NOT_FILE (a directory is never deleted), nothing changes', async function () {
    const before = ws.snap();
    expectError(await call(ws.session, 'delete_file', { file_name: 'missing.txt' }), 'FILE_NOT_FOUND');
    expectError(await call(ws.session, 'delete_file', { file_name: 'dir' }), 'FILE_NOT_FILE');
    expectError(await call(ws.session, 'delete_file', { file_name: '.' }), 'FILE_NOT_FILE');
    assertTree(ws.snap(), before);
  });

  it('FILE_PATH_OUTSIDE_BASE and SYMLINK_OUTSIDE_BASE delete nothing, the link included', async function () {
    fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.base, 'secret-link'));
    fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
    const before = ws.snap();
    expectError(await call(ws.session, 'delete_file', { file_name: '../outside/secret.txt' }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await call(ws.session, 'delete_file', { file_name: path.join(ws.tmp, 'base2', 'file.txt') }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await call(ws.session, 'delete_file', { file_name: 'secret-link' }), 'SYMLINK_OUTSIDE_BASE');
    expectError(await call(ws.session, 'delete_file', { file_name: 'out/secret.txt' }), 'SYMLINK_OUTSIDE_BASE');
    assertTree(ws.snap(), before);
  });

  it('DELETE_FAILED when the file system refuses', async function () {
    const before = ws.snap();
    const session = faultySession(ws.base, (method) =>
      method === 'delete' ? new FsError('permission', 'EACCES: permission denied') : undefined,
    );
    expectError(await call(session, 'delete_file', { file_name: 'a.txt' }), 'DELETE_FAILED', 'delete_file');
    assertTree(ws.snap(), before);
  });

  it('READ_ONLY_MODE and WORKSPACE_UNTRUSTED delete nothing', async function () {
    const before = ws.snap();
    expectError(await call(nodeSession(ws.base, { readOnly: true }), 'delete_file', { file_name: 'a.txt' }), 'READ_ONLY_MODE');
    expectError(await call(nodeSession(ws.base, { trusted: false }), 'delete_file', { file_name: 'a.txt' }), 'WORKSPACE_UNTRUSTED');
    assertTree(ws.snap(), before);
  });
});
