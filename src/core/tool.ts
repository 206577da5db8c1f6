import { CancelledError, type ErrorCode } from './errors';
import type { HistoryStore } from './history/store';
import type { ConfinedPath, PathResolver, PathSlot, Workspace } from './root';
import type { ContentSearcher } from './search/searcher';
import type { Policy } from './settings';
import { inputValidator } from './validation';

/** How much a tool can change: decides read-only/untrusted refusals and whether confirmation is considered. */
export type ToolEffect = 'read' | 'write' | 'destructive';

/**
 * What the editor knows about open documents. Optional: the runner has no editors. Paths are the core's absolute
 * paths (the adapter's URI path).
 */
export interface EditorState {
  /** Whether a document for this path is open with unsaved changes. */
  isDirty(absolutePath: string): boolean;
}

/** Facts about the host that only it knows, reported by workspace_info. */
export interface HostInfo {
  /** 'vscode' or 'runner'. */
  readonly kind: string;
  /** The host's own version (VS Code's, or Node's for the runner). */
  readonly version?: string;
  /** The base directory as the user gave it (agentFs.baseDirectory, the picked folder, --root); '' for the whole folder. */
  readonly baseDirectoryAsGiven: string;
  /** The open workspace folders, before agentFs.baseDirectory narrows them. */
  readonly workspaceFolders: readonly { readonly name: string; readonly path: string }[];
}

/** Everything one call may use. Built per call; tools keep no state between calls. */
export interface ToolContext {
  readonly workspace: Workspace;
  readonly paths: PathResolver;
  readonly policy: Policy;
  /** Open editors, where there are any; mutating tools refuse a dirty one (FILE_DIRTY_IN_EDITOR). */
  readonly editors?: EditorState;
  /** A fast searcher over the local disk (ripgrep), where there is one; search_content falls back to a scan. */
  readonly contentSearcher?: ContentSearcher;
  /** Where the tools run, for workspace_info. */
  readonly host?: HostInfo;
  /** The operation history, where the session keeps one (history/store.ts); the history tools read and undo it. */
  readonly history?: HistoryStore;
  /** True once the caller cancelled; tools check it between steps via `throwIfCancelled`. */
  readonly isCancelled: () => boolean;
  /** Told how far a long call has got, where the host shows progress (the MCP server); absent elsewhere. */
  readonly progress?: (progress: Progress) => void;
}

export function throwIfCancelled(context: Pick<ToolContext, 'isCancelled'>): void {
  if (context.isCancelled()) throw new CancelledError();
}

/** How far one phase of a long call has got: `done` of `total` (when known) `unit` ("files copied"). */
export interface Progress {
  readonly done: number;
  readonly total?: number;
  readonly unit: string;
}

/** Reports progress where the host listens; cheap enough to call at every step (the host throttles). */
export function reportProgress(context: Pick<ToolContext, 'progress'>, done: number, total: number | undefined, unit: string): void {
  context.progress?.(total === undefined ? { done, unit } : { done, total, unit });
}

/** What the editor shows before and while a tool runs (`prepareInvocation`). */
export interface Preparation {
  /** Present tense, names the path: "Deleting notes/a.md". */
  readonly invocationMessage: string;
  /** Shown before a destructive step; `undefined` when nothing is lost. Markdown allowed in `message`. */
  readonly confirmation?: { readonly title: string; readonly message: string };
}

/** Codicon names (without `$()`), as VS Code's product icons: https://code.visualstudio.com/api/references/icons-in-labels. */
export type Codicon = string;

/** The JSON Schema keywords a tool parameter uses; ajv (strict) rejects any keyword it does not know. */
export interface ParameterSchema {
  readonly type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  readonly description?: string;
  readonly enum?: readonly (string | number | boolean)[];
  readonly items?: ParameterSchema;
  readonly default?: unknown;
  readonly [keyword: string]: unknown;
}

/**
 * A tool's input schema: a JSON Schema object written as a `const` literal, so that `InputOf` derives the input type
 * from it and a run() that reads a parameter the schema lacks, or with another type, fails the type check.
 */
export interface InputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, ParameterSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
  readonly [keyword: string]: unknown;
}

/** The TypeScript type of one parameter's value. */
export type ValueOf<Parameter> = Parameter extends { readonly enum: readonly (infer Value)[] }
  ? Value
  : Parameter extends { readonly type: 'string' }
    ? string
    : Parameter extends { readonly type: 'integer' | 'number' }
      ? number
      : Parameter extends { readonly type: 'boolean' }
        ? boolean
        : Parameter extends { readonly type: 'array'; readonly items: infer Item }
          ? ValueOf<Item>[]
          : unknown;

/**
 * The parameters always present once validated: the required ones, and those with a `default` (validation fills
 * defaults in, ajv's `useDefaults`).
 */
type PresentOf<Schema extends InputSchema> =
  | (Schema['required'] extends readonly (infer Name)[] ? Name : never)
  | { [Name in keyof Schema['properties']]: Schema['properties'][Name] extends { readonly default: unknown } ? Name : never }[keyof Schema['properties']];

type Flatten<T> = { [Key in keyof T]: T[Key] };

/** The input `prepare` and `run` receive: validated against the schema, defaults filled in. */
export type InputOf<Schema extends InputSchema> = Flatten<
  { [Name in keyof Schema['properties'] & PresentOf<Schema>]: ValueOf<Schema['properties'][Name]> } & {
    [Name in Exclude<keyof Schema['properties'], PresentOf<Schema>>]?: ValueOf<Schema['properties'][Name]>;
  }
>;

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
  /** The code an unexpected I/O failure is reported with (seed 000's READ_FAILED, WRITE_FAILED, …). */
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
