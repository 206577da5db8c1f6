/**
 * Files of any size: a generated 1 GiB file edited in place by every text-editing tool (streamed, never held in
 * memory), its bytes checked by hash after each edit against the file the edit should give, generated anew; then the
 * same file edited with the history on (its old bytes kept by a hard link) and undone exactly. The size can be lowered
 * with AGENTFS_LARGE_FILE_BYTES for a quick local run; CI runs the full gibibyte.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeSession } from '../../src/node/host/session';
import { call, expectError, expectOk, makeTempDir, removeTree } from './helpers';

const TARGET_BYTES = Number(process.env.AGENTFS_LARGE_FILE_BYTES ?? 1024 * 1024 * 1024);
const LINE = (index: number): string => `line ${String(index).padStart(9, '0')} of the large test file: lorem ipsum dolor sit amet\n`;
const LINE_BYTES = LINE(1).length;
const LINES = Math.ceil(TARGET_BYTES / LINE_BYTES);
const MIDDLE = Math.floor(LINES / 2);

/** What happens to line numbers of the original file: a replacement, lines inserted after one, a deletion. */
type Change = { readonly at: number; readonly replace?: string; readonly after?: string; readonly remove?: true };

/** Writes (or only hashes) the generated file with `changes` applied, in pieces of 64 Ki lines. */
function generate(changes: readonly Change[], target?: string): string {
  const hash = createHash('sha256');
  const fd = target ? fs.openSync(target, 'w') : undefined;
  const byLine = new Map<number, Change[]>();
  for (const change of changes) byLine.set(change.at, [...(byLine.get(change.at) ?? []), change]);
  // Lines are the template with their number written in: a gibibyte in about a second.
  const template = Buffer.from(LINE(0));
  const piece = Buffer.allocUnsafe(65_536 * LINE_BYTES);
  let used = 0;
  const flush = (): void => {
    hash.update(piece.subarray(0, used));
    if (fd !== undefined) fs.writeSync(fd, piece, 0, used);
    used = 0;
  };
  const put = (text: string): void => {
    const bytes = Buffer.from(text);
    if (used + bytes.length > piece.length) flush();
    if (bytes.length > piece.length) {
      hash.update(bytes);
      if (fd !== undefined) fs.writeSync(fd, bytes);
    } else used += bytes.copy(piece, used);
  };
  try {
    for (let index = 1; index <= LINES; index++) {
      const here = byLine.get(index);
      if (here) {
        let line = LINE(index);
        for (const change of here) {
          if (change.remove) line = '';
          else if (change.replace !== undefined) line = change.replace;
        }
        put(line);
        for (const change of here) if (change.after !== undefined) put(change.after);
        continue;
      }
      if (used + LINE_BYTES > piece.length) flush();
      template.copy(piece, used);
      for (let digit = 13, rest = index; digit >= 5; digit--, rest = Math.floor(rest / 10)) piece[used + digit] = 0x30 + (rest % 10);
      used += LINE_BYTES;
    }
    flush();
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  return `sha256:${hash.digest('hex')}`;
}

function hashOf(file: string): string {
  const hash = createHash('sha256');
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  try {
    for (let read = fs.readSync(fd, buffer); read > 0; read = fs.readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return `sha256:${hash.digest('hex')}`;
}

describe(`files of any size: a ${Math.round(TARGET_BYTES / 2 ** 20)} MiB file edited in place by every text-editing tool`, function () {
  this.timeout(20 * 60 * 1000);
  let base: string;
  let file: string;
  const applied: Change[] = [];
  before(function () {
    base = makeTempDir('agentfs-large-');
    file = path.join(base, 'big.log');
    generate([], file);
  });
  after(function () {
    removeTree(base);
  });

  // Without syncs: a gibibyte synced at every call costs a shared disk seconds and proves nothing these tests check;
  // that a streamed edit is durable is the crash-state checker's (crashStates.test.ts, at 9 MiB).
  const runner = (): ReturnType<typeof createNodeSession> => createNodeSession(base, { durability: 'fast' }, {});
  const step = async (operation: string, input: Record<string, unknown>, changes: readonly Change[]): Promise<Record<string, unknown>> => {
    const data = expectOk(await call(runner(), operation, input), operation);
    applied.push(...changes);
    const expected = generate(applied);
    assert.equal(hashOf(file), expected, `${operation}: the file is exactly the file it should be`);
    assert.equal(
      data.content_hash ?? (data.files as { content_hash: string }[] | undefined)?.[0]?.content_hash,
      expected,
      'content_hash is that of the new file',
    );
    return data;
  };

  it('replace_lines replaces one line in the middle', async function () {
    const data = await step('replace_lines', { path: 'big.log', start_line: MIDDLE, end_line: MIDDLE, content: 'the middle, replaced\n' }, [
      { at: MIDDLE, replace: 'the middle, replaced\n' },
    ]);
    assert.equal(data.total_lines, LINES);
  });

  it('edit_file replaces a unique text found in the middle, and refuses a text that occurs nowhere or more than once', async function () {
    const unique = `line ${String(MIDDLE + 10).padStart(9, '0')} of`;
    await step('edit_file', { path: 'big.log', old_string: unique, new_string: 'EDITED line of' }, [
      { at: MIDDLE + 10, replace: LINE(MIDDLE + 10).replace(unique, 'EDITED line of') },
    ]);
    const before = hashOf(file);
    expectError(await call(runner(), 'edit_file', { path: 'big.log', old_string: 'no such text anywhere', new_string: 'x' }), 'NO_MATCH');
    expectError(
      await call(runner(), 'edit_file', { path: 'big.log', old_string: 'lorem ipsum', new_string: 'x', expected_match_count: 3 }),
      'LIMIT_EXCEEDED',
    );
    assert.equal(hashOf(file), before, 'refusals changed nothing');
    assert.deepEqual(fs.readdirSync(base), ['big.log'], 'and left no staging file');
  });

  it('edit_file with several edits, in one call', async function () {
    const first = `line ${String(MIDDLE - 5).padStart(9, '0')} of`;
    const second = `line ${String(LINES - 1).padStart(9, '0')} of`;
    await step(
      'edit_file',
      {
        path: 'big.log',
        edits: [
          { old_string: first, new_string: 'FIRST of' },
          { old_string: second, new_string: 'SECOND of' },
        ],
      },
      [
        { at: MIDDLE - 5, replace: LINE(MIDDLE - 5).replace(first, 'FIRST of') },
        { at: LINES - 1, replace: LINE(LINES - 1).replace(second, 'SECOND of') },
      ],
    );
  });

  it('insert_lines appends at the end and inserts after a line in the middle', async function () {
    await step('insert_lines', { path: 'big.log', position: 'end', content: 'appended at the end\n' }, [
      { at: LINES, after: 'appended at the end\n' },
    ]);
    await step('insert_lines', { path: 'big.log', position: 'after', line: MIDDLE + 100, content: 'inserted\n' }, [
      { at: MIDDLE + 100, after: 'inserted\n' },
    ]);
  });

  it('delete_lines deletes one line', async function () {
    // After the insertion above, original line MIDDLE + 200 is line MIDDLE + 201 of the file.
    await step('delete_lines', { path: 'big.log', start_line: MIDDLE + 201, end_line: MIDDLE + 201 }, [{ at: MIDDLE + 200, remove: true }]);
  });

  it('apply_patch applies a hunk at its line', async function () {
    // Past the insertion and the deletion above, the file's line numbers are the original ones again.
    const at = MIDDLE + 1001;
    const line = LINE(at).slice(0, -1);
    const patch = `--- a/big.log\n+++ b/big.log\n@@ -${at},1 +${at},1 @@\n-${line}\n+patched\n`;
    await step('apply_patch', { patch }, [{ at, replace: 'patched\n' }]);
    const before = hashOf(file);
    const wrong = `--- a/big.log\n+++ b/big.log\n@@ -${at + 7},1 +${at + 7},1 @@\n-not what is there\n+x\n`;
    expectError(await call(runner(), 'apply_patch', { patch: wrong }), 'PATCH_FAILED');
    assert.equal(hashOf(file), before);
  });

  it('with the history on, keeps the old bytes by a hard link and undoes the edit exactly', async function () {
    const state = makeTempDir('agentfs-large-state-');
    try {
      const recorded = createNodeSession(
        base,
        { durability: 'fast' },
        { stateDirectory: state, historyLimits: { maxBytes: 4 * TARGET_BYTES } },
      );
      const before = hashOf(file);
      const edited = expectOk(
        await call(recorded, 'replace_lines', { path: 'big.log', start_line: 3, end_line: 3, content: 'recorded\n' }),
      );
      assert.equal(edited.undo_available, true);
      const blobs = fs.readdirSync(path.join(state, 'blobs'));
      assert.deepEqual(blobs, [before.slice('sha256:'.length)], 'the old content is kept under its hash');
      const kept = fs.statSync(path.join(state, 'blobs', blobs[0] ?? ''));
      assert.equal(kept.size, fs.statSync(file).size - 'recorded\n'.length + LINE(3).length);
      expectOk(await call(recorded, 'undo_last', {}));
      assert.equal(hashOf(file), before, 'undone to the very bytes');
      // Over the history's size cap the change is still made, and says it cannot be undone.
      const capped = createNodeSession(base, { durability: 'fast' }, { stateDirectory: state, historyLimits: { maxBytes: 1024 * 1024 } });
      const over = expectOk(await call(capped, 'replace_lines', { path: 'big.log', start_line: 3, end_line: 3, content: 'capped\n' }));
      assert.equal(over.undo_available, false);
      assert.match(String(over.history_warning), /cannot be undone: big\.log was too large to record/);
      expectOk(await call(capped, 'replace_lines', { path: 'big.log', start_line: 3, end_line: 3, content: LINE(3) }));
      assert.equal(hashOf(file), before);
    } finally {
      removeTree(state);
    }
  });
});
