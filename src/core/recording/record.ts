/**
 * Recording, as one step of the call pipeline (invoke.ts): a mutating call's affected paths are read before it
 * runs and after it, and the difference becomes one history record. Tools stay unaware of history; a tool only says
 * which paths it affects when its path parameters do not say it (ToolDefinition.affects).
 *
 * Not recorded: read tools, `dry_run` calls, and calls that changed nothing. A call that fails after changing
 * something (most tools put everything back when they fail; an undo that stops partway does not) is recorded as it
 * stands, and its failure names the record (recordedFailure), so that what it did can be undone too.
 *
 * Durable (files/durable.ts): with durability full, the call's changes go through a port that syncs them, the
 * history's intent is on the disk before the first change another process could see, and every folder the call
 * changed is synced before its record is written and before it replies. A crash at any point leaves each path old or
 * new, and a history that says so or can be put right from the intent (`recovery`).
 *
 * Locks: the paths a call may change are held for the whole call, in this process (withTreeLocks) and across
 * processes (the port's lock); the history store only while it is written (store.ts), so calls of several processes
 * on separate paths change files and sync side by side. An undo decides what to undo from the history itself, so it
 * holds the store for its whole call, as every call did before.
 *
 * Over 300 lines: one step of the call pipeline: the reads before and after, the record and the refusals share the
 * call's lock and its state.
 */
import { toolRef } from '../naming';
import { CancelledError, describeError, ToolError } from '../errors';
import { dirname, isWithin } from '../paths';
import { isFsError } from '../ports/fs';
import { withProcessLocks, withTreeLocks } from '../files/locks';
import { DurableChanges } from '../files/durable';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import type { Tool, ToolCall } from '../tool';
import { type PathState, sameState, StateReader } from '../history/state';
import { buildRecord } from './build';
import { recordOutsideChanges } from './outside';
import { contentSize } from '../history/content';
import {
  type HistoryStore,
  HistoryWriteError,
  type OperationRecord,
  type PathRecord,
  type Recovery,
  type Reservation,
  type WriteOptions,
} from '../history/store';

/** The record of what each failed call changed before it failed, by the error it failed with. */
const failureRecords = new WeakMap<object, string>();

/** The id of the record of what the call that threw `error` changed before it failed, if it changed anything. */
export function recordedFailure(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? failureRecords.get(error) : undefined;
}

/** Parameters whose text is kept in a record's input summary, besides the tool's path parameters; any other text is recorded as its length only. */
const KEPT_TEXT = new Set(['operation_id', 'position', 'encoding', 'match', 'session']);

/** Paths a record's summary names one by one. */
const SUMMARY_PATHS = 5;

interface HistoryFields {
  readonly operation_id: string | null;
  readonly undo_available: boolean;
}

/**
 * Runs `tool` and records what it changed. Returns the tool's data with `operation_id` and `undo_available`.
 * A mutating call runs holding the cross-process lock over the paths it may change (locks.ts), and, when it is
 * recorded, over the history store too, so that its before state, its change and its record are one step for
 * every other Agent FS process.
 */
export async function runRecorded(tool: Tool, call: ToolCall, context: ToolContext): Promise<unknown> {
  const run = (runContext: ToolContext = context): Promise<unknown> => call.run(runContext);
  if (tool.effect === 'read') return run();
  const history = context.history;
  if (call.input.dry_run === true) return withFields(await run(), { operation_id: null, undo_available: false });
  if (!history) {
    const paths = await declaredPaths(tool, call, context).catch((error: unknown) => {
      if (error instanceof ToolError) return [];
      throw error;
    });
    const absolute = paths.map((path) => path.absolute);
    const locks = [{ fs: context.workspace.fs, paths: absolute }];
    return withTreeLocks(absolute, () =>
      withProcessLocks(locks, tool.failureCode, async () => {
        const durable = durableChanges(context);
        let data: unknown;
        try {
          data = await run(durable.context);
        } catch (error) {
          await durable.settle().catch(() => undefined);
          throw error;
        }
        await settled(tool, durable);
        return withFields(data, { operation_id: null, undo_available: false });
      }),
    );
  }
  for (let attempt = 0; ; attempt++) {
    const result = await recordCall(tool, call, context, history, run, attempt === 0);
    if (result !== RETRY) return result;
  }
}

/** What recordLocked answers when the history it was planned against changed under it: the call starts over. */
const RETRY = Symbol('retry');

/**
 * The tools that decide what to change from the history itself (the undos): they hold the store for their whole
 * call, so that the record they undo is still the one they planned for when they write.
 */
function holdsStore(tool: Tool): boolean {
  return tool.tags.includes('undo');
}

async function recordCall(
  tool: Tool,
  call: ToolCall,
  context: ToolContext,
  history: HistoryStore,
  run: (runContext?: ToolContext) => Promise<unknown>,
  first: boolean,
): Promise<unknown> {
  let targets: ConfinedPath[];
  try {
    targets = await affectedPaths(tool, call, context);
  } catch (error) {
    // A path the tool cannot use either: let the tool refuse it with its own code, in its own order of checks.
    if (!(error instanceof ToolError)) throw error;
    return withFields(await run(), { operation_id: null, undo_available: false });
  }
  const absolute = targets.map((target) => target.absolute);
  const held = holdsStore(tool);
  const locks = [{ fs: context.workspace.fs, paths: absolute }, ...(held ? [{ fs: history.fs, paths: [history.directory] }] : [])];
  const locked = (): Promise<unknown> =>
    withProcessLocks(locks, tool.failureCode, async () => {
      // The history this undo was planned from has records still to be put right: put them right, then plan again.
      if (
        held &&
        (await history.recoverInterrupted(recovery(context, history), { held: true, durability: context.policy.durability })) > 0 &&
        first
      )
        return RETRY;
      return recordLocked(tool, call, context, history, run, targets, held);
    });
  return withTreeLocks(absolute, () => (held ? history.exclusive(locked) : locked()));
}

/** The call's context with its port making every change durable (files/durable.ts), and what to await before replying. */
function durableChanges(
  context: ToolContext,
  beforeVisible?: () => Promise<void>,
): { context: ToolContext; settle: () => Promise<void>; tracking: boolean } {
  const { fs } = context.workspace;
  const durable = DurableChanges.over(fs, context.policy.durability === 'full', beforeVisible ? { beforeVisible } : {});
  if (durable.fs === fs) return { context, settle: durable.settle, tracking: false };
  return { context: { ...context, workspace: { ...context.workspace, fs: durable.fs } }, settle: durable.settle, tracking: true };
}

/**
 * Awaits the call's changes reaching the disk. A disk that fails to confirm it (an fsync error) fails the call: the
 * change is in place but may not survive a power cut, and a reply must not call it done.
 */
async function settled(tool: Tool, durable: { settle: () => Promise<void> }): Promise<void> {
  try {
    await durable.settle();
  } catch (error) {
    throw new ToolError(
      tool.failureCode,
      `${toolRef(tool.name)} made its change, but the disk did not confirm it was kept (${describeError(error)}): a power cut may still undo it. Check the disk, then the file.`,
    );
  }
}

/** What a call's record is built on, taken before its change: the before states, their content, the reservation. */
interface Before {
  readonly states: readonly PathState[];
  readonly reader: StateReader;
  readonly reservation: Reservation;
}

/** One recorded call, under its locks: what every step of recording it needs. */
interface Recording {
  readonly tool: Tool;
  readonly input: Readonly<Record<string, unknown>>;
  /** The call's context, its port making the changes durable. */
  readonly context: ToolContext;
  readonly history: HistoryStore;
  readonly targets: readonly ConfinedPath[];
  readonly maxBytes: number;
  /** How the store is written: the call's durability, and whether the call holds the store already (an undo). */
  readonly writes: WriteOptions;
  /** Where the change is not tracked (no durable port), the intent is awaited before the tool runs instead. */
  readonly awaitIntent: boolean;
  /** Makes the call's changes durable: awaited before its record is written and before it replies. */
  readonly settle: () => Promise<void>;
}

async function recordLocked(
  tool: Tool,
  call: ToolCall,
  context: ToolContext,
  history: HistoryStore,
  run: (runContext?: ToolContext) => Promise<unknown>,
  targets: readonly ConfinedPath[],
  held: boolean,
): Promise<unknown> {
  const reservation: { current?: Reservation } = {};
  const durable = durableChanges(context, () => reservation.current?.durable ?? Promise.resolve());
  const recording: Recording = {
    tool,
    input: call.input,
    context: durable.context,
    history,
    targets,
    maxBytes: history.limits().maxBytes,
    writes: { held, durability: context.policy.durability },
    awaitIntent: !durable.tracking && context.policy.durability === 'full',
    settle: durable.settle,
  };
  const { data, taken } = await runTakingBefore(recording, run, reservation);
  // Unannounced, the tool changed nothing.
  if (!taken) {
    await settled(tool, durable);
    return withFields(data, { operation_id: null, undo_available: false });
  }
  return commitRecord(recording, data, taken);
}

/**
 * Puts right an operation left without a record (history/store.ts Recovery): its paths as they are now, against the
 * intent's before states, when this call's roots hold them all (confined anew) and no other process holds them.
 */
function recovery(context: ToolContext, history: HistoryStore): Recovery {
  return async (intent) => {
    const { fs } = context.workspace;
    const confined: ConfinedPath[] = [];
    for (const path of intent.paths) {
      const resolved = await context.paths.resolve(path.absolute, 'path').catch(() => undefined);
      if (!resolved || resolved.absolute !== path.absolute) return undefined;
      confined.push(resolved);
    }
    let lock;
    try {
      lock = await fs.lock?.(
        confined.map((path) => path.absolute),
        { wait: false },
      );
    } catch {
      // Another process's call is under way on them: its record comes.
      return undefined;
    }
    try {
      const maxBytes = history.limits().maxBytes;
      const reader = new StateReader(fs, { isCancelled: () => false }, maxBytes, true);
      const paths: PathRecord[] = [];
      for (const path of intent.paths) {
        const after = await reader.read(path.absolute);
        if (!sameState(path.before, after)) paths.push({ ...path, after });
      }
      if (paths.length === 0) return 'unchanged';
      const readable = new Map<string, number>(Object.entries(intent.blobs).map(([hex, size]) => [`sha256:${hex}`, size]));
      for (const [hash, content] of reader.contents) readable.set(hash, contentSize(content));
      const summary = `${intent.summary} (recovered: its process stopped before recording it)`;
      const record: OperationRecord = {
        ...buildRecord(intent.id, intent.operation, summary, intent.input, paths, readable, maxBytes, undefined),
        time: intent.time,
        ...(intent.origin ? { origin: intent.origin } : {}),
      };
      return { record, contents: reader.contents };
    } finally {
      await lock?.release();
    }
  };
}

/**
 * Reads the before states of every target and reserves their record in the history. A state that cannot be read, or
 * a reservation the store cannot make, refuses the call (HISTORY_WRITE_FAILED): the history could not undo it.
 */
async function takeBefore({ tool, input, context, history, targets, maxBytes, writes, awaitIntent }: Recording): Promise<Before> {
  // Past the cap, content is not read at all: the state says "too large" instead of holding it in memory.
  const reader = new StateReader(context.workspace.fs, context, maxBytes, true);
  const states: PathState[] = [];
  try {
    for (const target of targets) states.push(await reader.read(target.absolute));
  } catch (error) {
    // Something the change would touch cannot be read (a file without read permission in a tree to delete): the
    // history could not undo it, so the change is not made.
    if (error instanceof CancelledError || error instanceof ToolError) throw error;
    throw historyRefusal(tool, context, history, `what it would change could not be read (${describeError(error)})`);
  }
  // A target changed outside Agent FS since its newest record is recorded first, as a change of its own.
  await recordOutsideChanges({
    history,
    targets,
    states,
    contents: reader.contents,
    maxBytes,
    writes,
    recover: recovery(context, history),
  });
  // Everything the record needs that a full disk could refuse is written before the call changes anything.
  try {
    const reservation = await history.reserve(
      {
        operation: tool.name,
        summary: await summarise(tool, input, [], context, undefined),
        input: summariseInput(tool, input),
        ...(context.origin ? { origin: context.origin } : {}),
        paths: targets.map((target, index) => ({
          absolute: target.absolute,
          display: target.display,
          before: states[index] ?? { type: 'missing' },
        })),
      },
      reader.contents,
      JSON.stringify({ input, targets, before: states }).length,
      { ...writes, recover: recovery(context, history) },
    );
    if (awaitIntent) await reservation.durable;
    return { states, reader, reservation };
  } catch (error) {
    if (isFsError(error, 'locked')) throw new ToolError(tool.failureCode, error instanceof Error ? error.message : String(error));
    if (!(error instanceof HistoryWriteError)) throw error;
    throw historyRefusal(tool, context, history, `the history could not store what it would replace (${error.message})`);
  }
}

/**
 * Runs the call with its before states taken at the right moment. A tool that announces its change reads every byte
 * it replaces first, hashing it (a large file's hash is then in `context.hashes`): its before states are taken at its
 * announcement, just before the change, so a gibibyte is not read once more here to hash it. Any other tool's are
 * taken before it runs. A call that fails is recorded if it changed something (recordFailure), else gives its
 * reservation back.
 */
async function runTakingBefore(
  recording: Recording,
  run: (runContext?: ToolContext) => Promise<unknown>,
  reservation: { current?: Reservation },
): Promise<{ readonly data: unknown; readonly taken: Before | undefined }> {
  const { tool, context, history } = recording;
  const take = async (): Promise<Before> => {
    const before = await takeBefore(recording);
    reservation.current = before.reservation;
    return before;
  };
  let taken: Before | undefined = tool.announcesChanges ? undefined : await take();
  const changed = { seen: false };
  const noticing = noticingChanges(context, changed);
  const runContext: ToolContext = tool.announcesChanges
    ? {
        ...noticing,
        beforeChange: async () => {
          taken ??= await take();
        },
      }
    : noticing;
  try {
    return { data: await run(runContext), taken };
  } catch (error) {
    if (taken && changed.seen) await recordFailure(recording, taken, error);
    else {
      await recording.settle().catch(() => undefined);
      if (taken) await history.cancel(taken.reservation, recording.writes).catch(() => undefined);
    }
    throw error;
  }
}

/** The file-system methods that can change something (ports/fs.ts). */
const CHANGING: ReadonlySet<PropertyKey> = new Set([
  'writeFile',
  'createFile',
  'createDirectory',
  'delete',
  'rename',
  'copyFile',
  'setMode',
  'appendFile',
  'openWriter',
  'link',
  'overwrite',
]);

/**
 * `context` with its file system noting in `changed` whether the call asked for any change: a call that failed
 * without asking for one changed nothing, and its before states need no reading again (a refused copy of a large tree).
 */
function noticingChanges(context: ToolContext, changed: { seen: boolean }): ToolContext {
  const fs = new Proxy(context.workspace.fs, {
    get(target, property, receiver): unknown {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !CHANGING.has(property)) return value;
      return (...args: unknown[]): unknown => {
        changed.seen = true;
        return Reflect.apply(value, target, args);
      };
    },
  });
  return { ...context, workspace: { ...context.workspace, fs } };
}

/**
 * What a failed call changed before it failed, recorded like any change (with "(failed partway)" in its summary), and
 * noted for `error` (recordedFailure). A call that changed nothing, or whose after states cannot be read or recorded,
 * gives its reservation back, as before.
 */
async function recordFailure(recording: Recording, taken: Before, error: unknown): Promise<void> {
  try {
    const record = await writeRecord(recording, taken, undefined, true);
    if (record && typeof error === 'object' && error !== null) failureRecords.set(error, record.id);
  } catch {
    await recording.history.cancel(taken.reservation, recording.writes).catch(() => undefined);
  }
}

/**
 * Reads the after states and commits the record of what changed into the reservation; undefined when nothing changed
 * (the reservation is given back).
 */
async function writeRecord(recording: Recording, taken: Before, data: unknown, failed: boolean): Promise<OperationRecord | undefined> {
  const { tool, input, context, history, maxBytes, writes } = recording;
  const { reader: beforeReader, reservation } = taken;
  // The change is made: a cancellation now must not cost its record.
  const afterReader = new StateReader(context.workspace.fs, { isCancelled: () => false, hashes: context.hashes }, maxBytes, true);
  const paths = await changedPaths(recording, taken.states, afterReader);
  // The record is written only once the change is on the disk: a record must never outlive a change a crash took.
  let unsettled: unknown;
  await recording.settle().catch((error: unknown) => {
    unsettled = error;
  });
  if (paths.length === 0) {
    await history.cancel(reservation, writes);
    if (unsettled !== undefined) throw unsettled instanceof Error ? unsettled : new Error(describeError(unsettled));
    return undefined;
  }
  const summary = await summarise(tool, input, paths, context, await undoneSummary(history, data));
  const contents = new Map([...beforeReader.contents, ...afterReader.contents]);
  const readable = new Map([...contents].map(([hash, content]) => [hash, contentSize(content)] as const));
  const record: OperationRecord = {
    ...buildRecord(
      reservation.id,
      tool.name,
      failed ? `${summary} (failed partway)` : summary,
      summariseInput(tool, input),
      paths,
      readable,
      maxBytes,
      undoneOperationOf(data),
    ),
    ...provenance(context, data),
  };
  await history.commit(reservation, record, contents, writes);
  if (unsettled !== undefined) {
    // Recorded as it stands, so it can be undone; but not done, so the call fails, naming the record.
    const error = new ToolError(
      tool.failureCode,
      `${toolRef(tool.name)} made its change, but the disk did not confirm it was kept (${describeError(unsettled)}): a power cut may still undo it. Check the disk, then the file.`,
    );
    failureRecords.set(error, record.id);
    throw error;
  }
  return record;
}

/**
 * Records a call that ran: its after states against the before ones, the record committed into the reservation, and
 * the result's recorded-call fields. A call that changed nothing gives its reservation back; a record that cannot be
 * written is said in the result, since the change itself was made.
 */
async function commitRecord(recording: Recording, data: unknown, taken: Before): Promise<unknown> {
  let record: OperationRecord | undefined;
  try {
    record = await writeRecord(recording, taken, data, false);
    if (!record) return withFields(data, { operation_id: null, undo_available: false });
  } catch (error) {
    if (error instanceof ToolError || isFsError(error, 'locked')) throw error;
    // The call itself succeeded: say that it was not recorded rather than report a failure that did not happen.
    return withFields(
      data,
      { operation_id: null, undo_available: false },
      `The change was made but not recorded in the history: ${describeError(error)}`,
    );
  }
  if (!record.undo_available && record.unavailable_reason !== undefined) {
    return withFields(
      data,
      { operation_id: record.id, undo_available: false },
      `This change cannot be undone: ${record.unavailable_reason}.`,
    );
  }
  return withFields(data, { operation_id: record.id, undo_available: record.undo_available });
}

/** The targets whose state the call changed, each with its before and after state. */
async function changedPaths(recording: Recording, before: readonly PathState[], afterReader: StateReader): Promise<PathRecord[]> {
  const paths: PathRecord[] = [];
  for (const [index, target] of recording.targets.entries()) {
    const after = await afterReader.read(target.absolute);
    const was = before[index] ?? { type: 'missing' };
    if (!sameState(was, after)) paths.push({ absolute: target.absolute, display: target.display, before: was, after });
  }
  return paths;
}

/**
 * The paths a call may change: the tool's own list, else every path parameter it was given. A path that does not
 * exist yet is widened to its highest missing ancestor, so that an undo also removes the parent directories the
 * call created. Paths inside another listed path are dropped (the outer one's state covers them).
 */
async function affectedPaths(tool: Tool, call: ToolCall, context: ToolContext): Promise<ConfinedPath[]> {
  const declared = await declaredPaths(tool, call, context);
  const { fs } = context.workspace;
  const widened: ConfinedPath[] = [];
  for (const path of declared) {
    let absolute = path.absolute;
    if (absolute !== path.root.path && !(await fs.stat(absolute))) {
      for (
        let parent = dirname(absolute);
        parent !== path.root.path && isWithin(path.root.path, parent) && !(await fs.stat(parent));
        parent = dirname(parent)
      ) {
        absolute = parent;
      }
    }
    widened.push(absolute === path.absolute ? path : { root: path.root, absolute, display: context.paths.display(path.root, absolute) });
  }
  const unique = widened.filter((path, index) => widened.findIndex((other) => other.absolute === path.absolute) === index);
  return unique.filter((path) => !unique.some((other) => other !== path && isWithin(other.absolute, path.absolute)));
}

/** The paths a call's path parameters name, in the order the definition lists them. */
/** The paths a call names as those it changes: the tool's own list, else its path parameters. */
async function declaredPaths(tool: Tool, call: ToolCall, context: ToolContext): Promise<readonly ConfinedPath[]> {
  return (await call.affects(context)) ?? parameterPaths(tool, call.input, context);
}

async function parameterPaths(tool: Tool, input: Readonly<Record<string, unknown>>, context: ToolContext): Promise<ConfinedPath[]> {
  const paths: ConfinedPath[] = [];
  for (const [name, slot] of Object.entries(tool.pathParameters)) {
    const value = input[name];
    const given =
      typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : [];
    for (const each of given) paths.push(await context.paths.resolve(each, slot));
  }
  return paths;
}

/**
 * One line for people, from the paths as the call named them ("move_file a.txt → b/a.txt"), not as they were
 * recorded (a missing parent widens "b/a.txt" to "b"); an undo names what it undid.
 */
async function summarise(
  tool: Tool,
  input: Readonly<Record<string, unknown>>,
  paths: readonly PathRecord[],
  context: ToolContext,
  undone: string | undefined,
): Promise<string> {
  if (undone !== undefined) return `undo: ${undone}`;
  const operation = tool.name;
  const named = await parameterPaths(tool, input, context).catch(() => []);
  if (typeof input.source_path === 'string' && typeof input.destination_path === 'string' && named.length === 2) {
    return `${operation} ${named[0]?.display ?? ''} → ${named[1]?.display ?? ''}`;
  }
  const shown = named.length > 0 ? named.map((path) => path.display) : paths.map((path) => path.display);
  // A call across a project changes a thousand files: the line names a few and counts the rest.
  const more = shown.length > SUMMARY_PATHS ? ` and ${shown.length - SUMMARY_PATHS} more` : '';
  return `${operation} ${shown.slice(0, SUMMARY_PATHS).join(', ')}${more}`;
}

async function undoneSummary(history: HistoryStore, data: unknown): Promise<string | undefined> {
  // The undo of a session says which session: its result's summary.
  const ofSession =
    typeof data === 'object' && data !== null && 'undone_operation_ids' in data ? (data as { summary?: unknown }).summary : undefined;
  if (typeof ofSession === 'string') return ofSession;
  const id = undoneOperationOf(data);
  return id === undefined ? undefined : ((await history.get(id))?.summary ?? id);
}

function summariseInput(tool: Tool, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    const kept = KEPT_TEXT.has(name) || name in tool.pathParameters;
    if (typeof value === 'string') summary[name] = kept && value.length <= 4096 ? value : `[${value.length} characters]`;
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) summary[name] = value;
    else if (Array.isArray(value)) summary[name] = `[${value.length} items]`;
    else summary[name] = '[object]';
  }
  return summary;
}

/** Who made the change, and for the undo of a session, every operation it undid. */
function provenance(context: ToolContext, data: unknown): Pick<OperationRecord, 'origin' | 'undo_of_all'> {
  const all = typeof data === 'object' && data !== null ? (data as { undone_operation_ids?: unknown }).undone_operation_ids : undefined;
  const ids = Array.isArray(all) ? all.filter((each): each is string => typeof each === 'string') : [];
  return { ...(context.origin ? { origin: context.origin } : {}), ...(ids.length > 0 ? { undo_of_all: ids } : {}) };
}

function undoneOperationOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const value = (data as { undone_operation_id?: unknown }).undone_operation_id;
  return typeof value === 'string' ? value : undefined;
}

/**
 * HISTORY_WRITE_FAILED: the change was not made because its record could not be kept. Says why and how to go on, in
 * the host's words (free space, or the person turns the history off).
 */
function historyRefusal(tool: Tool, context: ToolContext, history: HistoryStore, why: string): ToolError {
  return new ToolError(
    'HISTORY_WRITE_FAILED',
    `${toolRef(tool.name)} changed nothing: ${why}, and Agent FS makes no change its history cannot undo. Free space where the history is kept (${history.directory}) and try again, or ask the person to turn the history off (${context.policy.wording.history}).`,
    { history_directory: history.directory },
  );
}

function withFields(data: unknown, fields: HistoryFields, warning?: string): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  return { ...data, ...fields, ...(warning === undefined ? {} : { history_warning: warning }) };
}
