/** Everything a tool call may use, built per call by the pipeline (invoke.ts) from the host's session. */
import type { EncodingHost } from './encoding/host';
import type { HashMemo } from './files/hashing';
import type { Origin } from './history/origin';
import type { HistoryStore } from './history/store';
import type { GitEnvironment } from './ports/git';
import type { GrammarSource } from './ports/grammars';
import type { ReferenceProvider } from './ports/references';
import type { HostNaming } from './naming';
import type { Localizer } from './ports/l10n';
import type { NotebookEditors } from './ports/notebooks';
import type { PathIndex } from './ports/pathIndex';
import type { ContentIndex } from './ports/contentIndex';
import type { PathResolver, Workspace } from './confinement';
import type { ContentSearcher } from './ports/searcher';
import type { Policy } from './settings';
import type { CallSignals } from './signals';

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
  /**
   * Why this host cannot pass an image to a model, as a sentence read_file's refusal ends with; absent where it can
   * (the MCP server as image content, the runner as base64, VS Code 1.106 and later as a LanguageModelDataPart).
   */
  readonly imageRefusal?: string;
  /** Whether results of calls that changed text files report the problems (diagnostics) the change caused. */
  readonly problemsAfterEdits: boolean;
}

/** Everything one call may use. Built per call; tools keep no state between calls. */
export interface ToolContext extends CallSignals {
  readonly workspace: Workspace;
  readonly paths: PathResolver;
  readonly policy: Policy;
  /** Open editors, where there are any; mutating tools refuse a dirty one (FILE_DIRTY_IN_EDITOR). */
  readonly editors?: EditorState;
  /** Notebooks open in the editor, where there is one: edit_notebook changes those through it (ports/notebooks.ts). */
  readonly notebooks?: NotebookEditors;
  /** A fast searcher over the local disk (ripgrep), where there is one; search_content falls back to a scan. */
  readonly contentSearcher?: ContentSearcher;
  /** The host's warm path index, where it keeps one (pathIndex.ts): the listing and search walks read it first. */
  readonly index?: PathIndex;
  /** The host's warm content index (contentIndex.ts): search_content reads only the files it cannot rule out. */
  readonly contentIndex?: ContentIndex;
  /** Where the tools run, for workspace_info. */
  readonly host?: HostInfo;
  /** The operation history, where the session keeps one (history/store.ts); the history tools read and undo it. */
  readonly history?: HistoryStore;
  /** Who is calling (history/origin.ts): recorded with every change this call makes. */
  readonly origin?: Origin;
  /** How the host names tools (naming.ts): for text a tool hands out inside its `data` rather than as its message. */
  readonly naming: HostNaming;
  /** The person's language for `prepare`'s text (ports/l10n.ts); never for what a model reads. */
  readonly l10n: Localizer;
  /** The host's encoding rules and codec (encoding/host.ts): every read and write of text goes through them. */
  readonly encodings: EncodingHost;
  /** Where the parsers' WebAssembly comes from (ports/grammars.ts); absent: only Markdown is outlined. */
  readonly grammars?: GrammarSource;
  /** The editor's language services (ports/references.ts); absent: find_references matches whole words. */
  readonly references?: ReferenceProvider;
  /** Where git's per-user files are (ignore/sources.ts), for the rules of what the finding tools leave out. */
  readonly git?: GitEnvironment;
  /** Hashes of large files this call has computed (hashing.ts), shared by the history's states and streamed edits. */
  readonly hashes?: HashMemo;
  /**
   * Where the call is recorded and its tool announces its changes (ToolDefinition.announcesChanges): awaited once
   * the tool has read what it replaces and before its first change to the disk, so that the history takes the
   * before states then. A refusal thrown here (HISTORY_WRITE_FAILED) must leave everything as it was.
   */
  readonly beforeChange?: () => Promise<void>;
}
