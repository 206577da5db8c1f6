/**
 * The editor's Session: the workspace folders, narrowed by agentFs.baseDirectory, over vscode.workspace.fs.
 * Read anew on every call, so setting changes apply without reloading the window.
 */
import * as vscode from 'vscode';
import { ToolError } from '../core/errors';
import type { HistoryStore } from '../core/history/store';
import { EDITOR_NAMING } from '../core/naming';
import type { Session } from '../core/invoke';
import { basename, isWithin, normalizeAbsolute } from '../core/paths';
import { PathResolver, type Root, type Workspace } from '../core/confinement';
import type { ContentSearcher } from '../core/ports/searcher';
import type { Policy } from '../core/settings';
import type { Localizer } from '../core/ports/l10n';
import type { HostInfo } from '../core/context';
import type { PathIndex } from '../core/ports/pathIndex';
import { type GitEnvironment, NO_GIT_ENVIRONMENT } from '../core/ports/git';
import type { ContentIndex } from '../core/ports/contentIndex';
import { EditorEncodings } from './encodings';
import { editorGrammarSource } from './grammars';
import { editorReferences } from './references';
import type { GrammarSource } from '../core/ports/grammars';
import { VscodeFileSystem } from './fileSystem';
import { openEditors } from './editors';
import { editorNotebooks } from './notebooks';
import { imageRefusal as imageRefusalOf } from './images';
import { problemsMode } from './problems';
import { readSettings } from './settings';

/**
 * What only the local disk offers a session, lent by the desktop extension (src/vscode/node/local.ts); the browser's
 * has none, so there search_content scans, listings walk, and only the workspace's own ignore files count.
 */
export interface LocalServices {
  /** search_content's fast path: the ripgrep VS Code ships; undefined when this build has none. */
  contentSearcher(): ContentSearcher | undefined;
  /** The window's path index over node:fs, made on first use. */
  pathIndex(): PathIndex;
  /** The window's content index over that path index, made on first use. */
  contentIndex(): ContentIndex;
  /** Where git's per-user files are (the extension host's environment is the user's). */
  gitEnvironment(): GitEnvironment;
  /** One turn of Node's event loop (setImmediate), which a long call awaits now and then. */
  turn(): Promise<void>;
}

/** Where "Agent FS: Select Base Directory…" keeps a folder picked while no workspace folder is open. */
export const PICKED_BASE_KEY = 'agentFs.pickedBaseDirectory';

/** VS Code's display language for the core's person-facing text (ports/l10n.ts), through its bundles in l10n/. */
export const EDITOR_L10N: Localizer = { t: (message, ...args) => vscode.l10n.t(message, ...args) };

export class EditorSession implements Session {
  constructor(
    private readonly state: vscode.Memento,
    /** Where calls are recorded for history and undo (the extension's workspace storage). */
    private readonly store?: HistoryStore,
    /** What the local disk offers, on the desktop; undefined in the browser. */
    private readonly local?: LocalServices,
    /** The extension's folder, whose dist/grammars/ holds the parsers (grammars.ts); absent: only Markdown is outlined. */
    extensionUri?: vscode.Uri,
  ) {
    if (extensionUri) this.grammars = editorGrammarSource(extensionUri);
  }

  /** Where the parsers' WebAssembly is read from. */
  readonly grammars?: GrammarSource;
  /** find_references asks VS Code's reference provider, with the document at its workspace URI. */
  readonly references = editorReferences((path) => this.uriOf(path));

  /**
   * The history, unless the person turned it off (agentFs.history.enabled, a user setting only: a workspace cannot
   * make changes in it unrecorded). Without it a change is made even where it could not be recorded.
   */
  get history(): HistoryStore | undefined {
    return vscode.workspace.getConfiguration('agentFs').get<boolean>('history.enabled') === false ? undefined : this.store;
  }

  /** Documents with unsaved changes, which mutating tools refuse to overwrite (FILE_DIRTY_IN_EDITOR). */
  readonly editors = openEditors;
  /** Notebooks open in the editor, which edit_notebook changes through the notebook API. */
  readonly notebooks = editorNotebooks;

  /** Tools are registered as agentfs_<operation>, and deletes go to the trash: messages say so. */
  readonly naming = EDITOR_NAMING;
  /**
   * The extension host's event loop, shared with every other extension: a long call lets it turn (signals.ts), by
   * setImmediate on the desktop, by the core's timer turn in the browser, which has none.
   */
  get turn(): (() => Promise<void>) | undefined {
    const local = this.local;
    return local ? () => local.turn() : undefined;
  }
  /** Invocation messages and confirmations in VS Code's display language (its bundles in l10n/). */
  readonly l10n: Localizer = EDITOR_L10N;
  /** The editor's encodings: open documents' and VS Code's files.* settings per file, VS Code's own codec. */
  readonly encodings = new EditorEncodings((path) => this.uriOf(path));

  /** The workspace URI of a core path: the folder (or picked base directory) holding it lends its scheme. */
  uriOf(path: string): vscode.Uri {
    const picked = this.state.get<string>(PICKED_BASE_KEY);
    const spaces = [
      ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri),
      ...(picked ? [vscode.Uri.parse(picked)] : []),
    ];
    const space = spaces.find((candidate) => isWithin(candidate.path, path)) ?? spaces[0];
    return space ? space.with({ path }) : vscode.Uri.file(path);
  }

  /** Whether every folder (or the picked base directory) is on the local disk, which the local services need. */
  private onLocalDisk(): boolean {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const picked = this.state.get<string>(PICKED_BASE_KEY);
    const schemes = folders.length > 0 ? folders.map((folder) => folder.uri.scheme) : picked ? [vscode.Uri.parse(picked).scheme] : [];
    return schemes.length > 0 && schemes.every((scheme) => scheme === 'file');
  }

  /**
   * search_content's fast path: the ripgrep VS Code ships, for folders on the local disk. Virtual and remote-only
   * file systems get none, and search_content scans through vscode.workspace.fs instead.
   */
  get contentSearcher(): ContentSearcher | undefined {
    return this.local && this.onLocalDisk() ? this.local.contentSearcher() : undefined;
  }

  /**
   * The path index the listing and search tools read, for folders on the local disk (read through node:fs, as the
   * index reads them) unless agentFs.pathIndex.enabled is off; else every call walks.
   */
  get index(): PathIndex | undefined {
    if (vscode.workspace.getConfiguration('agentFs').get<boolean>('pathIndex.enabled') === false) return undefined;
    return this.local && this.onLocalDisk() ? this.local.pathIndex() : undefined;
  }

  /**
   * The content index search_content narrows its reads by, over the path index (it hears of changes through its
   * watches), unless agentFs.contentIndex.enabled is off; absent wherever the path index is.
   */
  get contentIndex(): ContentIndex | undefined {
    if (!this.local || !this.index || vscode.workspace.getConfiguration('agentFs').get<boolean>('contentIndex.enabled') === false)
      return undefined;
    return this.local.contentIndex();
  }

  /**
   * Where git's per-user files are, for folders on the local disk (the extension host's environment is the user's);
   * elsewhere only the workspace's own ignore files count.
   */
  get git(): GitEnvironment {
    const folders = vscode.workspace.workspaceFolders ?? [];
    return this.local && folders.length > 0 && folders.every((folder) => folder.uri.scheme === 'file')
      ? this.local.gitEnvironment()
      : NO_GIT_ENVIRONMENT;
  }

  /** What workspace_info reports about the editor. */
  get host(): HostInfo {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const imageRefusal = imageRefusalOf();
    return {
      kind: 'vscode',
      version: vscode.version,
      baseDirectoryAsGiven:
        folders.length > 0 ? readSettings(folders[0]?.uri).baseDirectory : (this.state.get<string>(PICKED_BASE_KEY) ?? ''),
      workspaceFolders: folders.map((folder) => ({ name: folder.name, path: normalizeAbsolute(folder.uri.path) })),
      ...(imageRefusal === undefined ? {} : { imageRefusal }),
      problemsAfterEdits: problemsMode(folders[0]?.uri) !== 'off',
    };
  }

  policy(): Policy {
    return readSettings(this.firstFolder()?.uri).policy;
  }

  async workspace(): Promise<Workspace> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) return this.pickedWorkspace();

    const roots: Root[] = folders.map((folder) => ({ name: folder.name, path: normalizeAbsolute(folder.uri.path) }));
    const fs = new VscodeFileSystem(folders.map((folder) => folder.uri));
    const folderWorkspace: Workspace = { roots, fs };
    const setting = readSettings(folders[0]?.uri).baseDirectory;
    if (setting === '') {
      await this.requireDirectories(folderWorkspace, 'The workspace folder');
      return folderWorkspace;
    }
    // The setting is confined exactly like a tool's path, so it can only narrow the folders, never widen them.
    let base;
    try {
      base = await new PathResolver(folderWorkspace).resolve(setting, 'directory');
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      throw new ToolError(
        'DIR_NOT_AVAILABLE',
        `The setting agentFs.baseDirectory ("${setting}") points outside the workspace folder (${error.message}). Fix or clear the setting, or run "Agent FS: Select Base Directory…".`,
      );
    }
    const narrowed: Workspace = { roots: [{ name: basename(base.absolute) || base.root.name, path: base.absolute }], fs };
    await this.requireDirectories(narrowed, `The setting agentFs.baseDirectory ("${setting}")`);
    return narrowed;
  }

  /** The folders or base directories the tools reach now, for display; an error message when there are none. */
  async describe(): Promise<{ roots: readonly Root[] } | { error: string }> {
    try {
      return { roots: (await this.workspace()).roots };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  }

  private firstFolder(): vscode.WorkspaceFolder | undefined {
    return vscode.workspace.workspaceFolders?.[0];
  }

  private async pickedWorkspace(): Promise<Workspace> {
    const picked = this.state.get<string>(PICKED_BASE_KEY);
    if (!picked) {
      throw new ToolError(
        'DIR_NOT_SET',
        'No base directory is set: no folder is open. Open a folder, or pick one with "Agent FS: Select Base Directory…".',
      );
    }
    const uri = vscode.Uri.parse(picked);
    const workspace: Workspace = {
      roots: [{ name: basename(uri.path) || uri.path, path: normalizeAbsolute(uri.path) }],
      fs: new VscodeFileSystem([uri]),
    };
    await this.requireDirectories(workspace, `The picked base directory (${uri.fsPath})`);
    return workspace;
  }

  private async requireDirectories(workspace: Workspace, what: string): Promise<void> {
    for (const root of workspace.roots) {
      const stat = await workspace.fs.stat(root.path).catch(() => undefined);
      if (stat?.kind !== 'directory') {
        throw new ToolError(
          'DIR_NOT_AVAILABLE',
          `${what} is not an existing directory: ${root.path}. Fix the setting or run "Agent FS: Select Base Directory…".`,
        );
      }
    }
  }
}
