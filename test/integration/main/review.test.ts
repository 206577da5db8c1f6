/**
 * The review of agents' changes in a real extension host: an MCP agent (the SDK's client over stdio, starting the
 * server "Connect Another Agent…" gives, which records into this window's history) edits files; the "Agent FS"
 * source control lists them and its quick diff provider answers each with the file as it was before the agent, byte
 * for byte. The peek's Revert Change, given the arguments VS Code gives it, puts one hunk back and leaves the other,
 * as the person's own recorded, undoable write; an unsaved editor refuses it. Keep empties the review and is kept in
 * the workspace state; the Activity view opens a session as one multi-file diff, and Undo Session takes it back.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import type { LineChange } from '../../../src/core/history/review';
import { REVIEW_BASE_KEY } from '../../../src/vscode/history/review';
import { api, callTool, eventually, expectError, expectOk, scratch, withoutAutoSave } from '../helpers';
import { callAgent, connectAgent } from '../mcpAgents';

function change(os: number, oe: number, ms: number, me: number): LineChange {
  return { originalStartLineNumber: os, originalEndLineNumber: oe, modifiedStartLineNumber: ms, modifiedEndLineNumber: me };
}

/** The files the source control lists, as paths on the disk. */
async function listed(): Promise<string[]> {
  const { review } = await api();
  await review.files();
  return review.group.resourceStates.map((state) => state.resourceUri.fsPath).sort();
}

/** The quick diff's original of `file` as the provider answers VS Code, and its text; undefined when it has none. */
async function originalText(file: string): Promise<string | undefined> {
  const { review } = await api();
  const provider = review.control.quickDiffProvider;
  assert.ok(provider, 'the source control has a quick diff provider');
  const original = await provider.provideOriginalResource?.(vscode.Uri.file(file), new vscode.CancellationTokenSource().token);
  if (!original) return undefined;
  assert.equal(original.scheme, 'agentfs-history', 'the original is read-only, served by the history');
  return (await vscode.workspace.openTextDocument(original)).getText();
}

interface Newest {
  operation_id: string;
  operation: string;
  host?: string;
  agent?: string;
  session?: string;
  undo_available: boolean;
}

async function newest(): Promise<Newest> {
  const [first] = expectOk(await callTool('history_list', { limit: 1 })).data.operations as Newest[];
  assert.ok(first);
  return first;
}

const ORIGINAL = Array.from({ length: 12 }, (_, k) => `line ${k + 1}\r\n`).join('');

describe('review of agents’ changes: quick diff, per-hunk revert, Keep, Undo Session', function () {
  this.timeout(300_000);
  withoutAutoSave();
  let agent: Client;
  /** Another agent, whose session the second test undoes whole. */
  let codex: Client;
  const errors: string[] = [];

  before(async () => {
    (await api()).setDialogs({
      info: () => undefined,
      error: (message) => errors.push(message),
      confirm: () => Promise.resolve(true),
    });
    agent = await connectAgent('claude-code', '2.1.0');
    codex = await connectAgent('codex', '0.9.1');
    // What earlier specs changed is kept: the review starts here.
    await vscode.commands.executeCommand('agentFs.review.keep');
    assert.deepEqual(await listed(), []);
  });
  after(async () => {
    await agent.close();
    await codex.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("shows an MCP agent's files with their originals; a hunk reverts alone, recorded as the person's and undoable", async () => {
    const s = scratch('review', { 'notes.txt': ORIGINAL, 'keep.md': 'untouched\n' });
    const notes = s.abs('notes.txt');
    expectOk(await callAgent(agent, 'replace_lines', { path: s.rel('notes.txt'), start_line: 2, end_line: 2, content: 'line two\n' }));
    expectOk(
      await callAgent(agent, 'replace_lines', { path: s.rel('notes.txt'), start_line: 10, end_line: 10, content: 'line ten\nline 10b\n' }),
    );
    expectOk(await callAgent(agent, 'write_file', { file_name: s.rel('made/new.md'), content: '# New\n' }));
    const edited = ORIGINAL.replace('line 2\r\n', 'line two\r\n').replace('line 10\r\n', 'line ten\r\nline 10b\r\n');
    assert.equal(fs.readFileSync(notes, 'latin1'), edited);

    // The agent's process wrote the history: the window hears of it through the store's watcher.
    await eventually(async () => (await listed()).length === 2, 'the source control lists the agent’s two files');
    assert.deepEqual(await listed(), [s.abs('made/new.md'), notes].sort());
    assert.equal(await originalText(notes), ORIGINAL, 'the original is the file before the agent, CRLF and all');
    assert.equal(await originalText(s.abs('made/new.md')), '', 'a new file is compared with nothing');
    assert.equal(await originalText(s.abs('keep.md')), undefined, 'a file no agent changed has no original');
    const { review } = await api();
    const state = review.group.resourceStates.find((each) => each.resourceUri.fsPath === notes);
    assert.equal(state?.command?.command, 'vscode.diff', 'the listed file opens its diff');

    // An unsaved editor refuses the revert as it refuses every write, and nothing changes.
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(notes));
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'unsaved '));
    const hunks = [change(2, 2, 2, 2), change(10, 10, 10, 11)];
    const refused = await vscode.commands.executeCommand<Envelope>('agentFs.review.revertChange', document.uri, hunks, 1);
    expectError(refused, 'FILE_DIRTY_IN_EDITOR');
    assert.match(errors.pop() ?? '', /could not revert/);
    assert.equal(fs.readFileSync(notes, 'latin1'), edited);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(document.isDirty, false);

    // The second hunk, as the peek hands it over: lines 10-11 go back to line 10; line 2 stays the agent's.
    const reverted = await vscode.commands.executeCommand<Envelope>('agentFs.review.revertChange', document.uri, hunks, 1);
    expectOk(reverted);
    const oneHunk = ORIGINAL.replace('line 2\r\n', 'line two\r\n');
    assert.equal(fs.readFileSync(notes, 'latin1'), oneHunk);
    const revert = await newest();
    assert.deepEqual(
      [revert.operation, revert.host, revert.agent, revert.undo_available],
      ['write_file', 'editor', 'person', true],
      'recorded as its own operation, the person’s, undoable',
    );
    assert.equal(revert.operation_id, (reverted as { data: { operation_id: string } }).data.operation_id);
    assert.deepEqual(await listed(), [s.abs('made/new.md'), notes].sort(), 'the other hunk keeps the file in review');
    assert.equal(await originalText(notes), ORIGINAL, 'against the same original');

    // Undone like any change: the hunk is the agent's again.
    expectOk(await vscode.commands.executeCommand<Envelope>('agentFs.history.undo', revert.operation_id));
    assert.equal(fs.readFileSync(notes, 'latin1'), edited);

    // Both hunks reverted: the file is as before the agent, and leaves the review.
    await eventually(
      () => document.getText() === edited.replace(/\r\n/g, document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n'),
      'the editor shows the undo',
    );
    expectOk(await vscode.commands.executeCommand<Envelope>('agentFs.review.revertChange', document.uri, hunks, 1));
    await eventually(() => document.getText().split(/\r?\n/).length === 13, 'the editor shows the first revert');
    expectOk(await vscode.commands.executeCommand<Envelope>('agentFs.review.revertChange', document.uri, [change(2, 2, 2, 2)], 0));
    assert.equal(fs.readFileSync(notes, 'latin1'), ORIGINAL);
    assert.deepEqual(await listed(), [s.abs('made/new.md')]);
    assert.equal(await originalText(notes), undefined);
  });

  it('Keep empties the review and is kept in the workspace state; a session opens as one diff and Undo Session restores it', async () => {
    const s = scratch('review-keep', { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    expectOk(await callAgent(codex, 'write_file', { file_name: s.rel('a.txt'), content: 'A\n' }));
    await eventually(async () => (await listed()).includes(s.abs('a.txt')), 'a.txt is in review');

    const kept = await vscode.commands.executeCommand<{ base?: string }>('agentFs.review.keep');
    const { review } = await api();
    assert.deepEqual(await listed(), []);
    assert.equal(review.control.count, 0);
    assert.equal(await originalText(s.abs('a.txt')), undefined, 'Keep clears the quick diff');
    assert.deepEqual(review.base, kept, `the base is the workspace state's ${REVIEW_BASE_KEY}, which outlives the window`);
    assert.equal(kept.base, (await newest()).operation_id);

    // After Keep, the agent's next change is reviewed against the file as kept.
    const next = expectOk(await callAgent(codex, 'write_file', { file_name: s.rel('b.txt'), content: 'B\n' }));
    expectOk(await callAgent(codex, 'write_file', { file_name: s.rel('a.txt'), content: 'AA\n' }));
    await eventually(async () => (await listed()).length === 2, 'both files are in review again');
    assert.equal(await originalText(s.abs('a.txt')), 'A\n');
    assert.equal(await originalText(s.abs('b.txt')), 'b\n');

    // The Activity view opens the agent's session as one multi-file diff.
    const session = (expectOk(await callTool('history_get', { operation_id: next.data.operation_id })).data as { session?: string })
      .session;
    assert.ok(session);
    const { activity } = await api();
    const node = (await activity.getChildren()).find((each) => each.kind === 'session' && each.session.id === session);
    assert.ok(node);
    const item = activity.getTreeItem(node);
    assert.equal(item.command?.command, 'agentFs.history.openSession');
    const shown = await vscode.commands.executeCommand<string[]>(item.command.command, ...((item.command.arguments ?? []) as unknown[]));
    assert.ok(shown.length >= 4, 'before and after of each of the session’s files');
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /^Changes of session /);

    // Undo Session (the source control's title offers it) takes every change of the session back, the one kept
    // too: b.txt is as it was, a.txt is reviewed against what was kept of it.
    expectOk(await vscode.commands.executeCommand<Envelope>('agentFs.undoSession', session));
    assert.equal(fs.readFileSync(s.abs('a.txt'), 'utf8'), 'a\n');
    assert.equal(fs.readFileSync(s.abs('b.txt'), 'utf8'), 'b\n');
    await eventually(async () => (await listed()).length === 1, 'b.txt leaves the review');
    assert.deepEqual(await listed(), [s.abs('a.txt')]);
    assert.equal(await originalText(s.abs('a.txt')), 'A\n');
  });
});
