/**
 * The durable sequence, proved the way ALICE proves an application's (Pillai et al., OSDI 2014): each change path is
 * recorded in a process of its own (crash/crashWorker.ts, which wraps node:fs), every state a crash could leave is
 * rebuilt from the recording under a strict model of the disk (crash/model.ts: bytes survive only once synced, a
 * folder's entries only once the folder is), and each is checked as the next Agent FS process would find it
 * (crash/checker.ts): every file old or new, never empty or torn; the change kept once the call replied; the history
 * agreeing with the files or undoing to them. The mutant proves the checker: the same write with the folders never
 * synced must fail it.
 *
 * Size: AGENTFS_CRASH_STATES caps the states checked per path and size (default 60, spread evenly over the
 * recording, every state after the reply among them); 0 checks every one.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkStates, initialTree } from './crash/checker';
import type { SavedRecording } from './crash/snapshot';
import { type CrashState, crashStates } from './crash/model';
import { SCENARIOS, type Size } from './crash/scenarios';
import { makeTempDir, removeTree } from './helpers';

const worker = path.join(__dirname, 'crash', 'crashWorker.js');
const LIMIT = Number(process.env.AGENTFS_CRASH_STATES ?? 60);

/** Records one scenario in a worker process; the recording, and the folder it worked in (to be removed). */
async function record(scenario: number, size: Size, scratch: string, mutant = false): Promise<SavedRecording> {
  const out = path.join(scratch, `recording-${scenario}-${size}${mutant ? '-mutant' : ''}.json`);
  const child = spawn(process.execPath, [worker, String(scenario), size, out, ...(mutant ? ['mutant'] : [])], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0, stderr);
  return JSON.parse(fs.readFileSync(out, 'utf8')) as SavedRecording;
}

/** At most `limit` states, spread evenly, every state after the reply kept (0: all). */
function sample(states: readonly CrashState[], limit: number): CrashState[] {
  if (limit <= 0 || states.length <= limit) return [...states];
  const acknowledged = states.filter((state) => state.acknowledged);
  const rest = states.filter((state) => !state.acknowledged);
  const room = Math.max(limit - acknowledged.length, 1);
  const picked = Array.from({ length: Math.min(room, rest.length) }, (_, index) => rest[Math.floor((index * rest.length) / room)]);
  return [...picked.filter((state): state is CrashState => state !== undefined), ...acknowledged];
}

describe('crash states: every change path is durable (an ALICE-style checker)', function () {
  this.timeout(1_800_000);
  let scratch: string;
  const totals: string[] = [];
  before(() => {
    scratch = makeTempDir('agentfs-crash-check-');
  });
  after(() => {
    removeTree(scratch);
    process.stdout.write(`      (crash states checked: ${totals.join('; ')})\n`);
  });

  for (const [index, scenario] of SCENARIOS.entries()) {
    for (const size of scenario.sizes) {
      it(`${scenario.name}, ${size}: every state old or new, the change kept once it replied, the history undoing to it`, async function () {
        const recording = await record(index, size, scratch);
        try {
          const states = crashStates(recording.root, initialTree(recording), 'locks', recording.ops);
          const checked = sample(states, LIMIT);
          const { violations } = await checkStates(recording, checked, scratch);
          totals.push(`${scenario.name} ${size} ${checked.length}/${states.length}`);
          assert.deepEqual(violations.slice(0, 5), [], `${violations.length} of ${checked.length} states fail`);
        } finally {
          removeTree(recording.root);
        }
      });
    }
  }

  it('fails the mutant: a write whose folder syncs were removed loses a change it had acknowledged', async function () {
    const recording = await record(0, 'small', scratch, true);
    try {
      const states = crashStates(recording.root, initialTree(recording), 'locks', recording.ops);
      const { violations } = await checkStates(recording, sample(states, LIMIT), scratch);
      const lost = violations.filter(
        (violation) => violation.acknowledged && /the call had replied, but dir\/new\.txt missing/.test(violation.what),
      );
      assert.ok(lost.length > 0, `the checker found no lost acknowledged change: ${JSON.stringify(violations.slice(0, 3))}`);
    } finally {
      removeTree(recording.root);
    }
  });
});
