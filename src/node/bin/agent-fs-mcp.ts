/**
 * `agent-fs-mcp`: the entry of dist/mcp.js, a few lines that start the server of the shared bundle (agent-fs.js)
 * through the compile cache (compileCache.ts).
 */
import { loadBundle } from './compileCache';

loadBundle().runMcpServer(process.argv.slice(2));
