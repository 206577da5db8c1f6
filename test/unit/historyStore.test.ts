/**
 * The history store's pack and index: two stores over one folder (as two processes have them) see each other's
 * records and prunes; a commit's record goes into its room and its after content after it, read by another process;
 * a torn end is cut at the next change and said in the log, the records before it kept; an operation whose process
 * died before its record is recorded from the disk by the next change (or given up when its change never landed);
 * content is stored again once no record holds it; a compacted pack is re-read; a store in the layout of earlier
 * versions (a journal and a file per record and blob, or only the record files) reads as it is and moves into a pack
 * at the first change; a port that cannot append rewrites the pack whole, and a failed rewrite keeps the old one.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isFsError } from '../../src/core/ports/fs';
import { HistoryStore, type OperationRecord } from '../../src/core/history/store';
import type { HistoryLimits } from '../../src/core/settings';
import type { Session } from '../../src/core/invoke';
import { NodeFileSystem } from '../../src/node/fs/nodeFileSystem';
import { toPosixPath } from '../../src/node/fs/nativePaths';
import { createNodeSession } from '../../src/node/host/session';
import { FaultyFileSystem } from './faultInjection';
import { call, expectOk, makeTempDir, removeTree } from './helpers';
import { liveBlobs, packOperations, readPack } from './packFile';

const cli = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');
const worker = path.join(__dirname, 'fs', 'processWorker.js');

function sha(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

describe('history store: the pack, its index and sharing', function () {
  this.timeout(120_000);
  let tmp: string;
  let base: string;
  let state: string;
  let logged: string[];
  const open = (limits: Partial<HistoryLimits> = {}): Session =>
    createNodeSession(
      base,
      {},
      {
        stateDirectory: state,
        historyLimits: limits,
        ripgrep: false,
        locks: { directory: path.join(tmp, 'locks') },
        log: (line) => logged.push(line),
      },
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
    logged = [];
  });
  afterEach(() => removeTree(tmp));

  it('two stores over one folder see each other’s records and prunes', async () => {
    const a = open();
    const b = open({ maxOperations: 2 });
    const first = String(expectOk(await call(a, 'write_file', { file_name: 'one.txt', content: '1' })).operation_id);
    assert.deepEqual(await ids(b), [first]);
    const second = expectOk(await call(b, 'write_file', { file_name: 'two.txt', content: '2' })).operation_id;
    const third = expectOk(await call(b, 'write_file', { file_name: 'three.txt', content: '3' })).operation_id;
    // b pruned a's record; a learns it from the pack.
    assert.deepEqual(await ids(a), [third, second]);
    const drops = readPack(state).entries.filter((entry) => entry.kind === 'D');
    assert.deepEqual(
      drops.map((entry) => entry.payload.toString()),
      [JSON.stringify({ drop: [first] })],
    );
  });

  it('writes the record into its room and the after content after it, which another process reads and undoes by', async () => {
    const a = open({ maxOperations: 1 });
    const first = String(expectOk(await call(a, 'write_file', { file_name: 'one.txt', content: '1' })).operation_id);
    const second = String(expectOk(await call(a, 'write_file', { file_name: 'two.txt', content: '2' })).operation_id);
    const pack = readPack(state);
    assert.equal(pack.tornBytes, 0);
    // Per write: its intent and room (the file was new: no before content), then its after content, then the prune.
    assert.deepEqual(
      pack.entries.map((entry) => entry.kind),
      ['I', 'R', 'B', 'I', 'R', 'B', 'D'],
    );
    assert.equal(pack.entries[5]?.payload.toString(), '2');
    const operations = packOperations(pack);
    assert.deepEqual([...operations.keys()], [second]);
    assert.deepEqual(operations.get(second)?.record?.blobs, { [sha('2')]: 1 });
    assert.equal((JSON.parse(pack.entries[6]?.payload.toString() ?? '') as { drop: string[] }).drop[0], first);
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

  it('cuts a torn end at the next change, says so in the log, and keeps every record before it', async () => {
    const a = open();
    fs.writeFileSync(path.join(base, 'x.txt'), 'original\n');
    const kept = String(expectOk(await call(a, 'write_file', { file_name: 'x.txt', content: 'changed\n' })).operation_id);
    const whole = fs.statSync(path.join(state, 'pack')).size;
    // What a crash during an append leaves past the last sync: part of an entry, and bytes that never reached the disk.
    fs.appendFileSync(path.join(state, 'pack'), Buffer.concat([Buffer.from('B 000000000000500 '), Buffer.alloc(300)]));
    const b = open();
    // A reader stops at the torn part; nothing is cut without the lock.
    assert.deepEqual(await ids(b), [kept]);
    assert.equal(fs.statSync(path.join(state, 'pack')).size, whole + 318);
    assert.deepEqual(logged, []);
    const next = String(expectOk(await call(b, 'write_file', { file_name: 'y.txt', content: 'y\n' })).operation_id);
    assert.equal(logged.length, 1);
    assert.match(logged[0] ?? '', new RegExp(`cut a torn end of 318 bytes from .*pack at ${whole}`));
    const pack = readPack(state);
    assert.equal(pack.tornBytes, 0);
    assert.deepEqual([...packOperations(pack).keys()], [kept, next]);
    expectOk(await call(b, 'undo_operation', { operation_id: kept }));
    assert.equal(fs.readFileSync(path.join(base, 'x.txt'), 'utf8'), 'original\n');
  });

  it('records from the disk an operation whose process died before its record, and gives up one whose change never landed', async () => {
    fs.writeFileSync(path.join(base, 'x.txt'), 'original\n');
    fs.writeFileSync(path.join(base, 'y.txt'), 'untouched\n');
    const interrupt = async (file: string, change: boolean): Promise<string> => {
      const child = spawn(
        process.execPath,
        [
          worker,
          'interrupted',
          JSON.stringify({ root: base, state, lockDirectory: path.join(tmp, 'locks'), file, content: 'interrupted\n', change }),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      assert.equal(code, 0, err);
      return out.trim();
    };
    const landed = await interrupt('x.txt', true);
    const never = await interrupt('y.txt', false);
    assert.equal(fs.readFileSync(path.join(base, 'x.txt'), 'utf8'), 'interrupted\n');
    const a = open();
    // Until a change puts them right, neither has a record.
    assert.deepEqual(await ids(a), []);
    const next = String(expectOk(await call(a, 'write_file', { file_name: 'z.txt', content: 'z\n' })).operation_id);
    assert.deepEqual(await ids(a), [next, landed]);
    assert.equal(logged.length, 1);
    assert.match(logged[0] ?? '', /put right 2 changes/);
    const recovered = expectOk(await call(a, 'history_get', { operation_id: landed }));
    assert.match(String(recovered.summary), /write_file x\.txt \(recovered/);
    assert.equal(packOperations(readPack(state)).has(never), false, 'the change that never landed is given up');
    expectOk(await call(a, 'undo_operation', { operation_id: landed }));
    assert.equal(fs.readFileSync(path.join(base, 'x.txt'), 'utf8'), 'original\n');
    assert.equal(fs.readFileSync(path.join(base, 'y.txt'), 'utf8'), 'untouched\n');
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

  it('re-reads a pack another store compacted', async () => {
    const a = open({ maxOperations: 3 });
    const b = open({ maxOperations: 3 });
    expectOk(await call(b, 'write_file', { file_name: 'seen.txt', content: 'seen' }));
    assert.equal((await ids(b)).length, 1);
    const before = readPack(state).generation;
    for (let index = 0; index < 300; index++) expectOk(await call(a, 'write_file', { file_name: 'many.txt', content: `${index}` }));
    const pack = readPack(state);
    assert.notEqual(pack.generation, before, 'the pack was compacted under a new generation');
    // 301 writes appended 4 entries each (intent, room, after content, drop); compaction left only the live ones.
    assert.ok(pack.entries.length < 2 * 301, `${pack.entries.length} entries`);
    assert.deepEqual(await ids(b), await ids(a));
    assert.equal((await ids(b)).length, 3);
    expectOk(await call(b, 'undo_last', {}));
    assert.equal(fs.readFileSync(path.join(base, 'many.txt'), 'utf8'), '298');
  });

  for (const layout of ['with a journal', 'without a journal (the oldest)'] as const) {
    it(`reads a store in the layout of earlier versions ${layout} as it is, and moves it into a pack at the first change`, async () => {
      // The layout those versions wrote (history/legacy.ts): a record per file, a blob per file, a journal indexing them.
      const large = Buffer.alloc(9 * 1024 * 1024, 0x61);
      fs.writeFileSync(path.join(base, 'old.txt'), 'after\n');
      fs.writeFileSync(path.join(base, 'big.bin'), 'small now\n');
      const blobs = path.join(state, 'blobs');
      fs.mkdirSync(path.join(state, 'operations'), { recursive: true });
      fs.mkdirSync(blobs);
      const absolute = (name: string): string => toPosixPath(path.join(base, name));
      const record = (id: string, name: string, before: Buffer | string, after: string): OperationRecord => {
        const file = (bytes: Buffer | string): { type: 'file'; size: number; hash: string; mode: number } => ({
          type: 'file',
          size: Buffer.byteLength(bytes),
          hash: `sha256:${sha(bytes)}`,
          mode: 0o644,
        });
        for (const bytes of [before, after]) fs.writeFileSync(path.join(blobs, sha(bytes)), bytes);
        return {
          version: 1,
          id,
          time: new Date().toISOString(),
          operation: 'write_file',
          summary: `write_file ${name}`,
          input: { file_name: name, content: `[${after.length} characters]` },
          paths: [{ absolute: absolute(name), display: name, before: file(before), after: file(after) }],
          undo_available: true,
          origin: { host: 'runner', agent: 'runner', session: 'runner-old' },
          blobs: { [sha(before)]: Buffer.byteLength(before), [sha(after)]: Buffer.byteLength(after) },
        };
      };
      // Ids as those versions made them: the time in base 36 first (pruning reads a record's age from it).
      const id = (ago: number, tail: string): string => `${(Date.now() - ago).toString(36).padStart(9, '0')}-${tail}`;
      const records = [
        record(id(2000, '0001-aaaa'), 'old.txt', 'before\n', 'after\n'),
        record(id(1000, '0002-bbbb'), 'big.bin', large, 'small now\n'),
      ];
      for (const each of records) fs.writeFileSync(path.join(state, 'operations', `${each.id}.json`), JSON.stringify(each));
      if (layout === 'with a journal') {
        const lines = records.map(
          (each) =>
            `+${each.id} ${Object.entries(each.blobs)
              .map(([hex, size]) => `${hex}:${size}`)
              .join(' ')} @runner-old\n`,
        );
        fs.writeFileSync(path.join(state, 'journal'), `agentfs-history-journal 1 abcdefabcdef\n${lines.join('')}`);
      }
      const a = open();
      // Read as it is: listed, and nothing written.
      assert.deepEqual(await ids(a), records.map((each) => each.id).reverse());
      assert.equal(fs.existsSync(path.join(state, 'pack')), false);
      const next = String(expectOk(await call(a, 'write_file', { file_name: 'new.txt', content: 'n' })).operation_id);
      assert.equal(logged.filter((line) => /moved 2 records of an earlier version's layout into/.test(line)).length, 1);
      await a.history?.settled();
      assert.deepEqual(
        fs
          .readdirSync(state)
          .filter((name) => name !== 'trash')
          .sort(),
        ['blobs', 'operations', 'pack'],
      );
      assert.deepEqual(fs.readdirSync(path.join(state, 'operations')), []);
      // The large blob stays a file of its own; the small ones are in the pack now.
      assert.deepEqual(fs.readdirSync(blobs), [sha(large)]);
      const pack = readPack(state);
      assert.deepEqual([...packOperations(pack).keys()], [...records.map((each) => each.id), next]);
      assert.deepEqual(
        [...liveBlobs(pack)].filter(([, blob]) => !blob.inPack).map(([hex]) => hex),
        [sha(large)],
      );
      // A second process reads the pack alone, and every record undoes.
      const b = open();
      assert.deepEqual(await ids(b), [next, ...records.map((each) => each.id).reverse()]);
      for (let index = 0; index < 3; index++) expectOk(await call(b, 'undo_last', {}));
      assert.equal(fs.readFileSync(path.join(base, 'old.txt'), 'utf8'), 'before\n');
      assert.ok(fs.readFileSync(path.join(base, 'big.bin')).equals(large));
      assert.equal(fs.existsSync(path.join(base, 'new.txt')), false);
    });
  }

  it('rewrites the pack whole through a staging sibling where the port cannot append: a failed rewrite keeps the old one', async () => {
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
    // FaultyFileSystem has no appendFile: every entry is written by replacing the pack whole.
    const faulty = new FaultyFileSystem();
    const writer = new HistoryStore(faulty, toPosixPath(state));
    await writer.add(record('a1'), new Map());
    await writer.add(record('a2'), new Map());
    const pack = path.join(state, 'pack');
    const kept = fs.readFileSync(pack);
    faulty.fail({ step: 'rename', when: (to) => to === toPosixPath(pack) });
    await assert.rejects(writer.add(record('a3'), new Map()), /rename/);
    assert.equal(faulty.fired, 1);
    assert.deepEqual(fs.readFileSync(pack), kept, 'the old pack, byte for byte');
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
