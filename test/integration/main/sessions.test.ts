/**
 * Who changed what, in a real extension host: two MCP clients with different names (the SDK's client over stdio,
 * each starting the server "Connect Another Agent…" gives) and the editor change one workspace, interleaved. The
 * Activity view groups the changes by agent and session; "Undo an Agent Session…" offers the sessions with their
 * files, opens the diff of what goes back, asks, and undoes one client's 300 operations in one step while the
 * other's and the editor's stay byte-exact; a change by another agent or by the person refuses it, naming who, and
 * changes nothing.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import type { OperationChoice } from '../../../src/vscode/dialogs';
import { assertTree, snapshot } from '../../shared/tree';
import { api, callTool, expectError, expectOk, scratch } from '../helpers';
import { callAgent, connectAgent } from '../mcpAgents';

interface Listed {
  operation_id: string;
  host?: string;
  agent?: string;
  session?: string;
}

const OPERATIONS = 300;

interface Shown {
  readonly info: string[];
  readonly error: string[];
  readonly confirms: string[];
  readonly choices: OperationChoice[];
  /** The active editor's tab label when the person was asked: the diff of what goes back. */
  readonly tabsWhenAsked: string[];
}

async function answer(confirm: boolean, session: string): Promise<Shown> {
  const shown: Shown = { info: [], error: [], confirms: [], choices: [], tabsWhenAsked: [] };
  (await api()).setDialogs({
    info: (message) => shown.info.push(message),
    error: (message) => shown.error.push(message),
    confirm: (message) => {
      shown.confirms.push(message);
      shown.tabsWhenAsked.push(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '');
      return Promise.resolve(confirm);
    },
    pickSession: (choices) => {
      shown.choices.push(...choices);
      return Promise.resolve(choices.find((choice) => choice.id === session)?.id);
    },
  });
  return shown;
}

async function command(id: string, ...args: unknown[]): Promise<Envelope> {
  const envelope = await vscode.commands.executeCommand<Envelope | undefined>(id, ...args);
  assert.ok(envelope, `${id} answered with an envelope`);
  return envelope;
}

function undoSession(): Promise<Envelope> {
  return command('agentFs.undoSession');
}

describe('agent sessions: changes grouped by agent and session, and "Undo an Agent Session…"', function () {
  this.timeout(600_000);
  let a: Client;
  let b: Client;

  before(async () => {
    (await api()).setDialogs({ info: () => undefined, confirm: () => Promise.resolve(true) });
    a = await connectAgent('claude-code', '2.1.0');
    b = await connectAgent('codex', '0.9.1');
  });
  after(async () => {
    await a.close();
    await b.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("lists and groups each change's agent and session; the command undoes one client's 300 operations, refusing while others changed its files", async () => {
    const s = scratch('sessions', { 'shared/notes.txt': 'before the session\r\n', 'shared/keep.md': 'keep\n' });
    const initial = snapshot(s.abs());
    for (let k = 0; k < OPERATIONS; k++) {
      const envelope =
        k % 4 === 1
          ? await callAgent(a, 'write_file', { file_name: s.rel('shared/notes.txt'), content: `notes ${k}\r\n` })
          : k % 4 === 2
            ? await callAgent(a, 'create_directory', { directory_name: s.rel(`a/d${k}`) })
            : await callAgent(a, 'write_file', { file_name: s.rel(`a/f${k % 13}.txt`), content: `A${k}\n` });
      expectOk(envelope);
      if (k % 10 === 0) expectOk(await callAgent(b, 'write_file', { file_name: s.rel(`b/g${k % 7}.txt`), content: `B${k}\n` }));
      if (k % 50 === 0) expectOk(await callTool('write_file', { file_name: s.rel(`e/h${k}.txt`), content: `editor ${k}\n` }));
    }

    // history_list, as any agent reads it, names each change's host, agent and session.
    const listed = expectOk(await callTool('history_list', { path: s.rel(), limit: 200 })).data.operations as Listed[];
    const agents = new Map(listed.map((entry) => [entry.agent, [entry.host, entry.session]]));
    assert.deepEqual([...agents.keys()].sort(), ['another extension', 'claude-code 2.1.0', 'codex 0.9.1']);
    assert.equal(agents.get('claude-code 2.1.0')?.[0], 'mcp');
    assert.equal(agents.get('another extension')?.[0], 'editor');
    const session = agents.get('claude-code 2.1.0')?.[1] ?? '';
    const ofA = expectOk(await callAgent(b, 'history_list', { session, limit: 1 })).data;
    assert.equal(ofA.total, OPERATIONS);

    // The Activity view: one group per agent and session, the newest first, each with its operations.
    const { activity } = await api();
    const groups = await activity.getChildren();
    const labels = groups.map((node) => {
      const label = activity.getTreeItem(node).label;
      return node.kind !== 'session' ? '' : typeof label === 'string' ? label : (label?.label ?? '');
    });
    assert.deepEqual(labels.slice(0, 3).sort(), ['another extension', 'claude-code 2.1.0', 'codex 0.9.1']);
    const groupOfA = groups.find((node) => node.kind === 'session' && node.session.id === session);
    assert.ok(groupOfA?.kind === 'session');
    assert.equal(activity.getTreeItem(groupOfA).contextValue, 'agentFs.session.undoable');
    const operationsOfA = await activity.getChildren(groupOfA);
    assert.ok(operationsOfA.length > 0);
    assert.ok(operationsOfA.every((node) => node.kind === 'operation' && node.record.origin?.session === session));

    // Another agent changed one of the session's files: refused, naming it; nothing changes.
    const byB = expectOk(await callAgent(b, 'write_file', { file_name: s.rel('a/f0.txt'), content: 'codex was here\n' }));
    let held = snapshot(s.abs());
    let shown = await answer(true, session);
    expectError(await undoSession(), 'UNDO_CONFLICT');
    assertTree(snapshot(s.abs()), held);
    assert.match(shown.error[0] ?? '', /a\/f0\.txt \(changed since by codex 0\.9\.1, session mcp-/);
    expectOk(await callAgent(b, 'undo_operation', { operation_id: byB.data.operation_id }));

    // The person changed one through the editor: refused, naming the person.
    const byPerson = expectOk(await (await api()).invoke('write_file', { file_name: s.rel('a/f1.txt'), content: 'mine\n' }));
    held = snapshot(s.abs());
    shown = await answer(true, session);
    expectError(await undoSession(), 'UNDO_CONFLICT');
    assertTree(snapshot(s.abs()), held);
    assert.match(shown.error[0] ?? '', /a\/f1\.txt \(changed since by person, session editor-/);
    expectOk(await (await api()).invoke('undo_operation', { operation_id: byPerson.data.operation_id }));

    // Declined: the session and its files were offered, the diff shown, nothing changed.
    const before = snapshot(s.abs());
    shown = await answer(false, session);
    assert.equal(await vscode.commands.executeCommand('agentFs.undoSession'), undefined);
    const offered = shown.choices.find((choice) => choice.id === session);
    assert.ok(offered, 'the session is offered');
    assert.equal(offered.label, 'claude-code 2.1.0');
    assert.match(offered.detail, /\/a\/d10, .* and \d+ more$/, 'the files the session changed');
    assert.match(shown.tabsWhenAsked[0] ?? '', /Undo session/, 'the diff of what goes back is open while the person is asked');
    assert.match(shown.confirms[0] ?? '', new RegExp(`session ${session} of claude-code 2\\.1\\.0 \\(${OPERATIONS} changes\\)`));
    assertTree(snapshot(s.abs()), before);

    // Confirmed: the session's paths as before it, the other client's and the editor's byte-exact.
    shown = await answer(true, session);
    const undone = expectOk(await undoSession());
    assert.equal((undone.data.undone_operation_ids as string[]).length, OPERATIONS);
    const expected = new Map([...before].filter(([key]) => key !== 'a' && !key.startsWith('a/')));
    expected.set('shared/notes.txt', initial.get('shared/notes.txt') ?? { type: 'other' });
    assertTree(snapshot(s.abs()), expected);
    assert.ok(!fs.existsSync(s.abs('a')));
    assert.equal(shown.info.length, 1);

    // One operation, by the person, itself undoable from the view.
    const [newest] = expectOk(await callTool('history_list', { limit: 1 })).data.operations as (Listed & { operation: string })[];
    assert.equal(newest?.operation_id, undone.data.operation_id);
    assert.equal(newest?.agent, 'person');
    await answer(true, session);
    expectOk(await command('agentFs.history.undo', undone.data.operation_id));
    assertTree(snapshot(s.abs()), before);
  });
});
