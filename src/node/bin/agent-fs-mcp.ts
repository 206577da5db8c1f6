/**
 * `agent-fs-mcp`: the entry of dist/mcp.js. Only this file runs anything on load, so the npm package can bundle the
 * server and the runner into one module and start either from a two-line bin.
 */
import { runMcpServer } from '../mcp';

runMcpServer(process.argv.slice(2));
