/**
 * The indexes work in the background only while no call is in flight (src/node/host/foreground.ts): a call that runs while
 * an index builds does not share the event loop with its slices, and the build goes on once it ends.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeContentIndex } from '../../../src/node/indexes/contentIndex';
import { Foreground } from '../../../src/node/host/foreground';
import { createMcpService } from '../../../src/node/mcp/server';
import { toPosixPath } from '../../../src/node/fs/nativePaths';
import { NodePathIndex } from '../../../src/node/indexes/pathIndex';
import { makeTempDir, pollUntil, removeTree } from '../helpers';

/** Resolves once some background work has come to the point where it waits for the calls in flight. */
function held(foreground: Foreground): Promise<number> {
  return pollUntil(
    () => foreground.waiting,
    (waiting) => waiting > 0,
    1,
  );
}

describe('indexes: background work waits for calls', function () {
  let tmp: string;
  beforeEach(() => {
    tmp = makeTempDir('agentfs-foreground-');
    for (let directory = 0; directory < 20; directory++) {
      fs.mkdirSync(path.join(tmp, `d${directory}`));
      for (let file = 0; file < 20; file++)
        fs.writeFileSync(path.join(tmp, `d${directory}`, `f${file}.txt`), `line ${directory} ${file}\n`);
    }
  });
  afterEach(() => removeTree(tmp));

  it('the path index lists nothing while a call runs, and the whole tree once it has ended', async () => {
    const foreground = new Foreground();
    const paths = new NodePathIndex({ foreground });
    const root = toPosixPath(tmp);
    let release: () => void = () => undefined;
    const call = foreground.run(() => new Promise<void>((resolve) => (release = resolve)));
    let ready = false;
    const whenReady = paths.whenReady(root).then(() => (ready = true));
    try {
      await held(foreground);
      assert.equal(ready, false, 'not built while the call is in flight');
      assert.deepEqual({ state: paths.report().state, paths: paths.report().paths }, { state: 'building', paths: 0 });
      release();
      await call;
      await whenReady;
      await paths.whenQuiet(root);
      assert.deepEqual({ state: paths.report().state, paths: paths.report().paths }, { state: 'ready', paths: 420 });
    } finally {
      paths.close();
    }
  });

  it("the MCP server's warm-up walks nothing while a call runs, walks in the pause after it, and not once stopped", async () => {
    const foreground = new Foreground();
    const index = new NodePathIndex({ foreground });
    const root = toPosixPath(tmp);
    await index.whenQuiet(root);
    const service = createMcpService({
      roots: { directories: [root], explicit: true },
      policy: {},
      confirm: 'never',
      log: () => undefined,
      ripgrep: false,
      foreground,
      index,
    });
    try {
      await service.warmUp(() => true);
      assert.equal(index.stats.snapshots, 0, 'stopped: nothing walked');
      let release: () => void = () => undefined;
      const call = foreground.run(() => new Promise<void>((resolve) => (release = resolve)));
      let warmed = false;
      const warming = service.warmUp(() => false).then(() => (warmed = true));
      await held(foreground);
      assert.deepEqual({ warmed, snapshots: index.stats.snapshots }, { warmed: false, snapshots: 0 }, 'waits for the call');
      // A burst: the next call begins in the very turn the first ends, with no pause between them for the warm-up.
      let releaseNext: () => void = () => undefined;
      const next = foreground.run(() => new Promise<void>((resolve) => (releaseNext = resolve)));
      release();
      await call;
      await held(foreground);
      assert.equal(index.stats.snapshots, 0, 'not in the moment between two calls: only in a pause');
      releaseNext();
      await next;
      await warming;
      assert.equal(index.stats.snapshots, 2, 'a glob and a name search, each answered by the index');
    } finally {
      index.close();
    }
  });

  it('the content index reads nothing while a call runs, and everything once it has ended', async () => {
    const foreground = new Foreground();
    const paths = new NodePathIndex({ foreground });
    const root = toPosixPath(tmp);
    await paths.whenReady(root);
    let release: () => void = () => undefined;
    const call = foreground.run(() => new Promise<void>((resolve) => (release = resolve)));
    assert.equal(foreground.busy, true);
    const content = new NodeContentIndex(paths, { foreground });
    try {
      await held(foreground);
      assert.equal(content.report().files, 0, 'nothing read while the call is in flight');
      assert.equal(content.report().state, 'building');
      release();
      await call;
      assert.equal(foreground.busy, false);
      await content.whenReady();
      assert.equal(content.report().state, 'ready');
      assert.equal(content.report().files, 400);
      await foreground.settled();
    } finally {
      content.close();
      paths.close();
    }
  });
});
