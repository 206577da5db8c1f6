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
import type { HostInfo } from '../core/context';
import type { PathIndex } from '../core/ports/pathIndex';
import { gitEnvironment } from '../node/host/gitEnvironment';
import { type GitEnvironment, NO_GIT_ENVIRONMENT } from '../core/ports/git';
import { editorIndexOptions, NodePathIndex } from '../node/indexes/pathIndex';
import { NodeContentIndex } from '../node/indexes/contentIndex';
import type { ContentIndex } from '../core/ports/contentIndex';
import { bundledRipgrep, RipgrepSearcher } from '../node/search/ripgrep';
import { EditorEncodings } from './encodings';
import { VscodeFileSystem } from './fileSystem';
import { openEditors } from './editors';
import { editorNotebooks } from './notebooks';
import { imageRefusal as imageRefusalOf } from './images';
import { problemsMode } from './problems';
import { readSettings } from './settings';

/** The ripgrep inside VS Code's installation: looked up once; null when this build has none. */
let bundledRipgrepPath: string | null | undefined;

/**
 * The window's path index (src/node/indexes/pathIndex.ts), made on first use: watched within its share of the per-user
 * inotify limit, which it shares with VS Code's own file watcher, and verified past it (editorIndexOptions).
 */
let editorIndex: NodePathIndex | undefined;
/** Where the window's index is saved and started from (src/node/indexes/savedIndex.ts): the extension's global storage. */
let editorIndexFolder: string | undefined;

/** Saves the window's path index in `folder` from now on (extension.ts, on activation); undefined: not saved. */
export function savePathIndexIn(folder: string | undefined): void {
  editorIndexFolder = folder;
}
/** The window's content index over the path index (src/node/indexes/contentIndex.ts), made on first use. */
let editorContentIndex: NodeContentIndex | undefined;

/** Forgets the window's path and content indexes (the extension deactivating). */
export function closePathIndex(): void {
  editorContentIndex?.close();
  editorContentIndex = undefined;
  editorIndex?.close();
  editorIndex = undefined;
}

/** Where "Agent FS: Select Base Directory…" keeps a folder picked while no workspace folder is open. */
export const PICKED_BASE_KEY = 'agentFs.pickedBaseDirectory';

export class EditorSession implements Session {
  constructor(
    private readonly state: vscode.Memento,
    /** Where calls are recorded for history and undo (the extension's workspace storage). */
    private readonly store?: HistoryStore,
  ) {}

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

  /**
   * search_content's fast path: the ripgrep VS Code ships, for folders on the local disk. Virtual and remote-only
   * file systems get none, and search_content scans through vscode.workspace.fs instead.
   */
  get contentSearcher(): ContentSearcher | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const picked = this.state.get<string>(PICKED_BASE_KEY);
    const schemes = folders.length > 0 ? folders.map((folder) => folder.uri.scheme) : picked ? [vscode.Uri.parse(picked).scheme] : [];
    if (schemes.length === 0 || schemes.some((scheme) => scheme !== 'file')) return undefined;
    if (bundledRipgrepPath === undefined) bundledRipgrepPath = bundledRipgrep(vscode.env.appRoot) ?? null;
    return bundledRipgrepPath === null ? undefined : new RipgrepSearcher(bundledRipgrepPath);
  }

  /**
   * The path index the listing and search tools read, for folders on the local disk (read through node:fs, as the
   * index reads them) unless agentFs.pathIndex.enabled is off; else every call walks.
   */
  get index(): PathIndex | undefined {
    if (vscode.workspace.getConfiguration('agentFs').get<boolean>('pathIndex.enabled') === false) return undefined;
    const folders = vscode.workspace.workspaceFolders ?? [];
    const picked = this.state.get<string>(PICKED_BASE_KEY);
    const schemes = folders.length > 0 ? folders.map((folder) => folder.uri.scheme) : picked ? [vscode.Uri.parse(picked).scheme] : [];
    if (schemes.length === 0 || schemes.some((scheme) => scheme !== 'file')) return undefined;
    editorIndex ??= new NodePathIndex({
      ...editorIndexOptions(),
      ...(editorIndexFolder === undefined ? {} : { saveTo: editorIndexFolder }),
    });
    return editorIndex;
  }

  /**
   * The content index search_content narrows its reads by, over the path index (it hears of changes through its
   * watches), unless agentFs.contentIndex.enabled is off; absent wherever the path index is.
   */
  get contentIndex(): ContentIndex | undefined {
    if (!this.index || !editorIndex || vscode.workspace.getConfiguration('agentFs').get<boolean>('contentIndex.enabled') === false)
      return undefined;
    editorContentIndex ??= new NodeContentIndex(editorIndex);
    return editorContentIndex;
  }

  /**
   * Where git's per-user files are, for folders on the local disk (the extension host's environment is the user's);
   * elsewhere only the workspace's own ignore files count.
   */
  get git(): GitEnvironment {
    const folders = vscode.workspace.workspaceFolders ?? [];
    return folders.length > 0 && folders.every((folder) => folder.uri.scheme === 'file') ? gitEnvironment() : NO_GIT_ENVIRONMENT;
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
