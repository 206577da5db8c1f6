/**
 * `npm run bench [-- --dir DIR] [--reps N] [--only glob,fuzzy,list,literal,regex,tail,writes,edits,context,mcp,replace,index,fresh,symbols] [--docs] [--markdown]`:
 * times the Agent FS core in-process (Node adapter, history recording on, ignore rules on) against reference tools
 * on one generated workspace (generate.ts), in one run; prints min / median, each row's ratio to the fastest
 * reference of its workload, peak memory, and every target with whether this run met it (harness.ts).
 *
 * Each section is a module exporting `run(bench)`; adding one is one line below.
 */
import { ensureGenerated } from './generate';
import { Bench } from './harness';
import { parseOptions } from './options';

const SECTIONS: readonly (() => Promise<{ run: (bench: Bench) => Promise<void> }>)[] = [
  () => import('./walks'),
  () => import('./content'),
  () => import('./tail'),
  () => import('./writes'),
  () => import('./edits'),
  () => import('./context'),
  () => import('./mcp'),
  () => import('./replace'),
  () => import('./index'),
  () => import('./fresh'),
  () => import('./symbols'),
];

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = Date.now();
  const generated = ensureGenerated(options.dir, (message) => process.stderr.write(`${message}\n`));
  process.stderr.write(
    `Workspace: ${generated.tree} (${generated.reused ? 'reused' : `generated in ${((Date.now() - started) / 1000).toFixed(0)} s`})\n`,
  );
  const bench = new Bench(options, generated);
  try {
    for (const section of SECTIONS) await (await section()).run(bench);
  } finally {
    await bench.close();
  }
  bench.report();
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
