/**
 * Where the parsers' WebAssembly comes from (symbols/engine.ts): the tree-sitter runtime and one grammar per language,
 * shipped as files beside the bundles. Reading a file is the host's business (node:fs in the runner and the MCP
 * server, workspace.fs over the extension's folder in the editor), so the core names a file and gets its bytes.
 */

export interface GrammarSource {
  /**
   * The bytes of one of the shipped WebAssembly files, by its name (`web-tree-sitter.wasm`, `tree-sitter-go.wasm`).
   * Called at most once per file per process: the engine keeps what it loaded.
   */
  read(file: string): Promise<Uint8Array>;
}
