/**
 * Sessions in the history, over the Node adapter on real temp directories: a session's undo over paths its own
 * operations nest (a directory created, files written into it, moved and deleted, its own undos), records written
 * before origins were kept, and retention that drops whole sessions by count, bytes and age, saying so when it must
 * cut the session still recording.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../src/core/envelope';
import type { Origin } from '../../src/core/history/origin';
import { invokeOperation, type Session } from '../../src/core/invoke';
import type { HistoryLimits } from '../../src/core/settings';
import { createNodeSession } from '../../src/node/host/session';
import { checkEnvelope } from '../shared/results';
import { assertTree, snapshot, writeTree } from '../shared/tree';
import { expectError, expectOk, makeTempDir, removeTree } from './helpers';
import { packOperations, readPack } from './packFile';

interface Listed {
  operation_id: string;
  session?: string;
  agent?: string;
  session_cut?: number;
  undone: boolean;
}

function origin(agent: string, session: string): Origin {
  return { host: 'mcp', agent, agent_version: '1.0', session };
}

describe('history sessions: undo a session, old records, retention', function () {
  let tmp: string;
  let base: string;
  let state: string;
  let session: Session;

  const open = (limits: Partial<HistoryLimits> = {}): void => {
    session = createNodeSession(base, {}, { stateDirectory: state, historyLimits: limits });
  };
  const run = async (who: Origin | undefined, operation: string, input: unknown): Promise<Envelope> => {
    const envelope = await invokeOperation(operation, input, session, undefined, undefined, who);
    checkEnvelope(envelope);
    return envelope;
  };
  const list = async (input: Record<string, unknown> = {}): Promise<Listed[]> =>
    expectOk(await run(undefined, 'history_list', { limit: 200, ...input })).operations as Listed[];

  beforeEach(function () {
    tmp = makeTempDir('agentfs-sessions-');
    base = path.join(tmp, 'base');
    state = path.join(tmp, 'state');
    fs.mkdirSync(base);
    writeTree(base, { 'keep/old.txt': 'old\n', 'lib/a.txt': 'a0\n' });
    open();
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it("undoes a session whose operations nest inside each other's paths, including its own undos, all back to before it", async function () {
    const before = snapshot(base);
    const s = origin('alpha', 'mcp-s1');
    const t = origin('beta', 'mcp-t1');
    expectOk(await run(s, 'write_file', { file_name: 'new/deep/one.txt', content: '1\n' }));
    expectOk(await run(t, 'write_file', { file_name: 'other.txt', content: 'beta\n' }));
    expectOk(await run(s, 'write_file', { file_name: 'new/two.txt', content: '2\n' }));
    expectOk(await run(s, 'move_file', { source_path: 'lib/a.txt', destination_path: 'new/deep/a.txt' }));
    expectOk(await run(s, 'edit_file', { path: 'new/deep/a.txt', old_string: 'a0', new_string: 'a1' }));
    expectOk(await run(s, 'write_file', { file_name: 'new/three.txt', content: '3\n' }));
    // The session undoes its own last change: the pair cancels out.
    expectOk(await run(s, 'undo_last', {}));
    expectOk(await run(s, 'delete_directory', { directory_path: 'keep', recursive: true }));
    expectOk(await run(t, 'write_file', { file_name: 'other.txt', content: 'beta 2\n' }));
    const othersBytes = fs.readFileSync(path.join(base, 'other.txt'));
    const listedS = await list({ session: 'mcp-s1' });
    assert.equal(listedS.length, 7);
    assert.ok(listedS.every((entry) => entry.agent === 'alpha 1.0'));

    const undone = expectOk(await run(t, 'undo_last', { session: 'mcp-s1' }));
    assert.equal((undone.undone_operation_ids as string[]).length, 5, 'the undo pair is left out');
    const expected = new Map(before);
    expected.set('other.txt', { type: 'file', bytes: othersBytes.toString('base64') });
    assertTree(snapshot(base), expected);

    // One operation, undoable in turn.
    const [newest] = await list();
    assert.equal(newest?.operation_id, undone.operation_id);
    expectOk(await run(undefined, 'undo_operation', { operation_id: undone.operation_id }));
    assert.equal(fs.readFileSync(path.join(base, 'new/deep/a.txt'), 'utf8'), 'a1\n');
    assert.ok(!fs.existsSync(path.join(base, 'keep')));
    assert.ok(!fs.existsSync(path.join(base, 'new/three.txt')));
  });

  it('records what an undo that fails partway put back, and undoing that record restores the session as it was', async function () {
    const before = snapshot(base);
    const s = origin('alpha', 'mcp-s1');
    expectOk(await run(s, 'write_file', { file_name: 'x.txt', content: 'x\n' }));
    expectOk(await run(s, 'edit_file', { path: 'lib/a.txt', old_string: 'a0', new_string: 'a1' }));
    expectOk(await run(s, 'write_file', { file_name: 'y.txt', content: 'y\n' }));
    const left = snapshot(base);
    // The undo goes newest first: y.txt is removed, then putting lib/a.txt back fails at its rename (a full disk).
    const healthy = session;
    session = {
      ...healthy,
      workspace: async () => {
        const workspace = await healthy.workspace();
        const failing = new Proxy(workspace.fs, {
          get(target, property, receiver): unknown {
            const value: unknown = Reflect.get(target, property, receiver);
            if (property !== 'rename' || typeof value !== 'function') return value;
            return (from: string, to: string, options: unknown): unknown =>
              to.endsWith('/lib/a.txt')
                ? Promise.reject(new Error('ENOSPC: no space left on device'))
                : Reflect.apply(value, target, [from, to, options]);
          },
        });
        return { ...workspace, fs: failing };
      },
    };
    const failed = expectError(await run(origin('beta', 'mcp-t1'), 'undo_last', { session: 'mcp-s1' }), 'WRITE_FAILED');
    session = healthy;
    const partial = failed.details?.recorded_operation_id;
    assert.equal(typeof partial, 'string', JSON.stringify(failed));
    const [, edit] = (await list({ session: 'mcp-s1' })).map((entry) => entry.operation_id);
    assert.equal(failed.details?.operation_id, edit, "the undo's own detail: the edit, whose undo stopped");
    assert.match(failed.message, /recorded as operation/);
    const expected = new Map(left);
    expected.delete('y.txt');
    assertTree(snapshot(base), expected, 'y.txt removed, lib/a.txt and x.txt as the session left them, nothing staged left');
    const [newest] = await list();
    assert.equal(newest?.operation_id, partial);
    assert.equal(newest?.undone, false);

    expectOk(await run(undefined, 'undo_operation', { operation_id: partial }));
    assertTree(snapshot(base), left, 'the partial undo undone: the session as it left things');
    expectOk(await run(undefined, 'undo_last', { session: 'mcp-s1' }));
    assertTree(snapshot(base), before, 'and now the whole session undone');
  });

  it('reads records written before origins were kept: listed without agent or session, filtered as "unknown"', async function () {
    const old = expectOk(await run(undefined, 'write_file', { file_name: 'x.txt', content: 'x\n' }));
    expectOk(await run(origin('alpha', 'mcp-s1'), 'write_file', { file_name: 'y.txt', content: 'y\n' }));
    const [, oldEntry] = await list();
    assert.equal(oldEntry?.operation_id, old.operation_id);
    assert.equal(oldEntry?.agent, undefined);
    assert.equal(oldEntry?.session, undefined);
    assert.deepEqual(
      (await list({ agent: 'unknown' })).map((entry) => entry.operation_id),
      [old.operation_id],
    );
    expectOk(await run(undefined, 'undo_operation', { operation_id: old.operation_id }));
    assert.ok(!fs.existsSync(path.join(base, 'x.txt')));
  });

  it('prunes whole sessions, oldest first, and says so when it must cut the session still recording', async function () {
    open({ maxOperations: 6 });
    for (let index = 0; index < 3; index++)
      expectOk(await run(origin('alpha', 'mcp-old'), 'write_file', { file_name: `o${index}.txt`, content: 'o' }));
    for (let index = 0; index < 2; index++)
      expectOk(await run(origin('beta', 'mcp-mid'), 'write_file', { file_name: `m${index}.txt`, content: 'm' }));
    // Interleaved with mcp-old's: a record of mcp-mid older than some of mcp-old's.
    expectOk(await run(origin('alpha', 'mcp-old'), 'write_file', { file_name: 'o3.txt', content: 'o' }));
    assert.equal((await list()).length, 6);
    expectOk(await run(origin('gamma', 'mcp-new'), 'write_file', { file_name: 'n0.txt', content: 'n' }));
    // Over by one: the oldest record's session goes whole, its newest record too.
    assert.deepEqual([...new Set((await list()).map((entry) => entry.session))], ['mcp-new', 'mcp-mid']);
    for (let index = 1; index < 8; index++)
      expectOk(await run(origin('gamma', 'mcp-new'), 'write_file', { file_name: `n${index}.txt`, content: 'n' }));
    const kept = await list();
    assert.equal(kept.length, 6);
    assert.ok(
      kept.every((entry) => entry.session === 'mcp-new' && entry.session_cut === 2),
      'the session being recorded is cut, and says so',
    );
    const info = expectOk(await run(undefined, 'workspace_info', {}));
    assert.deepEqual(info.history, {
      operations: 6,
      bytes: (info.history as { bytes: number }).bytes,
      max_operations: 6,
      max_bytes: 50 * 1024 * 1024,
      max_age_days: 30,
      sessions_cut: 1,
    });
    // A cut session undoes what is left of it, back to before its oldest kept change; pruning touches no file.
    expectOk(await run(undefined, 'undo_last', { session: 'mcp-new' }));
    assert.deepEqual(fs.readdirSync(base).sort(), [
      'keep',
      'lib',
      'm0.txt',
      'm1.txt',
      'n0.txt',
      'n1.txt',
      'o0.txt',
      'o1.txt',
      'o2.txt',
      'o3.txt',
    ]);
  });

  it("names each record's session in its intent, so another process prunes whole sessions from the pack", async function () {
    open({ maxOperations: 4 });
    for (let index = 0; index < 2; index++)
      expectOk(await run(origin('alpha', 'mcp:one two'), 'write_file', { file_name: `a${index}.txt`, content: 'a' }));
    expectOk(await run(origin('beta', 'mcp-b'), 'write_file', { file_name: 'b0.txt', content: 'b' }));
    expectOk(await run(origin('alpha', 'mcp:one two'), 'write_file', { file_name: 'a2.txt', content: 'a' }));
    const intents = [...packOperations(readPack(state)).values()].map((operation) => operation.intent);
    assert.equal(intents.filter((intent) => intent.origin?.session === 'mcp:one two').length, 3);
    // A new session over the same folder knows no record yet: the one past the limit drops all of mcp:one two.
    open({ maxOperations: 4 });
    expectOk(await run(origin('gamma', 'mcp-c'), 'write_file', { file_name: 'c0.txt', content: 'c' }));
    assert.deepEqual(
      (await list()).map((entry) => entry.session),
      ['mcp-c', 'mcp-b'],
    );
    assert.deepEqual(fs.readdirSync(base).sort(), ['a0.txt', 'a1.txt', 'a2.txt', 'b0.txt', 'c0.txt', 'keep', 'lib']);
  });

  it('prunes sessions whose last change is older than maxAgeDays, and keeps a session still in use', async function () {
    const store = session.history;
    assert.ok(store);
    const day = 24 * 60 * 60 * 1000;
    // Records as a host wrote them weeks ago: an id carries its time, and pruning reads the age from it.
    const recordAt = async (daysAgo: number, id: string, file: string): Promise<void> => {
      const recordId = store.newId(Date.now() - daysAgo * day);
      await store.add(
        {
          version: 1,
          id: recordId,
          time: new Date(Date.now() - daysAgo * day).toISOString(),
          operation: 'create_directory',
          summary: `create_directory ${file}`,
          input: { directory_name: file },
          paths: [
            {
              absolute: path.join(base, file).replace(/\\/g, '/'),
              display: file,
              before: { type: 'missing' },
              after: { type: 'directory', entries: [] },
            },
          ],
          undo_available: true,
          blobs: {},
          origin: origin(id, `mcp-${id}`),
        },
        new Map(),
      );
    };
    await recordAt(40, 'a', 'a');
    await recordAt(39, 'b', 'b');
    await recordAt(1, 'b', 'b2');
    expectOk(await run(origin('c', 'mcp-c'), 'write_file', { file_name: 'c.txt', content: 'c' }));
    assert.deepEqual(
      (await list()).map((entry) => entry.session),
      ['mcp-c', 'mcp-b', 'mcp-b'],
    );
    expectError(await run(undefined, 'undo_last', { session: 'mcp-a' }), 'OPERATION_NOT_FOUND');
  });
});
