/**
 * One of the processes of the "writes from several processes at once" workload (writes.ts): `node
 * out/bench/writerProcess.js <mode> <root> <state> <locks> <count> <prefix>`. It prints "ready", waits for a line on
 * stdin (every process starts at once), makes `count` writes of small files under `prefix/` in `root`, prints "done"
 * and exits. Modes: `agentfs` (write_file, history in `state`, durability full: the history is shared by every
 * process), `node` (what a durable write costs at the least: the file written and fsynced, renamed into place, its
 * folder fsynced).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation } from '../src/core/invoke';
import { createNodeSession } from '../src/node/host/session';

const [mode = 'agentfs', root = '', state = '', locks = '', countText = '0', prefix = 'p'] = process.argv.slice(2);
const count = Number(countText);
const content = (index: number): string => `# Note ${index}\n\nSome text.\n`;

function syncPath(target: string): void {
  const fd = fs.openSync(target, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

async function main(): Promise<void> {
  const session = createNodeSession(root, {}, { stateDirectory: state, ripgrep: false, locks: { directory: locks } });
  fs.mkdirSync(path.join(root, prefix), { recursive: true });
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  for (let index = 0; index < count; index++) {
    if (mode === 'node') {
      const target = path.join(root, prefix, `note-${index}.md`);
      const staging = `${target}.tmp`;
      const fd = fs.openSync(staging, 'w');
      fs.writeSync(fd, content(index));
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.renameSync(staging, target);
      syncPath(path.dirname(target));
      continue;
    }
    const envelope = await invokeOperation('write_file', { file_name: `${prefix}/note-${index}.md`, content: content(index) }, session);
    if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
  }
  process.stdout.write('done\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`writerProcess: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
