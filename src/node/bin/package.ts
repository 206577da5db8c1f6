/**
 * The one bundle of the server and the runner (dist/agent-fs.js, in the .vsix and the npm package alike), whose bins
 * (dist/mcp.js, dist/cli.js) load it through the compile cache (compileCache.ts) and call one of these.
 */
export { runMcpServer } from '../mcp/main';
export { runRunner } from '../runner/cli';
