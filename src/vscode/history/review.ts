/**
 * The review of agents' changes in the editor, for every agent that records into this window's history (Copilot
 * through Agent FS, an MCP agent or the runner sharing the store): a source control "Agent FS" whose quick diff
 * compares each file agents changed since the review's base with what it held before them, so the gutter marks their
 * hunks and the inline diff peek shows each one; its resource group lists the files, each opening its diff.
 *
 * The peek's "Revert Change" (contributed to `scm/change/title` for originals of the history's scheme) puts one hunk
 * back through write_file with the file's hash, so it is a call like any other: refused for an unsaved editor or a
 * file changed since, encoded as the file is, recorded as the person's and undoable. "Keep" moves the base to now
 * (or past one session's changes), kept in the workspace state, so the review survives a reload.
 */
import * as vscode from 'vscode';
import type { Envelope } from '../../core/envelope';
import { contentHash } from '../../core/files/hashing';
import { keptBase, type LineChange, type ReviewBase, type ReviewFile, reviewFiles, revertHunk } from '../../core/history/review';
import type { HistoryStore } from '../../core/history/store';
import { basename, normalizeAbsolute } from '../../core/paths';
import type { Dialogs } from '../dialogs';
import type { ToolHost } from '../tools';
import { historyUri, sideText } from './documents';
import type { ActivityNode } from './view';

/** Where the review's base is kept: the workspace state, per workspace, across reloads. */
export const REVIEW_BASE_KEY = 'agentFs.review.base';
const REVIEW_PROVIDER = 'agentfs';

/** Refreshes coalesce: one burst of records (a patch, a series of calls) recomputes the review once. */
const REFRESH_DELAY_MS = 200;

export interface ReviewEntry {
  readonly file: ReviewFile;
  readonly uri: vscode.Uri;
  /** The document the quick diff compares against; undefined where the history kept no text for it. */
  readonly original?: vscode.Uri;
}

export class AgentReview implements vscode.Disposable {
  readonly control: vscode.SourceControl;
  readonly group: vscode.SourceControlResourceGroup;
  private entries = new Map<string, ReviewEntry>();
  /** The newest computation: what provideOriginalResource waits for. */
  private computed: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly store: HistoryStore,
    private readonly state: vscode.Memento,
    /** The workspace URI of a core path. */
    private readonly uriOf: (path: string) => vscode.Uri,
  ) {
    // No root: the quick diff is asked for every file, in every folder of a multi-root workspace.
    this.control = vscode.scm.createSourceControl(REVIEW_PROVIDER, 'Agent FS');
    this.control.inputBox.visible = false;
    this.control.quickDiffProvider = { provideOriginalResource: (uri) => this.originalOf(uri) };
    this.group = this.control.createResourceGroup('agents', vscode.l10n.t('Changed by agents'));
    this.group.hideWhenEmpty = true;
    void this.refreshNow();
  }

  get base(): ReviewBase {
    return this.state.get<ReviewBase>(REVIEW_BASE_KEY) ?? {};
  }

  /** The files in review now, once the newest computation is done. */
  async files(): Promise<ReviewEntry[]> {
    await this.computed;
    return [...this.entries.values()];
  }

  /** The original of a file in review: what it held before the first agent's change since the base. */
  async originalOf(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
    await this.computed;
    return this.entries.get(uri.toString())?.original;
  }

  /** Recomputes soon: a burst of records (or of watcher events for them) recomputes once. */
  refresh(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refreshNow();
    }, REFRESH_DELAY_MS);
  }

  /** Recomputes at once; the quick diff and the group see the result when the returned promise settles. */
  refreshNow(): Promise<void> {
    const next = this.computed.then(() => this.compute()).catch(() => undefined);
    this.computed = next;
    return next;
  }

  private async compute(): Promise<void> {
    const files = reviewFiles(await this.store.list(), this.base);
    const entries = new Map<string, ReviewEntry>();
    for (const file of files) {
      const uri = this.uriOf(file.absolute);
      const { record, change } = file.first;
      // A note in place of content (over the size cap, binary) would mark every line: no quick diff then.
      const text = await sideText(this.store, record, change.before);
      const original = text === undefined ? undefined : historyUri(record, change, 'before');
      entries.set(uri.toString(), original ? { file, uri, original } : { file, uri });
    }
    this.entries = entries;
    // Setting the states tells the quick diff of every open editor to ask for its original again.
    this.group.resourceStates = [...entries.values()].map((entry) => resourceState(entry));
    this.control.count = entries.size;
  }

  /** "Keep": the base moves past everything recorded so far, or past one session's changes so far. */
  async keep(session?: string): Promise<ReviewBase> {
    const base = keptBase(await this.store.list(), this.base, session);
    await this.state.update(REVIEW_BASE_KEY, base);
    await this.refreshNow();
    return base;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.control.dispose();
  }
}

function resourceState(entry: ReviewEntry): vscode.SourceControlResourceState {
  const { file, uri, original } = entry;
  const deleted = file.last.change.after.type === 'missing';
  const added = file.first.change.before.type === 'missing';
  const title = vscode.l10n.t('{0} (changes by agents)', basename(file.display));
  const left = original ?? historyUri(file.first.record, file.first.change, 'before');
  const right = deleted ? historyUri(file.last.record, file.last.change, 'after') : uri;
  return {
    resourceUri: uri,
    contextValue: 'agentFs.review.file',
    decorations: {
      strikeThrough: deleted,
      tooltip: `${file.display} · ${file.agents.join(', ')}`,
      iconPath: new vscode.ThemeIcon(deleted ? 'diff-removed' : added ? 'diff-added' : 'diff-modified'),
    },
    command: { command: 'vscode.diff', title, arguments: [left, right, title] },
  };
}

export interface ReviewCommandDependencies {
  readonly review: AgentReview;
  readonly tools: ToolHost;
  readonly dialogs: () => Dialogs;
}

/** An argument as a URI: the peek hands one over; tests and keybindings may give its string. */
function uriOfArgument(value: unknown): vscode.Uri | undefined {
  if (value instanceof vscode.Uri) return value;
  return typeof value === 'string' ? vscode.Uri.parse(value) : undefined;
}

/**
 * The peek's "Revert Change" (arguments: the file, the changes it shows, the index of this one): the hunk put back as
 * the original has it, through write_file with the hash of the bytes the hunk was computed from.
 */
async function revertChange(
  deps: ReviewCommandDependencies,
  target: unknown,
  changes: unknown,
  index: unknown,
): Promise<Envelope | undefined> {
  const uri = uriOfArgument(target);
  const change = Array.isArray(changes) && typeof index === 'number' ? (changes[index] as LineChange | undefined) : undefined;
  if (!uri || !change) return undefined;
  const fail = (message: string): undefined => {
    deps.dialogs().error(vscode.l10n.t('Agent FS could not revert the change: {0}', message));
    return undefined;
  };
  const entry = (await deps.review.files()).find((each) => each.uri.toString() === uri.toString());
  if (!entry?.original) return fail(vscode.l10n.t("{0} is not in the review of agents' changes.", uri.path));
  // The original's own text, line breaks as recorded (its document's are the editor's one style).
  const original = await sideText(deps.review.store, entry.file.first.record, entry.file.first.change.before);
  if (original === undefined) return fail(vscode.l10n.t("{0} is not in the review of agents' changes.", uri.path));
  const document = await vscode.workspace.openTextDocument(uri);
  let content = document.getText();
  let hash: string | undefined;
  if (!document.isDirty) {
    // The hunk's lines are the editor's: they must be those of the bytes on the disk now, which the hash then holds
    // to (a change made in between refuses the write with CONTENT_CONFLICT).
    const bytes = await vscode.workspace.fs.readFile(uri);
    const disk = await vscode.workspace.decode(bytes, { encoding: document.encoding });
    if (disk.split(/\r\n|\r|\n/).join('\n') !== content.split(/\r\n|\r|\n/).join('\n'))
      return fail(vscode.l10n.t('{0} changed on the disk since the editor read it. Try again once the editor shows it.', uri.path));
    content = disk;
    hash = contentHash(bytes);
  }
  let reverted: string;
  try {
    reverted = revertHunk(content, original, change);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  // An unsaved editor goes to the tool all the same, which refuses it as it refuses every write to one.
  const envelope = await deps.tools.invoke('write_file', {
    file_name: normalizeAbsolute(uri.path),
    content: reverted,
    ...(hash === undefined ? {} : { expected_hash: hash }),
  });
  if (!envelope.ok) fail(envelope.error.message);
  await deps.review.refreshNow();
  return envelope;
}

export function registerReview(deps: ReviewCommandDependencies): vscode.Disposable[] {
  return [
    deps.review,
    vscode.commands.registerCommand('agentFs.review.revertChange', (uri: unknown, changes: unknown, index: unknown) =>
      revertChange(deps, uri, changes, index),
    ),
    vscode.commands.registerCommand('agentFs.review.keep', (target: unknown): Promise<ReviewBase> => {
      const session =
        typeof target === 'object' && target !== null && (target as ActivityNode).kind === 'session'
          ? (target as Extract<ActivityNode, { kind: 'session' }>).session.id
          : undefined;
      return deps.review.keep(session);
    }),
  ];
}
