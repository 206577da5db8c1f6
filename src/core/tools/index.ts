/**
 * Every operation, listed explicitly. Adding a tool: one file in this folder and one line here; its manifest entry
 * in package.json is generated from the definition (`npm run build`; a unit test fails while it is stale).
 *
 * Other hosts (the runner, an MCP server) list and call tools through TOOL_DEFINITIONS: each gives the operation
 * `name`, `title`, `modelDescription`, `inputSchema` (a JSON Schema object), `effect` (read / write), `additive`
 * and `idempotent`, and `accept(input)` validates an input; the pipeline then binds a call to it (tool.ts).
 */
import { manifestEntry, type ManifestTool, toolStrings } from '../catalog/manifest';
import { type ManifestToolSet, manifestToolSets, TOOL_SETS, toolSetDescriptionKey } from '../catalog/toolSets';
import { TOOL_NAMES, type ToolName } from '../naming';
import type { Tool } from '../tool';
import { copyDirectory } from './copyDirectory';
import { copyFile } from './copyFile';
import { createDirectory } from './createDirectory';
import { deleteDirectory } from './deleteDirectory';
import { deleteFile } from './deleteFile';
import { findFile } from './findFile';
import { historyGet } from './historyGet';
import { historyList } from './historyList';
import { listFiles } from './listFiles';
import { moveDirectory } from './moveDirectory';
import { moveFile } from './moveFile';
import { pathExists } from './pathExists';
import { readFile } from './readFile';
import { undoLast } from './undoLast';
import { undoOperation } from './undoOperation';
import { writeFile } from './writeFile';
import { createFile } from './createFile';
import { editFile } from './editFile';
import { editNotebook } from './editNotebook';
import { replaceLines } from './replaceLines';
import { insertLines } from './insertLines';
import { deleteLines } from './deleteLines';
import { applyPatch } from './applyPatch';
import { replaceInFiles } from './replaceInFiles';
import { readManyFiles } from './readManyFiles';
import { listDirectory } from './listDirectory';
import { directoryTree } from './directoryTree';
import { fileInfo } from './fileInfo';
import { searchFiles } from './searchFiles';
import { searchContent } from './searchContent';
import { workspaceInfo } from './workspaceInfo';
import { readOutline } from './readOutline';
import { editSymbol } from './editSymbol';
import { findReferences } from './findReferences';

/** A tool whose name's type is its own name. */
type NamedTool<Name extends ToolName> = Tool & { readonly name: Name };

/** Every tool by its name: the compiler holds this list to TOOL_NAMES, and each entry to its own name. */
const BY_NAME: { readonly [Name in ToolName]: NamedTool<Name> } = {
  read_file: readFile,
  write_file: writeFile,
  delete_file: deleteFile,
  copy_file: copyFile,
  move_file: moveFile,
  create_directory: createDirectory,
  delete_directory: deleteDirectory,
  copy_directory: copyDirectory,
  move_directory: moveDirectory,
  list_files: listFiles,
  path_exists: pathExists,
  find_file: findFile,
  read_many_files: readManyFiles,
  read_outline: readOutline,
  list_directory: listDirectory,
  directory_tree: directoryTree,
  file_info: fileInfo,
  search_files: searchFiles,
  search_content: searchContent,
  find_references: findReferences,
  workspace_info: workspaceInfo,
  create_file: createFile,
  edit_file: editFile,
  replace_lines: replaceLines,
  insert_lines: insertLines,
  delete_lines: deleteLines,
  apply_patch: applyPatch,
  replace_in_files: replaceInFiles,
  edit_symbol: editSymbol,
  history_list: historyList,
  history_get: historyGet,
  undo_operation: undoOperation,
  undo_last: undoLast,
  edit_notebook: editNotebook,
};

/** The tools in TOOL_NAMES' order (the manifest's, the MCP server's list). */
export const TOOL_DEFINITIONS: readonly Tool[] = TOOL_NAMES.map((name) => BY_NAME[name]);

export function findTool(operation: string): Tool | undefined {
  return TOOL_DEFINITIONS.find((tool) => tool.name === operation);
}

/** package.json's `contributes.languageModelTools`, as esbuild.mjs writes it. */
export function languageModelTools(): ManifestTool[] {
  return TOOL_DEFINITIONS.map(manifestEntry);
}

/** package.json's `contributes.languageModelToolSets`, as esbuild.mjs writes it. */
export function languageModelToolSets(): ManifestToolSet[] {
  return manifestToolSets(TOOL_DEFINITIONS);
}

/**
 * The English strings the manifest's generated entries name as %key%: each tool's title and one line, each set's
 * description. esbuild.mjs writes them into package.nls.json beside the strings written there by hand.
 */
export function generatedManifestStrings(): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const tool of TOOL_DEFINITIONS) Object.assign(strings, toolStrings(tool));
  for (const set of TOOL_SETS) strings[toolSetDescriptionKey(set)] = set.description;
  return strings;
}
