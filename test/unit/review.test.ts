/**
 * The review of agents' changes (core/history/review.ts) over a real history, recorded by the Node adapter in a temp
 * directory: which files are in review and what each held before the agents (the quick diff's original, byte for
 * byte), who changed them, what Keep leaves; and the text a reverted hunk leaves, at the ends of files and across
 * line breaks of every kind.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sideContent } from '../../src/core/history/changes';
import type { Origin } from '../../src/core/history/origin';
import { keptBase, type LineChange, type ReviewBase, reviewFiles, revertHunk } from '../../src/core/history/review';
import type { HistoryStore } from '../../src/core/history/store';
import { invokeOperation, type Session } from '../../src/core/invoke';
import { createNodeSession } from '../../src/node/host/session';
import { writeTree } from '../shared/tree';
import { expectOk, makeTempDir, removeTree } from './helpers';

const CLAUDE: Origin = { host: 'mcp', agent: 'claude-code', agent_version: '2.1.0', session: 'mcp-claude' };
const CODEX: Origin = { host: 'mcp', agent: 'codex', session: 'mcp-codex' };
const PERSON: Origin = { host: 'editor', agent: 'person', session: 'editor-person' };

describe('review of agents’ changes: the files, their originals, Keep', function () {
  let tmp: string;
  let base: string;
  let session: Session;
  let store: HistoryStore;

  const run = async (who: Origin, operation: string, input: unknown): Promise<Record<string, unknown>> =>
    expectOk(await invokeOperation(operation, input, session, undefined, undefined, who), operation);

  /** Each file in review: its path inside the base, its original's text, its agents. */
  const review = async (reviewBase: ReviewBase = {}): Promise<[string, string, string][]> => {
    const files = reviewFiles(await store.list(), reviewBase);
    const shown: [string, string, string][] = [];
    for (const file of files) {
      const bytes = await sideContent(store, file.first.record, file.first.change.before);
      assert.ok(bytes, `the original of ${file.display} is kept`);
      shown.push([path.relative(base, file.absolute), Buffer.from(bytes).toString('latin1'), file.agents.join(', ')]);
    }
    return shown;
  };

  beforeEach(function () {
    tmp = makeTempDir('agentfs-review-');
    base = path.join(tmp, 'base');
    fs.mkdirSync(base);
    writeTree(base, { 'notes.txt': 'one\r\ntwo\r\nthree\r\n', 'other.txt': 'x\n', 'old.txt': 'old\n', 'lib/a.txt': 'a\n' });
    session = createNodeSession(base, {}, { stateDirectory: path.join(tmp, 'state') });
    assert.ok(session.history);
    store = session.history;
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it('lists what agents changed against what it held before them; the person and outside changes before them are the original', async () => {
    await run(PERSON, 'write_file', { file_name: 'other.txt', content: 'person\n' });
    await run(CLAUDE, 'replace_lines', { path: 'notes.txt', start_line: 2, end_line: 2, content: 'TWO' });
    // A change outside Agent FS, then another agent's edit of the same file: both on top of the original.
    fs.writeFileSync(path.join(base, 'notes.txt'), 'one\r\nTWO\r\nthree\r\nfour\r\n');
    await run(CODEX, 'replace_lines', { path: 'notes.txt', start_line: 1, end_line: 1, content: 'ONE' });
    await run(CLAUDE, 'write_file', { file_name: 'new/made.txt', content: 'made\n' });
    await run(CLAUDE, 'delete_file', { file_name: 'old.txt' });
    // Changed and put back: nothing left to review.
    const written = await run(CODEX, 'write_file', { file_name: 'lib/a.txt', content: 'b\n' });
    await run(PERSON, 'undo_operation', { operation_id: written.operation_id });
    // The person's own change after the base is theirs, not an agent's.
    await run(PERSON, 'write_file', { file_name: 'other.txt', content: 'person again\n' });

    assert.equal(fs.readFileSync(path.join(base, 'notes.txt'), 'latin1'), 'ONE\r\nTWO\r\nthree\r\nfour\r\n');
    assert.deepEqual(await review(), [
      ['new/made.txt', '', 'claude-code 2.1.0'],
      ['notes.txt', 'one\r\ntwo\r\nthree\r\n', 'claude-code 2.1.0, codex'],
      ['old.txt', 'old\n', 'claude-code 2.1.0'],
    ]);
    const [, notes] = reviewFiles(await store.list(), {});
    assert.equal(notes?.last.record.origin?.agent, 'codex');
    assert.equal(notes?.last.change.after.type, 'file');
  });

  it('Keep moves the base past everything, or past one session: later changes come back with a new original', async () => {
    await run(CLAUDE, 'replace_lines', { path: 'notes.txt', start_line: 2, end_line: 2, content: 'TWO' });
    await run(CODEX, 'write_file', { file_name: 'other.txt', content: 'codex\n' });
    await run(CODEX, 'replace_lines', { path: 'notes.txt', start_line: 3, end_line: 3, content: 'THREE' });
    await run(CLAUDE, 'write_file', { file_name: 'lib/a.txt', content: 'claude\n' });

    // Claude's session kept: its own file leaves; notes.txt stays for codex, its original as codex found it.
    const claudeKept = keptBase(await store.list(), {}, CLAUDE.session);
    assert.deepEqual(Object.keys(claudeKept.kept ?? {}), [CLAUDE.session]);
    assert.deepEqual(await review(claudeKept), [
      ['notes.txt', 'one\r\nTWO\r\nthree\r\n', 'codex'],
      ['other.txt', 'x\n', 'codex'],
    ]);

    // Everything kept: nothing in review, and the kept session is folded into the base.
    const allKept = keptBase(await store.list(), claudeKept);
    assert.deepEqual(allKept, { base: (await store.list())[0]?.id });
    assert.deepEqual(await review(allKept), []);

    // A later change by claude is reviewed against the file as kept.
    await run(CLAUDE, 'replace_lines', { path: 'notes.txt', start_line: 1, end_line: 1, content: 'first' });
    assert.deepEqual(await review(allKept), [['notes.txt', 'one\r\nTWO\r\nTHREE\r\n', 'claude-code 2.1.0']]);
    // A session kept after the base: the base stays, the session's entry is kept beside it.
    const again = keptBase(await store.list(), allKept, CLAUDE.session);
    assert.equal(again.base, allKept.base);
    assert.deepEqual(await review(again), []);
  });
});

describe('review of agents’ changes: a reverted hunk', () => {
  const change = (os: number, oe: number, ms: number, me: number): LineChange => ({
    originalStartLineNumber: os,
    originalEndLineNumber: oe,
    modifiedStartLineNumber: ms,
    modifiedEndLineNumber: me,
  });

  it('puts back a modified hunk and leaves the others', () => {
    const original = 'a\nb\nc\nd\ne\nf\n';
    const current = 'a\nB\nc\nd\ne\nF\n';
    assert.equal(revertHunk(current, original, change(2, 2, 2, 2)), 'a\nb\nc\nd\ne\nF\n');
    assert.equal(revertHunk(current, original, change(6, 6, 6, 6)), 'a\nB\nc\nd\ne\nf\n');
  });

  it('removes inserted lines and puts back deleted ones, at the top, inside and at the end', () => {
    assert.equal(revertHunk('x\ny\na\nb\n', 'a\nb\n', change(0, 0, 1, 2)), 'a\nb\n');
    assert.equal(revertHunk('a\nx\nb\n', 'a\nb\n', change(1, 0, 2, 2)), 'a\nb\n');
    assert.equal(revertHunk('b\n', 'a\nb\n', change(1, 1, 0, 0)), 'a\nb\n');
    assert.equal(revertHunk('a\nc\n', 'a\nb\nc\n', change(2, 2, 1, 0)), 'a\nb\nc\n');
    // Lines added after a last line without a newline: the file ends as it did, without one.
    assert.equal(revertHunk('a\nb\nc\n', 'a\nb', change(2, 0, 3, 4)), 'a\nb');
    // A final newline taken away: the last line gets it back.
    assert.equal(revertHunk('a\nb', 'a\nb\n', change(3, 3, 2, 0)), 'a\nb\n');
    // Every line removed, and every line put back.
    assert.equal(revertHunk('', 'a\nb\n', change(1, 2, 0, 0)), 'a\nb\n');
    assert.equal(revertHunk('a\nb\n', '', change(0, 0, 1, 2)), '');
  });

  it('keeps each line break as it was: CRLF, LF and CR side by side', () => {
    const original = 'one\r\ntwo\r\nthree\r\n';
    assert.equal(revertHunk('one\r\nTWO\r\n2b\r\nthree\r\n', original, change(2, 2, 2, 3)), original);
    // A line without a break that gains a follower takes the file's first break.
    assert.equal(revertHunk('a\r\nb', 'a\r\nb\nc', change(3, 3, 2, 0)), 'a\r\nb\r\nc');
    assert.equal(revertHunk('x', 'x\ny', change(2, 2, 1, 0)), 'x\ny');
    assert.equal(revertHunk('a\rX\rc', 'a\rb\rc', change(2, 2, 2, 2)), 'a\rb\rc');
  });

  it('refuses a change that does not fit the texts', () => {
    assert.throws(() => revertHunk('a\n', 'a\n', change(1, 1, 5, 6)), RangeError);
    assert.throws(() => revertHunk('a\n', 'a\n', change(4, 4, 1, 0)), RangeError);
  });
});
