/**
 * `node out/bench/contentIndexProbe.js ROOT`: builds the MCP server's path index and then its content index
 * (src/node/indexes/contentIndex.ts) of ROOT in a fresh process and prints {"buildMs", "files", "textBytes", "heapBytes",
 * "estimatedBytes"}: the time the content index's background pass took with nothing else to do, and the memory it
 * holds (heap and array buffers after a full collection, against what the process held with the path index alone).
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { NodeContentIndex } from '../src/node/indexes/contentIndex';
import { NodePathIndex } from '../src/node/indexes/pathIndex';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Heap and array buffers after full collections (array buffers are freed after the collection that drops them). */
async function held(): Promise<number> {
  for (let round = 0; round < 3; round++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

async function main(): Promise<void> {
  const [root] = process.argv.slice(2);
  if (root === undefined) throw new Error('usage: contentIndexProbe ROOT');
  const paths = new NodePathIndex();
  await paths.whenReady(root);
  const before = await held();
  const started = performance.now();
  const index = new NodeContentIndex(paths);
  await index.whenReady();
  const buildMs = performance.now() - started;
  const after = await held();
  const report = index.report();
  if (report.state !== 'ready') throw new Error(`the content index is ${report.state}: ${report.reason ?? ''}`);
  process.stdout.write(
    `${JSON.stringify({ buildMs, files: report.files, textBytes: report.textBytes, heapBytes: after - before, estimatedBytes: report.bytes })}\n`,
  );
  index.close();
  paths.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`contentIndexProbe: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
