/**
 * Problems after an edit: the errors and warnings a call that changed text files introduced in them, and how many
 * it resolved, added to its result as `problems` — what a model otherwise learns only by building.
 *
 * How it works, and what it costs a call:
 *  - Before the call, every diagnostic the editor has is noted (an in-memory read). The call's file system writes
 *    are watched (`watchWrites`), so the changed files are exactly those it wrote, whatever the tool.
 *  - After it, each changed text file is opened as a document (which most language services check) and, with
 *    `agentFs.problemsAfterEdits` set to `open`, shown in an editor without taking focus when no editor shows it:
 *    TypeScript's service checks only files that editor tabs show, and Copilot opens the files it edits the same way.
 *  - Then the call waits until the language services have settled: until VS Code has reloaded the documents that were
 *    open (on a busy machine that alone can take seconds), then until every changed file has been reported on since
 *    its document last changed and SETTLE_MS have passed without a report; agentFs.problemsAfterEditsTimeout (1 s)
 *    bounds the whole wait. A report that came before the reload is of the old text, so it does not count. It does
 *    not wait for files of a language no service has reported on in this window (plain text): nothing would come.
 *  - New and resolved are counted per file as multisets of (severity, source, code, message), lines left out: an
 *    unchanged error that an inserted line moved down is neither new nor resolved.
 *
 * A service slower than that (TypeScript's first check after the window opens takes seconds) shows its findings
 * later, in the Problems view and to Copilot's get_errors: the result lists what the services had reported by then,
 * and names as `unchecked` the changed files a service had not reported on while it had on others of the call.
 *
 * Over 300 lines: one step around a call (diagnostics noted, writes watched, documents opened, services settled,
 * problems counted), each part working on the same call's state.
 */
import * as vscode from 'vscode';
import type { FileSystem } from '../core/ports/fs';
import type { Session } from '../core/invoke';
import { basename, isWithin } from '../core/paths';
import { PathResolver, type Workspace } from '../core/confinement';
import { isStagingName } from '../core/files/staging';
import { VscodeFileSystem } from './fileSystem';

/** Quiet time, once every changed file has been reported on, that counts as settled (TypeScript reports syntax, then semantics). */
const SETTLE_MS = 200;
/** Problems listed in a result; the rest are counted. */
const PROBLEMS_LISTED = 10;
/** Changed files looked at: a directory copy of thousands of files is not opened file by file. */
const FILES_CHECKED = 10;
/** Larger files are not opened as documents for this. */
const DOCUMENT_MAX_BYTES = 2 * 1024 * 1024;

export type ProblemsMode = 'open' | 'shown' | 'off';

export function problemsMode(scope?: vscode.Uri): ProblemsMode {
  const value = vscode.workspace.getConfiguration('agentFs', scope).get<string>('problemsAfterEdits');
  return value === 'shown' || value === 'off' ? value : 'open';
}

/** How long a call waits for the language services at most (agentFs.problemsAfterEditsTimeout). */
function problemsTimeout(scope?: vscode.Uri): number {
  const value = vscode.workspace.getConfiguration('agentFs', scope).get<number>('problemsAfterEditsTimeout');
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(30_000, Math.max(0, value)) : 1_000;
}

/** One problem as a result lists it. */
interface Problem {
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly source: string | null;
}

/** What a result's `problems` holds. */
export interface ProblemsReport {
  /** New errors and warnings in the changed files, errors first, at most PROBLEMS_LISTED. */
  readonly new: readonly Problem[];
  /** New ones not listed. */
  readonly more: number;
  /** Errors and warnings of the changed files that the call made go away. */
  readonly resolved: number;
  /**
   * Changed files of a language some service checks that none had reported on when the wait ended, while it reported
   * on others the call changed: they have no problems, or were not checked in time (a service reports nothing for a
   * file that stays clean). Absent when empty.
   */
  readonly unchecked?: readonly string[];
}

type Snapshot = ReadonlyMap<string, readonly vscode.Diagnostic[]>;

function counted(diagnostic: vscode.Diagnostic): boolean {
  return diagnostic.severity === vscode.DiagnosticSeverity.Error || diagnostic.severity === vscode.DiagnosticSeverity.Warning;
}

function codeOf(diagnostic: vscode.Diagnostic): string {
  const { code } = diagnostic;
  if (code === undefined) return '';
  return typeof code === 'object' ? String(code.value) : String(code);
}

function identity(diagnostic: vscode.Diagnostic): string {
  return [diagnostic.severity, diagnostic.source ?? '', codeOf(diagnostic), diagnostic.message].join('\u0000');
}

/** Every counted diagnostic the editor has now, by URI. */
function snapshotDiagnostics(): Snapshot {
  const snapshot = new Map<string, readonly vscode.Diagnostic[]>();
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    const kept = diagnostics.filter(counted);
    if (kept.length > 0) snapshot.set(uri.toString(), kept);
  }
  return snapshot;
}

/**
 * Languages some service has reported diagnostics for in this window: only for these is waiting worth it. Watched
 * from activation on.
 */
const reportingLanguages = new Set<string>();

export function watchReportingLanguages(): vscode.Disposable {
  const note = (uris: readonly vscode.Uri[]): void => {
    for (const uri of uris) {
      const document = vscode.workspace.textDocuments.find((each) => each.uri.toString() === uri.toString());
      if (document) reportingLanguages.add(document.languageId);
    }
  };
  note(vscode.languages.getDiagnostics().map(([uri]) => uri));
  return vscode.languages.onDidChangeDiagnostics((event) => note(event.uris));
}

/** A file a call wrote: the URI the editor knows it by and the path results show. */
export interface WrittenFile {
  readonly uri: vscode.Uri;
  readonly display: string;
}

/**
 * A session whose file systems report every file a call writes, renames or copies to. A proxy forwards everything
 * else untouched, optional methods' presence included (the tools test `readRange` and others).
 */
export function watchWrites(session: Session, onWrite: (file: WrittenFile) => void): Session {
  const observe = (workspace: Workspace): FileSystem => {
    const { fs } = workspace;
    const resolver = new PathResolver(workspace);
    const uriOf = (path: string): vscode.Uri => (fs instanceof VscodeFileSystem ? fs.uri(path) : vscode.Uri.file(path));
    return new Proxy(fs, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const targets = WRITE_TARGETS[String(property)];
        if (targets === undefined) return value.bind(target) as unknown;
        return (...args: unknown[]): unknown => {
          for (const index of targets) {
            const path = args[index];
            if (typeof path !== 'string' || isStagingName(basename(path))) continue;
            const root = workspace.roots.find((each) => isWithin(each.path, path));
            if (root) onWrite({ uri: uriOf(path), display: resolver.display(root, path) });
          }
          return Reflect.apply(value, target, args) as unknown;
        };
      },
    });
  };
  const observed: Session = Object.create(session) as Session;
  return Object.assign(observed, {
    workspace: async () => {
      const workspace = await session.workspace();
      return { ...workspace, fs: observe(workspace) };
    },
  });
}

/**
 * Every FileSystem method that puts content at a path, and which of its arguments name that path: what is not here
 * (delete, createDirectory, setMode) changes no text. Writes to staging names are skipped above; the rename that puts
 * a staged file in place (a streamed edit's openWriter, a patch's linked copy) names the real target.
 */
const WRITE_TARGETS: Readonly<Record<string, readonly number[]>> = {
  writeFile: [0],
  appendFile: [0],
  overwrite: [0],
  openWriter: [0],
  rename: [1],
  copyFile: [1],
  link: [1],
};

/** The language of the open document at `uri`, if one is open. */
function languageOf(uri: vscode.Uri): string | undefined {
  return vscode.workspace.textDocuments.find((each) => each.uri.toString() === uri.toString())?.languageId;
}

/** The changed files that are text documents (at most FILES_CHECKED), opened, and in `open` mode shown. */
async function openDocuments(files: readonly WrittenFile[], mode: ProblemsMode): Promise<WrittenFile[]> {
  const opened = await Promise.all(
    files.slice(0, FILES_CHECKED).map(async (file) => {
      const stat = await Promise.resolve(vscode.workspace.fs.stat(file.uri)).catch(() => undefined);
      if (stat?.type !== vscode.FileType.File || stat.size > DOCUMENT_MAX_BYTES) return undefined;
      // A file VS Code will not open as text (binary) has no problems to report.
      const document = await Promise.resolve(vscode.workspace.openTextDocument(file.uri)).catch(() => undefined);
      return document ? file : undefined;
    }),
  );
  const documents = opened.filter((file): file is WrittenFile => file !== undefined);
  if (mode === 'open') {
    const shown = new Set(
      vscode.window.tabGroups.all.flatMap((group) =>
        group.tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri.toString()] : [])),
      ),
    );
    const hidden = documents.map((file) => file.uri).filter((uri) => !shown.has(uri.toString()));
    // One file takes the preview tab; several are kept open, or each would replace the one before.
    for (const uri of hidden) {
      await Promise.resolve(vscode.window.showTextDocument(uri, { preview: hidden.length === 1, preserveFocus: true })).catch(
        () => undefined,
      );
    }
  }
  return documents;
}

/**
 * What the diagnostics were when a call began, and when each file's changed since: started before the call, so a
 * language service that answers while the call is still finishing (or while its files are being opened) is not missed.
 */
export class DiagnosticsWatch implements vscode.Disposable {
  readonly before = snapshotDiagnostics();
  /** Documents open when the call began: VS Code reloads them from the disk after the call, on its own time. */
  private readonly open = new Set(vscode.workspace.textDocuments.map((document) => document.uri.toString()));
  private readonly changed = new Map<string, number>();
  /** When each document last changed during the call: a report on it from before then is of the text it replaced. */
  private readonly edited = new Map<string, number>();
  private readonly subscription = vscode.languages.onDidChangeDiagnostics((event) => {
    const now = Date.now();
    for (const uri of event.uris) this.changed.set(uri.toString(), now);
  });
  private readonly edits = vscode.workspace.onDidChangeTextDocument((event) => {
    if (event.contentChanges.length > 0) this.edited.set(event.document.uri.toString(), Date.now());
  });

  /**
   * Resolves once every document of `uris` that was open before the call holds what the disk holds now (until
   * `deadline` at most): language services see a change only through the document, and VS Code reloads an open one
   * some time after the file changed — on a busy machine, seconds — so waiting for the services before that would
   * wait for nothing.
   */
  reloaded(uris: readonly vscode.Uri[], deadline: number, token: vscode.CancellationToken | undefined): Promise<void> {
    const stale = async (uri: vscode.Uri): Promise<boolean> => {
      const document = vscode.workspace.textDocuments.find((each) => each.uri.toString() === uri.toString());
      if (!document) return false;
      const disk = await Promise.resolve(vscode.workspace.fs.readFile(uri)).catch(() => undefined);
      return disk !== undefined && document.getText() !== new TextDecoder().decode(disk).replace(/^\uFEFF/, '');
    };
    const waiting = new Set(uris.map((uri) => uri.toString()).filter((uri) => this.open.has(uri)));
    if (waiting.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        subscription.dispose();
        cancellation?.dispose();
        resolve();
      };
      const check = (uri: vscode.Uri): void => {
        void stale(uri).then((still) => {
          if (still || !waiting.delete(uri.toString())) return;
          if (waiting.size === 0) finish();
        });
      };
      const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
      // Listening first, then looking: a reload between the two is not missed.
      const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
        if (waiting.has(event.document.uri.toString())) check(event.document.uri);
      });
      const cancellation = token?.onCancellationRequested(finish);
      for (const uri of uris) if (waiting.has(uri.toString())) check(uri);
    });
  }

  /**
   * Resolves once every one of `uris` has been reported on since the call began, and since its document last changed,
   * and none for SETTLE_MS after the last report; or at `deadline`, or at once when cancelled. A file is waited for
   * until it is reported on, not only until the others are quiet: a service checks files one after another, and on a
   * busy machine the next can come long after the first.
   */
  settled(uris: readonly vscode.Uri[], deadline: number, token: vscode.CancellationToken | undefined): Promise<void> {
    const watched = [...new Set(uris.map((uri) => uri.toString()))];
    return new Promise((resolve) => {
      let quiet: ReturnType<typeof setTimeout> | undefined;
      const finish = (): void => {
        clearTimeout(quiet);
        clearTimeout(timer);
        subscription.dispose();
        cancellation?.dispose();
        resolve();
      };
      const rearm = (): void => {
        if (!watched.every((uri) => this.reportedOn(uri))) return;
        const last = Math.max(...watched.map((uri) => this.changed.get(uri) ?? 0));
        clearTimeout(quiet);
        quiet = setTimeout(finish, Math.max(0, last + SETTLE_MS - Date.now()));
      };
      const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
      const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((uri) => watched.includes(uri.toString()))) rearm();
      });
      const cancellation = token?.onCancellationRequested(finish);
      rearm();
    });
  }

  /** The files of `uris` that no service has reported on since the call began and their documents last changed. */
  unreported(uris: readonly vscode.Uri[]): vscode.Uri[] {
    return uris.filter((uri) => !this.reportedOn(uri.toString()));
  }

  private reportedOn(uri: string): boolean {
    const reported = this.changed.get(uri);
    return reported !== undefined && reported >= (this.edited.get(uri) ?? 0);
  }

  dispose(): void {
    this.subscription.dispose();
    this.edits.dispose();
  }
}

/** The problems report for a call that wrote `written`, against the watch's `before`; undefined when it changed no text file. */
export async function problemsAfter(
  written: readonly WrittenFile[],
  watch: DiagnosticsWatch,
  mode: ProblemsMode,
  token?: vscode.CancellationToken,
): Promise<ProblemsReport | undefined> {
  const unique = [...new Map(written.map((file) => [file.uri.toString(), file])).values()];
  const files = await openDocuments(unique, mode);
  if (files.length === 0) return undefined;
  const uris = files.map((file) => file.uri);
  const checked = uris.filter((uri) => reportingLanguages.has(languageOf(uri) ?? ''));
  if (checked.length > 0) {
    const deadline = Date.now() + problemsTimeout(checked[0]);
    await watch.reloaded(checked, deadline, token);
    await watch.settled(checked, deadline, token);
  }
  // Named only where the call changed other files a service did report on: a file that stays clean is never reported
  // on, so alone it would be named after every clean edit; beside a reported one, its silence may be a late check.
  const unreported = watch.unreported(checked);
  const unchecked = new Set(unreported.length < checked.length ? unreported.map((uri) => uri.toString()) : []);
  const found: Problem[] = [];
  let resolved = 0;
  for (const { uri, display } of files) {
    const after = vscode.languages.getDiagnostics(uri).filter(counted);
    const earlier = new Map<string, number>();
    for (const diagnostic of watch.before.get(uri.toString()) ?? [])
      earlier.set(identity(diagnostic), (earlier.get(identity(diagnostic)) ?? 0) + 1);
    for (const diagnostic of after) {
      const key = identity(diagnostic);
      const left = earlier.get(key) ?? 0;
      if (left > 0) {
        earlier.set(key, left - 1);
        continue;
      }
      found.push({
        path: display,
        line: diagnostic.range.start.line + 1,
        severity: diagnostic.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning',
        message: diagnostic.message,
        source: diagnostic.source ?? null,
      });
    }
    for (const left of earlier.values()) resolved += left;
  }
  found.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const named = files.filter((file) => unchecked.has(file.uri.toString())).map((file) => file.display);
  return {
    new: found.slice(0, PROBLEMS_LISTED),
    more: Math.max(0, found.length - PROBLEMS_LISTED),
    resolved,
    ...(named.length > 0 ? { unchecked: named } : {}),
  };
}
