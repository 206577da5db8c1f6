/** The bench's command line (`npm run bench -- --dir DIR --reps N --only a,b --output FILE --docs --markdown`). */
import * as os from 'node:os';
import * as path from 'node:path';
import { GENERATOR } from './generate';

export interface Options {
  readonly dir: string;
  readonly reps: number;
  /** Workload keys to run (each section names its keys); undefined: all. */
  readonly only: readonly string[] | undefined;
  readonly output: string | undefined;
  /** Also write the markdown report into docs/benchmarks.md between the bench markers. */
  readonly docs: boolean;
  /** Print the markdown report instead of the plain table. */
  readonly markdown: boolean;
}

/** Where the generated workspace lives when neither --dir nor AGENTFS_BENCH_DIR says: the OS temp folder. */
export function defaultDirectory(): string {
  return process.env.AGENTFS_BENCH_DIR
    ? path.resolve(process.env.AGENTFS_BENCH_DIR)
    : path.join(os.tmpdir(), `afs-benchmark-v${GENERATOR.version}`);
}

export function parseOptions(argv: readonly string[]): Options {
  let dir = defaultDirectory();
  let reps = 5;
  let only: string[] | undefined;
  let output: string | undefined;
  let docs = false;
  let markdown = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--docs') docs = true;
    else if (argument === '--markdown') markdown = true;
    else {
      const value = argv[++index];
      if (value === undefined)
        throw new Error(`${argument ?? ''} needs a value (--dir DIR, --reps N, --only a,b, --output FILE; flags: --docs, --markdown)`);
      if (argument === '--dir') dir = path.resolve(value);
      else if (argument === '--reps') reps = Math.max(1, parseInt(value, 10));
      else if (argument === '--only') only = value.split(',');
      else if (argument === '--output') output = path.resolve(value);
      else throw new Error(`Unknown argument ${argument ?? ''}`);
    }
  }
  return { dir, reps, only, output, docs, markdown };
}
