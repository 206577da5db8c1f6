/**
 * The tool contract: what a definition in src/core/tools/ holds (ToolDefinition), and the erased `Tool` the
 * pipeline and the hosts handle, which validates an input against the definition's schema before binding a call.
 *
 * A call is bound in one order, the same for every tool, and that order decides which code a call with several
 * faults answers: the schema (INVALID_INPUT), then, in the pipeline, trust and read-only mode and the workspace, then
 * the declared caps (LIMIT_EXCEEDED), the tool's own checks of its input (`checkInput`), and last every path
 * parameter, resolved and confined in the order the definition lists them (confinement.ts). Only then do `prepare`, `run`
 * and `affects` see the call, with its paths resolved.
 *
 * Over 300 lines: one contract, the definition and its binding side by side, so that what a definition declares and
 * where the binding checks it are read together.
 */
import { type Cap, checkDeclaredCaps } from './contract/caps';
import type { ToolContext } from './context';
import type { WithImage } from './envelope';
import { type ErrorCode, ToolError } from './errors';
import type { ToolName } from './naming';
import {
  HOST_FIELDS,
  object,
  pipelineCodes,
  RECORDED_FIELDS,
  type ResultOf,
  type ResultSchema,
  type StrayFields,
} from './contract/results';
import { type ConfinedPath, OUTSIDE_CODE, type PathResolver, type PathSlot } from './confinement';
import type { Flatten, InputOf, InputSchema, PresentOf } from './contract/schema';
import { inputValidator } from './contract/validation';

/**
 * Whether a tool changes files. Every consumer asks exactly that (`effect !== 'read'`): a tool that writes is refused
 * in an untrusted workspace and in read-only mode, hidden by the manifest's `when` clause, recorded by history, and
 * offered for confirmation. Whether one call asks is its `prepare`'s answer, from what that call would lose.
 */
type ToolEffect = 'read' | 'write';

/**
 * One file of a change the editor shows before it is made (a multi-file diff): its text now and after the change,
 * read only when shown.
 */
export interface PreviewFile {
  readonly absolute: string;
  readonly display: string;
  texts(): Promise<{ readonly before: string; readonly after: string }>;
}

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
  /**
   * Every file the change touches, before and after, for a confirmation too large to read as one diff (a replacement
   * across files): the editor opens it beside the confirmation, so the person sees every change before answering.
   */
  readonly preview?: { readonly title: string; readonly files: readonly PreviewFile[] };
}

/** Codicon names (without `$()`), as VS Code's product icons: https://code.visualstudio.com/api/references/icons-in-labels. */
type Codicon = string;

/** The parameters that name a path, each with the slot whose *_OUTSIDE_BASE code it answers. */
export type PathParameters<Schema extends InputSchema> = { readonly [Name in keyof Schema['properties'] & string]?: PathSlot };

/** One path of an array parameter, resolved on its own: a refused one is reported beside the others, not for all. */
type PathEntry =
  | { readonly given: string; readonly path: ConfinedPath; readonly error?: undefined }
  | { readonly given: string; readonly path?: undefined; readonly error: ToolError };

/**
 * The path parameters as `prepare`, `run` and `affects` receive them: confined paths (absent only where the
 * parameter is optional and was not given; a `default` in the schema makes it always given), entries for an array.
 */
type PathsOf<Schema extends InputSchema, Paths> = Flatten<{
  readonly [Name in keyof Paths & keyof Schema['properties']]: Schema['properties'][Name] extends { readonly type: 'array' }
    ? readonly PathEntry[]
    : Name extends PresentOf<Schema>
      ? ConfinedPath
      : ConfinedPath | undefined;
}>;

/**
 * Everything about one tool, written once in its file under src/core/tools/: the manifest entry
 * (`contributes.languageModelTools`, generated from this by esbuild.mjs), the history's path list, the views' icons,
 * the runner's help and the MCP tool list are all derived from it.
 */
/** What `run` may return: the result its output schema describes, or that result beside an image (read_file). */
export type RunResult<Output extends ResultSchema> = ResultOf<Output> | WithImage<ResultOf<Output>>;

/** A definition whose `run` returns a field its output schema lacks gets a required property naming it: a type error. */
export type NoStrayFields<Returned, Output extends ResultSchema> = [StrayFields<Returned, ResultOf<Output>>] extends [never]
  ? unknown
  : { readonly 'result fields the outputSchema lacks': StrayFields<Returned, ResultOf<Output>> };

export interface ToolDefinition<
  Schema extends InputSchema = InputSchema,
  Paths extends PathParameters<Schema> = PathParameters<Schema>,
  Output extends ResultSchema = ResultSchema,
  Returned extends RunResult<Output> = RunResult<Output>,
> {
  /** The bare operation name, as in the envelope; registered as `agentfs_<name>` in the editor. */
  readonly name: ToolName;
  /** Title Case, shown to people (the manifest's displayName, MCP's title). */
  readonly title: string;
  /**
   * What a model reads to decide whether and how to call the tool. Other tools, and facts that differ by host, are
   * named through naming.ts (`toolRef`, `where`), which each host renders its own way.
   */
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
  /**
   * The tool reads every byte of what it replaces before changing anything, and awaits `context.beforeChange`
   * before its first change to the disk (and never changes anything otherwise). The history then takes the before
   * states at that moment, with the hashes of large files from the tool's own read (history/record.ts).
   */
  readonly announcesChanges?: boolean;
  readonly icon: Codicon;
  /** Manifest tags beyond the `agentfs` and `filesystem` every tool has. */
  readonly tags: readonly string[];
  /** The code an unexpected I/O failure is reported with (READ_FAILED, WRITE_FAILED, …). */
  readonly failureCode: ErrorCode;
  readonly inputSchema: Schema;
  /**
   * The parameters that name a path in the workspace (a string, or for `paths` an array of them), with the slot
   * whose *_OUTSIDE_BASE code the tool answers for a path outside the base. The pipeline resolves them before the
   * tool sees the call; history records them for a mutating call unless `affects` says otherwise; the path-case
   * tests run every case through every one of them.
   */
  readonly pathParameters: Paths & { readonly [Name in Exclude<keyof Paths, keyof Schema['properties']>]: never };
  /**
   * The envelope's `data` on success (results.ts): `run` returns exactly this shape, and the tests validate every
   * result against it. The pipeline adds the recorded-call fields (RECORDED_FIELDS) to the result of a tool that
   * changes files, the editor the problems the change caused (HOST_FIELDS); the schema the tool publishes
   * (`Tool.outputSchema`) has them.
   */
  readonly outputSchema: Output;
  /**
   * The codes the tool itself answers, besides those the pipeline answers for every tool of its kind (pipelineCodes
   * in results.ts: the schema, the workspace, the caps, the path parameters, trust, read-only, its failureCode).
   */
  readonly errors: readonly ErrorCode[];
  /** Caps on parameters (caps.ts), checked in this order before anything else the tool checks. */
  readonly caps?: { readonly [Name in keyof Schema['properties']]?: Cap };
  /**
   * Refusals that depend on the input alone (and the session's policy or history), made after the caps and before
   * any path is resolved, so a call answers them whatever its paths say. Throws a ToolError.
   */
  checkInput?(this: void, input: InputOf<Schema>, context: ToolContext): void;
  /** No side effects; may stat to say exactly what would be lost. */
  prepare(this: void, input: InputOf<Schema>, context: ToolContext, paths: PathsOf<Schema, Paths>): Promise<Preparation>;
  /** Returns the envelope's `data`, or throws a ToolError. */
  run(this: void, input: InputOf<Schema>, context: ToolContext, paths: PathsOf<Schema, Paths>): Promise<Returned>;
  /**
   * The paths a mutating call may change, as `run` finds them, so history can record their before and after states
   * (history/record.ts). Omit it when `pathParameters` name exactly those paths.
   */
  affects?(this: void, input: InputOf<Schema>, context: ToolContext, paths: PathsOf<Schema, Paths>): Promise<readonly ConfinedPath[]>;
}

/** One call of a tool, bound to a checked input and its resolved paths; what the pipeline (invoke.ts, history) runs. */
export interface ToolCall {
  /** The validated input with defaults filled in (a copy; the caller's object is never modified). */
  readonly input: Readonly<Record<string, unknown>>;
  prepare(context: ToolContext): Promise<Preparation>;
  run(context: ToolContext): Promise<unknown>;
  /** The paths the call may change, or undefined when they are exactly its path parameters. */
  affects(context: ToolContext): Promise<readonly ConfinedPath[]> | undefined;
}

/** An input that passed the schema, waiting for the call's context to be checked further and bound. */
interface AcceptedInput {
  /** The validated input with defaults filled in (a copy; the caller's object is never modified). */
  readonly input: Readonly<Record<string, unknown>>;
  /** Checks the caps and the tool's own input checks, then resolves every path parameter: the call, ready to run. */
  bind(context: ToolContext): Promise<ToolCall>;
}

/**
 * A tool with its input type erased, so tools with different inputs fit in one list. The type is not lost but
 * checked at the boundary: `accept` validates an input against the schema the type was derived from.
 */
export interface Tool extends Omit<ToolDefinition, 'prepare' | 'run' | 'affects' | 'checkInput' | 'pathParameters' | 'caps'> {
  readonly pathParameters: Readonly<Record<string, PathSlot>>;
  readonly caps: Readonly<Record<string, Cap>>;
  /** The envelope's `data` on success, with the recorded-call fields for a tool that changes files. */
  readonly outputSchema: ResultSchema;
  /** Every code a call of this tool can answer: its own and the pipeline's. */
  readonly errors: readonly ErrorCode[];
  /** Validates `input` against the schema (INVALID_INPUT naming the field). */
  accept(input: unknown): AcceptedInput;
}

/** A tool's one definition, bound; its name keeps its own type, for the index to hold it to (tools/index.ts). */
export function defineTool<
  const Name extends ToolName,
  const Schema extends InputSchema,
  const Paths extends PathParameters<Schema>,
  const Output extends ResultSchema,
  Returned extends RunResult<Output>,
>(
  definition: ToolDefinition<Schema, Paths, Output, Returned> & { readonly name: Name } & NoStrayFields<Returned, Output>,
): Tool & { readonly name: Name } {
  return { ...bindTool(definition, inputValidator(definition.name, definition.inputSchema)), name: definition.name };
}

/** The body of a definition, over its input type, which `validate` checks against the schema it was derived from. */
interface ToolBody<Input, Paths> extends Omit<ToolDefinition, 'prepare' | 'run' | 'affects' | 'checkInput' | 'pathParameters' | 'caps'> {
  readonly pathParameters: { readonly [name: string]: PathSlot | undefined };
  readonly caps?: { readonly [name: string]: Cap | undefined };
  checkInput?(this: void, input: Input, context: ToolContext): void;
  prepare(this: void, input: Input, context: ToolContext, paths: Paths): Promise<Preparation>;
  run(this: void, input: Input, context: ToolContext, paths: Paths): Promise<unknown>;
  affects?(this: void, input: Input, context: ToolContext, paths: Paths): Promise<readonly ConfinedPath[]>;
}

/**
 * The schema a tool publishes: its own, plus what is added to the result of a tool that changes files: the recorded-call
 * fields by the pipeline, the problems the change caused by the editor.
 */
function publishedSchema(definition: { readonly effect: 'read' | 'write'; readonly outputSchema: ResultSchema }): ResultSchema {
  const { outputSchema } = definition;
  if (definition.effect === 'read') return outputSchema;
  if (!('properties' in outputSchema)) throw new Error('A tool that changes files answers one shape: an object with its fields.');
  const withRecord = object({ ...outputSchema.properties, ...RECORDED_FIELDS, ...HOST_FIELDS });
  return outputSchema.description === undefined ? withRecord : { ...withRecord, description: outputSchema.description };
}

function definedEntries<Value>(record: { readonly [name: string]: Value | undefined }): Record<string, Value> {
  const defined: Record<string, Value> = {};
  for (const [name, value] of Object.entries(record)) if (value !== undefined) defined[name] = value;
  return defined;
}

/**
 * Resolves the path parameters of `input` in the order `slots` lists them: a single path that is refused refuses the
 * call (its code is the slot's); each path of an array is resolved on its own.
 */
async function resolvePaths(
  slots: Readonly<Record<string, PathSlot>>,
  input: Readonly<Record<string, unknown>>,
  resolver: PathResolver,
): Promise<Record<string, ConfinedPath | readonly PathEntry[] | undefined>> {
  const paths: Record<string, ConfinedPath | readonly PathEntry[] | undefined> = {};
  for (const [name, slot] of Object.entries(slots)) {
    const value = input[name];
    if (typeof value === 'string') paths[name] = await resolver.resolve(value, slot);
    else if (Array.isArray(value)) {
      paths[name] = await Promise.all(
        value.map(async (given: unknown): Promise<PathEntry> => {
          const text = String(given);
          try {
            return { given: text, path: await resolver.resolve(text, slot) };
          } catch (error) {
            if (error instanceof ToolError) return { given: text, error };
            throw error;
          }
        }),
      );
    }
  }
  return paths;
}

function bindTool<Input extends Readonly<Record<string, unknown>>, Paths>(
  definition: ToolBody<Input, Paths>,
  validate: (raw: unknown) => Input,
): Tool {
  const { prepare, run, affects, checkInput, pathParameters, caps, errors, ...rest } = definition;
  const slots = definedEntries(pathParameters);
  const declaredCaps = definedEntries(caps ?? {});
  const pathCodes = Object.values(slots).flatMap((slot): ErrorCode[] => [OUTSIDE_CODE[slot], 'SYMLINK_OUTSIDE_BASE']);
  const pipeline = pipelineCodes({ ...definition, pathCodes, capped: Object.keys(declaredCaps).length > 0 });
  return {
    ...rest,
    pathParameters: slots,
    caps: declaredCaps,
    outputSchema: publishedSchema(definition),
    errors: [...new Set([...pipeline, ...errors])],
    accept(raw) {
      const input = validate(raw);
      return {
        input,
        async bind(context) {
          checkDeclaredCaps(declaredCaps, input);
          checkInput?.(input, context);
          // The resolved values are typed by PathsOf from the same schema and slots: the one place they meet.
          const paths = (await resolvePaths(slots, input, context.paths)) as Paths;
          return {
            input,
            prepare: (callContext) => prepare(input, callContext, paths),
            run: (callContext) => run(input, callContext, paths),
            affects: (callContext) => affects?.(input, callContext, paths),
          };
        },
      };
    },
  };
}
