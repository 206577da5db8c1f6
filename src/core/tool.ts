import { CancelledError, type ErrorCode } from './errors';
import type { PathResolver, Workspace } from './root';

/** How much a tool can change: decides read-only/untrusted refusals and whether confirmation is considered. */
export type ToolEffect = 'read' | 'write' | 'destructive';

/** Settings normalised once into a typed object with defaults (src/vscode/settings.ts, src/node/cli.ts). */
export interface Policy {
  readonly readOnly: boolean;
  readonly trusted: boolean;
  readonly confirmDestructive: boolean;
}

export const DEFAULT_POLICY: Policy = { readOnly: false, trusted: true, confirmDestructive: true };

/** Everything one call may use. Built per call; tools keep no state between calls. */
export interface ToolContext {
  readonly workspace: Workspace;
  readonly paths: PathResolver;
  readonly policy: Policy;
  /** True once the caller cancelled; tools check it between steps via `throwIfCancelled`. */
  readonly isCancelled: () => boolean;
}

export function throwIfCancelled(context: Pick<ToolContext, 'isCancelled'>): void {
  if (context.isCancelled()) throw new CancelledError();
}

/** What the editor shows before and while a tool runs (`prepareInvocation`). */
export interface Preparation {
  /** Present tense, names the path: "Deleting notes/a.md". */
  readonly invocationMessage: string;
  /** Shown before a destructive step; `undefined` when nothing is lost. Markdown allowed in `message`. */
  readonly confirmation?: { readonly title: string; readonly message: string };
}

export interface ToolDefinition<Input = Record<string, unknown>> {
  /** The bare operation name, as in the envelope; registered as `agentfs_<name>`. */
  readonly name: string;
  readonly effect: ToolEffect;
  /** The code an unexpected I/O failure is reported with (seed 000's READ_FAILED, WRITE_FAILED, …). */
  readonly failureCode: ErrorCode;
  /** The input's parameter names; a unit test checks them against the manifest's schema. */
  readonly parameters: readonly (keyof Input & string)[];
  /** No side effects; may stat to say exactly what would be lost. Input has passed schema validation. */
  prepare(input: Input, context: ToolContext): Promise<Preparation>;
  /** Returns the envelope's `data`, or throws a ToolError. Input has passed schema validation. */
  run(input: Input, context: ToolContext): Promise<unknown>;
}

/** Erases a definition's input type so definitions with different inputs fit in one list. */
export type AnyToolDefinition = ToolDefinition<never>;

export function defineTool<Input>(definition: ToolDefinition<Input>): AnyToolDefinition {
  return definition;
}
