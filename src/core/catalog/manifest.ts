/**
 * The manifest's view of the tools: `contributes.languageModelTools` in package.json is generated from the tool
 * definitions (src/core/tools/) by `languageModelTools()`, which esbuild.mjs runs on every build. VS Code reads
 * package.json statically, before any code runs, so the manifest has to be a file; generating it keeps the
 * definitions the one place a tool is written, and test/unit/manifest.test.ts fails while the committed file is stale.
 */
import manifest from '../../../package.json';
import { EDITOR_NAMING, type HostNaming, renderText, toolNameOf } from '../naming';
import type { JsonSchema } from '../contract/schema';
import type { Tool } from '../tool';

export type { JsonSchema } from '../contract/schema';
export { operationOf, toolNameOf } from '../naming';

export interface ManifestTool {
  readonly name: string;
  readonly toolReferenceName: string;
  readonly displayName: string;
  readonly modelDescription: string;
  readonly userDescription: string;
  readonly canBeReferencedInPrompt: boolean;
  readonly icon: string;
  readonly tags: readonly string[];
  readonly when?: string;
  readonly inputSchema: JsonSchema;
}

export const EXTENSION_VERSION: string = manifest.version;

/** Hides a tool that changes files where it would only be refused (READ_ONLY_MODE, WORKSPACE_UNTRUSTED). */
const MUTATING_WHEN = '!config.agentFs.readOnly && isWorkspaceTrusted';

/**
 * What one tool's definition costs a model, in bytes: its name, model description and input schema as JSON, the
 * part of a tool list every request carries (the editor's languageModelTools and MCP's tools/list alike), as the
 * editor renders it (its names are the longer ones).
 */
export function definitionBytes(
  tool: { readonly name: string; readonly modelDescription: string; readonly inputSchema: unknown },
  naming: HostNaming = EDITOR_NAMING,
): number {
  return new TextEncoder().encode(
    JSON.stringify({
      name: naming.toolName(tool.name),
      description: renderText(tool.modelDescription, naming),
      inputSchema: tool.inputSchema,
    }),
  ).length;
}

/**
 * The package.nls.json keys of what a person reads of a tool (its title and its one line in pickers), which VS Code
 * shows in the display language. What a model reads (the name, the model description, the schema) is written into
 * the manifest itself, so it stays English, byte for byte, whatever the language.
 */
function toolStringKeys(tool: Pick<Tool, 'name'>): { readonly displayName: string; readonly userDescription: string } {
  return { displayName: `tool.${tool.name}.displayName`, userDescription: `tool.${tool.name}.userDescription` };
}

/** Whether a package.nls.json key is one the build writes from the definitions (a tool's or a tool set's). */
export function isGeneratedStringKey(key: string): boolean {
  return /^(tool|toolSet)\./.test(key);
}

/** The English of those keys, as package.nls.json holds them. */
export function toolStrings(tool: Tool): Record<string, string> {
  const keys = toolStringKeys(tool);
  return { [keys.displayName]: tool.title, [keys.userDescription]: renderText(tool.userDescription, EDITOR_NAMING) };
}

/** One manifest entry, in the key order package.json keeps. */
export function manifestEntry(tool: Tool): ManifestTool {
  const name = toolNameOf(tool.name);
  const keys = toolStringKeys(tool);
  return {
    name,
    toolReferenceName: name,
    displayName: `%${keys.displayName}%`,
    modelDescription: renderText(tool.modelDescription, EDITOR_NAMING),
    userDescription: `%${keys.userDescription}%`,
    canBeReferencedInPrompt: true,
    icon: `$(${tool.icon})`,
    tags: ['agentfs', 'filesystem', ...tool.tags],
    ...(tool.effect === 'read' ? {} : { when: MUTATING_WHEN }),
    inputSchema: tool.inputSchema,
  };
}
