/**
 * The diff documents of the history: each side of a recorded change served read-only from the history store under
 * its own scheme, and the diff editors that show them.
 */
import * as vscode from 'vscode';
import { displayText, type FileChange, fileChanges, sideContent, type SideState } from '../../core/history/changes';
import type { HistoryStore, OperationRecord } from '../../core/history/store';

export const HISTORY_SCHEME = 'agentfs-history';

type Side = 'before' | 'after';

/** `agentfs-history:/<side>/<path>?<operation id>`: the path keeps the file's name, so the editor picks its language. */
export function historyUri(record: OperationRecord, change: FileChange, side: Side): vscode.Uri {
  return vscode.Uri.from({ scheme: HISTORY_SCHEME, path: `/${side}/${change.path}`, query: record.id });
}

/** Serves one side of a recorded change as a read-only document. */
export class HistoryDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly store: HistoryStore) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const record = await this.store.get(uri.query);
    if (!record) return `(Operation ${uri.query} is no longer in the history.)`;
    const [, side = 'after', ...rest] = uri.path.split('/');
    const path = rest.join('/');
    const change = fileChanges(record).find((each) => each.path === path);
    if (!change) return '';
    const state = side === 'before' ? change.before : change.after;
    const bytes = await sideContent(this.store, record, state);
    if (bytes === undefined) {
      return state.type === 'file'
        ? `(Content not recorded: ${state.size ?? 0} bytes, over the history's size cap agentFs.history.maxBytes.)`
        : `(A ${state.type}, which has no text.)`;
    }
    return displayText(bytes) ?? `(Binary content, ${bytes.length} bytes, ${state.type === 'file' ? (state.hash ?? '') : ''}.)`;
  }
}

/**
 * The text of one side of a change exactly as its document shows it, or undefined where the document shows a note
 * instead (content over the size cap, binary content, not a file).
 */
export async function sideText(store: HistoryStore, record: OperationRecord, state: SideState): Promise<string | undefined> {
  const bytes = await sideContent(store, record, state);
  return bytes === undefined ? undefined : displayText(bytes);
}

/** How long ago `iso` was, as a person reads it in a list. */
export function relativeTime(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 60) return vscode.l10n.t('just now');
  if (seconds < 3600) return vscode.l10n.t('{0} min ago', Math.floor(seconds / 60));
  if (seconds < 86400) return vscode.l10n.t('{0} h ago', Math.floor(seconds / 3600));
  return new Date(iso).toLocaleString();
}

/** Opens the diff of one change, or every change of an operation side by side; returns the documents opened. */
export async function openDiff(record: OperationRecord, only?: FileChange): Promise<vscode.Uri[]> {
  const changes = only ? [only] : fileChanges(record);
  if (changes.length === 0) return [];
  const title = (change: FileChange): string => `${change.path} (${record.operation}, ${relativeTime(record.time)})`;
  const first = changes[0];
  if (changes.length === 1 && first) {
    const left = historyUri(record, first, 'before');
    const right = historyUri(record, first, 'after');
    await vscode.commands.executeCommand('vscode.diff', left, right, title(first), { preview: true });
    return [left, right];
  }
  const resources = changes.map(
    (change) => [historyUri(record, change, 'after'), historyUri(record, change, 'before'), historyUri(record, change, 'after')] as const,
  );
  try {
    await vscode.commands.executeCommand('vscode.changes', `${record.summary} (${relativeTime(record.time)})`, resources);
  } catch {
    // No multi-file diff editor in this VS Code: show the first change.
    if (first)
      await vscode.commands.executeCommand(
        'vscode.diff',
        historyUri(record, first, 'before'),
        historyUri(record, first, 'after'),
        title(first),
      );
  }
  return resources.flatMap(([, left, right]) => [left, right]);
}

/**
 * Opens a session's changes as one multi-file diff (what undoing it would take back, by default): each file from
 * before the session's first change of it (its oldest operation's before side) to as the session left it (its newest
 * operation's after side). `targets` are newest first. Returns the documents shown.
 */
export async function openSessionDiff(
  session: string,
  targets: readonly OperationRecord[],
  title = `Undo session ${session}: what goes back`,
): Promise<vscode.Uri[]> {
  const sides = new Map<string, { before: vscode.Uri; after: vscode.Uri }>();
  for (const record of targets)
    for (const change of fileChanges(record)) {
      const after = sides.get(change.path)?.after ?? historyUri(record, change, 'after');
      sides.set(change.path, { before: historyUri(record, change, 'before'), after });
    }
  const resources = [...sides.values()].map(({ before, after }) => [after, before, after] as const);
  if (resources.length === 0) return [];
  try {
    await vscode.commands.executeCommand('vscode.changes', title, resources);
  } catch {
    // No multi-file diff editor in this VS Code: show the first file.
    const [first] = resources;
    if (first) await vscode.commands.executeCommand('vscode.diff', first[1], first[2], title);
  }
  return resources.flatMap(([, before, after]) => [before, after]);
}
