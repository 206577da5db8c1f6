// Bundles the extension, the headless runner and the MCP server. `--production` minifies; `--watch` rebuilds on change.
// A failed build exits non-zero so CI and `npm test` stop on it.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions} */
const shared = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
};

const builds = [
  { ...shared, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...shared, entryPoints: ['src/node/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { ...shared, entryPoints: ['src/node/mcp.ts'], outfile: 'dist/mcp.js', banner: { js: '#!/usr/bin/env node' } },
];

try {
  if (watch) {
    for (const options of builds) {
      const context = await esbuild.context(options);
      await context.watch();
    }
  } else {
    await Promise.all(builds.map((options) => esbuild.build(options)));
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
