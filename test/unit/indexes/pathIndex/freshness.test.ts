/**
 * How the path index stays exact, case by case: a change another process makes just before a call (the window
 * between a change and its notification), the kernel's own event queue overflowing, a link whose target changes kind
 * without any event in the link's directory, the racy window of a directory's times, times set back by hand, a root
 * replaced by another directory, a root too large to hold, and the first call, which walks while the index is built.
 * Each answer is checked against a fresh walk's and against what the test knows is on disk.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation } from '../../../../src/core/invoke';
import { editorIndexOptions, MAX_WATCHES, NodePathIndex } from '../../../../src/node/indexes/pathIndex';
import { createNodeSession } from '../../../../src/node/host/session';
import { makeTempDir, removeTree } from '../../helpers';
import { type Data, listed, same, sleep, withIndex } from './setup';
import { writeTree } from '../../../shared/tree';
import { checkEnvelope } from '../../../shared/results';

describe('path index: freshness', function () {
  for (const freshness of ['events', 'verify'] as const) {
    it(`${freshness}: a change another process made just before the call is in its answer, every time`, async () => {
      await withIndex({ 'a/one.txt': '1', 'b/two.txt': '2' }, { freshness }, async (setup) => {
        const servedBefore = setup.index.stats.served;
        for (let round = 0; round < 25; round++) {
          const name = `made-${round}.txt`;
          // The other process exits before the call starts: its change happened before the call, so it must show.
          const script = [
            "const fs = require('fs');",
            `fs.writeFileSync(${JSON.stringify(path.join(setup.root, 'a', name))}, 'x');`,
            round > 0
              ? `fs.renameSync(${JSON.stringify(path.join(setup.root, 'a', `made-${round - 1}.txt`))}, ${JSON.stringify(path.join(setup.root, 'b', `moved-${round - 1}.txt`))});`
              : '',
          ].join('\n');
          assert.equal(spawnSync(process.execPath, ['-e', script]).status, 0);
          const files = listed(await same(setup, 'list_files', { recursive: true }));
          assert.ok(files.includes(`a/${name}`), `a/${name} in ${files.join(', ')}`);
          if (round > 0) {
            assert.ok(!files.includes(`a/made-${round - 1}.txt`), 'the renamed file is gone from where it was');
            assert.ok(files.includes(`b/moved-${round - 1}.txt`), 'and is where it went');
          }
        }
        assert.ok(setup.index.stats.served > servedBefore, 'the listings came from the index');
      });
    });
  }

  it("the kernel's own queue overflowing (a burst of events past max_queued_events) loses nothing", async () => {
    const capacity = Number(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
    await withIndex({ 'burst/.keep': '', 'elsewhere/inside/deep.txt': 'd' }, {}, async (setup) => {
      // The event loop is held while twice the queue's worth of events happen: the kernel keeps what fits, drops the
      // rest, and the rename at the very end is among the dropped.
      for (let index = 0; index < capacity; index++) fs.writeFileSync(path.join(setup.root, 'burst', `f-${index}`), 'x');
      fs.renameSync(path.join(setup.root, 'elsewhere', 'inside'), path.join(setup.root, 'elsewhere', 'renamed'));
      const files = listed(await same(setup, 'list_files', { path: 'elsewhere', recursive: true }));
      assert.deepEqual(files, ['elsewhere/renamed/deep.txt']);
      assert.ok(setup.index.stats.overflows > 0, 'the index knew its events were incomplete');
      const burst = await same(setup, 'list_files', { path: 'burst', recursive: true, max_results: 1 });
      assert.equal(burst.total, capacity + 1);
    });
  });

  for (const freshness of ['events', 'verify'] as const) {
    it(`${freshness}: a link whose target turns from a file into a directory is listed as it is now`, async () => {
      await withIndex({ 'target.txt': 't', 'links/plain.txt': 'p' }, { freshness }, async (setup) => {
        fs.symlinkSync(path.join(setup.root, 'target.txt'), path.join(setup.root, 'links', 'to-target'));
        assert.deepEqual(listed(await same(setup, 'list_files', { path: 'links' })), ['links/plain.txt', 'links/to-target']);
        // Nothing in links/ changes: only the target, elsewhere.
        fs.rmSync(path.join(setup.root, 'target.txt'));
        fs.mkdirSync(path.join(setup.root, 'target.txt'));
        assert.deepEqual(listed(await same(setup, 'list_files', { path: 'links' })), ['links/plain.txt']);
        const entries = (await same(setup, 'list_directory', { path: 'links' })).entries as Data[];
        assert.deepEqual(
          entries.find((entry) => entry.relative_path === 'links/to-target'),
          { relative_path: 'links/to-target', type: 'symlink', target_type: 'directory' },
        );
      });
    });
  }

  it('events: a directory deleted and made again (ext4 gives it the inode number it had) is watched anew', async () => {
    await withIndex({ 'd/a.txt': 'a', 'other/b.txt': 'b' }, {}, async (setup) => {
      const directory = path.join(setup.root, 'd');
      assert.deepEqual(listed(await same(setup, 'list_files', { recursive: true })), ['d/a.txt', 'other/b.txt']);
      for (let round = 0; round < 5; round++) {
        fs.rmSync(directory, { recursive: true });
        fs.mkdirSync(directory);
        fs.writeFileSync(path.join(directory, `first-${round}.txt`), 'x');
        assert.deepEqual(listed(await same(setup, 'list_files', { recursive: true })), [`d/first-${round}.txt`, 'other/b.txt']);
        // The watch the directory had went with it: a change now must still be seen.
        fs.writeFileSync(path.join(directory, `then-${round}.txt`), 'x');
        assert.deepEqual(listed(await same(setup, 'list_files', { recursive: true })), [
          `d/first-${round}.txt`,
          `d/then-${round}.txt`,
          'other/b.txt',
        ]);
      }
      const watches = setup.index.watchCounts();
      assert.equal(watches.open, watches.held);
    });
  });

  it('verify: a directory read within the racy window of its last change is read again, once older it is trusted', async () => {
    // The index's clock stands at a set time past busy/'s last change: inside the window, then past it, however long
    // the machine takes between two calls.
    let busy = '';
    let past = 0;
    const clock = (): number => (busy === '' ? Date.now() : fs.statSync(busy).ctimeMs + past);
    await withIndex({ 'quiet/a.txt': 'a', 'busy/b.txt': 'b' }, { freshness: 'verify', racyMs: 300, clock }, async (each) => {
      busy = path.join(each.root, 'busy');
      past = 1_000;
      await same(each, 'list_files', { recursive: true });
      fs.writeFileSync(path.join(each.root, 'busy', 'c.txt'), 'c');
      past = 10;
      // The change makes busy/ be read again; read so soon after it changed, its times cannot vouch for it next time.
      await same(each, 'list_files', { recursive: true });
      const before = each.index.stats.reread;
      assert.deepEqual(listed(await same(each, 'list_files', { recursive: true })), ['busy/b.txt', 'busy/c.txt', 'quiet/a.txt']);
      assert.ok(each.index.stats.reread > before, 'the racy directory was read again though its times had not moved');
      past = 1_000;
      await same(each, 'list_files', { recursive: true });
      const settled = each.index.stats.reread;
      await same(each, 'list_files', { recursive: true });
      assert.equal(each.index.stats.reread, settled, 'a directory older than the window is trusted on its times');
    });
  });

  it('verify: a change whose modification time is set back is still seen (the change time cannot be)', async () => {
    await withIndex({ 'd/a.txt': 'a' }, { freshness: 'verify', racyMs: 50 }, async (setup) => {
      // A whole second, ten seconds ago: a time that setting it back can hit exactly.
      const directory = path.join(setup.root, 'd');
      const then = Math.floor(Date.now() / 1000) - 10;
      fs.utimesSync(directory, then, then);
      await sleep(80);
      await same(setup, 'list_files', { recursive: true });
      fs.writeFileSync(path.join(directory, 'b.txt'), 'b');
      fs.utimesSync(directory, then, then);
      assert.equal(fs.statSync(directory).mtimeMs, then * 1000, 'the modification time is what it was');
      assert.deepEqual(listed(await same(setup, 'list_files', { recursive: true })), ['d/a.txt', 'd/b.txt']);
    });
  });

  it('a root replaced by another directory of the same name: the calls walk until it is indexed anew', async () => {
    await withIndex({ 'old.txt': 'o' }, {}, async (setup) => {
      assert.deepEqual(listed(await same(setup, 'list_files', {})), ['old.txt']);
      fs.renameSync(setup.root, `${setup.root}-gone`);
      try {
        writeTree(setup.root, { 'new.txt': 'n' });
        assert.deepEqual(listed(await same(setup, 'list_files', {})), ['new.txt']);
        await setup.index.whenReady(setup.root);
        const served = setup.index.stats.served;
        assert.deepEqual(listed(await same(setup, 'list_files', {})), ['new.txt']);
        assert.ok(setup.index.stats.served > served, 'indexed again');
      } finally {
        removeTree(`${setup.root}-gone`);
      }
    });
  });

  it('at most maxWatches watches: the directories past them are verified, and every answer is still a fresh walk’s', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 8; index++) tree[`d-${index}/f.txt`] = 'x';
    await withIndex(tree, { maxWatches: 3, racyMs: 40 }, async (setup) => {
      assert.equal(setup.index.watchCounts().open, 3, 'three of the nine directories are watched');
      await sleep(60);
      await same(setup, 'list_files', { recursive: true });
      for (let index = 0; index < 8; index++) fs.writeFileSync(path.join(setup.root, `d-${index}`, 'new.txt'), 'n');
      const files = listed(await same(setup, 'list_files', { recursive: true }));
      assert.equal(files.length, 16);
      for (let index = 0; index < 8; index++) assert.ok(files.includes(`d-${index}/new.txt`), `d-${index}/new.txt is listed`);
      assert.ok(setup.index.watchCounts().open <= 3, 'the reads kept to the bound');
    });
  });

  it("the editor's index watches within an eighth of the per-user limit, and verifies everything below 8,192 watches", () => {
    assert.deepEqual(editorIndexOptions(8_192), { freshness: 'verify' });
    assert.deepEqual(editorIndexOptions(65_535), { freshness: 'verify' });
    assert.deepEqual(editorIndexOptions(65_536), { freshness: 'events', maxWatches: 8_192 });
    assert.deepEqual(editorIndexOptions(192_530), { freshness: 'events', maxWatches: 24_066 });
    assert.deepEqual(editorIndexOptions(1_048_576), { freshness: 'events', maxWatches: MAX_WATCHES });
    assert.deepEqual(editorIndexOptions(0), { freshness: 'verify' });
    assert.deepEqual(editorIndexOptions(Number.NaN), { freshness: 'verify' });
  });

  it('a root holding more paths than the bound is not indexed: it says why, and its calls walk', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 30; index++) tree[`many/f-${index}.txt`] = 'x';
    await withIndex(tree, { maxPaths: 20 }, async (setup) => {
      const report = setup.index.report();
      assert.equal(report.state, 'off');
      assert.match(report.reason ?? '', /more than 20 paths/);
      assert.equal((await same(setup, 'list_files', { recursive: true })).total, 30);
      assert.equal(setup.index.stats.snapshots, 0, 'no snapshot was handed out');
    });
  });

  it('the first call walks, the index is built after it, and later calls are answered from it', async () => {
    const root = makeTempDir('agentfs-index-');
    const index = new NodePathIndex();
    try {
      writeTree(root, { 'src/a.ts': 'a', 'src/b.ts': 'b', 'docs/c.md': 'c' });
      const session = createNodeSession(root, {}, { ripgrep: false, index });
      const first = await invokeOperation('search_files', { pattern: '**/*.ts' }, session);
      checkEnvelope(first);
      assert.ok(first.ok);
      assert.equal(index.stats.snapshots, 0, 'the first call walked');
      assert.equal(index.report().state, 'building');
      await index.whenReady(root);
      const { bytes, ...report } = index.report();
      assert.deepEqual(report, { state: 'ready', paths: 5, directories: 3, answered: 0, freshness: 'events' });
      // Three directory records with their watches and five entries: a few kilobytes, never nothing.
      assert.ok(bytes > 3 * 160 && bytes < 16_384, `estimated ${bytes} bytes`);
      const second = await invokeOperation('search_files', { pattern: '**/*.ts' }, session);
      assert.deepEqual(second, first);
      assert.equal(index.stats.snapshots, 1);
    } finally {
      index.close();
      removeTree(root);
    }
  });
});
