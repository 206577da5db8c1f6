/**
 * How a host names the tools, and the facts about it that text depends on. The core writes each description,
 * error message and confirmation once, host-neutral: `toolRef('read_many_files')` where it names a tool, and
 * `onlyWhere('trash', '…')` for a phrase true only in some hosts. Each host renders that text with its own naming
 * (`renderText`): `agentfs_read_many_files` in the editor, where tools are registered under a prefix, and
 * `read_many_files` over MCP and in the runner; "to the trash where possible" only in the editor, whose port has a
 * trash. So a model is never told a name it cannot call, nor a promise the host does not keep.
 *
 * Where the rendering happens: the manifest and the definition budget render with EDITOR_NAMING (manifest.ts), the
 * MCP server its tool list with its own, and the pipeline every message it answers with the session's (invoke.ts).
 * test/unit/naming.test.ts fails on a reference to a tool a host does not have, and on a tool name written by hand.
 */

/**
 * Every operation's name, in the order the tools are listed: the one list the compiler knows them by. A definition
 * names itself with one (defineTool), text refers to one (toolRef), and tools/index.ts lists exactly these.
 */
export const TOOL_NAMES = [
  'read_file',
  'write_file',
  'delete_file',
  'copy_file',
  'move_file',
  'create_directory',
  'delete_directory',
  'copy_directory',
  'move_directory',
  'list_files',
  'path_exists',
  'find_file',
  'read_many_files',
  'read_outline',
  'list_directory',
  'directory_tree',
  'file_info',
  'search_files',
  'search_content',
  'find_references',
  'workspace_info',
  'create_file',
  'edit_file',
  'replace_lines',
  'insert_lines',
  'delete_lines',
  'apply_patch',
  'replace_in_files',
  'edit_symbol',
  'edit_notebook',
  'history_list',
  'history_get',
  'undo_operation',
  'undo_last',
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

/** The prefix the editor registers every tool under (`agentfs_read_file`); MCP clients and the runner use none. */
const TOOL_NAME_PREFIX = 'agentfs_';

/** The facts about a host that a description or message may depend on. */
export type HostFact = 'trash' | 'confirms';

export interface HostNaming {
  /** The name a model calls `operation` by in this host. */
  toolName(this: void, operation: string): string;
  /** Deletes go to a trash where the file system has one (the editor's; node:fs has none). */
  readonly trash: boolean;
  /** A call that deletes or replaces something is put to the person first. */
  readonly confirms: boolean;
}

export function toolNameOf(operation: string): string {
  return TOOL_NAME_PREFIX + operation;
}

export function operationOf(toolName: string): string {
  return toolName.startsWith(TOOL_NAME_PREFIX) ? toolName.slice(TOOL_NAME_PREFIX.length) : toolName;
}

/** VS Code: tools registered as `agentfs_<operation>`, deletes to the trash, Agent FS's confirmation cards. */
export const EDITOR_NAMING: HostNaming = { toolName: toolNameOf, trash: true, confirms: true };

/** The runner: bare names, no trash, no confirmation (whoever runs it decides). */
export const RUNNER_NAMING: HostNaming = { toolName: (operation) => operation, trash: false, confirms: false };

/** The MCP server: bare names, no trash; it asks the person unless started with `--confirm never`. */
export function mcpNaming(confirms: boolean): HostNaming {
  return { toolName: (operation) => operation, trash: false, confirms };
}

// Private-use characters: they never occur in what the core writes, so a marker cannot be mistaken for text.
const OPEN_TOOL = '\uE000';
const OPEN_FACT = '\uE002';
const CLOSE = '\uE001';

const TOOL_MARKER = /\uE000([a-z_]+)\uE001/g;
const FACT_MARKER = /\uE002(trash|confirms):([^\uE000\uE001\uE002]*)\uE001/g;

/** A reference to the tool `operation`, rendered as the host names it. */
export function toolRef(operation: ToolName): string {
  return `${OPEN_TOOL}${operation}${CLOSE}`;
}

/** `text` where the host has `fact`, nothing elsewhere. It may not hold a tool reference. */
export function onlyWhere(fact: HostFact, text: string): string {
  return `${OPEN_FACT}${fact}:${text}${CLOSE}`;
}

/** The operations `text` refers to through `toolRef`, in order (for the tests). */
export function referencedTools(text: string): string[] {
  return [...text.matchAll(TOOL_MARKER)].map((match) => match[1] ?? '');
}

/** Whether any marker is left in `text`: rendered text has none. */
export function hasMarkers(text: string): boolean {
  return /[\uE000\uE001\uE002]/.test(text);
}

/** The text as `naming`'s host says it. */
export function renderText(text: string, naming: HostNaming): string {
  if (!hasMarkers(text)) return text;
  return text
    .replace(FACT_MARKER, (_marker, fact: HostFact, phrase: string) => (naming[fact] ? phrase : ''))
    .replace(TOOL_MARKER, (_marker, operation: string) => naming.toolName(operation));
}
