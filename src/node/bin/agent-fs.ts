/**
 * `agent-fs`: the entry of dist/cli.js, a few lines that start the runner of the shared bundle (agent-fs.js) through
 * the compile cache (compileCache.ts).
 */
import { loadBundle } from './compileCache';

loadBundle().runRunner(process.argv.slice(2));
