/**
 * Locks over paths that hold across processes: the editor, runners and MCP servers working on one workspace at once
 * (the FileSystem port's `lock`, src/core/fs.ts). Node offers no lock the kernel drops when its holder dies (no
 * flock), so the lock is made of files, in one directory shared by every Agent FS process of the user.
 *
 * Protocol. A process owns "slot" files there, `<host>.<pid>.<slot>.idle` while free and renamed to `….held` while
 * it claims paths. A slot file only ever grows: a claim is a JSON line {pid, host, since, paths} (real paths)
 * appended to it, and every staging file the holder then creates (staging.ts siblingPath) is appended after it, one
 * per line, before it is created; the last JSON line is the current claim. (Appends and renames cost microseconds;
 * truncating or deleting a file can cost milliseconds on a busy disk.) A slot file stays open while its process has it,
 * so a claim or a staging name is one write and no open; the descriptor follows the file through its renames. To
 * lock: append the claim to a free slot,
 * rename it to .held, then read the directory. Another held
 * claim over an overlapping path (the same path, or one inside the other) is a conflict: of two overlapping claims
 * the younger (later `since`, then name) withdraws, renaming its file back to .idle, and tries again later, while
 * the older keeps its claim and waits for the other to go. Whichever of two claims looked second saw the first,
 * so two overlapping holders never both proceed, and as the older never withdraws they cannot livelock or deadlock.
 * A withdrawn claim is not published again while an older one over its paths is there (it looks first), so it does not
 * keep the older waiting; and a waiting claim wakes when the lock folder changes (one watch per folder), not only
 * after its backoff, so a claim held for a moment (the history store's) goes to the next at once.
 * A claim is made visible by a rename once its line is complete, so no reader sees half of one (a slot's very
 * first claim is appended in place, and a reader that cannot parse it waits).
 *
 * Stale claims. A claim is stale when its process is gone (same host, no such pid, or a zombie) or when its file
 * has not been touched for `staleMs` (holders touch theirs every staleMs / 4; this covers a lock directory on a home
 * shared between hosts, and a dead holder's pid taken by another process). Every lock attempt clears every stale
 * slot it sees, first recovering the holder's staging files: a parked original (`replaced`) goes back to its name
 * when that is empty (the swap never happened), any other staging file is deleted (its content never got in place).
 * A dead process's idle slot is recovered the same way, since after a power cut its last claim may be on the disk
 * under the idle name (the rename to .held was lost) while the staging files it noted are there; and the note of a
 * parked original is synced to the disk (the slot, then the lock folder) before the original is parked, in every
 * durability mode, since after a crash between the swap's two renames that note is the only way back to it.
 *
 * Bound: a live holder is waited for up to `waitMs`; then the attempt fails with FsError 'locked', naming it.
 *
 * Within one process this excludes nothing: a lock over paths this process already holds is granted at once, and
 * the core orders its own calls (src/core/locks.ts, HistoryStore.exclusive). All file operations here are
 * synchronous: they are a few small metadata calls, cheaper than a thread-pool round trip each.
 *
 * Over 300 lines: the lock protocol is one state machine over the slot files; apart, its invariants could not be read
 * in one place.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { stagingNameInfo } from '../../core/files/staging';
import { FsError, type HeldLock } from '../../core/ports/fs';

export interface NodeLockOptions {
  /** How long to wait for a live holder before failing with FsError 'locked'. */
  readonly waitMs?: number;
  /** How long a claim may go untouched before it counts as abandoned. */
  readonly staleMs?: number;
}

const DEFAULT_LOCK_WAIT_MS = 30_000;
const DEFAULT_LOCK_STALE_MS = 60_000;

interface Claim {
  readonly pid: number;
  readonly host: string;
  /** When the claim was first made (ms since the epoch): older claims win. */
  readonly since: number;
  /** Canonical real paths. */
  readonly paths: readonly string[];
}

interface Slot {
  readonly index: number;
  readonly idle: string;
  readonly held: string;
  /** Whether the file exists yet (under either name). */
  exists: boolean;
  /** Paths of the claim while its file is .held. */
  paths: readonly string[] | undefined;
  /** Granted (not merely waiting). */
  granted: boolean;
  /** The file, open for appending while it exists (under either name), and how many bytes this process wrote to it. */
  fd: number | undefined;
  size: number;
}

const SLOT_NAME = /^([0-9a-f]{8})\.(\d+)\.(\d+)\.(idle|held)$/;
/** A slot file is retired (a new one started) once it has grown past this. */
const SLOT_MAX_BYTES = 256 * 1024;
/** How much of a slot file's end is read to find its current claim. */
const TAIL_BYTES = 8192;
const RECOVERING_NAME = /^([0-9a-f]{8})\.(\d+)\.(\d+)\.held\.recovering-(\d+)$/;
const CASE_INSENSITIVE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * How long a process found alive is taken to be alive without asking again. Every lock attempt looks at every slot
 * of the folder, and asking (a signal and a read of /proc) cost about 30 µs a slot, three attempts a recorded call:
 * with a few other Agent FS processes on the machine, 0.4 ms of each call. The holder of a claim an attempt would wait
 * for is always asked afresh (conflicts), so this only delays clearing the slots of dead processes that are in no
 * one's way; nothing alive is ever taken for dead.
 */
const ALIVE_FOR_MS = 1_000;
/** Per pid, when it was last found alive. */
const foundAlive = new Map<number, number>();

/** Whether a process with this pid runs on this host (a zombie, already dead but not yet reaped, does not count). */
function processAlive(pid: number): boolean {
  const now = Date.now();
  if (now - (foundAlive.get(pid) ?? -Infinity) < ALIVE_FOR_MS) return true;
  const alive = askAlive(pid);
  if (alive) foundAlive.set(pid, now);
  else foundAlive.delete(pid);
  return alive;
}

function askAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** The path with every link resolved; for a path that does not exist, its nearest existing ancestor's. */
function canonical(path: string): string {
  let suffix = '';
  let current = nodePath.resolve(path);
  // A path that is no link (or is not there: a file about to be written) resolves as its folder does: one look at it
  // spares the real-path walk that fails at its last component.
  const folder = nodePath.dirname(current);
  if (folder !== current) {
    let link = true;
    try {
      link = fs.lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
    } catch {
      // Not a folder on the way, say: the walk below finds what exists.
    }
    if (!link) {
      suffix = `/${nodePath.basename(current)}`;
      current = folder;
    }
  }
  for (;;) {
    try {
      const real = fs.realpathSync.native(current) + suffix;
      const slashed = nodePath.sep === '/' ? real : real.split(nodePath.sep).join('/');
      return CASE_INSENSITIVE ? slashed.toLowerCase() : slashed;
    } catch {
      const parent = nodePath.dirname(current);
      if (parent === current) return CASE_INSENSITIVE ? path.toLowerCase() : path;
      suffix = `/${nodePath.basename(current)}${suffix}`;
      current = parent;
    }
  }
}

function overlaps(a: string, b: string): boolean {
  return a === b || b.startsWith(a.endsWith('/') ? a : `${a}/`) || a.startsWith(b.endsWith('/') ? b : `${b}/`);
}

function covers(outer: string, inner: string): boolean {
  return outer === inner || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

const HOST = os.hostname();
const HOST_TAG = createHash('sha256').update(HOST).digest('hex').slice(0, 8);

/** Slots by lock directory, shared by every NodeLocks of this process (slot names must not collide). */
const slotsByDirectory = new Map<string, Slot[]>();
let exitHandler = false;

/**
 * Notes a staging file in every claim this process holds, before it is created, so that a process that finds this
 * one dead can clean it up. The port calls it for every path it creates under a staging name.
 */
export function trackStaging(path: string): void {
  // A parked original is the only copy of what it replaces until the swap is done: its note must outlive a power cut,
  // or a crash between the two renames would leave it hidden for good. Other staging files only hold new content.
  const parked = stagingNameInfo(nodePath.basename(path))?.purpose === 'replaced';
  for (const [directory, slots] of slotsByDirectory) {
    for (const slot of slots) {
      if (!slot.paths) continue;
      try {
        append(slot, slot.held, `${path}\n`);
        if (parked && slot.fd !== undefined) {
          fs.fsyncSync(slot.fd);
          syncFolder(directory);
        }
      } catch {
        // A claim taken over as stale (this process looked dead): nothing left to note it in.
      }
    }
  }
}

/** fsync of a folder's entries (the slot's name, held or idle); Windows has no folder handle to flush. */
function syncFolder(directory: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(directory, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Appends `text` to a slot's file through its open descriptor, opening it by `name` (creating it) first if needed.
 * With O_APPEND every write lands at the end, whatever name the file has by then.
 */
function append(slot: Slot, name: string, text: string): void {
  slot.fd ??= fs.openSync(name, 'a');
  const bytes = Buffer.from(text);
  let written = 0;
  while (written < bytes.length) written += fs.writeSync(slot.fd, bytes, written, bytes.length - written);
  slot.size += bytes.length;
}

/** Closes a slot's descriptor: its file was retired, removed, or taken over by another process. */
function closeSlot(slot: Slot): void {
  if (slot.fd !== undefined) {
    try {
      fs.closeSync(slot.fd);
    } catch {
      // Closed already.
    }
  }
  slot.fd = undefined;
  slot.size = 0;
}

/** Removes this process's slot files (at exit; a killed process leaves them to the next lock attempt). */
function disposeAll(): void {
  for (const slots of slotsByDirectory.values()) {
    for (const slot of slots) {
      closeSlot(slot);
      for (const file of [slot.idle, slot.held]) {
        try {
          fs.unlinkSync(file);
        } catch {
          // Not there.
        }
      }
      slot.exists = false;
      slot.paths = undefined;
      slot.granted = false;
    }
  }
}

function newSlot(index: number, base: string): Slot {
  return { index, idle: `${base}.idle`, held: `${base}.held`, exists: false, paths: undefined, granted: false, fd: undefined, size: 0 };
}

/** One NodeLocks per directory and bounds, so that every port of a process shares one `lock` (locks.ts merges by it). */
const shared = new Map<string, NodeLocks>();

export class NodeLocks {
  /** The NodeLocks for a directory and bounds, made once per process. */
  static shared(directory: string, options: NodeLockOptions = {}): NodeLocks {
    const key = `${nodePath.resolve(directory)}\0${options.waitMs ?? ''}\0${options.staleMs ?? ''}`;
    let locks = shared.get(key);
    if (!locks) shared.set(key, (locks = new NodeLocks(directory, options)));
    return locks;
  }

  private readonly waitMs: number;
  private readonly staleMs: number;
  private readonly host = HOST;
  private readonly hostTag = HOST_TAG;
  private readonly slots: Slot[];
  private prepared = false;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The watch on the lock folder that wakes waiting claims (undefined: not made yet; null: cannot be had). */
  private watcher: fs.FSWatcher | null | undefined;
  private readonly sleepers: (() => void)[] = [];

  constructor(
    /** The lock directory every cooperating process uses (src/node/host/stateDirectory.ts `defaultLockDirectory`). */
    readonly directory: string,
    options: NodeLockOptions = {},
  ) {
    this.waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
    this.staleMs = Math.max(1000, options.staleMs ?? DEFAULT_LOCK_STALE_MS);
    const key = nodePath.resolve(directory);
    let slots = slotsByDirectory.get(key);
    if (!slots) slotsByDirectory.set(key, (slots = []));
    this.slots = slots;
  }

  /** The port's `lock` (see FileSystem.lock); a stable function, so ports sharing it are recognised as one. */
  readonly lock = (paths: readonly string[], options: { readonly wait?: boolean } = {}): Promise<HeldLock> =>
    this.acquire(paths, options.wait !== false);

  private async acquire(paths: readonly string[], wait: boolean): Promise<HeldLock> {
    const keys = [...new Set(paths.map(canonical))];
    const mine = this.slots.filter((slot) => slot.granted && slot.paths);
    if (keys.every((key) => mine.some((slot) => slot.paths?.some((held) => covers(held, key)))))
      return { release: () => Promise.resolve() };
    this.prepare();
    // A lock that must not wait looks first: a live claim over the paths answers at once, with no claim of its own
    // made and withdrawn (the history's recovery asks this of every other process's call under way).
    if (!wait) {
      const busy = this.conflicts(undefined, keys)[0];
      if (busy) throw new FsError('locked', `Another Agent FS process is changing ${busy.path}.`);
    }
    const slot = this.freeSlot();
    const since = Date.now();
    const deadline = since + this.waitMs;
    const claim = `${JSON.stringify({ pid: process.pid, host: this.host, since, paths: keys } satisfies Claim)}\n`;
    let delay = 1;
    let claimed = false;
    let conflicts: (Claim & { name: string; path: string })[] = [];
    const older = (other: { since: number; name: string }): boolean =>
      other.since < since || (other.since === since && other.name < nodePath.basename(slot.held));
    for (;;) {
      if (!claimed) {
        // While an older claim over these paths is there (held, or waiting its turn), publishing this one would only
        // get in its way (it would see a conflict and wait on): look, and publish once none is.
        conflicts = this.conflicts(undefined, keys);
        if (!conflicts.some(older)) {
          this.publish(slot, claim, keys);
          claimed = true;
        }
      }
      if (claimed) {
        conflicts = this.conflicts(slot, keys);
        if (conflicts.length === 0) {
          slot.granted = true;
          return { release: () => Promise.resolve(this.release(slot)) };
        }
        if (conflicts.some(older) || !wait || Date.now() >= deadline) {
          this.withdraw(slot);
          claimed = false;
        }
      }
      if (!wait) throw new FsError('locked', `Another Agent FS process is changing ${conflicts[0]?.path ?? keys.join(', ')}.`);
      if (Date.now() >= deadline) {
        const holder = conflicts[0];
        const who = holder
          ? `process ${holder.pid}${holder.host === this.host ? '' : ` on ${holder.host}`}, which has held it since ${new Date(holder.since).toISOString()}`
          : 'another process';
        throw new FsError(
          'locked',
          `Another Agent FS process is changing ${holder?.path ?? keys.join(', ')} (${who}); waited ${Math.round(this.waitMs / 1000)} s. Nothing was changed; try again when it has finished.`,
        );
      }
      await this.changeOrTimeout(delay);
      delay = Math.min(delay * 2, 50);
    }
  }

  /**
   * Resolves when the lock folder changes (a claim withdrawn, released or made) or after `ms`, whichever comes first:
   * a claim held for a moment (the history store's, many times a second when processes record at once) is taken the
   * moment it is released, instead of after a backoff that grows to 50 ms. The watch is one per folder, made on the
   * first wait; where it cannot be had, the timeout alone serves.
   */
  private changeOrTimeout(ms: number): Promise<void> {
    if (this.watcher === undefined) {
      try {
        this.watcher = fs.watch(this.directory, () => {
          for (const wake of this.sleepers.splice(0)) wake();
        });
        this.watcher.on('error', () => undefined);
        this.watcher.unref();
      } catch {
        this.watcher = null;
      }
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = this.sleepers.indexOf(wake);
        if (at >= 0) this.sleepers.splice(at, 1);
        resolve();
      }, ms);
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.sleepers.push(wake);
    });
  }

  private prepare(): void {
    if (this.prepared) return;
    fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    this.prepared = true;
    if (!exitHandler) {
      exitHandler = true;
      process.once('exit', disposeAll);
    }
  }

  private freeSlot(): Slot {
    const free = this.slots.find((slot) => !slot.paths);
    if (free) return free;
    const index = this.slots.length === 0 ? 0 : Math.max(...this.slots.map((slot) => slot.index)) + 1;
    const base = nodePath.join(this.directory, `${this.hostTag}.${process.pid}.${index}`);
    const slot: Slot = newSlot(index, base);
    this.slots.push(slot);
    return slot;
  }

  /** Makes the claim visible: appended under the idle name, then renamed (a new slot's first is appended in place). */
  private publish(slot: Slot, claim: string, keys: readonly string[]): void {
    if (slot.exists) {
      append(slot, slot.idle, claim);
      fs.renameSync(slot.idle, slot.held);
    } else {
      closeSlot(slot);
      append(slot, slot.held, claim);
      slot.exists = true;
    }
    slot.paths = keys;
    this.startHeartbeat();
  }

  private withdraw(slot: Slot): void {
    try {
      fs.renameSync(slot.held, slot.idle);
    } catch {
      // Taken over as stale meanwhile: the slot is free all the same, and its file is gone.
      slot.exists = false;
      closeSlot(slot);
    }
    slot.paths = undefined;
    slot.granted = false;
    if (!this.slots.some((each) => each.paths)) this.stopHeartbeat();
  }

  private release(slot: Slot): void {
    if (!slot.paths) return;
    this.withdraw(slot);
    // A long-lived process's slot has grown large (by what this process wrote to it, the only writer): retire it
    // (deleted off the hot path) and start another.
    if (!slot.exists || slot.size <= SLOT_MAX_BYTES) return;
    const at = this.slots.indexOf(slot);
    const index = Math.max(...this.slots.map((each) => each.index)) + 1;
    this.slots[at] = newSlot(index, nodePath.join(this.directory, `${this.hostTag}.${process.pid}.${index}`));
    closeSlot(slot);
    fs.unlink(slot.idle, () => undefined);
  }

  /** Other live claims overlapping `keys` (besides `slot`'s, if given); clears every stale slot on the way. */
  private conflicts(slot: Slot | undefined, keys: readonly string[]): (Claim & { name: string; path: string })[] {
    const found: (Claim & { name: string; path: string })[] = [];
    const own = slot === undefined ? undefined : nodePath.basename(slot.held);
    for (const name of fs.readdirSync(this.directory)) {
      if (name === own) continue;
      const recovering = RECOVERING_NAME.exec(name);
      if (recovering) {
        // A recovery whose process died midway: finish it (recovery is idempotent).
        if (recovering[1] === this.hostTag && !processAlive(Number(recovering[4]))) this.recover(name, true);
        continue;
      }
      const match = SLOT_NAME.exec(name);
      if (!match) continue;
      const [, tag, pidText, , state] = match;
      const pid = Number(pidText);
      if (pid === process.pid && tag === this.hostTag) continue;
      const full = nodePath.join(this.directory, name);
      const dead = tag === this.hostTag && !processAlive(pid);
      if (state === 'idle') {
        // Released, or held when its process died and the rename to .held never reached the disk (a power cut): the
        // staging files its last claim noted are put right either way (finished ones are gone, so it costs a look).
        if (dead) this.recover(name, false);
        continue;
      }
      if (dead || this.untouched(full)) {
        this.recover(name, false);
        continue;
      }
      let claim: Claim | undefined;
      try {
        claim = readClaim(full)?.claim;
      } catch (error) {
        if (errorCode(error) === 'ENOENT') continue;
      }
      if (!claim) {
        // A live process's first claim, caught half-written: a conflict younger than anyone, so wait a moment.
        found.push({ pid, host: tag ?? '', since: Number.MAX_SAFE_INTEGER, paths: [], name, path: keys[0] ?? '' });
        continue;
      }
      const overlap = claim.paths.find((other) => keys.some((key) => overlaps(key, other)));
      if (overlap === undefined) continue;
      // A claim this attempt would wait for: its process is asked afresh, so a killed holder's lock goes at once.
      if (tag === this.hostTag && !askAlive(pid)) {
        foundAlive.delete(pid);
        this.recover(name, false);
        continue;
      }
      found.push({ ...claim, name, path: overlap });
    }
    return found;
  }

  private untouched(full: string): boolean {
    try {
      return Date.now() - fs.statSync(full).mtimeMs > this.staleMs;
    } catch {
      return false;
    }
  }

  /**
   * Clears a stale claim: moves it aside under a name only this process uses (so two processes never recover one
   * claim at once), puts its staging files right, then deletes it.
   */
  private recover(name: string, alreadyMoved: boolean): void {
    const full = nodePath.join(this.directory, name);
    const moving = alreadyMoved ? full : `${full}.recovering-${process.pid}`;
    if (!alreadyMoved) {
      try {
        fs.renameSync(full, moving);
      } catch {
        return; // Another process got there first, or its owner released it.
      }
    }
    let staged: readonly string[] = [];
    try {
      staged = readClaim(moving)?.staged ?? [];
    } catch {
      // Nothing to recover.
    }
    for (const each of staged) recoverStaging(each);
    this.removeQuietly(moving);
  }

  private removeQuietly(full: string): void {
    try {
      fs.unlinkSync(full);
    } catch {
      // Gone already.
    }
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(
      () => {
        const now = new Date();
        for (const slot of this.slots) {
          if (!slot.paths) continue;
          try {
            fs.utimesSync(slot.held, now, now);
          } catch {
            // Taken over; the holder learns nothing here, but its own release is harmless.
          }
        }
      },
      Math.max(250, Math.floor(this.staleMs / 4)),
    );
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (!this.heartbeat) return;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}

/** The last claim in a slot file and the staging files noted after it; `undefined` when it holds no whole claim. */
function readClaim(full: string): { claim: Claim; staged: string[] } | undefined {
  const fd = fs.openSync(full, 'r');
  let text: string;
  try {
    const size = fs.fstatSync(fd).size;
    const read = (from: number): string => {
      const buffer = Buffer.allocUnsafe(size - from);
      const count = fs.readSync(fd, buffer, 0, buffer.length, from);
      return buffer.toString('utf8', 0, count);
    };
    text = read(Math.max(0, size - TAIL_BYTES));
    // A claim followed by more staging names than the tail holds: read it all.
    if (size > TAIL_BYTES && !/(^|\n)\{/.test(text)) text = read(0);
  } finally {
    fs.closeSync(fd);
  }
  const lines = text.split('\n');
  for (let at = lines.length - 1; at >= 0; at--) {
    const line = lines[at] ?? '';
    if (!line.startsWith('{')) continue;
    try {
      const claim = JSON.parse(line) as Claim;
      // The last line is complete only once its newline is there.
      if (at === lines.length - 1) return undefined;
      return { claim, staged: lines.slice(at + 1).filter((each) => each !== '' && !each.startsWith('{')) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Puts one staging file of a dead process right. A parked original whose name is empty goes back (the swap never
 * happened, so it holds the only copy of the old bytes); every other staging file, and a parked original whose
 * replacement is in place, is deleted.
 */
function recoverStaging(staged: string): void {
  try {
    fs.lstatSync(staged);
  } catch {
    return; // Finished or removed by its owner.
  }
  const info = stagingNameInfo(nodePath.basename(staged));
  if (!info) return; // Never anything but a staging name: a claim file is no licence to delete other paths.
  if (info.purpose === 'replaced') {
    const original = nodePath.join(nodePath.dirname(staged), info.original);
    let occupied = true;
    try {
      fs.lstatSync(original);
    } catch {
      occupied = false;
    }
    if (!occupied) {
      try {
        fs.renameSync(staged, original);
        return;
      } catch {
        // Fall through: leave it rather than delete the only copy.
        return;
      }
    }
  }
  try {
    fs.rmSync(staged, { recursive: true, force: true });
  } catch {
    // Tried again by the next recovery of a claim naming it, or left for the person.
  }
}
