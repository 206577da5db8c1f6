/**
 * The parsers' WebAssembly for the Node hosts (the runner, the MCP server): the files `esbuild.mjs` copies into
 * `grammars/` beside the bundle (dist/, the npm package's dist/, the MCP Bundle's server/), read on first use. Where
 * the code runs unbundled (the unit tests, the benchmarks compiled by tsc) they are read from the two packages that
 * ship them, web-tree-sitter (the runtime) and @vscode/tree-sitter-wasm (the grammars).
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as nodePath from 'node:path';
import type { GrammarSource } from '../../core/ports/grammars';

const RUNTIME = 'web-tree-sitter.wasm';

/** Where a shipped file is when no grammars folder lies beside the code: in its package. */
function fromPackage(file: string): string {
  // Not a literal: the bundles alias `web-tree-sitter` to its CommonJS file (esbuild.mjs), which has no subpaths.
  if (file === RUNTIME) return require.resolve(['web-tree-sitter', RUNTIME].join('/'));
  return nodePath.join(nodePath.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm', file);
}

export function nodeGrammarSource(directory = nodePath.join(__dirname, 'grammars')): GrammarSource {
  // Looked at on the first read, not when a session is made: a process that never parses touches nothing here.
  let beside: boolean | undefined;
  return {
    read: async (file) => {
      beside ??= existsSync(directory);
      return new Uint8Array(await readFile(beside ? nodePath.join(directory, file) : fromPackage(file)));
    },
  };
}
