/** copy_file, move_file, copy_directory, move_directory: the plugin's data shapes, every error code, the disk afterwards. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FsError } from '../../src/core/ports/fs';
import { faultySession } from './faultInjection';
import {
  assertFields,
  assertTree,
  call,
  edit,
  expectError,
  expectOk,
  nodeSession,
  type Snapshot,
  tempWorkspace,
  type TempWorkspace,
} from './helpers';

describe('transfer operations', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({
      'a.txt': 'alpha ✓',
      'other.txt': 'other',
      'dir/b.txt': 'beta',
      'src/one.txt': 'one',
      'src/nested/two.txt': 'two',
      'dest-dir/old.txt': 'old',
      blocker: 'a file',
    });
  });
  afterEach(function () {
    ws.cleanup();
  });

  /** The current tree with `change` applied: what the disk must look like after a call. */
  function expecting(before: Snapshot, change: (snap: Snapshot) => void): Snapshot {
    const snap = edit.clone(before);
    change(snap);
    return snap;
  }

  for (const operation of ['copy_file', 'move_file'] as const) {
    const copy = operation === 'copy_file';
    const flag = copy ? 'copied' : 'moved';
    const apply = (snap: Snapshot, from: string, to: string): void => {
      if (copy) {
        const entry = snap.get(from);
        assert.ok(entry);
        edit.setFile(snap, to, entry);
      } else edit.move(snap, from, to);
    };

    describe(operation, function () {
      it(`creates missing parents: {source_path, destination_path, ${flag}: true, overwritten: false}`, async function () {
        const before = ws.snap();
        assertFields(expectOk(await call(ws.session, operation, { source_path: './a.txt', destination_path: 'x/y/z.txt' }), operation), {
          source_path: 'a.txt',
          destination_path: 'x/y/z.txt',
          [flag]: true,
          overwritten: false,
        });
        assertTree(
          ws.snap(),
          expecting(before, (s) => apply(s, 'base/a.txt', 'base/x/y/z.txt')),
        );
      });

      it('DESTINATION_EXISTS unless overwrite is true (overwrite false given explicitly too); nothing changes', async function () {
        const before = ws.snap();
        const error = expectError(
          await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'other.txt' }),
          'DESTINATION_EXISTS',
        );
        assert.match(error.message, /other\.txt/);
        expectError(
          await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'other.txt', overwrite: false }),
          'DESTINATION_EXISTS',
        );
        assertTree(ws.snap(), before);
      });

      it('overwrite: true replaces the destination: overwritten true, no staging file left', async function () {
        const before = ws.snap();
        assertFields(
          expectOk(await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'other.txt', overwrite: true })),
          {
            source_path: 'a.txt',
            destination_path: 'other.txt',
            [flag]: true,
            overwritten: true,
          },
        );
        assertTree(
          ws.snap(),
          expecting(before, (s) => apply(s, 'base/a.txt', 'base/other.txt')),
        );
      });

      it('SOURCE_EQUALS_DESTINATION, also for two spellings of one path', async function () {
        const before = ws.snap();
        expectError(await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'a.txt' }), 'SOURCE_EQUALS_DESTINATION');
        expectError(
          await call(ws.session, operation, {
            source_path: 'dir/../a.txt',
            destination_path: path.join(ws.base, 'a.txt'),
            overwrite: true,
          }),
          'SOURCE_EQUALS_DESTINATION',
        );
        assertTree(ws.snap(), before);
      });

      it('SOURCE_FILE_NOT_FOUND, SOURCE_NOT_FILE, DESTINATION_IS_DIRECTORY (even with overwrite), DESTINATION_NOT_DIRECTORY', async function () {
        const before = ws.snap();
        expectError(await call(ws.session, operation, { source_path: 'missing.txt', destination_path: 'n.txt' }), 'SOURCE_FILE_NOT_FOUND');
        expectError(await call(ws.session, operation, { source_path: 'dir', destination_path: 'n' }), 'SOURCE_NOT_FILE');
        expectError(await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'dir' }), 'DESTINATION_IS_DIRECTORY');
        expectError(
          await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'dir', overwrite: true }),
          'DESTINATION_IS_DIRECTORY',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'blocker/n.txt' }),
          'DESTINATION_NOT_DIRECTORY',
        );
        assertTree(ws.snap(), before);
      });

      it('SOURCE_PATH_OUTSIDE_BASE, DESTINATION_PATH_OUTSIDE_BASE, SYMLINK_OUTSIDE_BASE: nothing changes anywhere', async function () {
        fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
        const before = ws.snap();
        expectError(
          await call(ws.session, operation, { source_path: '../outside/secret.txt', destination_path: 'stolen.txt' }),
          'SOURCE_PATH_OUTSIDE_BASE',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'a.txt', destination_path: '../outside/planted.txt' }),
          'DESTINATION_PATH_OUTSIDE_BASE',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'a.txt', destination_path: '../base2/file.txt', overwrite: true }),
          'DESTINATION_PATH_OUTSIDE_BASE',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'out/secret.txt', destination_path: 'stolen.txt' }),
          'SYMLINK_OUTSIDE_BASE',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'out/secret.txt', overwrite: true }),
          'SYMLINK_OUTSIDE_BASE',
        );
        assertTree(ws.snap(), before);
      });

      it(`${copy ? 'COPY_FAILED' : 'MOVE_FAILED'} when the file system fails; the source stays`, async function () {
        const before = ws.snap();
        const failing = copy ? 'copyFile' : 'rename';
        const session = faultySession(ws.base, (method) => (method === failing ? new FsError('other', 'EIO: i/o error') : undefined));
        expectError(
          await call(session, operation, { source_path: 'a.txt', destination_path: 'z.txt' }),
          copy ? 'COPY_FAILED' : 'MOVE_FAILED',
          operation,
        );
        expectError(
          await call(session, operation, { source_path: 'a.txt', destination_path: 'other.txt', overwrite: true }),
          copy ? 'COPY_FAILED' : 'MOVE_FAILED',
        );
        // Parent directories may have been created before the failure; files must be untouched.
        const after = ws.snap();
        for (const [key, entry] of before) assert.deepEqual(after.get(key), entry, key);
        for (const [key, entry] of after) if (!before.has(key)) assert.equal(entry.type, 'dir', `left behind ${key}`);
      });

      if (!copy) {
        it('CROSS_DEVICE_MOVE_UNSUPPORTED when the rename crosses file systems', async function () {
          const before = ws.snap();
          const session = faultySession(ws.base, (method) =>
            method === 'rename' ? new FsError('cross-device', 'EXDEV: cross-device link not permitted') : undefined,
          );
          expectError(
            await call(session, operation, { source_path: 'a.txt', destination_path: 'other.txt', overwrite: true }),
            'CROSS_DEVICE_MOVE_UNSUPPORTED',
            operation,
          );
          assertTree(ws.snap(), before);
        });
      }

      it('READ_ONLY_MODE and WORKSPACE_UNTRUSTED change nothing', async function () {
        const before = ws.snap();
        expectError(
          await call(nodeSession(ws.base, { readOnly: true }), operation, { source_path: 'a.txt', destination_path: 'n.txt' }),
          'READ_ONLY_MODE',
        );
        expectError(
          await call(nodeSession(ws.base, { trusted: false }), operation, { source_path: 'a.txt', destination_path: 'n.txt' }),
          'WORKSPACE_UNTRUSTED',
        );
        assertTree(ws.snap(), before);
      });
    });
  }

  for (const operation of ['copy_directory', 'move_directory'] as const) {
    const copy = operation === 'copy_directory';
    const flag = copy ? 'copied' : 'moved';
    const apply = (snap: Snapshot, from: string, to: string): void => {
      if (copy) {
        edit.remove(snap, to);
        edit.copyDir(snap, from, to);
      } else edit.move(snap, from, to);
    };

    describe(operation, function () {
      it(`moves the whole tree and creates missing parents: {source_path, destination_path, ${flag}: true, overwritten: false}`, async function () {
        const before = ws.snap();
        assertFields(expectOk(await call(ws.session, operation, { source_path: 'src/', destination_path: 'p/q/copy' }), operation), {
          source_path: 'src',
          destination_path: 'p/q/copy',
          [flag]: true,
          overwritten: false,
        });
        assertTree(
          ws.snap(),
          expecting(before, (s) => apply(s, 'base/src', 'base/p/q/copy')),
        );
      });

      it('an empty directory', async function () {
        fs.mkdirSync(path.join(ws.base, 'empty'));
        const before = ws.snap();
        expectOk(await call(ws.session, operation, { source_path: 'empty', destination_path: 'empty2' }));
        assertTree(
          ws.snap(),
          expecting(before, (s) => apply(s, 'base/empty', 'base/empty2')),
        );
      });

      it(
        copy ? 'skips symbolic links (inside and out) and never copies what they point to' : 'moves symbolic links as links',
        async function () {
          fs.symlinkSync(path.join(ws.outside, 'secret.txt'), path.join(ws.base, 'src', 'secret-link'));
          fs.symlinkSync(ws.outside, path.join(ws.base, 'src', 'nested', 'outside-dir'));
          fs.symlinkSync('../a.txt', path.join(ws.base, 'src', 'inside-link'));
          const before = ws.snap();
          const data = expectOk(await call(ws.session, operation, { source_path: 'src', destination_path: 'copy' }));
          assertTree(
            ws.snap(),
            expecting(before, (s) => apply(s, 'base/src', 'base/copy')),
          );
          if (copy) {
            assert.equal(ws.exists('copy/secret-link'), false);
            assert.equal(ws.exists('copy/nested/outside-dir'), false);
            // The code reports what it skipped (an extra field beyond the plugin's shape).
            if ('skipped_symlinks' in data) assert.equal(data.skipped_symlinks, 3);
          } else {
            assert.equal(fs.readlinkSync(path.join(ws.base, 'copy', 'secret-link')), path.join(ws.outside, 'secret.txt'));
          }
        },
      );

      it('DESTINATION_EXISTS unless overwrite; overwrite replaces the old tree whole (old files gone)', async function () {
        const before = ws.snap();
        expectError(await call(ws.session, operation, { source_path: 'src', destination_path: 'dest-dir' }), 'DESTINATION_EXISTS');
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'dest-dir', overwrite: false }),
          'DESTINATION_EXISTS',
        );
        assertTree(ws.snap(), before);
        assertFields(expectOk(await call(ws.session, operation, { source_path: 'src', destination_path: 'dest-dir', overwrite: true })), {
          source_path: 'src',
          destination_path: 'dest-dir',
          [flag]: true,
          overwritten: true,
        });
        assertTree(
          ws.snap(),
          expecting(before, (s) => apply(s, 'base/src', 'base/dest-dir')),
        );
        assert.equal(ws.exists('dest-dir/old.txt'), false);
      });

      it('overwriting a directory that holds a link to outside removes the link, never the outside target', async function () {
        fs.symlinkSync(ws.outside, path.join(ws.base, 'dest-dir', 'out'));
        const before = ws.snap();
        expectOk(await call(ws.session, operation, { source_path: 'src', destination_path: 'dest-dir', overwrite: true }));
        assertTree(
          ws.snap(),
          expecting(before, (s) => apply(s, 'base/src', 'base/dest-dir')),
        );
        assert.equal(fs.readFileSync(path.join(ws.outside, 'secret.txt'), 'utf8'), 'outside secret');
      });

      it('SOURCE_EQUALS_DESTINATION, DESTINATION_INSIDE_SOURCE (also the base itself as source); nothing changes', async function () {
        const before = ws.snap();
        expectError(await call(ws.session, operation, { source_path: 'src', destination_path: './src/' }), 'SOURCE_EQUALS_DESTINATION');
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'src/nested/inner' }),
          'DESTINATION_INSIDE_SOURCE',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'src/nested', overwrite: true }),
          'DESTINATION_INSIDE_SOURCE',
        );
        expectError(await call(ws.session, operation, { source_path: '.', destination_path: 'whole' }), 'DESTINATION_INSIDE_SOURCE');
        assertTree(ws.snap(), before);
      });

      it('the nesting rules hold through links inside the base (real paths compared)', async function () {
        fs.symlinkSync('src', path.join(ws.base, 'into-src'));
        fs.symlinkSync('.', path.join(ws.base, 'here'));
        const before = ws.snap();
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'into-src/inner' }),
          'DESTINATION_INSIDE_SOURCE',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'here/src/nested/inner' }),
          'DESTINATION_INSIDE_SOURCE',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'src/nested', destination_path: 'here/src', overwrite: true }),
          'DESTINATION_EXISTS',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'here/src', overwrite: true }),
          'SOURCE_EQUALS_DESTINATION',
        );
        if (copy)
          expectError(
            await call(ws.session, operation, { source_path: 'into-src', destination_path: 'src/inner' }),
            'DESTINATION_INSIDE_SOURCE',
          );
        assertTree(ws.snap(), before);
        if (!copy) {
          // Moving a link moves the link alone, so it may go into the directory it points to.
          expectOk(await call(ws.session, operation, { source_path: 'into-src', destination_path: 'src/inner' }));
          assert.equal(fs.readlinkSync(path.join(ws.base, 'src', 'inner')), 'src');
          assertTree(
            ws.snap(),
            expecting(before, (s) => edit.move(s, 'base/into-src', 'base/src/inner')),
          );
        }
      });

      it('a destination that contains the source is never replaced by it', async function () {
        const before = ws.snap();
        expectError(
          await call(ws.session, operation, { source_path: 'src/nested', destination_path: 'src', overwrite: true }),
          'DESTINATION_EXISTS',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: '.', overwrite: true }),
          'DESTINATION_EXISTS',
        );
        assertTree(ws.snap(), before);
      });

      it('SOURCE_DIRECTORY_NOT_FOUND, SOURCE_NOT_DIRECTORY, DESTINATION_NOT_DIRECTORY; nothing changes', async function () {
        const before = ws.snap();
        expectError(await call(ws.session, operation, { source_path: 'nope', destination_path: 'n' }), 'SOURCE_DIRECTORY_NOT_FOUND');
        expectError(await call(ws.session, operation, { source_path: 'a.txt', destination_path: 'n' }), 'SOURCE_NOT_DIRECTORY');
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'blocker', overwrite: true }),
          'DESTINATION_NOT_DIRECTORY',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'blocker/inner' }),
          'DESTINATION_NOT_DIRECTORY',
        );
        assertTree(ws.snap(), before);
      });

      it('SOURCE_PATH_OUTSIDE_BASE, DESTINATION_PATH_OUTSIDE_BASE, SYMLINK_OUTSIDE_BASE: nothing changes anywhere', async function () {
        fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
        const before = ws.snap();
        expectError(
          await call(ws.session, operation, { source_path: '../outside', destination_path: 'stolen' }),
          'SOURCE_PATH_OUTSIDE_BASE',
        );
        expectError(await call(ws.session, operation, { source_path: ws.outside, destination_path: 'stolen' }), 'SOURCE_PATH_OUTSIDE_BASE');
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: '../base2/src' }),
          'DESTINATION_PATH_OUTSIDE_BASE',
        );
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: '../outside', overwrite: true }),
          'DESTINATION_PATH_OUTSIDE_BASE',
        );
        expectError(await call(ws.session, operation, { source_path: 'out', destination_path: 'stolen' }), 'SYMLINK_OUTSIDE_BASE');
        expectError(await call(ws.session, operation, { source_path: 'src', destination_path: 'out/planted' }), 'SYMLINK_OUTSIDE_BASE');
        expectError(
          await call(ws.session, operation, { source_path: 'src', destination_path: 'out', overwrite: true }),
          'SYMLINK_OUTSIDE_BASE',
        );
        assertTree(ws.snap(), before);
      });

      it('READ_ONLY_MODE and WORKSPACE_UNTRUSTED change nothing', async function () {
        const before = ws.snap();
        expectError(
          await call(nodeSession(ws.base, { readOnly: true }), operation, { source_path: 'src', destination_path: 'n' }),
          'READ_ONLY_MODE',
        );
        expectError(
          await call(nodeSession(ws.base, { trusted: false }), operation, { source_path: 'src', destination_path: 'n' }),
          'WORKSPACE_UNTRUSTED',
        );
        assertTree(ws.snap(), before);
      });

      if (copy) {
        it('COPY_FAILED part-way leaves no partial destination and keeps an existing one whole', async function () {
          const before = ws.snap();
          let copies = 0;
          const session = faultySession(ws.base, (method) =>
            method === 'copyFile' && ++copies === 2 ? new FsError('other', 'ENOSPC: no space left on device') : undefined,
          );
          expectError(await call(session, operation, { source_path: 'src', destination_path: 'fresh' }), 'COPY_FAILED', operation);
          copies = 0;
          expectError(await call(session, operation, { source_path: 'src', destination_path: 'dest-dir', overwrite: true }), 'COPY_FAILED');
          assertTree(ws.snap(), before);
        });
      } else {
        it('MOVE_FAILED and CROSS_DEVICE_MOVE_UNSUPPORTED leave source and destination as they were', async function () {
          const before = ws.snap();
          for (const [error, code] of [
            [new FsError('other', 'EIO'), 'MOVE_FAILED'],
            [new FsError('cross-device', 'EXDEV'), 'CROSS_DEVICE_MOVE_UNSUPPORTED'],
          ] as const) {
            // Fail only the rename that would put the source in place: the parked destination must come back.
            const session = faultySession(ws.base, (method, args) =>
              method === 'rename' && args[0] === path.join(ws.base, 'src') ? error : undefined,
            );
            expectError(
              await call(session, operation, { source_path: 'src', destination_path: 'dest-dir', overwrite: true }),
              code,
              operation,
            );
            expectError(await call(session, operation, { source_path: 'src', destination_path: 'elsewhere' }), code);
          }
          assertTree(ws.snap(), before);
        });
      }
    });
  }
});
