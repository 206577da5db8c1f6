/**
 * The history store's index and journal: two stores over one folder (as two processes have them) see each other's
 * records and prunes, a commit's one append (after content and prune) is read by another process, a blob left torn
 * by a dead process is stored whole again, content is deduplicated only while a record still holds it, a compacted
 * journal is re-read, and a folder without a journal (as earlier versions wrote it) still lists and undoes.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isStagingName } from '../../src/core/files/staging';
import { isFsError } from '../../src/core/ports/fs';
import { HistoryStore, type OperationRecord } from '../../src/core/history/store';
import type { HistoryLimits } from '../../src/core/settings';
import type { Session } from '../../src/core/invoke';
import { NodeFileSystem } from '../../src/node/fs/nodeFileSystem';
import { toPosixPath } from '../../src/node/fs/nativePaths';
import { createNodeSession } from '../../src/node/host/session';
import { FaultyFileSystem } from './faultInjection';
import { call, expectOk, makeTempDir, removeTree } from './helpers';

const cli = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');

describe('history store: index, journal and sharing', function () {
  let tmp: string;
  let base: string;
  let state: string;
  const open = (limits: Partial<HistoryLimits> = {}): Session =>
    createNodeSession(
      base,
      {},
      { stateDirectory: state, historyLimits: limits, ripgrep: false, locks: { directory: path.join(tmp, 'locks') } },
    );
  const ids = async (session: Session): Promise<string[]> =>
    (expectOk(await call(session, 'history_list', { limit: 200 })).operations as { operation_id: string }[]).map(
      (each) => each.operation_id,
    );

  beforeEach(() => {
    tmp = makeTempDir('agentfs-store-');
    base = path.join(tmp, 'base');
    state = path.join(tmp, 'state');
    fs.mkdirSync(base);
  });
  afterEach(() => removeTree(tmp));

  it('two stores over one folder see each other’s records and prunes', async () => {
    const a = open();
    const b = open({ maxOperations: 2 });
    const first = expectOk(await call(a, 'write_file', { file_name: 'one.txt', content: '1' })).operation_id;
    assert.deepEqual(await ids(b), [first]);
    const second = expectOk(await call(b, 'write_file', { file_name: 'two.txt', content: '2' })).operation_id;
    const third = expectOk(await call(b, 'write_file', { file_name: 'three.txt', content: '3' })).operation_id;
    // b pruned a's record; a learns it from the journal, not from listing the folder.
    assert.deepEqual(await ids(a), [third, second]);
    // The file goes in the background, after the call (HistoryStore.sweep).
    await b.history?.settled();
    assert.equal(fs.existsSync(path.join(state, 'operations', `${String(first)}.json`)), false);
  });

  it('writes the after content and the prune in one journal append, which another process reads and undoes by', async () => {
    const a = open({ maxOperations: 1 });
    const first = String(expectOk(await call(a, 'write_file', { file_name: 'one.txt', content: '1' })).operation_id);
    const second = String(expectOk(await call(a, 'write_file', { file_name: 'two.txt', content: '2' })).operation_id);
    const hex = createHash('sha256').update('2').digest('hex');
    // The journal's last lines: the second record's after content, then the first record dropped.
    assert.ok(fs.readFileSync(path.join(state, 'journal'), 'utf8').endsWith(`*${second} ${hex}:1\n-${first}\n`));
    await a.history?.settled();
    assert.deepEqual(fs.readdirSync(path.join(state, 'operations')), [`${second}.json`]);
    assert.deepEqual(fs.readdirSync(path.join(state, 'blobs')), [hex]);
    assert.equal(fs.readFileSync(path.join(state, 'blobs', hex), 'utf8'), '2');
    const runner = (operation: string, input: unknown): Record<string, unknown> => {
      const run = spawnSync(process.execPath, [cli, '--root', base, '--state', state, operation, JSON.stringify(input)], {
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      return (JSON.parse(run.stdout) as { data: Record<string, unknown> }).data;
    };
    const listed = runner('history_list', {}).operations as { operation_id: string }[];
    assert.deepEqual(
      listed.map((each) => each.operation_id),
      [second],
    );
    runner('undo_operation', { operation_id: second });
    assert.equal(fs.existsSync(path.join(base, 'two.txt')), false);
    assert.equal(fs.readFileSync(path.join(base, 'one.txt'), 'utf8'), '1');
  });

  it('stores whole a blob that a process dying midway left torn under its name, and undoes by it', async () => {
    fs.writeFileSync(path.join(base, 'x.txt'), 'original\n');
    const hex = createHash('sha256').update('original\n').digest('hex');
    // What a process killed while creating the blob leaves: part of it, under its name, in no journal line.
    fs.mkdirSync(path.join(state, 'blobs'), { recursive: true });
    fs.writeFileSync(path.join(state, 'blobs', hex), 'orig');
    const a = open();
    const changed = expectOk(await call(a, 'write_file', { file_name: 'x.txt', content: 'changed\n' }));
    assert.equal(changed.undo_available, true);
    assert.equal(fs.readFileSync(path.join(state, 'blobs', hex), 'utf8'), 'original\n');
    expectOk(await call(a, 'undo_operation', { operation_id: changed.operation_id }));
    assert.equal(fs.readFileSync(path.join(base, 'x.txt'), 'utf8'), 'original\n');
    assert.deepEqual(
      fs.readdirSync(path.join(state, 'blobs')).filter((name) => isStagingName(name)),
      [],
      'no staging file left',
    );
  });

  it('createFile makes a new file and never replaces one', async () => {
    const port = new NodeFileSystem();
    const file = toPosixPath(path.join(tmp, 'made'));
    await port.createFile(file, new TextEncoder().encode('new'));
    assert.equal(fs.readFileSync(file, 'utf8'), 'new');
    await assert.rejects(port.createFile(file, new TextEncoder().encode('other')), (error: unknown) => isFsError(error, 'exists'));
    assert.equal(fs.readFileSync(file, 'utf8'), 'new');
  });

  it('stores content again once the record that held it was pruned by another store', async () => {
    const a = open();
    const b = open({ maxOperations: 1 });
    fs.writeFileSync(path.join(base, 'x.txt'), 'original\n');
    expectOk(await call(a, 'write_file', { file_name: 'x.txt', content: 'shared content\n' }));
    // b's write prunes a's record, and with it the blob of "shared content" and of "original".
    expectOk(await call(b, 'write_file', { file_name: 'y.txt', content: 'other\n' }));
    // a now replaces "shared content": it must store it again, since no record holds it any more.
    const replaced = expectOk(await call(a, 'write_file', { file_name: 'x.txt', content: 'newer\n' }));
    assert.equal(replaced.undo_available, true);
    expectOk(await call(a, 'undo_operation', { operation_id: replaced.operation_id }));
    assert.equal(fs.readFileSync(path.join(base, 'x.txt'), 'utf8'), 'shared content\n');
  });

  it('re-reads a journal another store compacted', async () => {
    const a = open({ maxOperations: 3 });
    const b = open({ maxOperations: 3 });
    expectOk(await call(b, 'write_file', { file_name: 'seen.txt', content: 'seen' }));
    assert.equal((await ids(b)).length, 1);
    const header = (): string => fs.readFileSync(path.join(state, 'journal'), 'utf8').split('\n', 1)[0] ?? '';
    const before = header();
    for (let index = 0; index < 300; index++) expectOk(await call(a, 'write_file', { file_name: 'many.txt', content: `${index}` }));
    assert.notEqual(header(), before, 'the journal was compacted under a new generation');
    assert.ok(fs.readFileSync(path.join(state, 'journal'), 'utf8').split('\n').length < 300);
    assert.deepEqual(await ids(b), await ids(a));
    assert.equal((await ids(b)).length, 3);
    expectOk(await call(b, 'undo_last', {}));
    assert.equal(fs.readFileSync(path.join(base, 'many.txt'), 'utf8'), '298');
  });

  it('lists and undoes a folder without a journal, as earlier versions wrote it, and gives it one', async () => {
    const a = open();
    fs.writeFileSync(path.join(base, 'old.txt'), 'before\n');
    const written = expectOk(await call(a, 'write_file', { file_name: 'old.txt', content: 'after\n' })).operation_id;
    fs.rmSync(path.join(state, 'journal'));
    const b = open();
    assert.deepEqual(await ids(b), [written]);
    const next = expectOk(await call(b, 'write_file', { file_name: 'new.txt', content: 'n' })).operation_id;
    assert.match(fs.readFileSync(path.join(state, 'journal'), 'utf8'), new RegExp(`\\+${String(written)}[^\\n]*\\n\\+${String(next)}`));
    expectOk(await call(b, 'undo_last', {}));
    expectOk(await call(b, 'undo_last', {}));
    assert.equal(fs.readFileSync(path.join(base, 'old.txt'), 'utf8'), 'before\n');
    assert.equal(fs.existsSync(path.join(base, 'new.txt')), false);
  });

  it('swaps in a whole journal through a staging sibling where the port cannot append: a failed swap keeps the old one', async () => {
    const record = (id: string): OperationRecord => ({
      version: 1,
      id,
      time: new Date(0).toISOString(),
      operation: 'write_file',
      summary: id,
      input: {},
      paths: [],
      undo_available: false,
      blobs: {},
    });
    // FaultyFileSystem has no appendFile: every journal line is written by replacing the journal whole.
    const faulty = new FaultyFileSystem();
    const writer = new HistoryStore(faulty, toPosixPath(state));
    await writer.add(record('a1'), new Map());
    await writer.add(record('a2'), new Map());
    const journal = path.join(state, 'journal');
    const kept = fs.readFileSync(journal);
    faulty.fail({ step: 'rename', when: (to) => to === toPosixPath(journal) });
    await assert.rejects(writer.add(record('a3'), new Map()), /Could not write history/);
    assert.equal(faulty.fired, 1);
    assert.deepEqual(fs.readFileSync(journal), kept, 'the old journal, byte for byte');
    assert.deepEqual(
      fs.readdirSync(state).filter((name) => name.includes('agentfs-')),
      [],
      'no staging file left',
    );
    const reader = new HistoryStore(new NodeFileSystem(), toPosixPath(state));
    assert.deepEqual(
      (await reader.list()).map((each) => each.id),
      ['a2', 'a1'],
    );
  });
});
