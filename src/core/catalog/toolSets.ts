/**
 * The tool sets a person turns on, off or references with `#` as one: `agentfs` with every tool, and three parts of
 * it for someone who wants less in every request (reading, editing, history). Membership follows from each tool's
 * definition (its `effect` and its `history` tag), never from a list, so a new tool lands in its sets with the next
 * build. package.json's `contributes.languageModelToolSets`, the sample tool sets file docs/agentfs.toolsets.jsonc
 * and the custom agent's tool list are all written from here (esbuild.mjs), and test/unit/toolSets.test.ts and
 * readme.test.ts fail while one is stale.
 */
import { EDITOR_NAMING } from '../naming';
import type { Tool } from '../tool';

export interface ToolSetSpec {
  /** What `#` references and what a tool list names: `agentfs`, `agentfs-read`, … */
  readonly name: string;
  /** A codicon, without `$()`. */
  readonly icon: string;
  /** English, for people (the manifest's entry is a %key% of package.nls.json). */
  readonly description: string;
  readonly holds: (tool: Tool) => boolean;
}

const isHistory = (tool: Tool): boolean => tool.tags.includes('history');

/** The sets, widest first. Every tool is in `agentfs` and in exactly one of the others. */
export const TOOL_SETS: readonly ToolSetSpec[] = [
  {
    name: 'agentfs',
    icon: 'file-submodule',
    description: 'Agent FS: every file tool, confined, confirmed and undoable',
    holds: () => true,
  },
  {
    name: 'agentfs-read',
    icon: 'book',
    description: 'Agent FS: read, list and search files (changes nothing)',
    holds: (tool) => tool.effect === 'read' && !isHistory(tool),
  },
  {
    name: 'agentfs-edit',
    icon: 'edit',
    description: 'Agent FS: create, edit, copy, move and delete files',
    holds: (tool) => tool.effect !== 'read' && !isHistory(tool),
  },
  { name: 'agentfs-history', icon: 'history', description: 'Agent FS: review and undo its changes', holds: isHistory },
];

/** The editor's names of the tools `set` holds, in the tools' order. */
function toolSetMembers(set: ToolSetSpec, tools: readonly Tool[]): string[] {
  return tools.filter(set.holds).map((tool) => EDITOR_NAMING.toolName(tool.name));
}

/** The package.nls.json key of a set's description. */
export function toolSetDescriptionKey(set: ToolSetSpec): string {
  return `toolSet.${set.name}.description`;
}

export interface ManifestToolSet {
  readonly name: string;
  readonly description: string;
  readonly icon: string;
  readonly tools: readonly string[];
}

/** package.json's `contributes.languageModelToolSets`. */
export function manifestToolSets(tools: readonly Tool[]): ManifestToolSet[] {
  return TOOL_SETS.map((set) => ({
    name: set.name,
    description: `%${toolSetDescriptionKey(set)}%`,
    icon: `$(${set.icon})`,
    tools: toolSetMembers(set, tools),
  }));
}

/**
 * The sets as a tools file for "Chat: Configure Tool Sets" (`*.toolsets.jsonc`), for the VS Code builds where an
 * extension may not contribute sets itself: the parts only, since `agentfs` would be every tool again.
 */
export function toolSetsFile(tools: readonly Tool[]): string {
  const entries = TOOL_SETS.filter((set) => set.name !== 'agentfs').map(
    (set) =>
      `  ${JSON.stringify(set.name)}: { "description": ${JSON.stringify(set.description)}, "icon": ${JSON.stringify(set.icon)},\n` +
      `    "tools": ${JSON.stringify(toolSetMembers(set, tools)).replaceAll('","', '", "')} }`,
  );
  return `{\n${entries.join(',\n')}\n}`;
}
