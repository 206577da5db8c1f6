/**
 * An operation's changes file by file, for people and models: which files were added, deleted or modified, and a
 * unified diff of each text file whose content the history kept. A directory path expands into its files.
 */
import { createTwoFilesPatch } from 'diff';
import { bomBytes, decodeExactLocal } from '../encoding/codec';
import { detectEncoding } from '../encoding/detect';
import { type PathState, type TreeEntry } from './state';
import type { HistoryStore, OperationRecord, PathRecord } from './store';

export type ChangeKind = 'added' | 'deleted' | 'modified' | 'type_changed';

/** The state of one file (or other entry) on one side of a change. */
export interface SideState {
  readonly type: TreeEntry['type'] | 'missing';
  readonly hash?: string;
  readonly size?: number;
}

export interface FileChange {
  /** Display path of the file (inside a directory path for a tree). */
  readonly path: string;
  readonly change: ChangeKind;
  readonly before: SideState;
  readonly after: SideState;
}

/** Every file-level change of a record, in path order. Unchanged files inside a changed tree are left out. */
export function fileChanges(record: Pick<OperationRecord, 'paths'>): FileChange[] {
  const changes: FileChange[] = [];
  for (const path of record.paths) changes.push(...changesOf(path));
  return changes;
}

function flatten(state: PathState): Map<string, SideState> {
  const entries = new Map<string, SideState>();
  switch (state.type) {
    case 'missing':
      break;
    case 'file':
      entries.set('', { type: 'file', size: state.size, ...(state.hash === undefined ? {} : { hash: state.hash }) });
      break;
    case 'directory':
      entries.set('', { type: 'directory' });
      for (const entry of state.entries)
        entries.set(entry.path, {
          type: entry.type,
          ...(entry.size === undefined ? {} : { size: entry.size }),
          ...(entry.hash === undefined ? {} : { hash: entry.hash }),
        });
      break;
    default:
      entries.set('', { type: state.type });
  }
  return entries;
}

function changesOf(path: PathRecord): FileChange[] {
  const before = flatten(path.before);
  const after = flatten(path.after);
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes: FileChange[] = [];
  for (const key of keys) {
    const was: SideState = before.get(key) ?? { type: 'missing' };
    const now: SideState = after.get(key) ?? { type: 'missing' };
    // Directories themselves are listed only when they appear or go and hold no files (else their files say it).
    if (was.type === now.type && (was.type === 'directory' || (was.hash !== undefined && was.hash === now.hash))) continue;
    if ((was.type === 'directory' || now.type === 'directory') && (was.type === 'missing' || now.type === 'missing')) {
      const prefix = key === '' ? '' : `${key}/`;
      const holdsFiles = [...before.keys(), ...after.keys()].some((other) => other !== key && other.startsWith(prefix));
      if (holdsFiles) continue;
    }
    const change: ChangeKind =
      was.type === 'missing' ? 'added' : now.type === 'missing' ? 'deleted' : was.type === now.type ? 'modified' : 'type_changed';
    changes.push({
      path: key === '' ? path.display : path.display === '.' ? key : `${path.display}/${key}`,
      change,
      before: was,
      after: now,
    });
  }
  return changes;
}

/** The bytes of one side of a change as the history kept them: empty for nothing, `undefined` when not kept. */
export async function sideContent(
  store: HistoryStore,
  record: Pick<OperationRecord, 'blobs'>,
  side: SideState,
): Promise<Uint8Array | undefined> {
  if (side.type === 'missing') return new Uint8Array();
  if (side.type !== 'file' || side.hash === undefined) return undefined;
  if (!Object.prototype.hasOwnProperty.call(record.blobs, side.hash.replace(/^sha256:/, ''))) return undefined;
  return store.readBlob(side.hash);
}

/**
 * Text for display and diffs, or `undefined` for binary content (or text in an encoding that cannot be told). The
 * store keeps no encoding settings, so the encoding is found as the runner finds it: the BOM, else a guess, else UTF-8.
 */
export function displayText(bytes: Uint8Array): string | undefined {
  const detection = detectEncoding(bytes, { default: 'utf8', guess: true, candidates: [] });
  if (detection.kind === 'binary') return undefined;
  const decoded = decodeExactLocal(detection.bom ? bytes.subarray(bomBytes(detection.encoding).length) : bytes, detection.encoding);
  return 'text' in decoded ? decoded.text : undefined;
}

export interface ChangeDiff {
  readonly is_binary: boolean;
  /** Whether both sides' content was kept (the history keeps it up to agentFs.history.maxBytes). */
  readonly content_recorded: boolean;
  readonly diff?: string;
  /** Why there is no diff although both sides are text. */
  readonly diff_omitted?: string;
}

/** Edit steps beyond which no diff is computed: a huge rewrite would stall the host, and says little as a diff. */
const DIFF_MAX_EDIT_LENGTH = 10_000;
/** Text beyond this size is not diffed at all. */
const DIFF_MAX_TEXT = 2 * 1024 * 1024;

/** A unified diff of one change, with git-style a/ and b/ names. */
export async function diffOf(store: HistoryStore, record: Pick<OperationRecord, 'blobs'>, change: FileChange): Promise<ChangeDiff> {
  if (change.before.type !== 'file' && change.before.type !== 'missing') return { is_binary: false, content_recorded: false };
  if (change.after.type !== 'file' && change.after.type !== 'missing') return { is_binary: false, content_recorded: false };
  const [before, after] = await Promise.all([sideContent(store, record, change.before), sideContent(store, record, change.after)]);
  if (!before || !after) return { is_binary: false, content_recorded: false };
  const beforeText = displayText(before);
  const afterText = displayText(after);
  if (beforeText === undefined || afterText === undefined) return { is_binary: true, content_recorded: true };
  const oldName = change.before.type === 'missing' ? '/dev/null' : `a/${change.path}`;
  const newName = change.after.type === 'missing' ? '/dev/null' : `b/${change.path}`;
  if (beforeText.length + afterText.length > DIFF_MAX_TEXT)
    return { is_binary: false, content_recorded: true, diff_omitted: 'the files are too large to diff here' };
  const patch = createTwoFilesPatch(oldName, newName, beforeText, afterText, undefined, undefined, {
    context: 3,
    maxEditLength: DIFF_MAX_EDIT_LENGTH,
  });
  if (patch === undefined) return { is_binary: false, content_recorded: true, diff_omitted: 'too many changed lines to diff here' };
  // The package starts the patch with a "====" separator line; the diff proper starts at "---".
  return { is_binary: false, content_recorded: true, diff: patch.slice(Math.max(0, patch.indexOf('--- '))) };
}
