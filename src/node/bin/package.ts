/**
 * The npm package's one module (dist/agent-fs.js, built by esbuild.mjs's buildPackageBundle): the server and the
 * runner, whose bins are two-line files that require it and call one of these.
 */
export { runMcpServer } from '../mcp';
export { runRunner } from '../cli';
