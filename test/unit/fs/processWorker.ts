/**
 * A separate process for the cross-process tests (crossProcess.test.ts), run as
 * `node out/test/unit/fs/processWorker.js MODE JSON`:
 *
 *  - hold {lockDirectory, path, staging?: [{from?, to}]}: takes the lock over `path` through the node port, creates
 *    the staging entries through it (a file written at `to`, or `from` renamed to `to`), prints "held" and waits
 *    until it is killed.
 *  - churn {root, state, lockDirectory, seed}: prints "ready", then runs writes, multi-file patches and directory
 *    moves over an existing destination on the workspace (see kills.ts for the files) until it is killed, printing
 *    "start" before each step and what it did after it.
 *  - writes {root, state, lockDirectory, prefix, count}: `count` write_file calls of its own files and `count`
 *    guarded appends to shared.txt (re-read and retried on CONTENT_CONFLICT), then prints "done".
 *  - interrupted {root, state, lockDirectory, file, content, change}: what a process that dies inside a recorded call
 *    leaves: the history's intent for `file` made and synced, then (with `change`) `content` written over the file,
 *    then the process exits without recording it.
 */
import * as nodePath from 'node:path';
import { invokeOperation } from '../../../src/core/invoke';
import { NodeLocks } from '../../../src/node/fs/locks';
import { HistoryStore } from '../../../src/core/history/store';
import { StateReader } from '../../../src/core/history/state';
import { NodeFileSystem } from '../../../src/node/fs/nodeFileSystem';
import { toPosixPath } from '../../../src/node/fs/nativePaths';
import { createNodeSession } from '../../../src/node/host/session';
import { checkEnvelope } from '../../shared/results';
import { churnStep } from './kills';

interface HoldInput {
  readonly lockDirectory: string;
  readonly path: string;
  readonly staging?: readonly { readonly from?: string; readonly to: string }[];
}

interface SessionInput {
  readonly root: string;
  readonly state: string;
  readonly lockDirectory: string;
}

async function hold(input: HoldInput): Promise<void> {
  const fs = new NodeFileSystem(NodeLocks.shared(input.lockDirectory));
  await fs.lock?.([input.path]);
  for (const entry of input.staging ?? []) {
    if (entry.from !== undefined) await fs.rename(entry.from, entry.to, { overwrite: false });
    else await fs.writeFile(entry.to, new TextEncoder().encode('half-written\n'));
  }
  process.stdout.write('held\n');
  setInterval(() => undefined, 60_000);
}

async function churn(input: SessionInput & { readonly seed: number }): Promise<void> {
  const session = createNodeSession(
    input.root,
    {},
    { stateDirectory: input.state, ripgrep: false, locks: { directory: input.lockDirectory } },
  );
  process.stdout.write('ready\n');
  let seed = input.seed;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (;;) {
    process.stdout.write('start\n');
    process.stdout.write(`${await churnStep(session, input.root, random)}\n`);
  }
}

async function writes(input: SessionInput & { readonly prefix: string; readonly count: number }): Promise<void> {
  const session = createNodeSession(
    input.root,
    {},
    { stateDirectory: input.state, ripgrep: false, locks: { directory: input.lockDirectory } },
  );
  for (let index = 0; index < input.count; index++) {
    const own = await invokeOperation(
      'write_file',
      { file_name: `${input.prefix}/${index}.txt`, content: `${input.prefix} ${index}\n` },
      session,
    );
    checkEnvelope(own);
    if (!own.ok) throw new Error(JSON.stringify(own));
    for (;;) {
      const read = await invokeOperation('read_file', { file_name: 'shared.txt' }, session);
      checkEnvelope(read);
      if (!read.ok) throw new Error(JSON.stringify(read));
      const data = read.data as { content: string; content_hash: string };
      const written = await invokeOperation(
        'write_file',
        { file_name: 'shared.txt', content: `${data.content}${input.prefix} ${index}\n`, expected_hash: data.content_hash },
        session,
      );
      checkEnvelope(written);
      if (written.ok) break;
      if (written.error.code !== 'CONTENT_CONFLICT') throw new Error(JSON.stringify(written));
    }
  }
  process.stdout.write('done\n');
}

async function interrupted(
  input: SessionInput & { readonly file: string; readonly content: string; readonly change: boolean },
): Promise<void> {
  const port = new NodeFileSystem(NodeLocks.shared(input.lockDirectory));
  const store = new HistoryStore(port, toPosixPath(input.state));
  const absolute = toPosixPath(nodePath.join(input.root, input.file));
  const reader = new StateReader(port, { isCancelled: () => false }, Number.POSITIVE_INFINITY, true);
  const before = await reader.read(absolute);
  const held = await port.lock?.([absolute]);
  const reservation = await store.reserve(
    {
      operation: 'write_file',
      summary: `write_file ${input.file}`,
      input: { file_name: input.file },
      paths: [{ absolute, display: input.file, before }],
    },
    reader.contents,
    1000,
  );
  await reservation.durable;
  if (input.change) await port.writeFile(absolute, new TextEncoder().encode(input.content));
  await held?.release();
  process.stdout.write(`${reservation.id}\n`);
}

const [mode = '', json = '{}'] = process.argv.slice(2);
const input: unknown = JSON.parse(json);
const run =
  mode === 'hold'
    ? hold(input as HoldInput)
    : mode === 'churn'
      ? churn(input as SessionInput & { seed: number })
      : mode === 'writes'
        ? writes(input as SessionInput & { prefix: string; count: number })
        : mode === 'interrupted'
          ? interrupted(input as SessionInput & { file: string; content: string; change: boolean })
          : Promise.reject(new Error(`unknown mode ${mode}`));
run.catch((error: unknown) => {
  process.stderr.write(`${nodePath.basename(__filename)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
