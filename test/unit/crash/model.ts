/**
 * Every state a crash could leave, rebuilt from a recording of a process's file-system calls (recorder.ts), in the
 * manner of ALICE (Pillai et al., OSDI 2014), under a strict model of the disk:
 *
 *  - a file's bytes survive only once an fsync of it that started after they were written has ended; until then a
 *    crash may leave the bytes it had when it was last synced (none, for a file made since), the new ones, the new
 *    size filled with zeros past the synced part, or a cut part of the new ones;
 *  - a folder's entry (a name made, removed or renamed in it) survives only once an fsync of that folder (for a
 *    rename, of both folders) that started after it has ended; until then any set of them may survive, in any order,
 *    each rename whole (it moves one file from one name to the other: never both, never neither with the file lost
 *    unless the rename is not kept).
 *
 * For each moment of the recording (after each call), the states a crash then could leave: with few unsynced entries,
 * every set of them; with many, the sets that keep a prefix of them, drop one, keep one, plus a fixed number drawn at
 * random (seeded); for the files' bytes, every file new, every file as last synced, zeros, and each file alone torn.
 * States that come out the same are one state.
 */
import { createHash } from 'node:crypto';
import type { TraceOp } from './recorder';

/** One entry of a tree as a snapshot or a crash state holds it: relative path → what is there. */
export type TreeEntry =
  { readonly kind: 'dir' } | { readonly kind: 'file'; readonly data: Buffer } | { readonly kind: 'link'; readonly target: string };

/** A tree as the recording's first moment found it: entries by relative path, and which files share one inode. */
export interface InitialTree {
  readonly entries: ReadonlyMap<string, TreeEntry>;
  /** Relative path → an inode key (device:inode): hard links share one. */
  readonly inodes: ReadonlyMap<string, string>;
}

export interface CrashState {
  /** How many recorded calls had happened. */
  readonly moment: number;
  /** Whether the call under test had replied by then. */
  readonly acknowledged: boolean;
  readonly tree: ReadonlyMap<string, TreeEntry>;
  readonly key: string;
}

type Node = { kind: 'file'; versions: { at: number; data: Buffer }[] } | { kind: 'dir' } | { kind: 'link'; target: string };

/** A change to a folder's entries, in inode terms. */
interface EntryEvent {
  readonly at: number;
  /** The folders it changed: all must be synced after it for it to be certain. */
  readonly dirs: readonly number[];
  readonly apply: (dirs: Map<number, Map<string, number>>) => void;
  /** Whether it changed the lock folder only (its slots), whose states matter little: explored less. */
  readonly lockOnly: boolean;
}

interface Sync {
  readonly node: number;
  readonly start: number;
  readonly end: number;
}

export interface Exploration {
  /** Unsynced entries up to which every set of them is tried. */
  readonly allSetsUpTo: number;
  /** Random sets drawn beyond that, per moment. */
  readonly randomSets: number;
  readonly seed: number;
}

const DEFAULT_EXPLORATION: Exploration = { allSetsUpTo: 6, randomSets: 12, seed: 1 };

/** The recording replayed onto a model of the tree: its nodes, its entry events and its syncs. */
class Replay {
  readonly nodes = new Map<number, Node>();
  /** The entries of each folder as they are now (during the replay: at the moment being replayed). */
  readonly dirs = new Map<number, Map<string, number>>();
  readonly initialDirs = new Map<number, Map<string, number>>();
  readonly events: EntryEvent[] = [];
  readonly syncs: Sync[] = [];
  ack = Number.POSITIVE_INFINITY;
  private next = 1;

  constructor(
    private readonly root: string,
    initial: InitialTree,
    private readonly lockFolder: string,
    ops: readonly TraceOp[],
  ) {
    this.nodes.set(0, { kind: 'dir' });
    this.dirs.set(0, new Map());
    const byInode = new Map<string, number>();
    const paths = [...initial.entries.keys()].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
    for (const path of paths) {
      const entry = initial.entries.get(path);
      if (!entry) continue;
      const parent = this.resolve(this.parentOf(path));
      if (parent === undefined) continue;
      const inode = initial.inodes.get(path);
      let id = inode === undefined ? undefined : byInode.get(inode);
      if (id === undefined) {
        id = this.make(
          entry.kind === 'file'
            ? { kind: 'file', versions: [{ at: -1, data: entry.data }] }
            : entry.kind === 'dir'
              ? { kind: 'dir' }
              : { kind: 'link', target: entry.target },
        );
        if (inode !== undefined) byInode.set(inode, id);
      }
      this.dirs.get(parent)?.set(this.nameOf(path), id);
    }
    for (const [id, entries] of this.dirs) this.initialDirs.set(id, new Map(entries));
    this.run(ops);
  }

  private make(node: Node): number {
    const id = this.next++;
    this.nodes.set(id, node);
    if (node.kind === 'dir') this.dirs.set(id, new Map());
    return id;
  }

  relative(path: string): string | undefined {
    if (path === this.root) return '';
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : undefined;
  }

  private parentOf(relative: string): string {
    const at = relative.lastIndexOf('/');
    return at < 0 ? '' : relative.slice(0, at);
  }

  private nameOf(relative: string): string {
    return relative.slice(relative.lastIndexOf('/') + 1);
  }

  /** The node at a relative path, now. */
  private resolve(relative: string): number | undefined {
    let id = 0;
    if (relative === '') return id;
    for (const name of relative.split('/')) {
      const next = this.dirs.get(id)?.get(name);
      if (next === undefined) return undefined;
      id = next;
    }
    return id;
  }

  /** The folder and name of an absolute path below the root; undefined elsewhere or where the folder is missing. */
  private place(path: string): { dir: number; name: string; relative: string } | undefined {
    const relative = this.relative(path);
    if (relative === undefined || relative === '') return undefined;
    const dir = this.resolve(this.parentOf(relative));
    return dir === undefined ? undefined : { dir, name: this.nameOf(relative), relative };
  }

  private data(id: number): Buffer {
    const node = this.nodes.get(id);
    return node?.kind === 'file' ? (node.versions[node.versions.length - 1]?.data ?? Buffer.alloc(0)) : Buffer.alloc(0);
  }

  private setData(id: number, at: number, data: Buffer): void {
    const node = this.nodes.get(id);
    if (node?.kind === 'file') node.versions.push({ at, data });
  }

  private entry(
    at: number,
    place: { dir: number; relative: string },
    change: (dirs: Map<number, Map<string, number>>) => void,
    dirs: number[] = [place.dir],
  ): void {
    const lockOnly = place.relative.startsWith(`${this.lockFolder}/`);
    this.events.push({ at, dirs, apply: change, lockOnly });
    change(this.dirs);
  }

  private add(at: number, path: string, id: number): void {
    const place = this.place(path);
    if (!place) return;
    this.entry(at, place, (dirs) => dirs.get(place.dir)?.set(place.name, id));
  }

  private remove(at: number, path: string): void {
    const place = this.place(path);
    if (!place) return;
    const id = this.dirs.get(place.dir)?.get(place.name);
    if (id === undefined) return;
    this.entry(at, place, (dirs) => {
      const folder = dirs.get(place.dir);
      if (folder?.get(place.name) === id) folder.delete(place.name);
    });
  }

  private run(ops: readonly TraceOp[]): void {
    const fds = new Map<number, { node: number; position: number; append: boolean }>();
    const pending = new Map<number, { node: number; start: number }>();
    const created = (at: number, path: string, data: Buffer): number => {
      const id = this.make({ kind: 'file', versions: [{ at: -1, data: Buffer.alloc(0) }] });
      this.add(at, path, id);
      if (data.length > 0) this.setData(id, at, data);
      return id;
    };
    const existing = (path: string): number | undefined => {
      const place = this.place(path);
      const id = place && this.dirs.get(place.dir)?.get(place.name);
      return id !== undefined && this.nodes.get(id)?.kind === 'file' ? id : undefined;
    };
    for (const [at, op] of ops.entries()) {
      switch (op.op) {
        case 'bind':
        case 'open': {
          const relative = this.relative(op.path);
          if (relative === undefined) break;
          let id = this.resolve(relative);
          if (op.op === 'open') {
            if (id === undefined && op.create) id = created(at, op.path, Buffer.alloc(0));
            else if (id !== undefined && op.truncate) this.setData(id, at, Buffer.alloc(0));
          }
          if (id !== undefined) fds.set(op.fd, { node: id, position: 0, append: op.op === 'bind' || op.append });
          break;
        }
        case 'close':
          fds.delete(op.fd);
          break;
        case 'write': {
          const fd = fds.get(op.fd);
          if (!fd) break;
          const bytes = Buffer.from(op.data, 'base64');
          const old = this.data(fd.node);
          const position = op.position ?? (fd.append ? old.length : fd.position);
          const next = Buffer.alloc(Math.max(old.length, position + bytes.length));
          old.copy(next);
          bytes.copy(next, position);
          this.setData(fd.node, at, next);
          if (op.position === null) fd.position = position + bytes.length;
          break;
        }
        case 'ftruncate':
        case 'truncate': {
          const id = op.op === 'ftruncate' ? fds.get(op.fd)?.node : existing(op.path);
          if (id === undefined) break;
          const old = this.data(id);
          const next = Buffer.alloc(op.size);
          old.copy(next, 0, 0, Math.min(old.length, op.size));
          this.setData(id, at, next);
          break;
        }
        case 'sync-start': {
          const fd = fds.get(op.fd);
          if (fd) pending.set(op.id, { node: fd.node, start: at });
          break;
        }
        case 'sync-end': {
          const started = pending.get(op.id);
          if (started) this.syncs.push({ ...started, end: at });
          pending.delete(op.id);
          break;
        }
        case 'writeFile': {
          const id = op.exclusive ? undefined : existing(op.path);
          if (id === undefined) created(at, op.path, Buffer.from(op.data, 'base64'));
          else this.setData(id, at, Buffer.from(op.data, 'base64'));
          break;
        }
        case 'append': {
          const id = existing(op.path);
          if (id === undefined) created(at, op.path, Buffer.from(op.data, 'base64'));
          else this.setData(id, at, Buffer.concat([this.data(id), Buffer.from(op.data, 'base64')]));
          break;
        }
        case 'create': {
          const id = existing(op.path);
          if (id === undefined) created(at, op.path, Buffer.from(op.data, 'base64'));
          else this.setData(id, at, Buffer.from(op.data, 'base64'));
          break;
        }
        case 'rename': {
          const from = this.place(op.from);
          const to = this.place(op.to);
          const id = from && this.dirs.get(from.dir)?.get(from.name);
          if (!from || !to || id === undefined) break;
          this.entry(
            at,
            to,
            (dirs) => {
              const source = dirs.get(from.dir);
              if (source?.get(from.name) === id) source.delete(from.name);
              dirs.get(to.dir)?.set(to.name, id);
            },
            from.dir === to.dir ? [to.dir] : [from.dir, to.dir],
          );
          break;
        }
        case 'unlink':
        case 'rmdir':
          this.remove(at, op.path);
          break;
        case 'mkdir': {
          const relative = this.relative(op.path);
          if (relative !== undefined && relative !== '' && this.resolve(relative) === undefined)
            this.add(at, op.path, this.make({ kind: 'dir' }));
          break;
        }
        case 'link': {
          const relative = this.relative(op.from);
          const id = relative === undefined ? undefined : this.resolve(relative);
          if (id !== undefined) this.add(at, op.to, id);
          break;
        }
        case 'symlink':
          this.add(at, op.path, this.make({ kind: 'link', target: op.target }));
          break;
        case 'ack':
          this.ack = Math.min(this.ack, at);
          break;
      }
    }
  }

  /** Whether an entry event is certain by `moment`: each of its folders synced, by a sync that started after it. */
  certain(event: EntryEvent, moment: number): boolean {
    return event.dirs.every((dir) => this.syncs.some((sync) => sync.node === dir && sync.start > event.at && sync.end < moment));
  }

  /** A file's bytes at `moment` (its last version before it) and as last synced by then. */
  versions(id: number, moment: number): { current: Buffer; synced: Buffer } {
    const node = this.nodes.get(id);
    if (node?.kind !== 'file') return { current: Buffer.alloc(0), synced: Buffer.alloc(0) };
    const upTo = (at: number): Buffer => {
      let data = node.versions[0]?.data ?? Buffer.alloc(0);
      for (const version of node.versions) if (version.at < at) data = version.data;
      return data;
    };
    let syncedAt = -1;
    for (const sync of this.syncs) if (sync.node === id && sync.end < moment) syncedAt = Math.max(syncedAt, sync.start);
    // Unsynced, a file is what it was when the recording started (it starts from a synced tree): none for a new one.
    return { current: upTo(moment), synced: upTo(syncedAt >= 0 ? syncedAt : 0) };
  }
}

/** A seeded generator (a linear congruential one): the same states every run. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/** The torn forms of a file's bytes between its synced and its current version (see the header). */
function tornForms(synced: Buffer, current: Buffer): Buffer[] {
  if (synced.equals(current)) return [current];
  const zeros = Buffer.alloc(current.length);
  synced.copy(zeros, 0, 0, Math.min(synced.length, current.length));
  const cut = current.subarray(0, Math.max(synced.length, Math.floor(current.length / 2)));
  const forms = [current, synced, zeros, cut];
  return forms.filter((form, index) => forms.findIndex((other) => other.equals(form)) === index);
}

/** Every distinct state a crash could leave during the recording (see the header), each once. */
export function crashStates(
  root: string,
  initial: InitialTree,
  lockFolder: string,
  ops: readonly TraceOp[],
  exploration: Exploration = DEFAULT_EXPLORATION,
): CrashState[] {
  const replay = new Replay(root, initial, lockFolder, ops);
  const draw = random(exploration.seed);
  const seen = new Set<string>();
  const states: CrashState[] = [];
  const hashes = new Map<Buffer, string>();
  const hashOf = (data: Buffer): string => {
    let hash = hashes.get(data);
    if (hash === undefined) hashes.set(data, (hash = createHash('sha256').update(data).digest('hex')));
    return hash;
  };
  for (let moment = 0; moment <= ops.length; moment++) {
    const happened = replay.events.filter((event) => event.at < moment);
    const formsOf = new Map<number, Buffer[]>();
    const optional = happened.filter((event) => !replay.certain(event, moment));
    const chosen = entrySets(optional, exploration, draw);
    for (const keep of chosen) {
      const dirs = new Map<number, Map<string, number>>();
      for (const [id, entries] of replay.initialDirs) dirs.set(id, new Map(entries));
      for (const id of replay.nodes.keys()) if (!dirs.has(id) && replay.nodes.get(id)?.kind === 'dir') dirs.set(id, new Map());
      for (const event of happened) if (!optional.includes(event) || keep.has(event)) event.apply(dirs);
      // The files this state reaches, and the forms each may have.
      const reached: { path: string; id: number }[] = [];
      const walk = (id: number, path: string, seenDirs: Set<number>): void => {
        for (const [name, child] of dirs.get(id) ?? []) {
          const at = path === '' ? name : `${path}/${name}`;
          const node = replay.nodes.get(child);
          if (node?.kind === 'dir' && !seenDirs.has(child)) walk(child, at, new Set([...seenDirs, child]));
          else reached.push({ path: at, id: child });
        }
      };
      walk(0, '', new Set([0]));
      const forms = new Map<number, Buffer[]>();
      for (const { id } of reached) {
        if (forms.has(id) || replay.nodes.get(id)?.kind !== 'file') continue;
        let each = formsOf.get(id);
        if (!each) {
          const { synced, current } = replay.versions(id, moment);
          formsOf.set(id, (each = tornForms(synced, current)));
        }
        forms.set(id, each);
      }
      for (const pick of formChoices(forms)) {
        const tree = new Map<string, TreeEntry>();
        const addDirs = (id: number, path: string, seenDirs: Set<number>): void => {
          for (const [name, child] of dirs.get(id) ?? []) {
            const at = path === '' ? name : `${path}/${name}`;
            const node = replay.nodes.get(child);
            if (node?.kind === 'dir') {
              if (seenDirs.has(child)) continue;
              tree.set(at, { kind: 'dir' });
              addDirs(child, at, new Set([...seenDirs, child]));
            } else if (node?.kind === 'link') tree.set(at, { kind: 'link', target: node.target });
            else if (node?.kind === 'file') tree.set(at, { kind: 'file', data: pick(child) });
          }
        };
        addDirs(0, '', new Set([0]));
        const acknowledged = moment > replay.ack;
        const key = [...tree]
          .map(([path, entry]) => `${path}\0${entry.kind === 'file' ? hashOf(entry.data) : entry.kind === 'link' ? entry.target : ''}`)
          .sort()
          .join('\n');
        const full = `${acknowledged ? 'a' : 'u'}\n${key}`;
        if (seen.has(full)) continue;
        seen.add(full);
        states.push({ moment, acknowledged, tree, key: createHash('sha256').update(full).digest('hex') });
      }
    }
  }
  return states;
}

/** The sets of unsynced entry events to keep (see the header). */
function entrySets(optional: readonly EntryEvent[], exploration: Exploration, draw: () => number): Set<EntryEvent>[] {
  // The lock folder's own events are kept all or none: they decide only whether a dead process's claim is found.
  const locks = optional.filter((event) => event.lockOnly);
  const rest = optional.filter((event) => !event.lockOnly);
  const sets: Set<EntryEvent>[] = [];
  const withLocks = (events: Iterable<EntryEvent>): void => {
    sets.push(new Set(events));
    if (locks.length > 0) sets.push(new Set([...events, ...locks]));
  };
  if (rest.length <= exploration.allSetsUpTo) {
    for (let mask = 0; mask < 2 ** rest.length; mask++) withLocks(rest.filter((_, index) => (mask & (1 << index)) !== 0));
    return sets;
  }
  for (let length = 0; length <= rest.length; length++) withLocks(rest.slice(0, length));
  for (const left of rest) withLocks(rest.filter((event) => event !== left));
  for (const only of rest) withLocks([only]);
  for (let index = 0; index < exploration.randomSets; index++) withLocks(rest.filter(() => draw() < 0.5));
  return sets;
}

/** How each reached file's form is chosen: all new, all as synced, all zeroed, all cut, and each file alone in each form. */
function* formChoices(forms: ReadonlyMap<number, readonly Buffer[]>): Generator<(id: number) => Buffer> {
  const torn = [...forms].filter(([, each]) => each.length > 1);
  const at =
    (index: number) =>
    (id: number): Buffer => {
      const each = forms.get(id) ?? [];
      return each[Math.min(index, each.length - 1)] ?? Buffer.alloc(0);
    };
  for (let index = 0; index < 4; index++) yield at(index);
  for (const [id, each] of torn)
    for (let index = 1; index < each.length; index++)
      yield (other: number): Buffer => (other === id ? (each[index] ?? Buffer.alloc(0)) : (forms.get(other)?.[0] ?? Buffer.alloc(0)));
}
