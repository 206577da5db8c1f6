/**
 * The settings the core acts on: `Policy`, normalised once per call into a typed object (src/vscode/settings.ts from
 * VS Code's configuration, src/node/host/session.ts from the runner's flags), and the one table of their defaults, which
 * test/unit/manifest.test.ts checks against package.json's `contributes.configuration`.
 */

/**
 * How much the history keeps (agentFs.history.maxOperations, maxBytes and maxAgeDays; the runner's
 * --history-max-bytes). What goes, goes a whole session at a time, the oldest first (store.ts, `prune`).
 */
export interface HistoryLimits {
  /** Operations kept. */
  readonly maxOperations: number;
  /** Bytes of recorded content kept in all; an operation needing more than this is recorded without content. */
  readonly maxBytes: number;
  /** Sessions whose last change is older than this many days go; absent: the default. */
  readonly maxAgeDays?: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { maxOperations: 1000, maxBytes: 50 * 1024 * 1024, maxAgeDays: 30 };

/** Which sources count (the editor's search.useIgnoreFiles, search.useGlobalIgnoreFiles, search.useParentIgnoreFiles). */
export interface IgnoreFileSettings {
  /** .gitignore files and the repository's info/exclude; off: none of these sources counts. */
  readonly enabled: boolean;
  /** The user's global excludes file (core.excludesFile). */
  readonly global: boolean;
  /** .gitignore files above the root, up to the top of the repository's work tree. */
  readonly parents: boolean;
}

export const ALL_IGNORE_FILES: IgnoreFileSettings = { enabled: true, global: true, parents: true };

/**
 * How far a reply's "done" goes (agentFs.durability, --durability). `full`, the default: what the call changed is on
 * the disk before it replies, in the workspace and in the history, so a power cut after the reply loses none of it
 * (files/durable.ts, history/store.ts). `fast`: nothing is synced, for throwaway trees and tests; changes stay atomic
 * (never torn), but a power cut may take the last of them, or leave a new file empty on some file systems.
 */
export type Durability = 'full' | 'fast';

export const DURABILITIES: readonly Durability[] = ['full', 'fast'];

/** Settings normalised once into a typed object with defaults (src/vscode/settings.ts, src/node/runner/cli.ts). */
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
  /**
   * Which of git's ignore sources the listing and search tools honour (ignore/sources.ts): all of them unless the
   * editor's search.useIgnoreFiles, search.useGlobalIgnoreFiles or search.useParentIgnoreFiles is set to false.
   */
  readonly ignoreFiles: IgnoreFileSettings;
  /**
   * Files up to this many bytes are edited in memory, larger ones streamed (edit/textEdit.ts). Not a setting: a
   * limit of the implementation, which tests lower to run the streamed path over small files.
   */
  readonly editInMemoryBytes: number;
  /** Whether changes are synced to the disk before a call replies (Durability). */
  readonly durability: Durability;
  /** How this host words what a person changes to lift a limit, as its refusals name it. */
  readonly wording: PolicyWording;
}

/**
 * What a person changes to lift a limit, in the host's own words: the editor names its settings, the runner and
 * the MCP server their flags. Refusal messages point at these so the advice fits where the call came from; the
 * machine-readable `details` keep the setting keys whatever the host.
 */
export interface PolicyWording {
  /** Completes "Agent FS is read-only (…)". */
  readonly readOnly: string;
  /** Completes "above the cap of N bytes (…)". */
  readonly maxReadBytes: string;
  /** Completes "it matches PATTERN in …". */
  readonly protectedPaths: string;
  readonly hiddenPaths: string;
  /** Completes "Ask the user to do this themselves; …". */
  readonly pathRuleRemedy: string;
  /** How the person turns the history off: completes "ask the person to turn the history off (…)". */
  readonly history: string;
}

export const EDITOR_WORDING: PolicyWording = {
  readOnly: 'setting agentFs.readOnly',
  maxReadBytes: 'setting agentFs.maxReadBytes',
  protectedPaths: 'the setting agentFs.protectedPaths',
  hiddenPaths: 'the setting agentFs.hiddenPaths',
  pathRuleRemedy: 'only the user can change these settings, in their user settings',
  history: 'the user setting agentFs.history.enabled',
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

/**
 * Where VS Code keeps Agent FS's own state (its history, the policy it publishes) under the user's data folder: hidden
 * in every host and for every setting, so an agent whose root holds that folder (a home folder) can neither read nor
 * change what would undo its changes.
 */
export const AGENT_FS_STORAGE_PATHS: readonly string[] = ['workspaceStorage/*/agent-fs.agent-fs/**', 'globalStorage/agent-fs.agent-fs/**'];

/** Secrets no tool reads, lists or searches either. */
export const DEFAULT_HIDDEN_PATHS: readonly string[] = ['.env', '.env.*', '*.pem', '*.key', 'id_rsa*', 'id_ed25519*'];

/**
 * Edits that add plus remove more lines than this are confirmed with their diff. 20 lines is about one screen of
 * diff in the confirmation dialog: small enough that a rewritten function is shown, large enough that routine
 * one-line fixes run without a prompt.
 */
export const DEFAULT_CONFIRM_EDITS_OVER_LINES = 20;

/** 10 MiB decode, edit and hash in well under a second; above it the text-edit tools stream. */
export const DEFAULT_EDIT_IN_MEMORY_BYTES = 10 * 1024 * 1024;

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
  editInMemoryBytes: DEFAULT_EDIT_IN_MEMORY_BYTES,
  durability: 'full',
  exclude: [],
  searchExclude: [],
  ignoreFiles: ALL_IGNORE_FILES,
  wording: EDITOR_WORDING,
};

/** The default of every `agentFs.*` setting, as package.json's `contributes.configuration` must declare it. */
export const SETTING_DEFAULTS: Readonly<Record<string, unknown>> = {
  'agentFs.baseDirectory': '',
  'agentFs.readOnly': DEFAULT_POLICY.readOnly,
  'agentFs.confirmDestructive': DEFAULT_POLICY.confirmDestructive,
  'agentFs.protectedPaths': DEFAULT_PROTECTED_PATHS,
  'agentFs.hiddenPaths': DEFAULT_HIDDEN_PATHS,
  'agentFs.confirmEditsOverLines': DEFAULT_CONFIRM_EDITS_OVER_LINES,
  'agentFs.history.enabled': true,
  'agentFs.history.maxOperations': DEFAULT_HISTORY_LIMITS.maxOperations,
  'agentFs.history.maxBytes': DEFAULT_HISTORY_LIMITS.maxBytes,
  'agentFs.history.maxAgeDays': DEFAULT_HISTORY_LIMITS.maxAgeDays,
  'agentFs.maxReadBytes': DEFAULT_MAX_READ_BYTES,
  'agentFs.durability': DEFAULT_POLICY.durability,
  'agentFs.exclude': DEFAULT_POLICY.exclude,
  // Read by the editor alone (src/vscode/session.ts); the MCP server's is --no-index, the runner always walks.
  'agentFs.pathIndex.enabled': true,
  // Read by the editor alone (src/vscode/session.ts); the MCP server's is --no-content-index.
  'agentFs.contentIndex.enabled': true,
  // Read by the editor alone (src/vscode/problems.ts): the runner and the MCP server have no language services.
  'agentFs.problemsAfterEdits': 'open',
  'agentFs.problemsAfterEditsTimeout': 1000,
};
