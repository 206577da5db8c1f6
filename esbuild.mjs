// Bundles the extension, the headless runner and the MCP server. `--production` minifies; `--watch` rebuilds on change.
// A failed build exits non-zero so CI and `npm test` stop on it.
//
// First it writes package.json's `contributes.languageModelTools` from the tool definitions (src/core/tools/):
// VS Code reads the manifest statically, so it must be a file, and generating it keeps each tool written in one
// place. test/unit/manifest.test.ts fails when the committed manifest differs from what the definitions generate.
// The README's tool and error-code tables are written the same way (src/core/catalog/readmeTables.ts), checked by
// test/unit/readmeTables.test.ts, and so are the tool sets' sample file docs/agentfs.toolsets.jsonc (test/unit/readme.test.ts).
//
// package.mjs imports it for the npm package's bundle (buildPackageBundle) and the tool list (loadCatalog); only
// `node esbuild.mjs` builds dist/.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const AGENT_FILE = 'agents/agent-fs.agent.md';
/** The tool sets as a file for VS Code's "Chat: Configure Tool Sets", where an extension may not contribute them. */
const TOOL_SETS_FILE = 'docs/agentfs.toolsets.jsonc';
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * pdf.js stays out of the three bundles: about 1.7 MB that every process would parse at start (a runner call, an MCP
 * server) though few calls read a PDF. Its own prebuilt, minified ES modules are copied beside them once, and the
 * bundles import them from there on the first PDF (src/core/documents/pdf.ts).
 */
const PDFJS_FILES = { 'pdfjs-dist/legacy/build/pdf.mjs': 'pdf.min.mjs', 'pdfjs-dist/legacy/build/pdf.worker.mjs': 'pdf.worker.min.mjs' };

/** @type {import('esbuild').Plugin} */
const pdfjsBeside = {
  name: 'pdfjs-beside',
  setup(build) {
    build.onResolve({ filter: /^pdfjs-dist\/legacy\/build\/pdf(\.worker)?\.mjs$/ }, (args) => ({
      path: `./${args.path.slice(args.path.lastIndexOf('/') + 1)}`,
      external: true,
    }));
  },
};

function copyPdfjs(directory = 'dist') {
  const require = createRequire(import.meta.url);
  mkdirSync(directory, { recursive: true });
  for (const [entry, minified] of Object.entries(PDFJS_FILES)) {
    const source = require.resolve(entry).replace(/[^/\\]+$/, minified);
    copyFileSync(source, `${directory}/${entry.slice(entry.lastIndexOf('/') + 1)}`);
  }
}

/**
 * The parsers' WebAssembly (src/core/symbols/engine.ts), copied into `grammars/` beside the bundles, where the hosts
 * read it on the first outline of each language (src/node/host/grammars.ts, src/vscode/grammars.ts): the tree-sitter
 * runtime, and of @vscode/tree-sitter-wasm's grammars only those src/core/symbols/languages.ts lists.
 */
export async function copyGrammars(directory = 'dist') {
  const require = createRequire(import.meta.url);
  const { GRAMMAR_FILES } = await loadCatalog();
  mkdirSync(`${directory}/grammars`, { recursive: true });
  copyFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'), `${directory}/grammars/web-tree-sitter.wasm`);
  for (const file of GRAMMAR_FILES) copyFileSync(require.resolve(`@vscode/tree-sitter-wasm/wasm/${file}`), `${directory}/grammars/${file}`);
}

/**
 * The tools' input validators, compiled here rather than at a process's first call of each tool: ajv's standalone
 * code for every input schema, with the options of src/core/contract/validation.ts, in place of
 * src/core/contract/precompiled.ts (whose own body, none, is what the type check and the unit tests use). Compiled
 * again at every build, so they are the definitions' of that build.
 */
/** @type {import('esbuild').Plugin} */
const precompiledValidators = {
  name: 'precompiled-validators',
  setup(build) {
    let source;
    build.onStart(() => {
      source = undefined;
    });
    build.onLoad({ filter: /[\\/]src[\\/]core[\\/]contract[\\/]precompiled\.ts$/ }, async () => {
      source ??= validatorsSource();
      return { contents: await source, loader: 'js', resolveDir: ROOT };
    });
  },
};

async function validatorsSource() {
  const require = createRequire(import.meta.url);
  const Ajv = require('ajv').default;
  const standaloneCode = require('ajv/dist/standalone').default;
  const catalog = await loadCatalog();
  const ajv = new Ajv({ allErrors: false, useDefaults: true, strict: true, code: { source: true } });
  const names = {};
  for (const tool of catalog.TOOL_DEFINITIONS) {
    ajv.addSchema(tool.inputSchema, tool.name);
    names[tool.name] = tool.name;
  }
  const code = standaloneCode(ajv, names);
  return `const PRECOMPILED = (() => { const exports = {}; ${code}; return exports; })();\nmodule.exports = { PRECOMPILED };\n`;
}

/** @type {import('esbuild').BuildOptions} */
const shared = {
  absWorkingDir: ROOT,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  // jsonc-parser's main entry is a UMD module that loads its parts with a runtime require esbuild cannot follow; its
  // ES module build is the same code, bundled statically.
  // web-tree-sitter's ES module build finds Node's `require` through import.meta.url, which a CommonJS bundle does not
  // have; its CommonJS build is the same code.
  alias: {
    'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js',
    'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs',
  },
  plugins: [pdfjsBeside, precompiledValidators],
  // Only its .wasm files are read, from beside the bundle; unbundled code finds them through its package.json.
  external: ['@vscode/tree-sitter-wasm'],
};

/**
 * The two bins, dist/cli.js and dist/mcp.js: a few lines each (src/node/bin/compileCache.ts) that run the one bundle of
 * the runner and the server beside them from a V8 code cache. `outdir` is dist/ or the npm package's.
 */
export function binBuilds(outdir) {
  return ['agent-fs', 'agent-fs-mcp'].map((name) => ({
    ...shared,
    plugins: [pdfjsBeside],
    sourcemap: false,
    entryPoints: [`src/node/bin/${name}.ts`],
    outfile: `${outdir}/${name === 'agent-fs' ? 'cli' : 'mcp'}.js`,
    banner: { js: '#!/usr/bin/env node' },
  }));
}

/**
 * The extension for VS Code's web worker extension host (vscode.dev, github.dev), package.json's `browser` entry:
 * the same core and editor code without src/node, for a browser, so a Node built-in that slipped in fails the build
 * here rather than the extension in a browser.
 */
const browserBuild = {
  ...shared,
  platform: 'browser',
  target: 'es2022',
  mainFields: ['browser', 'module', 'main'],
  entryPoints: ['src/extension.web.ts'],
  outfile: 'dist/web.js',
  external: ['vscode', ...shared.external],
};

const builds = [
  { ...shared, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode', ...shared.external] },
  browserBuild,
  { ...shared, entryPoints: ['src/node/bin/package.ts'], outfile: 'dist/agent-fs.js' },
  ...binBuilds('dist'),
];

/**
 * The npm package's dist/: the runner and the server share almost all their code, so they are bundled once, minified,
 * into `directory`/agent-fs.js (exporting runMcpServer and runRunner) as in dist/, with the two bins and pdf.js's two
 * modules beside it where their imports look for them. Two bundles would ship that code twice.
 */
export async function buildPackageBundle(directory) {
  await esbuild.build({
    ...shared,
    minify: true,
    sourcemap: false,
    entryPoints: ['src/node/bin/package.ts'],
    outfile: `${directory}/agent-fs.js`,
  });
  for (const bin of binBuilds(directory)) await esbuild.build({ ...bin, minify: true });
  copyPdfjs(directory);
  await copyGrammars(directory);
}

/**
 * Bundles the tool list in memory and runs it: the tool definitions, the manifest's tool entries, the README's
 * tables, and the text the MCP server describes each tool with.
 */
export async function loadCatalog() {
  const { outputFiles } = await esbuild.build({
    ...shared,
    // Its own validators are not needed, and would be made from this very catalog.
    plugins: [pdfjsBeside],
    minify: false,
    sourcemap: false,
    stdin: {
      contents: [
        "export * from './src/core/tools/index';",
        "export { rewriteReadme } from './src/core/catalog/readmeTables';",
        "export { mcpNaming, renderText } from './src/core/naming';",
        "export { isGeneratedStringKey } from './src/core/catalog/manifest';",
        "export { rewriteAgentTools } from './src/core/catalog/agent';",
        "export { toolSetsFile } from './src/core/catalog/toolSets';",
        "export { GRAMMAR_FILES } from './src/core/symbols/languages';",
      ].join(' '),
      resolveDir: ROOT,
      loader: 'ts',
    },
    write: false,
    outfile: 'manifest.js',
  });
  const module = { exports: {} };
  new Function('module', 'exports', outputFiles[0].text)(module, module.exports);
  return module.exports;
}

/** Rewrites package.json and README.md where what they hold of the tool definitions changed. */
async function writeManifestTools() {
  const catalog = await loadCatalog();
  const text = readFileSync('package.json', 'utf8');
  const manifest = JSON.parse(text);
  manifest.contributes.languageModelTools = catalog.languageModelTools();
  manifest.contributes.languageModelToolSets = catalog.languageModelToolSets();
  const generated = `${JSON.stringify(manifest, null, 2)}\n`;
  if (generated !== text) {
    writeFileSync('package.json', generated);
    console.log('package.json: contributes.languageModelTools and languageModelToolSets regenerated from src/core/tools');
  }
  // The English of the generated entries' %keys%; the strings written by hand stay as they are, first.
  const nlsText = readFileSync('package.nls.json', 'utf8');
  const strings = catalog.generatedManifestStrings();
  const kept = Object.entries(JSON.parse(nlsText)).filter(([key]) => !catalog.isGeneratedStringKey(key));
  const nls = `${JSON.stringify({ ...Object.fromEntries(kept), ...strings }, null, 2)}\n`;
  if (nls !== nlsText) {
    writeFileSync('package.nls.json', nls);
    console.log("package.nls.json: the tools' and tool sets' strings regenerated from src/core/tools");
  }
  const agentText = readFileSync(AGENT_FILE, 'utf8');
  const agent = catalog.rewriteAgentTools(agentText, catalog.TOOL_DEFINITIONS);
  if (agent !== agentText) {
    writeFileSync(AGENT_FILE, agent);
    console.log(`${AGENT_FILE}: its Agent FS tools regenerated from src/core/tools`);
  }
  const toolSets = `${catalog.toolSetsFile(catalog.TOOL_DEFINITIONS)}\n`;
  if (!existsSync(TOOL_SETS_FILE) || readFileSync(TOOL_SETS_FILE, 'utf8') !== toolSets) {
    writeFileSync(TOOL_SETS_FILE, toolSets);
    console.log(`${TOOL_SETS_FILE}: the tool sets regenerated from src/core/tools`);
  }
  const readme = readFileSync('README.md', 'utf8');
  const tables = catalog.rewriteReadme(readme, catalog.TOOL_DEFINITIONS);
  if (tables !== readme) {
    writeFileSync('README.md', tables);
    console.log('README.md: the tool and error-code tables regenerated from src/core');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await writeManifestTools();
    copyPdfjs();
    await copyGrammars();
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
}
