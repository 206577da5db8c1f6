/**
 * The custom agent's Agent FS tools (agents/agent-fs.agent.md), written from the definitions by esbuild.mjs like the
 * manifest, so a new tool is in the agent with the next build. Its `tools:` list names them twice over, because VS
 * Code names a tool that belongs to a contributed tool set by the set (`agentfs/agentfs_read_file`) and otherwise
 * by the extension (`agent-fs.agent-fs/agentfs_read_file`): the `agentfs` set, where VS Code lets the extension
 * contribute sets, and every tool by the extension's name, where it does not (stable builds refuse the
 * contribution). A name VS Code does not know is left out of the agent's tools, so either way the agent gets exactly
 * Agent FS's tools; test/unit/toolSets.test.ts holds the file to this.
 */
import { EDITOR_NAMING } from '../naming';
import { TOOL_SETS } from './toolSets';
import type { Tool } from '../tool';

/** The extension's identifier, `publisher.name`, as a full tool reference starts with it. */
const EXTENSION_ID = 'agent-fs.agent-fs';

/** The agent's Agent FS entries, in the order its `tools:` list holds them. */
function agentToolNames(tools: readonly Tool[]): string[] {
  const everything = TOOL_SETS[0]?.name ?? 'agentfs';
  return [everything, ...tools.map((tool) => `${EXTENSION_ID}/${EDITOR_NAMING.toolName(tool.name)}`)];
}

const ENTRY = /^ {2}- (\S+)$/;

/** Whether a `tools:` entry is one of Agent FS's (the set's name or a name under the extension's). */
function isAgentFsEntry(name: string): boolean {
  return name.startsWith(`${EXTENSION_ID}/`) || TOOL_SETS.some((set) => set.name === name);
}

/**
 * `text` (the agent file) with its Agent FS entries replaced by what the definitions give, where the first of them
 * stood; the entries of other tools stay as and where they are.
 */
export function rewriteAgentTools(text: string, tools: readonly Tool[]): string {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => isAgentFsEntry(ENTRY.exec(line)?.[1] ?? ''));
  if (first === -1) throw new Error('agents/agent-fs.agent.md: no Agent FS entry in its tools: list');
  const kept = lines.filter((line, index) => index < first || !isAgentFsEntry(ENTRY.exec(line)?.[1] ?? ''));
  kept.splice(first, 0, ...agentToolNames(tools).map((name) => `  - ${name}`));
  return kept.join('\n');
}
