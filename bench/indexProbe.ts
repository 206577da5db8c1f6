/**
 * `node out/bench/indexProbe.js ROOT`: builds the MCP server's path index (src/node/indexes/pathIndex.ts) of ROOT in a fresh
 * process and prints {"buildMs", "paths", "directories", "heapBytes", "rssBytes", "estimatedBytes"}: the time its
 * background walk took with nothing else to do, and what the finished index holds in the heap (after a full
 * collection, against the heap before it started) and in resident memory (the watches' native handles included).
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { NodePathIndex } from '../src/node/indexes/pathIndex';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

async function main(): Promise<void> {
  const [root] = process.argv.slice(2);
  if (root === undefined) throw new Error('usage: indexProbe ROOT');
  const index = new NodePathIndex();
  collect();
  const before = process.memoryUsage();
  const started = performance.now();
  await index.whenReady(root);
  const buildMs = performance.now() - started;
  collect();
  const after = process.memoryUsage();
  const report = index.report();
  if (report.state !== 'ready') throw new Error(`the index is ${report.state}: ${report.reason ?? ''}`);
  process.stdout.write(
    `${JSON.stringify({
      buildMs,
      paths: report.paths,
      directories: report.directories,
      heapBytes: after.heapUsed - before.heapUsed,
      rssBytes: after.rss - before.rss,
      estimatedBytes: report.bytes,
    })}\n`,
  );
  index.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`indexProbe: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
