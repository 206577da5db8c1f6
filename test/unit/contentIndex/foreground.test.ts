/**
 * The content index reads in the background only while no call is in flight (src/node/foreground.ts): a call that
 * runs while the index builds does not share the event loop with its slices, and the build goes on once it ends.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeContentIndex } from '../../../src/node/contentIndex';
import { Foreground } from '../../../src/node/foreground';
import { toPosixPath } from '../../../src/node/nativePaths';
import { NodePathIndex } from '../../../src/node/pathIndex';
import { makeTempDir, removeTree } from '../helpers';

describe('content index: background work waits for calls', function () {
  this.timeout(60_000);
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

  it('reads nothing while a call runs, and everything once it has ended', async () => {
    const foreground = new Foreground();
    const paths = new NodePathIndex({ foreground });
    const root = toPosixPath(tmp);
    let release: () => void = () => undefined;
    const call = foreground.run(() => new Promise<void>((resolve) => (release = resolve)));
    assert.equal(foreground.busy, true);
    await paths.whenReady(root);
    const content = new NodeContentIndex(paths, { foreground });
    try {
      // Many turns of the event loop and timers: the index would have read these 400 files in a few slices.
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
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
