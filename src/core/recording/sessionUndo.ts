/**
 * Undoing a whole session (history/origin.ts) in one step: every path the session changed goes back to its state
 * before the session, or nothing changes. Only a disk that fails partway (full, gone read-only) leaves part of it done,
 * and the recorder then records that part as it stands (record.ts), so it can be undone in turn.
 *
 * It is the undo of each of the session's operations still in force, newest first, with every check made before the
 * first write: each one's content is read back, the person's rules hold for each path, and each path is met as one
 * undo meets it (undoPaths.ts): as the session left it, or merged where others changed other lines since. That runs
 * over a virtual disk — the disk as it is now, with the states (and merged bytes) the newer operations' undos will
 * have written laid over it — so an operation whose path a later one of the same session changed again is met as
 * the undo of the later one will leave it, not as the disk holds it; and every merge is computed before anything is
 * written, so one conflicting file anywhere leaves every file as it is. A conflict is a change someone else made:
 * named with the later recorded operation (its agent and session) that touched the path, or as a change outside
 * Agent FS (the person, another program) when none did or when the history recorded it as one (origin outside).
 */
import { toolRef } from '../naming';
import { ToolError } from '../errors';
import { dirname, isWithin, relativeTo } from '../paths';
import type { ToolContext } from '../context';
import { type ChangeKind, fileChanges } from '../history/changes';
import { agentText } from '../history/origin';
import { countPhrase, type Localizer } from '../ports/l10n';
import { type PathState, StateReader, subState, type TreeEntry } from '../history/state';
import type { HistoryStore, OperationRecord, PathRecord } from '../history/store';
import type { Preparation } from '../tool';
import { confinedPathsOf, undoneBy } from './records';
import { prepareUndo, type RestoredPath } from './undo';
import { CONFLICT_WORDS, conflictText, diskBytes, type PathConflict, resolvePath } from './undoPaths';

/** What undoing a session did: the operations undone (newest first) and each path's final restoration. */
export interface SessionUndo {
  readonly undone: readonly OperationRecord[];
  readonly restored: readonly RestoredPath[];
}

/**
 * The operations an undo of `session` undoes, newest first (`records` newest first, as the store lists them): every
 * one of the session's still in force, less the session's own undos of its own changes (the two cancel out).
 */
export function sessionTargets(records: readonly OperationRecord[], session: string): OperationRecord[] {
  const undone = undoneBy(records);
  const sessionOf = new Map(records.map((record) => [record.id, record.origin?.session]));
  return records.filter((record) => {
    if (record.origin?.session !== session || undone.has(record.id)) return false;
    const targets = [...(record.undo_of === undefined ? [] : [record.undo_of]), ...(record.undo_of_all ?? [])];
    return targets.length === 0 || !targets.every((id) => sessionOf.get(id) === session);
  });
}

/** The session's operations to undo, or the refusal: none left (OPERATION_NOT_FOUND), or one not undoable. */
export async function requireSessionTargets(store: HistoryStore, session: string): Promise<OperationRecord[]> {
  const targets = sessionTargets(await store.list(), session);
  if (targets.length === 0)
    throw new ToolError(
      'OPERATION_NOT_FOUND',
      `No change of session "${session}" is waiting to be undone. ${toolRef('history_list')} shows each change's session.`,
      { session },
    );
  const blocked = targets.filter((record) => !record.undo_available);
  if (blocked.length > 0)
    throw new ToolError(
      'HISTORY_UNAVAILABLE',
      `Session "${session}" cannot be undone: ${blocked.map((record) => `${record.id} (${record.summary}): ${record.unavailable_reason ?? 'not recorded'}`).join('; ')}. Nothing was changed.`,
      { session, operation_ids: blocked.map((record) => record.id) },
    );
  return targets;
}

/** "session mcp-1a2b3c of claude-code 2.1.0 (300 changes)". */
export function sessionSummary(session: string, targets: readonly OperationRecord[]): string {
  return `session ${session} of ${agentText(targets[0]?.origin)} (${targets.length} ${targets.length === 1 ? 'change' : 'changes'})`;
}

/** The paths a session's operations changed, as the files each names (one entry per path, in path order). */
export function sessionFiles(targets: readonly OperationRecord[]): string[] {
  return [...new Set(targets.flatMap((record) => fileChanges(record).map((change) => change.path)))].sort();
}

/** sessionSummary in the person's language, for what they read (a confirmation, a dialog), never for a result. */
export function sessionText(session: string, targets: readonly OperationRecord[], l10n: Localizer): string {
  return l10n.t(
    'session {0} of {1} ({2})',
    session,
    targets[0]?.origin ? agentText(targets[0].origin) : l10n.t('unknown agent'),
    countPhrase(l10n, targets.length, '1 change', '{0} changes'),
  );
}

/** The confirmation of a session's undo, in the person's language: which agent, how many changes, which files. */
export function describeSessionUndo(session: string, targets: readonly OperationRecord[], l10n: Localizer): Preparation {
  const files = sessionFiles(targets);
  const shown = files.slice(0, 20).map((file) => `- \`${file}\``);
  if (files.length > shown.length) shown.push(`- ${l10n.t('and {0} more', files.length - shown.length)}`);
  const summary = sessionText(session, targets, l10n);
  return {
    invocationMessage: l10n.t('Undoing {0}', summary),
    confirmation: {
      title: l10n.t('Undo {0}?', summary),
      message: `${l10n.t('Every file it changed goes back to how it was before the session:')}\n\n${shown.join('\n')}\n\n${l10n.t(
        "Changes made since in other lines, by another agent or anyone else, are kept; if any overlap the session's changes, nothing is changed. The undo is recorded as one change, so it can be undone in turn.",
      )}`,
    },
  };
}

/** Undoes every operation of `session` still in force, all or nothing (see the header). */
export async function undoSession(session: string, context: ToolContext, store: HistoryStore): Promise<SessionUndo> {
  const targets = await requireSessionTargets(store, session);
  const merges = await requireSessionMergeable(session, targets, await store.list(), context, store);
  const prepared = [];
  for (const record of targets) prepared.push(await prepareUndo(record, context, store, merges.get(record) ?? new Map()));
  // Each path once, as the oldest operation's undo leaves it.
  const restored = new Map<string, RestoredPath>();
  for (const undo of prepared) for (const each of await undo.apply()) restored.set(each.path, each);
  return { undone: targets, restored: [...restored.values()] };
}

interface Conflict extends PathConflict {
  readonly by?: { readonly operation_id: string; readonly agent: string; readonly session: string | null };
}

/** Why a change since is outside Agent FS, in the words conflicts have always used. */
const OUTSIDE = 'outside Agent FS, by the person or another program';

/**
 * The merges each target's undo writes (see the header), or UNDO_CONFLICT naming every file that stands in the way
 * and who changed it since.
 */
async function requireSessionMergeable(
  session: string,
  targets: readonly OperationRecord[],
  records: readonly OperationRecord[],
  context: ToolContext,
  store: HistoryStore,
): Promise<Map<OperationRecord, Map<PathRecord, Uint8Array>>> {
  const disk = new VirtualDisk(new StateReader(context.workspace.fs, context, Number.POSITIVE_INFINITY, false));
  const undoing = new Set(targets.map((record) => record.id));
  const conflicts = new Map<string, Conflict>();
  const merges = new Map<OperationRecord, Map<PathRecord, Uint8Array>>();
  for (const record of targets) {
    const confined = await confinedPathsOf(record, context);
    const mergesOf = new Map<PathRecord, Uint8Array>();
    merges.set(record, mergesOf);
    for (const [index, path] of record.paths.entries()) {
      const at = confined[index];
      if (!at) throw new Error(`${path.display} is not a path of operation ${record.id}`);
      const absolute = at.absolute;
      // Who changed the path since: looked for only when something did.
      const laterOne = (): OperationRecord | undefined =>
        records.find(
          (other) =>
            other.id > record.id &&
            !undoing.has(other.id) &&
            other.paths.some((each) => isWithin(each.absolute, absolute) || isWithin(absolute, each.absolute)),
        );
      const words = (kind: ChangeKind): string => {
        const change = CONFLICT_WORDS[kind];
        const later = laterOne();
        if (!later || later.origin?.host === 'outside') return `${change} ${OUTSIDE}`;
        return `${change} by ${agentText(later.origin)}${later.origin ? `, session ${later.origin.session}` : ''}, operation ${later.id}`;
      };
      const now = { state: await disk.state(absolute), bytes: (hash: string) => disk.bytes(absolute, hash, context, store) };
      const outcome = await resolvePath({ record, path, confined: at, now }, context, store, words);
      if (outcome.kind === 'conflict') {
        const later = laterOne();
        const by = later ? { operation_id: later.id, agent: agentText(later.origin), session: later.origin?.session ?? null } : undefined;
        for (const each of outcome.conflicts) if (!conflicts.has(each.path)) conflicts.set(each.path, { ...each, ...(by ? { by } : {}) });
      }
      if (outcome.kind === 'merged') {
        mergesOf.set(path, outcome.bytes);
        disk.set(absolute, outcome.state, outcome.bytes);
      } else disk.set(absolute, path.before);
    }
  }
  if (conflicts.size === 0) return merges;
  const list = [...conflicts.values()];
  throw new ToolError(
    'UNDO_CONFLICT',
    `Cannot undo session ${session}: ${list.map(conflictText).join('; ')}. Nothing was changed. Undo those changes first, or change the files back by hand.`,
    { session, paths: list.map((each) => each.path), conflicts: list },
  );
}

/**
 * The disk as it will be once some undos have run: states set per path, laid over what the disk holds. A state set
 * at a path replaces everything below it; one set inside a path set before is grafted into that one, so the paths
 * set never nest.
 */
class VirtualDisk {
  private readonly set_ = new Map<string, PathState>();
  private readonly read_ = new Map<string, PathState>();
  /** The bytes of merged states laid over the disk, by hash: no store or disk holds them yet. */
  private readonly merged = new Map<string, Uint8Array>();

  constructor(private readonly reader: StateReader) {}

  /** The bytes of the file state `hash` at `path`: merged here, on the disk, or (an earlier undo's) in the store. */
  async bytes(path: string, hash: string, context: ToolContext, store: HistoryStore): Promise<Uint8Array | undefined> {
    return this.merged.get(hash) ?? (await diskBytes(context, path, hash)) ?? (await store.readBlob(hash));
  }

  async state(path: string): Promise<PathState> {
    const above = this.setAbove(path);
    if (above) return above[0] === path ? above[1] : subState(above[1], relativeTo(above[0], path));
    let state = this.read_.get(path);
    if (!state) {
      state = await this.reader.read(path);
      this.read_.set(path, state);
    }
    for (const [inner, innerState] of [...this.set_].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (inner !== path && isWithin(path, inner)) state = graft(state, relativeTo(path, inner), innerState);
    return state;
  }

  set(path: string, state: PathState, bytes?: Uint8Array): void {
    if (bytes && state.type === 'file' && state.hash !== undefined) this.merged.set(state.hash, bytes);
    const above = this.setAbove(path);
    if (above && above[0] !== path) {
      this.set_.set(above[0], graft(above[1], relativeTo(above[0], path), state));
      return;
    }
    for (const inner of [...this.set_.keys()]) if (isWithin(path, inner)) this.set_.delete(inner);
    this.set_.set(path, state);
  }

  /** The path set at `path` or above it, if any. */
  private setAbove(path: string): [string, PathState] | undefined {
    for (let at = path; ; at = dirname(at)) {
      const found = this.set_.get(at);
      if (found) return [at, found];
      if (dirname(at) === at) return undefined;
    }
  }
}

/** A directory state with `state` put at `relative` inside it (and the directories that leads through). */
function graft(base: PathState, relative: string, state: PathState): PathState {
  const directory = base.type === 'directory' ? base : { type: 'directory' as const, entries: [] };
  const prefix = `${relative}/`;
  const entries: TreeEntry[] = directory.entries.filter((each) => each.path !== relative && !each.path.startsWith(prefix));
  if (state.type !== 'missing') {
    const parts = relative.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const parent = parts.slice(0, depth).join('/');
      if (!entries.some((each) => each.path === parent)) entries.push({ path: parent, type: 'directory' });
    }
    const mode = 'mode' in state && state.mode !== undefined ? { mode: state.mode } : {};
    if (state.type === 'file')
      entries.push({ path: relative, type: 'file', size: state.size, ...(state.hash === undefined ? {} : { hash: state.hash }), ...mode });
    else if (state.type === 'directory') {
      entries.push({ path: relative, type: 'directory', ...mode });
      for (const each of state.entries) entries.push({ ...each, path: `${prefix}${each.path}` });
    } else entries.push({ path: relative, type: state.type });
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ...directory, entries };
}
