/**
 * `agent-fs-mcp`: the entry of dist/mcp.js, a few lines that start the server of the shared bundle (agent-fs.js)
 * through the compile cache (compileCache.ts), which a server that compiled more than the cache held writes again.
 */
import { loadBundle } from './compileCache';

loadBundle(true)
  .runMcpServer(process.argv.slice(2))
  .catch((error: unknown) => {
    process.stderr.write(`agent-fs-mcp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
