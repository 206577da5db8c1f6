/**
 * The one bundle of the server and the runner (dist/agent-fs.js, in the .vsix and the npm package alike), whose bins
 * (dist/mcp.js, dist/cli.js) load it through the compile cache (compileCache.ts) and call one of these.
 *
 * The server's modules are imported when it starts, not with the bundle: the MCP SDK they bring is a large part of what
 * loading the bundle runs, and the runner, one process per call, needs none of it.
 */
export async function runMcpServer(argv: readonly string[]): Promise<void> {
  (await import('../mcp/main')).runMcpServer(argv);
}

export { runRunner } from '../runner/cli';
