import { CancelledError, type ErrorCode } from './errors';
import type { HistoryStore } from './history/store';
import type { ConfinedPath, PathResolver, Workspace } from './root';
import type { ContentSearcher } from './search/searcher';

/** How much a tool can change: decides read-only/untrusted refusals and whether confirmation is considered. */
export type ToolEffect = 'read' | 'write' | 'destructive';

/** Settings normalised once into a typed object with defaults (src/vscode/settings.ts, src/node/cli.ts). */
export interface Policy {
  readonly readOnly: boolean;
  readonly trusted: boolean;
  readonly confirmDestructive: boolean;
  /** Globs (policy.ts) every mutating tool refuses with SENSITIVE_PATH_REFUSED. */
  readonly protectedPaths: readonly string[];
  /** Globs (policy.ts) kept out of reads, listings and searches too. */
  readonly hiddenPaths: readonly string[];
  /** An edit adding plus removing more lines than this asks for confirmation with its diff. */
  readonly confirmEditsOverLines: number;
  /** agentFs.maxReadBytes: the most file bytes one read call returns (read_file, read_many_files). */
  readonly maxReadBytes: number;
  /**
   * Globs (ignore.ts semantics) the listing and search tools skip unless `include_ignored`: VS Code's files.exclude
   * (patterns whose value is true) plus agentFs.exclude. Unlike hiddenPaths they only tidy results; reads still work.
   */
  readonly exclude: readonly string[];
  /** VS Code's search.exclude (patterns whose value is true): skipped by search_files and search_content only. */
  readonly searchExclude: readonly string[];
  /** How this host names the knobs its refusals point at. */
  readonly knobs: PolicyKnobs;
}

/**
 * What a person changes to lift a limit, in the host's own words: the editor names its settings, the runner and
 * the MCP server their flags. Refusal messages point at these so the advice fits where the call came from; the
 * machine-readable `details` keep the setting keys whatever the host.
 */
export interface PolicyKnobs {
  /** Completes "Agent FS is read-only (…)". */
  readonly readOnly: string;
  /** Completes "above the cap of N bytes (…)". */
  readonly maxReadBytes: string;
  /** Completes "it matches PATTERN in …". */
  readonly protectedPaths: string;
  readonly hiddenPaths: string;
  /** Completes "Ask the user to do this themselves; …". */
  readonly pathRuleRemedy: string;
}

export const EDITOR_KNOBS: PolicyKnobs = {
  readOnly: 'setting agentFs.readOnly',
  maxReadBytes: 'setting agentFs.maxReadBytes',
  protectedPaths: 'the setting agentFs.protectedPaths',
  hiddenPaths: 'the setting agentFs.hiddenPaths',
  pathRuleRemedy: 'only the user can change these settings, in their user settings',
};

/** Credential-shaped and editor-configuration paths no tool writes unless the user says otherwise (policy.ts). */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.env',
  '.env.*',
  '*.pem',
  '*.key',
  'id_rsa*',
  'id_ed25519*',
  '.ssh/**',
  '.npmrc',
  '.git/**',
  '*.code-workspace',
  '.vscode/*.json',
];

/** Secrets no tool reads, lists or searches either. */
export const DEFAULT_HIDDEN_PATHS: readonly string[] = ['.env', '.env.*', '*.pem', '*.key', 'id_rsa*', 'id_ed25519*'];

/**
 * Edits that add plus remove more lines than this are confirmed with their diff. 20 lines is about one screen of
 * diff in the confirmation dialog: small enough that a rewritten function is shown, large enough that routine
 * one-line fixes run without a prompt.
 */
export const DEFAULT_CONFIRM_EDITS_OVER_LINES = 20;

/** 256 KiB: a few thousand lines of code, a fair share of a model's context for one read. */
export const DEFAULT_MAX_READ_BYTES = 256 * 1024;

export const DEFAULT_POLICY: Policy = {
  readOnly: false,
  trusted: true,
  confirmDestructive: true,
  protectedPaths: DEFAULT_PROTECTED_PATHS,
  hiddenPaths: DEFAULT_HIDDEN_PATHS,
  confirmEditsOverLines: DEFAULT_CONFIRM_EDITS_OVER_LINES,
  maxReadBytes: DEFAULT_MAX_READ_BYTES,
  exclude: [],
  searchExclude: [],
  knobs: EDITOR_KNOBS,
};

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
  /**
   * The paths a mutating call may change, resolved as `run` resolves them, so history can record their before and
   * after states (history/record.ts). Omit it when the path parameters (file_name, path, directory_name,
   * directory_path, source_path, destination_path) are exactly those paths.
   */
  affects?(input: Input, context: ToolContext): Promise<readonly ConfinedPath[]>;
}

/** Erases a definition's input type so definitions with different inputs fit in one list. */
export type AnyToolDefinition = ToolDefinition<never>;

export function defineTool<Input>(definition: ToolDefinition<Input>): AnyToolDefinition {
  return definition;
}
