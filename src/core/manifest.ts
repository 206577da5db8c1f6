/**
 * package.json is the one copy of every tool's name, descriptions and input schema (DESIGN.md §6). The core
 * reads it from there (esbuild bundles the JSON) to validate inputs and to list tools in the runner.
 */
import manifest from '../../package.json';

export const TOOL_NAME_PREFIX = 'agentfs_';

export interface JsonSchema {
  readonly type?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly default?: unknown;
  readonly [keyword: string]: unknown;
}

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

export const MANIFEST_TOOLS: readonly ManifestTool[] = manifest.contributes.languageModelTools as unknown as readonly ManifestTool[];

export const EXTENSION_VERSION: string = manifest.version;

export function operationOf(toolName: string): string {
  return toolName.startsWith(TOOL_NAME_PREFIX) ? toolName.slice(TOOL_NAME_PREFIX.length) : toolName;
}

export function manifestToolFor(operation: string): ManifestTool | undefined {
  return MANIFEST_TOOLS.find((tool) => tool.name === TOOL_NAME_PREFIX + operation);
}
