/**
 * Shared helpers for the unit tests: temporary workspaces (a `base` directory with an `outside` sibling), the
 * whole-tree snapshots of test/shared/tree.ts with edits for "what the disk should look like now", and small
 * wrappers around the one call path (invokeOperation) the editor and the runner use.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Envelope, FailureEnvelope, SuccessEnvelope } from '../../src/core/envelope';
import { invokeOperation, type Session } from '../../src/core/invoke';
import type { Policy } from '../../src/core/settings';
import { createNodeSession } from '../../src/node/host/session';
import { type Entry, snapshot, type Snapshot, writeTree } from '../shared/tree';
import { checkEnvelope } from '../shared/results';

/** A fresh directory under the OS temp dir, given by its real path (so /tmp links do not blur containment). */
export function makeTempDir(prefix = 'agentfs-unit-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeTree(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export { assertTree, describeSnapshot, type Entry, sameTree, snapshot, type Snapshot } from '../shared/tree';

/** Snapshot editing for "what the disk should look like now". Keys are relative to the snapshot's root. */
export const edit = {
  fileEntry(content: string | Uint8Array): Entry {
    return { type: 'file', bytes: Buffer.from(content).toString('base64') };
  },
  /** Adds the missing parent directories of `key`. */
  addParents(snap: Snapshot, key: string): void {
    const parts = key.split('/');
    for (let index = 1; index < parts.length; index++) {
      const parent = parts.slice(0, index).join('/');
      if (!snap.has(parent)) snap.set(parent, { type: 'dir' });
    }
  },
  setFile(snap: Snapshot, key: string, content: string | Uint8Array | Entry): void {
    edit.addParents(snap, key);
    snap.set(key, typeof content === 'object' && 'type' in content ? content : edit.fileEntry(content));
  },
  addDir(snap: Snapshot, key: string): void {
    edit.addParents(snap, key);
    snap.set(key, { type: 'dir' });
  },
  remove(snap: Snapshot, key: string): void {
    for (const each of [...snap.keys()]) if (each === key || each.startsWith(`${key}/`)) snap.delete(each);
  },
  /** The entry at `from` and everything below it, now at `to` (a rename: links move as links). */
  move(snap: Snapshot, from: string, to: string): void {
    const moved: [string, Entry][] = [];
    for (const [each, entry] of snap) if (each === from || each.startsWith(`${from}/`)) moved.push([to + each.slice(from.length), entry]);
    edit.remove(snap, from);
    edit.remove(snap, to);
    edit.addParents(snap, to);
    for (const [each, entry] of moved) snap.set(each, entry);
  },
  /** A copy of the directory `from` at `to` without its symbolic links (copy_directory skips them). */
  copyDir(snap: Snapshot, from: string, to: string): void {
    const copied: [string, Entry][] = [];
    for (const [each, entry] of snap)
      if (each.startsWith(`${from}/`) && entry.type !== 'link') copied.push([to + each.slice(from.length), entry]);
    edit.addDir(snap, to);
    for (const [each, entry] of copied) snap.set(each, entry);
  },
  clone(snap: Snapshot): Snapshot {
    return new Map(snap);
  },
};

/** The runner's session over node:fs, as tests use it. */
export function nodeSession(root: string, policy: Partial<Policy> = {}): Session {
  return createNodeSession(root, policy);
}

/** A call through the pipeline, its envelope checked against the tool's schema (test/shared/results.ts). */
export async function call(session: Session, operation: string, input: unknown): Promise<Envelope> {
  const envelope = await invokeOperation(operation, input, session);
  checkEnvelope(envelope);
  return envelope;
}

/** Asserts a success envelope for `operation` and returns its data as a record. */
export function expectOk(envelope: Envelope, operation?: string): Record<string, unknown> {
  checkEnvelope(envelope);
  if (!envelope.ok) assert.fail(`expected ok, got ${envelope.error.code}: ${envelope.error.message}`);
  const ok: SuccessEnvelope = envelope;
  if (operation !== undefined) assert.equal(ok.operation, operation);
  assert.equal(typeof ok.data, 'object');
  assert.notEqual(ok.data, null);
  return ok.data as Record<string, unknown>;
}

/** Asserts a failure envelope with `code` and a non-empty message; returns the error. */
export function expectError(envelope: Envelope, code: string, operation?: string): FailureEnvelope['error'] {
  checkEnvelope(envelope);
  if (envelope.ok) assert.fail(`expected ${code}, got ok: ${JSON.stringify(envelope.data).slice(0, 500)}`);
  assert.equal(envelope.error.code, code, `expected ${code}, got ${envelope.error.code}: ${envelope.error.message}`);
  if (operation !== undefined) assert.equal(envelope.operation, operation);
  assert.equal(typeof envelope.error.message, 'string');
  assert.ok(envelope.error.message.length > 0, 'error message is empty');
  return envelope.error;
}

/** Asserts that `data` has every key of `expected` with that value (deep), allowing additional keys. */
export function assertFields(data: Record<string, unknown>, expected: Record<string, unknown>): void {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(expected)) {
    assert.ok(Object.prototype.hasOwnProperty.call(data, key), `data lacks "${key}": ${JSON.stringify(data).slice(0, 500)}`);
    picked[key] = data[key];
  }
  assert.deepEqual(picked, expected);
}

/** A small workspace: `tmp/base` (the base directory) beside `tmp/outside` and the prefix sibling `tmp/base2`. */
export interface TempWorkspace {
  readonly tmp: string;
  readonly base: string;
  readonly outside: string;
  readonly session: Session;
  /** Writes files (creating parents) relative to the base. */
  write(files: Readonly<Record<string, string | Uint8Array>>): void;
  /** The bytes of a file relative to the base, as UTF-8 text. */
  read(relative: string): string;
  exists(relative: string): boolean;
  /** The whole temp tree: base, outside and sibling. */
  snap(): Snapshot;
  cleanup(): void;
}

export function tempWorkspace(policy: Partial<Policy> = {}): TempWorkspace {
  const tmp = makeTempDir();
  const base = path.join(tmp, 'base');
  const outside = path.join(tmp, 'outside');
  fs.mkdirSync(base);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside secret');
  fs.mkdirSync(path.join(tmp, 'base2'));
  fs.writeFileSync(path.join(tmp, 'base2', 'file.txt'), 'prefix sibling');
  return {
    tmp,
    base,
    outside,
    session: createNodeSession(base, policy),
    write: (files) => writeTree(base, files),
    read: (relative) => fs.readFileSync(path.join(base, relative), 'utf8'),
    exists: (relative) => {
      try {
        fs.lstatSync(path.join(base, relative));
        return true;
      } catch {
        return false;
      }
    },
    snap: () => snapshot(tmp),
    cleanup: () => removeTree(tmp),
  };
}

/**
 * Reads `read` until `holds` says yes, `pauseMs` apart, with no deadline but mocha's: for state a process shows only
 * when asked (an index's report in workspace_info, a file another process writes).
 */
export async function pollUntil<T>(read: () => T | Promise<T>, holds: (value: T) => boolean, pauseMs = 25): Promise<T> {
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
