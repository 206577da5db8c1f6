/**
 * SHA-256 on a second thread, for the large files that streamed edits and the history hash while they copy them. A
 * gibibyte costs about a second of hashing; on the calling thread that second adds to the copy's, on a worker it
 * overlaps it. `update` copies the bytes into a ring of shared memory (the caller reuses its buffer) and returns at
 * once; `digest` waits for the worker's answer, so the interface stays the synchronous one of IncrementalHash.
 *
 * Invariants: the worker handles messages in the order they were posted, so a hash's updates, copies and digest
 * apply in call order. The bytes not yet hashed are the ring's circular interval that ends at `head`, `state[0]`
 * long (a gap skipped at the ring's end to keep a piece contiguous counts as queued until the piece after it is
 * hashed); a piece is written only into the free rest, so the memory is the ring's RING_BYTES whatever the speed of
 * the reader, and nothing is allocated per piece. Where no worker can be started, hashing stays on the calling thread.
 */
import { createHash } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import type { IncrementalHash } from '../../core/ports/fs';

const RING_BYTES = 4 * 1024 * 1024;
/** Pieces are split to at most this, so that one never waits for the whole ring to drain. */
const PIECE_BYTES = 1024 * 1024;
/** How long a call waits for the worker before it gives up on it (it only stops answering if it died). */
const WAIT_LIMIT_MS = 60_000;

type Message =
  | { readonly op: 'update'; readonly id: number; readonly offset: number; readonly length: number; readonly release: number }
  | { readonly op: 'copy'; readonly id: number; readonly to: number }
  | { readonly op: 'digest'; readonly id: number };

/**
 * The worker's code, run with `eval` so that the bundle needs no second entry file. `control` holds, as Int32: [0]
 * the ring's queued bytes, [1] the digest flag (1 once [2..9] holds a digest's 32 bytes).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const state = new Int32Array(workerData.control, 0, 2);
const digest = new Uint8Array(workerData.control, 8, 32);
const ring = new Uint8Array(workerData.ring);
const hashes = new Map();
const hashOf = (id) => {
  let hash = hashes.get(id);
  if (!hash) hashes.set(id, (hash = createHash('sha256')));
  return hash;
};
parentPort.on('message', (message) => {
  if (message.op === 'update') {
    hashOf(message.id).update(ring.subarray(message.offset, message.offset + message.length));
    Atomics.sub(state, 0, message.release);
    Atomics.notify(state, 0);
  } else if (message.op === 'copy') {
    hashes.set(message.to, hashOf(message.id).copy());
  } else {
    digest.set(hashOf(message.id).digest());
    hashes.delete(message.id);
    Atomics.store(state, 1, 1);
    Atomics.notify(state, 1);
  }
});
`;

interface HashThread {
  readonly worker: Worker;
  readonly state: Int32Array;
  readonly digest: Uint8Array;
  readonly ring: Uint8Array;
  /** Where the next piece goes in the ring. */
  head: number;
  nextId: number;
}

let thread: HashThread | undefined | null;

function startThread(): HashThread | undefined {
  if (thread !== undefined) return thread ?? undefined;
  try {
    const control = new SharedArrayBuffer(8 + 32);
    // A thread that may not block (a browser-like main thread) throws here: then hashing stays on it.
    Atomics.wait(new Int32Array(control, 0, 1), 0, 1, 0);
    const ring = new SharedArrayBuffer(RING_BYTES);
    // Loaded on the first hash, not with the bundle: worker_threads takes 8-14 ms to load, a runner call that hashes
    // nothing large would pay it for nothing.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Worker: Thread } = require('node:worker_threads') as typeof import('node:worker_threads');
    const worker = new Thread(WORKER_SOURCE, { eval: true, workerData: { control, ring } });
    // The worker never keeps the process alive; one that fails or exits is replaced by hashing here.
    worker.unref();
    worker.on('error', () => (thread = null));
    worker.on('exit', () => (thread = null));
    const started: HashThread = {
      worker,
      state: new Int32Array(control, 0, 2),
      digest: new Uint8Array(control, 8, 32),
      ring: new Uint8Array(ring),
      head: 0,
      nextId: 1,
    };
    thread = started;
    return started;
  } catch {
    thread = null;
    return undefined;
  }
}

/** Blocks until at most `most` bytes are queued. */
function waitForRoom(owner: HashThread, most: number): void {
  for (let queued = Atomics.load(owner.state, 0); queued > most; queued = Atomics.load(owner.state, 0)) {
    if (Atomics.wait(owner.state, 0, queued, WAIT_LIMIT_MS) === 'timed-out') throw new Error('the hashing thread did not answer');
  }
}

function post(owner: HashThread, message: Message): void {
  owner.worker.postMessage(message);
}

/** Hands one piece of at most PIECE_BYTES to the worker. */
function send(owner: HashThread, id: number, piece: Uint8Array): void {
  const wraps = owner.head + piece.length > RING_BYTES;
  const skip = wraps ? RING_BYTES - owner.head : 0;
  waitForRoom(owner, RING_BYTES - skip - piece.length);
  if (wraps) owner.head = 0;
  owner.ring.set(piece, owner.head);
  Atomics.add(owner.state, 0, skip + piece.length);
  post(owner, { op: 'update', id, offset: owner.head, length: piece.length, release: skip + piece.length });
  owner.head += piece.length;
}

function threadHash(owner: HashThread, id: number): IncrementalHash {
  return {
    update(bytes) {
      for (let at = 0; at < bytes.length; at += PIECE_BYTES) send(owner, id, bytes.subarray(at, at + PIECE_BYTES));
    },
    digest() {
      Atomics.store(owner.state, 1, 0);
      post(owner, { op: 'digest', id });
      if (Atomics.wait(owner.state, 1, 0, WAIT_LIMIT_MS) === 'timed-out' && Atomics.load(owner.state, 1) !== 1) {
        throw new Error('the hashing thread did not answer');
      }
      return Buffer.from(owner.digest).toString('hex');
    },
    copy() {
      const to = owner.nextId++;
      post(owner, { op: 'copy', id, to });
      return threadHash(owner, to);
    },
  };
}

function localHash(hash: ReturnType<typeof createHash>): IncrementalHash {
  return { update: (bytes) => void hash.update(bytes), digest: () => hash.digest('hex'), copy: () => localHash(hash.copy()) };
}

/**
 * An incremental SHA-256 for a stream of large pieces (each update costs a message and a copy): on the worker where
 * one runs, else here.
 */
export function streamingHash(): IncrementalHash {
  const owner = startThread();
  return owner ? threadHash(owner, owner.nextId++) : localHash(createHash('sha256'));
}
