/**
 * The editor's side of the one policy (src/core/sharedPolicy.ts): what this window enforces, written into the
 * history folder that "Connect Another Agent…" hands other agents as --state, so their MCP server or runner
 * enforces it too. Published at activation and again whenever it changes: a setting (Agent FS's, files.exclude,
 * search.exclude), the workspace folders, the trust, or a file gaining or losing unsaved changes. The file is
 * rewritten only when what it says changes.
 *
 * While the window is open it also keeps the file its own: a change by anything else (an edit, a removal) is
 * replaced by what this window enforces as soon as the watcher reports it. The list of unsaved files is the one
 * last published: a window closed with unsaved changes (which VS Code keeps for the next session) still protects
 * those files until they are saved or reverted there.
 */
import * as vscode from 'vscode';
import { describeError } from '../core/errors';
import { normalizeAbsolute } from '../core/paths';
import { POLICY_FILE_NAME, policyFileText, type PublishedPolicy } from '../core/policy/sharedPolicy';
import { replaceFile } from '../core/files/staging';
import { VscodeFileSystem, watchFolder } from './fileSystem';
import type { EditorSession } from './session';
import { dirtyDocuments } from './editors';

/** What this window enforces now. */
async function currentPolicy(session: EditorSession): Promise<PublishedPolicy> {
  const policy = session.policy();
  const described = await session.describe();
  const dirty = dirtyDocuments()
    .filter((uri) => uri.scheme === 'file')
    .map((uri) => normalizeAbsolute(uri.path));
  return {
    roots: 'roots' in described ? described.roots.map((root) => root.path) : [],
    unavailable: 'error' in described ? described.error : null,
    readOnly: policy.readOnly,
    trusted: policy.trusted,
    protectedPaths: policy.protectedPaths,
    hiddenPaths: policy.hiddenPaths,
    exclude: policy.exclude,
    searchExclude: policy.searchExclude,
    dirtyEditors: [...new Set(dirty)].sort(),
  };
}

export class PolicyPublisher implements vscode.Disposable {
  private readonly file: vscode.Uri;
  private readonly fs: VscodeFileSystem;
  private readonly disposables: vscode.Disposable[] = [];
  /** The policy last written, as JSON, and the file's whole text then. */
  private written: { readonly policy: string; readonly text: string } | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** Set when the watcher reports the file: the next round reads it before deciding whether to write. */
  private check = false;
  private disposed = false;

  constructor(
    private readonly session: EditorSession,
    /** The history folder (history.ts historyDirectory). */
    private readonly directory: vscode.Uri,
    /** The folder that holds it: the extension's storage, the root of the port that writes it. */
    storage: vscode.Uri,
    private readonly warn: (line: string) => void,
  ) {
    this.file = vscode.Uri.joinPath(directory, POLICY_FILE_NAME);
    this.fs = new VscodeFileSystem([storage]);
    const publish = (): void => void this.publish();
    let dirty = new Set(this.dirtyNow());
    const dirtyChanged = (): void => {
      const now = new Set(this.dirtyNow());
      if (now.size === dirty.size && [...now].every((file) => dirty.has(file))) return;
      dirty = now;
      publish();
    };
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration(publish),
      vscode.workspace.onDidChangeWorkspaceFolders(publish),
      vscode.workspace.onDidGrantWorkspaceTrust(publish),
      // A document's dirty state flips on its first edit, on save, on revert and when it closes.
      vscode.workspace.onDidChangeTextDocument(dirtyChanged),
      vscode.workspace.onDidSaveTextDocument(dirtyChanged),
      vscode.workspace.onDidCloseTextDocument(dirtyChanged),
      vscode.workspace.onDidOpenTextDocument(dirtyChanged),
      vscode.workspace.onDidChangeNotebookDocument(dirtyChanged),
      vscode.workspace.onDidSaveNotebookDocument(dirtyChanged),
      vscode.workspace.onDidCloseNotebookDocument(dirtyChanged),
    );
    this.disposables.push(
      watchFolder(directory, POLICY_FILE_NAME, () => {
        this.check = true;
        void this.publish();
      }),
    );
  }

  private dirtyNow(): string[] {
    return dirtyDocuments().map((uri) => uri.toString());
  }

  /**
   * Writes the policy if it changed, or if the file no longer holds what this window wrote; resolves once what holds
   * now is on disk. Calls made meanwhile coalesce into one more round, so a report of the file that arrives while a
   * round runs is checked after it, never dropped.
   */
  publish(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        // After every listener of the event that started this has run: the settings cache drops its stale values
        // in a listener of its own.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (this.check) {
          this.check = false;
          await this.forgetIfReplaced();
        }
        await this.writeIfChanged();
      } while (this.again && !this.disposed);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async writeIfChanged(): Promise<void> {
    if (this.disposed) return;
    try {
      const policy = await currentPolicy(this.session);
      const json = JSON.stringify(policy);
      if (this.written?.policy === json) return;
      const text = policyFileText(policy, new Date());
      await this.fs.createDirectory(this.directory.path);
      await replaceFile(this.fs, this.file.path, new TextEncoder().encode(text));
      this.written = { policy: json, text };
    } catch (error) {
      this.warn(`Could not publish the policy for other agents to ${this.file.fsPath}: ${describeError(error)}`);
    }
  }

  /** Forgets what was written when the file no longer holds it, so that the round writes it back. */
  private async forgetIfReplaced(): Promise<void> {
    if (!this.written) return;
    const text = await Promise.resolve(vscode.workspace.fs.readFile(this.file)).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => undefined,
    );
    if (text === this.written.text) return;
    this.warn(
      `${this.file.fsPath} was ${text === undefined ? 'removed' : 'changed'} by something else; writing this window's policy back.`,
    );
    this.written = undefined;
  }

  dispose(): void {
    this.disposed = true;
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
