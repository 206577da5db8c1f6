/**
 * The tool contract: what a definition in src/core/tools/ holds (ToolDefinition), and the erased `Tool` the
 * pipeline and the hosts handle, which validates an input against the definition's schema before binding a call.
 */
import type { ToolContext } from './context';
import type { ErrorCode } from './errors';
import type { ConfinedPath, PathSlot } from './root';
import type { InputOf, InputSchema } from './schema';
import { inputValidator } from './validation';

/** How much a tool can change: decides read-only/untrusted refusals and whether confirmation is considered. */
export type ToolEffect = 'read' | 'write' | 'destructive';

/** What the editor shows before and while a tool runs (`prepareInvocation`). */
export interface Preparation {
  /** Present tense, names the path: "Deleting notes/a.md". */
  readonly invocationMessage: string;
  /** Shown before a destructive step; `undefined` when nothing is lost. Markdown allowed in `message`. */
  readonly confirmation?: { readonly title: string; readonly message: string };
  /**
   * Set when the call, as it stands, will be refused: `invocationMessage` then says so, and nothing is confirmed.
   * A refusal that only arises while the call runs is not known here.
   */
  readonly refusal?: { readonly code: ErrorCode; readonly message: string };
}

/** Codicon names (without `$()`), as VS Code's product icons: https://code.visualstudio.com/api/references/icons-in-labels. */
export type Codicon = string;

/**
 * Everything about one tool, written once in its file under src/core/tools/: the manifest entry
 * (`contributes.languageModelTools`, generated from this by esbuild.mjs), the history's path list, the views' icons,
 * the runner's help and the MCP tool list are all derived from it.
 */
export interface ToolDefinition<Schema extends InputSchema = InputSchema> {
  /** The bare operation name, as in the envelope; registered as `agentfs_<name>`. */
  readonly name: string;
  /** Title Case, shown to people (the manifest's displayName, MCP's title). */
  readonly title: string;
  /** What a model reads to decide whether and how to call the tool. */
  readonly modelDescription: string;
  /** One line for people, in tool pickers. */
  readonly userDescription: string;
  readonly effect: ToolEffect;
  /**
   * Repeating the same call with the same input leaves the workspace as the first call left it (MCP's
   * idempotentHint). Read tools are idempotent.
   */
  readonly idempotent: boolean;
  /**
   * The tool only adds: it refuses or leaves whatever already exists, so no call replaces or removes anything (MCP's
   * destructiveHint false). Absent: a tool that changes files may replace or remove what exists.
   */
  readonly additive?: boolean;
  readonly icon: Codicon;
  /** Manifest tags beyond the `agentfs` and `filesystem` every tool has. */
  readonly tags: readonly string[];
  /** The code an unexpected I/O failure is reported with (READ_FAILED, WRITE_FAILED, …). */
  readonly failureCode: ErrorCode;
  readonly inputSchema: Schema;
  /**
   * The parameters that name a path in the workspace (a string, or for `paths` an array of them), with the slot
   * whose *_OUTSIDE_BASE code the tool answers for a path outside the base. History records these paths for a
   * mutating call unless `affects` says otherwise; the path-case tests run every case through every one of them.
   */
  readonly pathParameters: { readonly [Name in keyof InputOf<Schema> & string]?: PathSlot };
  /** No side effects; may stat to say exactly what would be lost. */
  prepare(this: void, input: InputOf<Schema>, context: ToolContext): Promise<Preparation>;
  /** Returns the envelope's `data`, or throws a ToolError. */
  run(this: void, input: InputOf<Schema>, context: ToolContext): Promise<unknown>;
  /**
   * The paths a mutating call may change, resolved as `run` resolves them, so history can record their before and
   * after states (history/record.ts). Omit it when `pathParameters` name exactly those paths.
   */
  affects?(this: void, input: InputOf<Schema>, context: ToolContext): Promise<readonly ConfinedPath[]>;
}

/** One call of a tool, bound to an input that passed its schema; what the pipeline (invoke.ts, history) runs. */
export interface ToolCall {
  /** The validated input with defaults filled in (a copy; the caller's object is never modified). */
  readonly input: Readonly<Record<string, unknown>>;
  prepare(context: ToolContext): Promise<Preparation>;
  run(context: ToolContext): Promise<unknown>;
  /** The paths the call may change, or undefined when they are exactly its path parameters. */
  affects(context: ToolContext): Promise<readonly ConfinedPath[]> | undefined;
}

/**
 * A tool with its input type erased, so tools with different inputs fit in one list. The type is not lost but
 * checked at the boundary: `accept` validates an input against the schema the type was derived from.
 */
export interface Tool extends Omit<ToolDefinition, 'prepare' | 'run' | 'affects' | 'pathParameters'> {
  readonly pathParameters: Readonly<Record<string, PathSlot>>;
  /** Validates `input` against the schema (INVALID_INPUT naming the field) and binds a call to it. */
  accept(input: unknown): ToolCall;
}

export function defineTool<const Schema extends InputSchema>(definition: ToolDefinition<Schema>): Tool {
  return bindTool(definition, inputValidator(definition.name, definition.inputSchema));
}

/** The body of a definition, over its input type, which `validate` checks against the schema it was derived from. */
interface ToolBody<Input> extends Omit<ToolDefinition, 'prepare' | 'run' | 'affects' | 'pathParameters'> {
  readonly pathParameters: { readonly [name: string]: PathSlot | undefined };
  prepare(this: void, input: Input, context: ToolContext): Promise<Preparation>;
  run(this: void, input: Input, context: ToolContext): Promise<unknown>;
  affects?(this: void, input: Input, context: ToolContext): Promise<readonly ConfinedPath[]>;
}

function bindTool<Input extends Readonly<Record<string, unknown>>>(definition: ToolBody<Input>, validate: (raw: unknown) => Input): Tool {
  const { prepare, run, affects, pathParameters, ...rest } = definition;
  const slots: Record<string, PathSlot> = {};
  for (const [name, slot] of Object.entries(pathParameters)) if (slot !== undefined) slots[name] = slot;
  return {
    ...rest,
    pathParameters: slots,
    accept(raw) {
      const input = validate(raw);
      return {
        input,
        prepare: (context) => prepare(input, context),
        run: (context) => run(input, context),
        affects: (context) => affects?.(input, context),
      };
    },
  };
}
