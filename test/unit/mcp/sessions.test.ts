/**
 * Who changed what, over real stdio: two MCP clients with different names (the SDK's client, each its own
 * connection to its own server process on one history folder) and the runner change one workspace, interleaved.
 * history_list names each change's host, agent and session; one client's session of 300 operations is undone in one
 * call while the other's changes stay byte-exact; a change by the other client or by hand refuses the undo, naming
 * the path and who changed it, and changes nothing; the undo is one operation, itself undoable.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { EXTENSION_VERSION } from '../../../src/core/catalog/manifest';
import { expectError, expectOk } from '../helpers';
import { assertTree, type Snapshot, snapshot, writeTree } from '../../shared/tree';
import { buildOnce, RUNNER, type Served, serve, tempLayout } from './serve';

interface Listed {
  operation_id: string;
  operation: string;
  host?: string;
  agent?: string;
  session?: string;
  label?: string;
  undone: boolean;
}

const A_OPERATIONS = 300;

/** The k-th change of client A: writes, edits, new directories, moves and one delete, over `a/` and two older files. */
function operationOfA(k: number): { name: string; args: Record<string, unknown> } {
  switch (k % 5) {
    case 0:
      return { name: 'write_file', args: { file_name: `a/f${k % 17}.txt`, content: `A${k}\n` } };
    case 1:
      return k === 1
        ? { name: 'write_file', args: { file_name: 'shared/notes.txt', content: `notes ${k}\r\n` } }
        : { name: 'edit_file', args: { path: 'shared/notes.txt', old_string: `notes ${k - 5}`, new_string: `notes ${k}` } };
    case 2:
      return { name: 'create_directory', args: { directory_name: `a/d${k}` } };
    case 3:
      return { name: 'write_file', args: { file_name: `a/d${k - 1}/in.txt`, content: `in ${k}` } };
    default:
      return k === 4
        ? { name: 'delete_file', args: { file_name: 'a-old/x.txt' } }
        : { name: 'move_file', args: { source_path: `a/d${k - 2}/in.txt`, destination_path: `a/moved/in${k}.txt` } };
  }
}

async function listAll(client: Served, filter: Record<string, string> = {}): Promise<Listed[]> {
  const all: Listed[] = [];
  for (let offset = 0; ;) {
    const data = expectOk((await client.call('history_list', { limit: 200, offset, ...filter })).envelope);
    all.push(...(data.operations as Listed[]));
    if (data.next_offset === undefined) return all;
    offset = data.next_offset as number;
  }
}

/** `tree` with everything A changed put back as `before` had it. */
function withoutA(tree: Snapshot, before: Snapshot): Snapshot {
  const ofA = (key: string): boolean => key === 'a' || key.startsWith('a/') || key.startsWith('a-old') || key === 'shared/notes.txt';
  const result: Snapshot = new Map([...tree].filter(([key]) => !ofA(key)));
  for (const [key, entry] of before) if (ofA(key)) result.set(key, entry);
  return result;
}

describe('MCP server: changes attributed to agents and sessions, a session undone in one call', function () {
  this.timeout(600_000);
  let layout: ReturnType<typeof tempLayout>;
  let a: Served;
  let b: Served;

  before(async function () {
    buildOnce();
    layout = tempLayout('agentfs-sessions-');
    writeTree(layout.base, {
      'shared/notes.txt': 'notes from before\r\n',
      'shared/keep.md': 'keep\n',
      'shared/blob.bin': new Uint8Array([0, 255, 13, 10, 128]),
      'a-old/x.txt': 'x0\n',
    });
    const args = ['--root', layout.base, '--state', layout.state, '--confirm', 'never'];
    a = await serve(args, { clientInfo: { name: 'claude-code', version: '2.1.0' } });
    b = await serve(args, { clientInfo: { name: 'codex', version: '0.9.1' } });
  });

  after(async function () {
    await a.close();
    await b.close();
    fs.rmSync(layout.tmp, { recursive: true, force: true });
  });

  const runner = (args: Record<string, unknown>, label?: string): Envelope => {
    const flags = ['--root', layout.base, '--state', layout.state, '--session', 'build', ...(label ? ['--label', label] : [])];
    const run = spawnSync(process.execPath, [RUNNER, ...flags, 'write_file', JSON.stringify(args)], { encoding: 'utf8' });
    return JSON.parse(run.stdout) as Envelope;
  };

  it('interleaved changes name their host, agent and session; history_list filters by agent and session', async function () {
    const initial = snapshot(layout.base);
    let ofB = 0;
    for (let k = 0; k < A_OPERATIONS; k++) {
      const { name, args } = operationOfA(k);
      const { envelope } = await a.call(name, args);
      assert.equal(typeof expectOk(envelope, name).operation_id, 'string', `A's change ${k} (${name}) is recorded`);
      if (k % 3 === 2) {
        ofB++;
        const target = ofB % 10 === 0 ? 'shared/keep.md' : `b/g${ofB % 7}.txt`;
        expectOk((await b.call('write_file', { file_name: target, content: `B${ofB}\n` })).envelope);
      }
      if (k === 100 || k === 200) expectOk(runner({ file_name: `r/run${k}.txt`, content: `runner ${k}\n` }, 'task-42'));
    }

    // A label given in the call's _meta: recorded, found by the agent filter, and changing nothing else.
    const labelled = await b.client.callTool({
      name: 'write_file',
      arguments: { file_name: 'b/labelled.txt', content: 'l' },
      _meta: { 'agent-fs/label': 'ticket-9' },
    });
    expectOk(labelled.structuredContent as Envelope);
    ofB++;
    const byLabel = await listAll(a, { agent: 'ticket-9' });
    assert.deepEqual(
      byLabel.map((entry) => [entry.agent, entry.label]),
      [['codex 0.9.1', 'ticket-9']],
    );

    const listed = await listAll(b);
    assert.equal(listed.length, A_OPERATIONS + ofB + 2);
    for (const entry of listed) assert.ok(entry.host && entry.agent && entry.session, `${entry.operation_id} names its origin`);
    const sessions = new Map<string, Set<string>>();
    for (const entry of listed) sessions.set(entry.agent ?? '', (sessions.get(entry.agent ?? '') ?? new Set()).add(entry.session ?? ''));
    assert.deepEqual([...sessions.keys()].sort(), [`agent-fs ${EXTENSION_VERSION}`, 'claude-code 2.1.0', 'codex 0.9.1'].sort());
    for (const each of sessions.values()) assert.equal(each.size, 1, 'one session per connection, one per --session value');
    const sessionOfA = [...(sessions.get('claude-code 2.1.0') ?? [])][0] ?? '';
    assert.match(sessionOfA, /^mcp-/);
    assert.equal([...(sessions.get(`agent-fs ${EXTENSION_VERSION}`) ?? [])][0], 'runner:build');

    const onlyA = await listAll(b, { session: sessionOfA });
    assert.equal(onlyA.length, A_OPERATIONS);
    assert.ok(onlyA.every((entry) => entry.agent === 'claude-code 2.1.0' && entry.host === 'mcp'));
    const onlyB = await listAll(a, { agent: 'codex' });
    assert.equal(onlyB.length, ofB);
    const byRunnerLabel = await listAll(a, { agent: 'task-42' });
    assert.deepEqual(
      byRunnerLabel.map((entry) => [entry.host, entry.session, entry.label]),
      [
        ['runner', 'runner:build', 'task-42'],
        ['runner', 'runner:build', 'task-42'],
      ],
    );
    assert.ok(snapshot(layout.base).size > initial.size);
    initialTree = initial;
    undoSession = sessionOfA;
  });

  let initialTree: Snapshot = new Map();
  let undoSession = '';

  it("refuses while the other client or the person changed one of the session's files since, naming who, and changes nothing", async function () {
    const byB = expectOk((await b.call('write_file', { file_name: 'a/f0.txt', content: 'B was here\n' })).envelope);
    const held = snapshot(layout.base);
    const refused = expectError((await b.call('undo_last', { session: undoSession })).envelope, 'UNDO_CONFLICT');
    assertTree(snapshot(layout.base), held, 'a refused undo changes nothing');
    const conflicts = (refused.details as { conflicts: { path: string; by?: { agent: string; session: string } }[] }).conflicts;
    assert.deepEqual(
      conflicts.map((each) => [each.path, each.by?.agent]),
      [['a/f0.txt', 'codex 0.9.1']],
    );
    assert.match(refused.message, /a\/f0\.txt \(changed since by codex 0\.9\.1, session mcp-/);
    expectOk((await b.call('undo_operation', { operation_id: byB.operation_id })).envelope);

    const original = fs.readFileSync(path.join(layout.base, 'a/f1.txt'));
    fs.writeFileSync(path.join(layout.base, 'a/f1.txt'), 'edited by hand\n');
    const byHand = snapshot(layout.base);
    const again = expectError((await a.call('undo_last', { session: undoSession })).envelope, 'UNDO_CONFLICT');
    assert.match(again.message, /a\/f1\.txt \(changed since outside Agent FS, by the person or another program\)/);
    assertTree(snapshot(layout.base), byHand, 'a refused undo changes nothing');
    fs.writeFileSync(path.join(layout.base, 'a/f1.txt'), original);
  });

  it("undoes the 300 operations of one client's session in one call; the other client's and the runner's stay byte-exact", async function () {
    const before = snapshot(layout.base);
    const { envelope } = await b.call('undo_last', { session: undoSession });
    const data = expectOk(envelope);
    assert.equal((data.undone_operation_ids as string[]).length, A_OPERATIONS);
    assert.equal(data.session, undoSession);
    assertTree(snapshot(layout.base), withoutA(before, initialTree), "A's paths as before its session, everything else untouched");

    const [undo] = await listAll(b, { agent: 'codex' });
    assert.equal(undo?.operation_id, data.operation_id, 'recorded as one operation, by the client that asked');
    assert.equal(undo?.operation, 'undo_last');
    const ofA = await listAll(b, { session: undoSession });
    assert.ok(
      ofA.every((entry) => entry.undone),
      'every operation of the session is listed as undone',
    );
    expectError((await a.call('undo_last', { session: undoSession })).envelope, 'OPERATION_NOT_FOUND');

    // The undo is itself undoable: the session's changes come back, byte for byte.
    expectOk((await a.call('undo_operation', { operation_id: data.operation_id })).envelope);
    assertTree(snapshot(layout.base), before);
  });
});
