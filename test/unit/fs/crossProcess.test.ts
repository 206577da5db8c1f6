/**
 * Several processes, one workspace: the runner (`node dist/cli.js`) and worker processes (processWorker.ts) over the
 * same tree, history store and lock directory. Guarded writes hold across processes, the shared history loses no
 * record, a lock holder is waited for within a bound, a killed holder's lock and staging files are put right by the
 * next call, and processes killed with SIGKILL at random moments leave every file whole.
 *
 * The kill test's size: AGENTFS_KILLS (default 100 kills, about two minutes on two busy cores; `AGENTFS_KILLS=1000 npx mocha out/test/unit/fs/crossProcess.test.js`
 * for the long run).
 */
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { isStagingName } from '../../../src/core/files/staging';
import type { Session } from '../../../src/core/invoke';
import { createNodeSession } from '../../../src/node/host/session';
import { call, closed, expectError, expectOk, makeTempDir, removeTree, snapshot, assertTree } from '../helpers';
import { churnProblems, setUpChurn, stagingLeft } from './kills';
import { packOperations, readPack } from '../packFile';
import { buildBundles } from '../bundles';

const repo = path.join(__dirname, '..', '..', '..', '..');
const cli = path.join(repo, 'dist', 'cli.js');
const worker = path.join(__dirname, 'processWorker.js');

function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** Resolves with the child's exit once it has been reaped (so its pid is gone, not a zombie) and its output read. */
const exited = closed;

/** Resolves once the child has printed `line` (startWorker collects its stdout in `output`). */
function printed(child: ChildProcess, line: string, output: { text: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!output.text.split('\n').includes(line)) return;
      child.stdout?.off('data', check);
      resolve();
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before printing ${line}: ${output.text.slice(-300)}`)));
    check();
  });
}

function startWorker(mode: string, input: unknown): { child: ChildProcess; output: { text: string }; stderr: { text: string } } {
  const child = spawn(process.execPath, [worker, mode, JSON.stringify(input)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { text: '' };
  const stderr = { text: '' };
  child.stdout?.on('data', (chunk: Buffer) => (output.text += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr.text += chunk.toString('utf8')));
  return { child, output, stderr };
}

interface Fixture {
  readonly tmp: string;
  readonly base: string;
  readonly state: string;
  readonly xdg: string;
  /** Where the runner (XDG_STATE_HOME=xdg) and every session here keep their locks. */
  readonly lockDirectory: string;
  session(waitMs?: number): Session;
}

function fixture(): Fixture {
  const tmp = makeTempDir('agentfs-processes-');
  const base = path.join(tmp, 'base');
  fs.mkdirSync(base);
  const xdg = path.join(tmp, 'xdg');
  const lockDirectory = path.join(xdg, 'agent-fs', 'locks');
  const state = path.join(tmp, 'state');
  return {
    tmp,
    base,
    state,
    xdg,
    lockDirectory,
    session: (waitMs) =>
      createNodeSession(
        base,
        {},
        { stateDirectory: state, ripgrep: false, locks: { directory: lockDirectory, ...(waitMs === undefined ? {} : { waitMs }) } },
      ),
  };
}

describe('several processes, one workspace', function () {
  this.timeout(600_000);
  let f: Fixture;
  const children: ChildProcess[] = [];

  before(buildBundles);
  beforeEach(() => {
    f = fixture();
  });
  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill('SIGKILL');
      await exited(child);
    }
    removeTree(f.tmp);
  });

  function keep<T extends { child: ChildProcess }>(started: T): T {
    children.push(started.child);
    return started;
  }

  it('20 runner processes writing one file with the same expected_hash: exactly one wins, 19 get CONTENT_CONFLICT', async () => {
    const tries = 3;
    for (let attempt = 0; attempt < tries; attempt++) {
      const original = `original ${attempt}\n`;
      fs.writeFileSync(path.join(f.base, 'shared.txt'), original);
      const runs = Array.from({ length: 20 }, (_, index) => {
        const input = JSON.stringify({
          file_name: 'shared.txt',
          content: `writer ${index} of try ${attempt}\n`,
          expected_hash: sha256(original),
        });
        const child = spawn(process.execPath, [cli, '--root', f.base, '--state', f.state, 'write_file', input], {
          env: { ...process.env, XDG_STATE_HOME: f.xdg },
        });
        children.push(child);
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        return exited(child).then((code) => {
          try {
            return JSON.parse(stdout) as Envelope;
          } catch {
            throw new Error(`writer ${index} of try ${attempt} exited ${code} without an answer: ${stdout}${stderr}`);
          }
        });
      });
      const envelopes = await Promise.all(runs);
      const winners = envelopes.flatMap((envelope, index) => (envelope.ok ? [index] : []));
      assert.equal(winners.length, 1, `try ${attempt}: ${winners.length} writers succeeded`);
      for (const envelope of envelopes)
        if (envelope.ok) expectOk(envelope);
        else expectError(envelope, 'CONTENT_CONFLICT');
      assert.equal(fs.readFileSync(path.join(f.base, 'shared.txt'), 'utf8'), `writer ${winners[0] ?? -1} of try ${attempt}\n`);
    }
    // One recorded write per try, each undoable back to that try's original; the test's own rewrite of the file before
    // each later try is a change made outside Agent FS, recorded once, by the first writer to see it.
    const listed = expectOk(await call(f.session(), 'history_list', {}));
    const hosts = (listed.operations as { host?: string }[]).map((operation) => operation.host);
    assert.equal(hosts.filter((host) => host !== 'outside').length, tries);
    assert.equal(hosts.filter((host) => host === 'outside').length, tries - 1);
    expectOk(await call(f.session(), 'undo_last', {}));
    assert.equal(fs.readFileSync(path.join(f.base, 'shared.txt'), 'utf8'), `original ${tries - 1}\n`);
  });

  it('processes sharing a history store lose no record, keep them in order, and every one undoes exactly', async () => {
    fs.writeFileSync(path.join(f.base, 'shared.txt'), 'start\n');
    const before = snapshot(f.base);
    const workers = 6;
    const count = 8;
    const started = Array.from({ length: workers }, (_, index) =>
      keep(startWorker('writes', { root: f.base, state: f.state, lockDirectory: f.lockDirectory, prefix: `w${index}`, count })),
    );
    for (const each of started) {
      assert.equal(await exited(each.child), 0, each.stderr.text);
      assert.match(each.output.text, /done/);
    }
    const session = f.session();
    const listed = expectOk(await call(session, 'history_list', { limit: 200 }));
    assert.equal(listed.total, workers * count * 2, 'every recorded call of every process is in the history');
    // Each worker's appends are in shared.txt in its own order.
    const lines = fs.readFileSync(path.join(f.base, 'shared.txt'), 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 1 + workers * count);
    for (let index = 0; index < workers; index++) {
      assert.deepEqual(
        lines.filter((line) => line.startsWith(`w${index} `)),
        Array.from({ length: count }, (_, n) => `w${index} ${n}`),
      );
    }
    // One pack, every entry of it whole, every call's record in it.
    const pack = readPack(f.state);
    assert.equal(pack.tornBytes, 0);
    assert.equal([...packOperations(pack).values()].filter((operation) => operation.record).length, workers * count * 2);
    for (let index = 0; index < workers * count * 2; index++) expectOk(await call(session, 'undo_last', {}), 'undo_last');
    assertTree(snapshot(f.base), before);
  });

  it('waits for a live holder, then refuses with the tool’s failure code naming it, and changes nothing', async () => {
    fs.mkdirSync(path.join(f.base, 'dir'));
    fs.writeFileSync(path.join(f.base, 'dir', 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(f.base, 'b.txt'), 'b\n');
    const holder = keep(startWorker('hold', { lockDirectory: f.lockDirectory, path: path.join(f.base, 'dir', 'a.txt') }));
    await printed(holder.child, 'held', holder.output);
    const before = snapshot(f.base);
    const session = f.session(300);
    const refused = expectError(await call(session, 'write_file', { file_name: 'dir/a.txt', content: 'new\n' }), 'WRITE_FAILED');
    assert.match(refused.message, new RegExp(`Another Agent FS process is changing .*dir/a\\.txt \\(process ${holder.child.pid ?? 0}`));
    // A tree holding the locked file is locked too; its tool answers with its own failure code.
    expectError(await call(session, 'delete_directory', { directory_path: 'dir', recursive: true }), 'DELETE_FAILED');
    assertTree(snapshot(f.base), before);
    // Other paths are not held back.
    expectOk(await call(session, 'write_file', { file_name: 'b.txt', content: 'b2\n' }));
    holder.child.kill('SIGKILL');
    await exited(holder.child);
    expectOk(await call(session, 'write_file', { file_name: 'dir/a.txt', content: 'new\n' }));
    assert.equal(fs.readFileSync(path.join(f.base, 'dir', 'a.txt'), 'utf8'), 'new\n');
  });

  it('a killed holder’s lock is taken over at once; its staging files are never listed and are put right by the next call', async () => {
    fs.writeFileSync(path.join(f.base, 'x.txt'), 'old x\n');
    fs.writeFileSync(path.join(f.base, 'y.txt'), 'old y\n');
    fs.mkdirSync(path.join(f.base, 'sub'));
    fs.writeFileSync(path.join(f.base, 'sub', 'half.txt'), 'half of nothing\n');
    const written = path.join(f.base, 'sub', '.half.txt.agentfs-write-k1lled01');
    const parked = path.join(f.base, '.y.txt.agentfs-replaced-k1lled02');
    const holder = startWorker('hold', {
      lockDirectory: f.lockDirectory,
      path: f.base,
      staging: [{ to: written }, { from: path.join(f.base, 'y.txt'), to: parked }],
    });
    await printed(holder.child, 'held', holder.output);
    holder.child.kill('SIGKILL');
    await exited(holder.child);
    assert.deepEqual(stagingLeft(f.base).sort(), ['.y.txt.agentfs-replaced-k1lled02', 'sub/.half.txt.agentfs-write-k1lled01']);

    // Until then no listing or search shows them (the parked y.txt is simply missing for a moment).
    const session = f.session(5000);
    const shown = [
      await call(session, 'list_files', {}),
      await call(session, 'list_directory', { recursive: true, include_hidden: true }),
      await call(session, 'directory_tree', { include_hidden: true }),
      await call(session, 'search_files', { pattern: '**/*' }),
      await call(session, 'search_files', { pattern: '*agentfs*' }),
      await call(session, 'search_content', { query: 'half' }),
      await call(createNodeSession(f.base, {}, { locks: false }), 'search_content', { query: 'half' }),
      await call(session, 'find_file', { file_name: 'half.txt' }),
    ];
    for (const envelope of shown) {
      const text = JSON.stringify(expectOk(envelope));
      assert.ok(!/agentfs-(write|replaced)/.test(text), `${envelope.operation} shows a staging file: ${text.slice(0, 400)}`);
    }

    // The next call that takes a lock finds the dead holder: the write's staging file goes, the parked y.txt comes back.
    expectOk(await call(session, 'write_file', { file_name: 'z.txt', content: 'z\n' }));
    assert.deepEqual(stagingLeft(f.base), []);
    assert.equal(fs.readFileSync(path.join(f.base, 'y.txt'), 'utf8'), 'old y\n');
    assert.equal(fs.readFileSync(path.join(f.base, 'x.txt'), 'utf8'), 'old x\n');
    assert.deepEqual(
      fs.readdirSync(f.lockDirectory).filter((name) => name.includes(`.${holder.child.pid ?? 0}.`)),
      [],
    );
  });

  it('processes killed with SIGKILL at random points of writes, patches and directory moves leave whole files, no staging file and a history that undoes exactly', async function () {
    const kills = Math.max(1, Number(process.env.AGENTFS_KILLS ?? 100));
    // A kill takes about a second on two busy cores (a worker's start, up to half a second of work, the checks).
    this.timeout(Math.max(600_000, kills * 3_000));
    setUpChurn(f.base);
    const session = f.session(10_000);
    let steps = 0;
    let midway = 0;
    let random = 12345;
    const next = (): number => {
      random = (random * 1103515245 + 12345) % 2 ** 31;
      return random / 2 ** 31;
    };
    for (let kill = 0; kill < kills; kill++) {
      const started = keep(startWorker('churn', { root: f.base, state: f.state, lockDirectory: f.lockDirectory, seed: kill + 1 }));
      await printed(started.child, 'ready', started.output);
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.floor(next() * 500)));
      started.child.kill('SIGKILL');
      await exited(started.child);
      children.splice(children.indexOf(started.child), 1);
      const lines = started.output.text.split('\n').filter((line) => line !== '' && line !== 'ready');
      steps += lines.filter((line) => line !== 'start').length;
      if (lines[lines.length - 1] === 'start') midway++;
      assert.equal(started.stderr.text, '', `worker ${kill} failed`);

      const listed = JSON.stringify(expectOk(await call(session, 'list_files', {})));
      assert.ok(!/agentfs-(write|copy|undo|replaced)/.test(listed), `list_files shows a staging file after kill ${kill}`);
      expectOk(await call(session, 'write_file', { file_name: 'probe.txt', content: `after kill ${kill}\n` }));
      assert.deepEqual(churnProblems(f.base), [], `after kill ${kill}`);
    }
    process.stdout.write(`      (${kills} processes killed, ${midway} of them in the middle of a step; ${steps} steps had finished)\n`);
    assert.ok(steps > 0 && midway > 0, 'the workers got work done, and some were killed midway');

    // The history still reads: every record it lists, and the content of every undoable one is whole (a torn end a
    // kill left was cut by the next change).
    const listed = expectOk(await call(session, 'history_list', { limit: 200 }));
    const pack = readPack(f.state);
    assert.equal(pack.tornBytes, 0);
    const operations = packOperations(pack);
    const inPack = new Set(
      pack.entries.filter((entry) => entry.kind === 'B').map((entry) => createHash('sha256').update(entry.payload).digest('hex')),
    );
    for (const operation of listed.operations as { operation_id: string; undo_available: boolean }[]) {
      expectOk(await call(session, 'history_get', { operation_id: operation.operation_id }));
      if (!operation.undo_available) continue;
      const intent = operations.get(operation.operation_id)?.intent;
      assert.ok(intent, `${operation.operation_id} is in the pack`);
      for (const hex of Object.keys(intent.blobs)) {
        const whole =
          inPack.has(hex) ||
          createHash('sha256')
            .update(fs.readFileSync(path.join(f.state, 'blobs', hex)))
            .digest('hex') === hex;
        assert.ok(whole, `blob ${hex} of ${operation.operation_id} is whole`);
      }
    }
    // ...and undoes exactly.
    const before = snapshot(f.base);
    for (let index = 0; index < 3; index++)
      expectOk(await call(session, 'write_file', { file_name: `w/f${index}.txt`, content: `final ${index}\n` }));
    expectOk(await call(session, 'move_directory', { source_path: 'd/t', destination_path: 'd/u' }));
    for (let index = 0; index < 4; index++) expectOk(await call(session, 'undo_last', {}));
    assertTree(snapshot(f.base), before);
    assert.ok(!fs.readdirSync(f.state).some((name) => isStagingName(name)));
  });
});
