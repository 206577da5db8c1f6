/**
 * A server stays responsive while it works, on a busy machine: while the finding tools walk, rank and scan a tree of
 * 10,000 files, a ping (another request) is answered, and a cancellation read, within 50 ms. The machine is made busy
 * here — one busy loop per core beside the server and this client — unless the whole suite already runs under that
 * load (`npm run test:busy`, AGENTFS_BUSY=1).
 *
 * The one timed assertion of the unit tests, by design: what is promised is a bound in time. It is the 95th
 * percentile that is held to it, not each ping: on a machine with more runnable processes than cores the scheduler
 * alone sometimes leaves a process waiting that long. How long, the test measures in the same run: a reference
 * process that works as a server should (8 ms of CPU, then a turn of its event loop) echoes a line after each ping.
 * The bound is 50 ms, or twice the reference's 95th percentile where the machine makes even that process wait longer
 * (far more runnable processes than one busy loop per core): the server must not add to what the machine imposes.
 * The test runs alone (test/unit/serial/, after the parallel run), so no other test's work is counted as load.
 */
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expectOk, makeTempDir, removeTree } from '../helpers';
import { buildOnce, serve, type Served, waitForLog } from '../mcp/serve';

const DIRECTORIES = 100;
const FILES_PER_DIRECTORY = 100;
/** The bound: a ping answered, or a cancellation read, within this many milliseconds (95th percentile). */
const BOUND_MS = 50;

/** A process that breathes as a server should, 8 ms of CPU at a time, and echoes each line it reads. */
const REFERENCE = `
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(line + '\\n'));
const work = () => { const end = performance.now() + 8; while (performance.now() < end); setImmediate(work); };
work();
`;

/** The reference process, and a round trip to it. */
function startReference(): { readonly echo: () => Promise<number>; readonly stop: () => void } {
  const child = spawn(process.execPath, ['-e', REFERENCE], { stdio: ['pipe', 'pipe', 'ignore'] });
  let buffered = '';
  const waiting: (() => void)[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf('\n');
    while (end >= 0) {
      buffered = buffered.slice(end + 1);
      waiting.shift()?.();
      end = buffered.indexOf('\n');
    }
  });
  return {
    echo: () =>
      new Promise<number>((resolve) => {
        const sent = performance.now();
        waiting.push(() => resolve(performance.now() - sent));
        child.stdin.write('ping\n');
      }),
    stop: () => child.kill(),
  };
}

const CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['find_file', { file_name: 'report' }],
  ['find_file', { file_name: 'notse on the projcet' }],
  ['search_files', { pattern: '**/*.md' }],
  ['list_directory', { path: '.', recursive: true, max_entries: 1000 }],
  ['directory_tree', { max_depth: 3 }],
  ['list_files', {}],
  ['search_content', { query: 'needle 99-99' }],
  ['search_content', { query: 'needle \\d+-9[0-9]$', is_regex: true }],
];

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

describe('MCP server: responsive while it works, on a busy machine', function () {
  this.timeout(600_000);
  let tmp = '';
  let base = '';
  let served: Served | undefined;
  const load: ChildProcess[] = [];
  const reference = startReference();
  /** What the machine imposes on a process that breathes every 8 ms: the reference's round trips, during the calls. */
  const machine: number[] = [];
  const bound = (): number =>
    Math.max(
      BOUND_MS,
      2 *
        percentile(
          [...machine].sort((a, b) => a - b),
          0.95,
        ),
    );

  before(function () {
    buildOnce();
    tmp = makeTempDir('agentfs-responsive-');
    base = path.join(tmp, 'base');
    const text = 'a line of ordinary text, nothing to find here\n'.repeat(20);
    for (let directory = 0; directory < DIRECTORIES; directory++) {
      const folder = path.join(base, `area-${directory}`, directory % 2 === 0 ? 'notes' : 'reports');
      fs.mkdirSync(folder, { recursive: true });
      for (let file = 0; file < FILES_PER_DIRECTORY; file++) {
        const name = file % 10 === 0 ? `report-${file}.md` : `file-${file}.txt`;
        fs.writeFileSync(path.join(folder, name), `${text}needle ${directory}-${file}\n`);
      }
    }
    if (process.env.AGENTFS_BUSY !== '1')
      for (let core = 0; core < os.availableParallelism(); core++)
        load.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  });
  after(async function () {
    for (const loop of load) loop.kill();
    reference.stop();
    await served?.close();
    removeTree(tmp);
  });

  it(`answers pings within ${BOUND_MS} ms (95th percentile) while every finding tool runs, cold and warm`, async function () {
    // The scan engine (no ripgrep on PATH), whose every step is the server's own.
    const noTools = path.join(tmp, 'no-tools');
    fs.mkdirSync(noTools, { recursive: true });
    served = await serve(['--root', base, '--no-history'], { env: { PATH: noTools } });
    const server = served;
    const latencies: { ms: number; call: string }[] = [];
    for (const round of ['cold', 'warm'])
      for (const [name, input] of CALLS) {
        let done = false;
        const call = server.call(name, input).then(({ envelope }) => {
          done = true;
          return envelope;
        });
        while (!done) {
          const sent = performance.now();
          await server.client.ping();
          latencies.push({ ms: performance.now() - sent, call: `${name} (${round})` });
          machine.push(await reference.echo());
        }
        expectOk(await call, name);
      }
    const sorted = latencies.map((each) => each.ms).sort((a, b) => a - b);
    const worst = [...latencies].sort((a, b) => b.ms - a.ms).slice(0, 5);
    const summary = `${latencies.length} pings: median ${percentile(sorted, 0.5).toFixed(1)} ms, 95th ${percentile(sorted, 0.95).toFixed(1)} ms, slowest ${worst.map((each) => `${each.ms.toFixed(0)} ms in ${each.call}`).join(', ')}; the reference's 95th ${percentile(
      [...machine].sort((a, b) => a - b),
      0.95,
    ).toFixed(1)} ms, so the bound is ${bound().toFixed(0)} ms`;
    process.stdout.write(`      ${summary}\n`);
    assert.ok(latencies.length >= CALLS.length * 2, summary);
    assert.ok(percentile(sorted, 0.95) <= bound(), summary);
  });

  it(`reads a cancellation within ${BOUND_MS} ms (95th percentile) at any point of a long search`, async function () {
    const server = served;
    assert.ok(server, 'the server of the test before');
    const delays: number[] = [];
    const count = (text: string): number => server.log().split(text).length - 1;
    for (let attempt = 0; attempt < 20; attempt++) {
      const controller = new AbortController();
      const call = server.call(
        'search_content',
        { query: 'needle \\d+-9[0-9]$', is_regex: true, max_results: 200 },
        { signal: controller.signal },
      );
      // At a different point of the search each time: after a few pings, each a turn of the server's event loop.
      for (let ping = 0; ping < attempt % 7; ping++) await server.client.ping();
      const read = count('search_content: the client cancelled it');
      const finished = count('search_content ok');
      const sent = performance.now();
      controller.abort();
      await call.catch(() => undefined);
      // The search may have finished before the cancellation reached it: then the server says so instead.
      await waitForLog(
        server,
        () => count('search_content: the client cancelled it') > read || count('search_content ok') > finished,
        'the cancellation read, or the search done',
      );
      if (count('search_content: the client cancelled it') > read) delays.push(performance.now() - sent);
    }
    const sorted = [...delays].sort((a, b) => a - b);
    const summary = `${delays.length} cancellations read: median ${percentile(sorted, 0.5).toFixed(1)} ms, 95th ${percentile(sorted, 0.95).toFixed(1)} ms, slowest ${(sorted.at(-1) ?? 0).toFixed(0)} ms; the bound ${bound().toFixed(0)} ms`;
    process.stdout.write(`      ${summary}\n`);
    assert.ok(delays.length >= 10, summary);
    assert.ok(percentile(sorted, 0.95) <= bound(), summary);
  });
});
