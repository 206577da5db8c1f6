/**
 * `node out/bench/memoryProbe.js ROOT STATE OPERATION JSON [--no-ripgrep]`: one call in a fresh process, so its peak
 * resident memory is the call's own and not whatever earlier workloads of the bench left in the heap. Prints
 * {"peakKiB", "extraKiB"}: the process's peak (VmHWM) and how much of it came after the session was ready.
 */
import { invokeOperation } from '../src/core/invoke';
import { findRipgrepOnPath } from '../src/node/search/ripgrep';
import { createNodeSession } from '../src/node/host/session';
import { memoryStatus } from './memory';

function status(): { rss: number; hwm: number } {
  const known = memoryStatus('self');
  if (!known) throw new Error('no /proc/self/status to read the memory from');
  return known;
}

async function main(): Promise<void> {
  const [root, state, operation, json, flag] = process.argv.slice(2);
  if (root === undefined || state === undefined || operation === undefined || json === undefined)
    throw new Error('usage: memoryProbe ROOT STATE OPERATION JSON [--no-ripgrep]');
  const session = createNodeSession(
    root,
    {},
    { stateDirectory: state, ripgrep: flag === '--no-ripgrep' ? false : (findRipgrepOnPath() ?? false) },
  );
  // A first small call loads the pipeline's modules and the session, so they count as the baseline, not as the call.
  await invokeOperation('path_exists', { path: '.' }, session);
  const before = status();
  const envelope = await invokeOperation(operation, JSON.parse(json) as unknown, session);
  if (!envelope.ok) throw new Error(`${operation} failed: ${envelope.error.code}`);
  const after = status();
  process.stdout.write(`${JSON.stringify({ peakKiB: after.hwm, extraKiB: Math.max(0, after.hwm - before.rss) })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`memoryProbe: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
