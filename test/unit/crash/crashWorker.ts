/**
 * The process the crash-state checker records (crashStates.test.ts): `node out/test/unit/crash/crashWorker.js <scenario>
 * <size> <out.json> [mutant]`. It wraps node:fs (recorder.ts) before anything runs, sets up the scenario in a temporary
 * folder of its own (the workspace, the history's state folder, the lock folder), then records the one call with
 * durability full, marks when it replied, waits for what the store does after it, and writes the recording with the
 * tree it started from and the workspace before and after. `mutant`: folders are never synced.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acknowledged, follow, start, stop } from './recorder';
import { invokeOperation } from '../../../src/core/invoke';
import { createNodeSession } from '../../../src/node/host/session';
import { DEFAULT_EDIT_IN_MEMORY_BYTES } from '../../../src/core/settings';
import { SCENARIOS, type Size, SIZE_BYTES } from './scenarios';
import { type SavedRecording, snapshotEntries } from './snapshot';

/** Edits of files above this stream (edit/stream.ts): low, so the medium and large sizes take that path too. */
const EDIT_IN_MEMORY_BYTES = 64 * 1024;

async function main(): Promise<void> {
  const [index = '', size = 'small', out = '', mutant] = process.argv.slice(2);
  const scenario = SCENARIOS[Number(index)];
  if (!scenario) throw new Error(`no scenario ${index}`);
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-crash-')));
  const base = path.join(root, 'base');
  const state = path.join(root, 'state');
  fs.mkdirSync(base);
  follow(root, { dropFolderSyncs: mutant === 'mutant' });
  const editInMemoryBytes = scenario.whole ? DEFAULT_EDIT_IN_MEMORY_BYTES : EDIT_IN_MEMORY_BYTES;
  const session = createNodeSession(
    base,
    { editInMemoryBytes },
    { stateDirectory: state, ripgrep: false, locks: { directory: path.join(root, 'locks') } },
  );
  const run = async (operation: string, input: Record<string, unknown>, origin?: string): Promise<Record<string, unknown>> => {
    const envelope = await invokeOperation(
      operation,
      input,
      session,
      () => false,
      undefined,
      origin === undefined ? undefined : { host: 'runner', agent: 'crash checker', session: origin },
    );
    if (!envelope.ok) throw new Error(`${operation}: ${JSON.stringify(envelope.error)}`);
    return envelope.data as Record<string, unknown>;
  };
  const bytes = SIZE_BYTES[size as Size];
  const values = await scenario.setup(base, bytes, run);
  const listed = (await run('history_list', { limit: 200 })).operations as { operation_id: string }[];
  await session.history?.settled();
  const initial = snapshotEntries(root);
  const old = snapshotEntries(base);
  const { operation, input } = scenario.call(bytes, values);
  start();
  await run(operation, input);
  acknowledged();
  await session.history?.settled();
  const ops = stop();
  const recording: SavedRecording = {
    root,
    pid: process.pid,
    initial,
    ops,
    old,
    new: snapshotEntries(base),
    setupIds: listed.map((each) => each.operation_id),
    editInMemoryBytes,
  };
  fs.writeFileSync(out, JSON.stringify(recording));
}

main().catch((error: unknown) => {
  process.stderr.write(`crashWorker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
