/**
 * Hashing large files: the Node adapter's SHA-256 on a worker thread gives node:crypto's digests whatever the caller
 * does with its buffers meanwhile (several hashes interleaved, copies taken midway, pieces of every size, a burst past
 * the ring's size); and a streamed edit hashes each byte no more often than it must, with the history on or off.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IncrementalHash } from '../../../src/core/ports/fs';
import { streamingHash } from '../../../src/node/fs/hashThread';
import { NodeFileSystem } from '../../../src/node/fs/nodeFileSystem';
import { createNodeSession } from '../../../src/node/host/session';
import { call, expectOk, makeTempDir, removeTree } from '../helpers';

/** Deterministic bytes: a simple generator, so a failure can be replayed. */
function bytesOf(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < length; index++) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

describe('hashing on a worker thread', () => {
  it('interleaved hashes and copies taken midway digest as node:crypto does, though the caller reuses its buffer', () => {
    const sizes = [0, 1, 63, 64 * 1024, 1024 * 1024 + 7, 3 * 1024 * 1024, 5];
    const threads = [streamingHash(), streamingHash(), streamingHash()];
    const references = threads.map(() => createHash('sha256'));
    const copies: { thread: ReturnType<typeof streamingHash>; reference: ReturnType<typeof createHash> }[] = [];
    const buffer = new Uint8Array(Math.max(...sizes));
    for (const [round, size] of sizes.entries()) {
      for (const [index, thread] of threads.entries()) {
        // One buffer for every piece, overwritten right after each update: the worker must hash what it was given.
        buffer.set(bytesOf(size, round * 7 + index + 1));
        const piece = buffer.subarray(0, size);
        thread.update(piece);
        references[index]?.update(piece);
        buffer.fill(0xff);
      }
      if (round === 3) {
        const thread = threads[1]?.copy?.();
        const reference = references[1]?.copy();
        assert.ok(thread && reference);
        copies.push({ thread, reference });
      }
    }
    for (const { thread, reference } of copies) {
      const tail = bytesOf(1000, 99);
      thread.update(tail);
      reference.update(tail);
    }
    assert.deepEqual(
      threads.map((thread) => thread.digest()),
      references.map((reference) => reference.digest('hex')),
    );
    assert.deepEqual(
      copies.map(({ thread }) => thread.digest()),
      copies.map(({ reference }) => reference.digest('hex')),
    );
  });

  it('a burst far past the queue limit is hashed whole, the caller waiting for the worker instead of piling up copies', () => {
    const piece = bytesOf(4 * 1024 * 1024, 5);
    const thread = streamingHash();
    const reference = createHash('sha256');
    for (let round = 0; round < 40; round++) {
      piece[0] = round;
      thread.update(piece);
      reference.update(piece);
    }
    assert.equal(thread.digest(), reference.digest('hex'));
  });

  describe('what a streamed edit of a large file hashes', () => {
    const LINE = 'a line of the large file, long enough to be ordinary text\n';
    const LINES = 400_000;
    let base: string;
    let state: string;
    let hashed = 0;
    const original = Object.getOwnPropertyDescriptor(NodeFileSystem.prototype, 'createHash');
    before(() => {
      // Every hash the adapter hands out (streamingHash, as the adapter's own) is counted: what goes through them
      // is what the call hashed.
      const counted = (hash: IncrementalHash): IncrementalHash => ({
        update: (bytes) => {
          hashed += bytes.length;
          hash.update(bytes);
        },
        digest: () => hash.digest(),
        copy: () => counted(hash.copy?.() ?? assert.fail('a copy of the hash')),
      });
      NodeFileSystem.prototype.createHash = () => counted(streamingHash());
    });
    after(() => {
      if (original) Object.defineProperty(NodeFileSystem.prototype, 'createHash', original);
    });
    beforeEach(() => {
      base = makeTempDir();
      state = makeTempDir('agentfs-state-');
      fs.writeFileSync(path.join(base, 'big.log'), LINE.repeat(LINES));
      hashed = 0;
    });
    afterEach(() => {
      removeTree(base);
      removeTree(state);
    });

    const size = LINE.length * LINES;
    const replaceMiddle = { path: 'big.log', start_line: LINES / 2, end_line: LINES / 2, content: 'the new line\n' };

    it('with the history off: the file once, and the new file from the edit on', async () => {
      const data = expectOk(await call(createNodeSession(base, { editInMemoryBytes: 0 }), 'replace_lines', replaceMiddle));
      assert.equal(data.previous_hash, `sha256:${createHash('sha256').update(LINE.repeat(LINES)).digest('hex')}`);
      assert.ok(hashed <= size * 1.5 + 1024, `hashed ${hashed} bytes of a ${size}-byte file`);
    });

    it('with the history on: no more than with it off (the record takes the old file’s hash from the edit’s read)', async () => {
      const session = createNodeSession(base, { editInMemoryBytes: 0 }, { stateDirectory: state, historyLimits: { maxBytes: 4 * size } });
      const data = expectOk(await call(session, 'replace_lines', replaceMiddle));
      assert.equal(data.undo_available, true);
      assert.ok(hashed <= size * 1.5 + 1024, `hashed ${hashed} bytes of a ${size}-byte file`);
      const after = fs.readFileSync(path.join(base, 'big.log'), 'utf8').split('\n');
      assert.equal(after[LINES / 2 - 1], 'the new line');
      assert.equal(after.length, LINES + 1);
      // The kept old bytes are the file as it was, under the hash the edit reported.
      assert.equal(expectOk(await call(session, 'undo_last', {})).undone_operation_id, data.operation_id);
      const restored = fs.readFileSync(path.join(base, 'big.log'));
      assert.equal(`sha256:${createHash('sha256').update(restored).digest('hex')}`, data.previous_hash);
      assert.equal(restored.length, size);
    });
  });
});
