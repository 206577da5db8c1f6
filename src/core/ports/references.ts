/**
 * The editor's language services as find_references sees them: VS Code's reference provider
 * (vscode.executeReferenceProvider), which knows what a name refers to. Hosts without one (the runner, the MCP
 * server) leave it out, and find_references falls back to whole-word matches marked approximate.
 */

/** One place a symbol is referred to: an absolute path as the core writes them, a 1-based line and column (UTF-16). */
export interface ReferenceLocation {
  readonly absolute: string;
  readonly line: number;
  readonly column: number;
}

export interface ReferenceProvider {
  /**
   * The references to the symbol whose name starts at `line`/`column` (1-based; the column in UTF-16 code units) of
   * the file at `absolute`, the declaration included; undefined where no language service answers for the file.
   */
  references(absolute: string, line: number, column: number): Promise<readonly ReferenceLocation[] | undefined>;
}
