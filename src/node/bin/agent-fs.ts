/**
 * `agent-fs`: the entry of dist/cli.js. Only this file runs anything on load, so the npm package can bundle the
 * runner and the server into one module and start either from a two-line bin.
 */
import { runRunner } from '../cli';

runRunner(process.argv.slice(2));
