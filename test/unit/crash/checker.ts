/**
 * Checks each crash state (model.ts) of a recording (crashWorker.ts) the way a person would find it after the power
 * came back: the tree is written to the disk where the recorded process had it, the process counts as gone (its lock
 * slots name a pid no process can have), and the next Agent FS call is made (a recorded write of a probe file, which
 * puts right a dead holder's staging files and whatever the history was left with). Then:
 *
 *  - every file holds bytes some file held before or after the call: never empty, zeros or torn;
 *  - after the call replied, the workspace is exactly as the call left it;
 *  - the history lost no record it had;
 *  - the history agrees with the files or undoes to them: a workspace as before the call has no record of it; any
 *    other has exactly one new record, and undoing it gives the workspace as before the call, exactly. (A record of a
 *    change the setup made outside Agent FS, which the call sees and records first, is not the call's.)
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation } from '../../../src/core/invoke';
import { isStagingName } from '../../../src/core/files/staging';
import { createNodeSession } from '../../../src/node/host/session';
import type { CrashState, InitialTree, TreeEntry } from './model';
import { type SavedEntry, type SavedRecording, snapshotEntries } from './snapshot';

/** A pid no process can have (above the kernel's pid_max): a lock slot named with it belongs to a dead process. */
const DEAD_PID = 9_999_991;
const PROBE = '.crash-probe';

export interface Violation {
  readonly moment: number;
  readonly acknowledged: boolean;
  readonly what: string;
}

function treeOf(entries: readonly SavedEntry[]): Map<string, TreeEntry> {
  const tree = new Map<string, TreeEntry>();
  for (const entry of entries) {
    if (entry.kind === 'dir') tree.set(entry.path, { kind: 'dir' });
    else if (entry.kind === 'link') tree.set(entry.path, { kind: 'link', target: entry.target ?? '' });
    else tree.set(entry.path, { kind: 'file', data: Buffer.from(entry.data ?? '', 'base64') });
  }
  return tree;
}

export function initialTree(recording: SavedRecording): InitialTree {
  return {
    entries: treeOf(recording.initial),
    inodes: new Map(recording.initial.flatMap((entry) => (entry.inode === undefined ? [] : [[entry.path, entry.inode] as const]))),
  };
}

/** What differs between two trees, in a few words; '' when they are the same. */
function difference(found: ReadonlyMap<string, TreeEntry>, wanted: ReadonlyMap<string, TreeEntry>): string {
  for (const [name, entry] of wanted) {
    const other = found.get(name);
    if (!other) return `${name} missing`;
    if (other.kind !== entry.kind) return `${name} is a ${other.kind}, not a ${entry.kind}`;
    if (entry.kind === 'file' && other.kind === 'file' && !entry.data.equals(other.data)) return `${name} holds other bytes`;
  }
  for (const name of found.keys()) if (!wanted.has(name)) return `${name} is there`;
  return '';
}

/** The workspace as a listing shows it: staging files and the probe left out. */
function workspace(base: string): Map<string, TreeEntry> {
  return treeOf(snapshotEntries(base, (name) => name === PROBE || isStagingName(name)));
}

/** Files above this size are written once per content and linked into each state (the tools replace, never write into, them). */
const LINKED_BYTES = 64 * 1024;
const contentNames = new WeakMap<Buffer, string>();

/** Writes `data` at `full`: a large file as a hard link to a copy of its content in `shared`, written once. */
function writeData(full: string, data: Buffer, shared: string): void {
  if (data.length <= LINKED_BYTES) return fs.writeFileSync(full, data);
  let name = contentNames.get(data);
  if (name === undefined) contentNames.set(data, (name = createHash('sha256').update(data).digest('hex')));
  const kept = path.join(shared, name);
  if (!fs.existsSync(kept)) fs.writeFileSync(kept, data);
  fs.linkSync(kept, full);
}

/** Writes a crash state to the disk; the lock folder goes to `locks`, its slots renamed to a dead pid. */
function materialize(recording: SavedRecording, state: CrashState, locks: string, shared: string): void {
  for (const name of fs.readdirSync(recording.root)) fs.rmSync(path.join(recording.root, name), { recursive: true, force: true });
  fs.mkdirSync(locks, { recursive: true });
  const deadName = (name: string): string => name.replace(new RegExp(`^([0-9a-f]{8})\\.${recording.pid}\\.`), `$1.${DEAD_PID}.`);
  for (const [relative, entry] of [...state.tree].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let full: string;
    if (relative === 'locks') continue;
    if (relative.startsWith('locks/')) full = path.join(locks, ...relative.slice('locks/'.length).split('/').map(deadName));
    else full = path.join(recording.root, relative);
    if (entry.kind === 'dir') fs.mkdirSync(full, { recursive: true });
    else if (entry.kind === 'link') fs.symlinkSync(entry.target, full);
    // The workspace's files and the history's large blobs are only ever replaced or copied from; the pack is written
    // into, so it gets a file of its own.
    else if (relative.startsWith('base/') || relative.startsWith('state/blobs/')) writeData(full, entry.data, shared);
    else fs.writeFileSync(full, entry.data);
  }
}

/** Checks every state; returns what failed (nothing, when the durable sequence holds). */
export async function checkStates(
  recording: SavedRecording,
  states: readonly CrashState[],
  scratch: string,
): Promise<{ checked: number; violations: Violation[] }> {
  const base = path.join(recording.root, 'base');
  const before = treeOf(recording.old);
  const after = treeOf(recording.new);
  const whole = new Set<string>();
  for (const tree of [before, after])
    for (const entry of tree.values()) if (entry.kind === 'file') whole.add(entry.data.toString('base64'));
  const violations: Violation[] = [];
  const shared = path.join(scratch, 'contents');
  fs.mkdirSync(shared, { recursive: true });
  let checked = 0;
  for (const state of states) {
    const fail = (what: string): void => {
      violations.push({ moment: state.moment, acknowledged: state.acknowledged, what });
    };
    const locks = path.join(scratch, `locks-${checked}`);
    materialize(recording, state, locks, shared);
    checked++;
    const session = createNodeSession(
      base,
      { durability: 'fast', editInMemoryBytes: recording.editInMemoryBytes },
      { stateDirectory: path.join(recording.root, 'state'), ripgrep: false, locks: { directory: locks, waitMs: 5000 } },
    );
    const call = (operation: string, input: Record<string, unknown>) => invokeOperation(operation, input, session);
    const probe = await call('write_file', { file_name: PROBE, content: 'probe\n' });
    if (!probe.ok) {
      fail(`the next call failed: ${probe.error.code} ${probe.error.message}`);
      continue;
    }
    const found = workspace(base);
    for (const [name, entry] of found)
      if (entry.kind === 'file' && !whole.has(entry.data.toString('base64')))
        fail(`${name} holds bytes no version of a file had (${entry.data.length} bytes)`);
    if (state.acknowledged) {
      const different = difference(found, after);
      if (different !== '') fail(`the call had replied, but ${different}`);
    }
    const listed = await call('history_list', { limit: 200 });
    if (!listed.ok) {
      fail(`history_list failed: ${listed.error.message}`);
      continue;
    }
    const operations = (listed.data as { operations: { operation_id: string; host?: string }[] }).operations;
    const ids = operations.map((each) => each.operation_id);
    const lost = recording.setupIds.filter((id) => !ids.includes(id));
    if (lost.length > 0) fail(`the history lost ${lost.join(', ')}`);
    // A change the setup made outside Agent FS is recorded by the call that sees it: a record of that, not of the call.
    const outside = new Set(operations.filter((each) => each.host === 'outside').map((each) => each.operation_id));
    const fresh = ids.filter(
      (id) => !recording.setupIds.includes(id) && !outside.has(id) && id !== (probe.data as { operation_id?: string }).operation_id,
    );
    const asBefore = difference(found, before) === '';
    if (asBefore) {
      if (fresh.length > 0) fail(`the workspace is as before the call, but the history records ${fresh.join(', ')}`);
      continue;
    }
    if (fresh.length !== 1) {
      fail(`the workspace changed (${difference(found, before)}), and the history holds ${fresh.length} new records`);
      continue;
    }
    const undone = await call('undo_operation', { operation_id: fresh[0] });
    if (!undone.ok) {
      fail(`the record of the change does not undo: ${undone.error.code} ${undone.error.message}`);
      continue;
    }
    const back = difference(workspace(base), before);
    if (back !== '') fail(`undoing the record leaves ${back}`);
  }
  return { checked, violations };
}
