/**
 * MCP roots → the directories the tools reach. The rules, in the order they apply to each root a client offers:
 *
 *  - A root that is not a `file:` URI of an existing local directory is ignored (and said so in the log).
 *  - Without --root, the client's roots replace the default (the current directory).
 *  - With --root, a client can narrow, never widen: a root inside a --root directory counts as it is; a root that
 *    holds a --root directory counts as that directory (the overlap of the two); any other root is ignored.
 *  - A root that holds the history store given with --state is ignored: the tools it records would list, search and
 *    change it. Without --state each set of roots gets its own history folder outside them (stateDirectory.ts).
 *
 * A client that offers no roots (an empty list, or no roots capability) leaves the configured directories. A client
 * that offers roots none of which counts gets no directory at all: the tools then answer DIR_NOT_AVAILABLE, rather
 * than fall back to more than the client asked for.
 */
import { realpathSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ToolError } from '../../core/errors';
import type { HistoryStore } from '../../core/history/store';
import type { Session } from '../../core/invoke';
import { isWithin } from '../../core/paths';
import { toPosixPath } from '../fs/nativePaths';
import { defaultHistoryDirectory, isInside } from '../host/stateDirectory';

export interface ClientRoot {
  readonly uri: string;
  readonly name?: string;
}

export interface ConfiguredRoots {
  /** The --root directories, or the current directory when none was given. */
  readonly directories: readonly string[];
  /** Whether they came from --root (then client roots may only narrow them). */
  readonly explicit: boolean;
  /** The history store's directory, if any. */
  readonly stateDirectory?: string;
  /** Whether it came from --state (then no root may hold it); else it is the default for the configured roots. */
  readonly stateChosen?: boolean;
}

interface NarrowedRoots {
  /** The directories the tools reach now (native paths); empty when the client's roots all had to be ignored. */
  readonly directories: readonly string[];
  /** One sentence per ignored root, for the log and for the DIR_NOT_AVAILABLE message. */
  readonly ignored: readonly string[];
}

/** The real path in the core's POSIX form, or undefined when it does not exist. */
function realOf(path: string): string | undefined {
  try {
    return toPosixPath(realpathSync(path));
  } catch {
    return undefined;
  }
}

function localDirectory(uri: string): { path: string } | { why: string } {
  let path: string;
  try {
    if (!/^file:/i.test(uri)) return { why: 'it is not a file: URI (only local directories can be served)' };
    path = fileURLToPath(uri);
  } catch (error) {
    return { why: `it is not a local file URI (${error instanceof Error ? error.message : String(error)})` };
  }
  try {
    if (!statSync(path).isDirectory()) return { why: 'it is not a directory' };
  } catch {
    return { why: 'it does not exist' };
  }
  return { path };
}

function narrowRoots(clientRoots: readonly ClientRoot[] | undefined, configured: ConfiguredRoots): NarrowedRoots {
  if (clientRoots === undefined || clientRoots.length === 0) return { directories: configured.directories, ignored: [] };
  const directories: string[] = [];
  const ignored: string[] = [];
  const realState =
    configured.stateDirectory === undefined || configured.stateChosen !== true
      ? undefined
      : (realOf(configured.stateDirectory) ?? toPosixPath(configured.stateDirectory));
  const allowed = configured.directories.map((directory) => ({ directory, real: realOf(directory) }));
  const add = (directory: string, real: string): void => {
    if (realState !== undefined && isWithin(real, realState)) {
      ignored.push(`Ignored the root ${directory}: it holds the history store (${configured.stateDirectory ?? ''}).`);
    } else if (!directories.includes(directory)) directories.push(directory);
  };
  for (const root of clientRoots) {
    const local = localDirectory(root.uri);
    if ('why' in local) {
      ignored.push(`Ignored the root ${root.uri}: ${local.why}.`);
      continue;
    }
    const real = realOf(local.path) ?? toPosixPath(local.path);
    if (!configured.explicit) {
      add(local.path, real);
      continue;
    }
    const container = allowed.find((each) => each.real !== undefined && isWithin(each.real, real));
    if (container) {
      add(local.path, real);
      continue;
    }
    const inside = allowed.filter((each) => each.real !== undefined && isWithin(real, each.real));
    if (inside.length === 0) {
      ignored.push(
        `Ignored the root ${root.uri}: it is outside every --root directory (${configured.directories.join(', ')}), and a client can only narrow them.`,
      );
      continue;
    }
    for (const each of inside) add(each.directory, each.real ?? '');
  }
  return { directories, ignored };
}

/** Where a session on some roots keeps its history: the shared store, a folder of its own, or none. */
export interface SessionStore {
  readonly history?: HistoryStore;
  readonly stateDirectory?: string;
}

/** How the pool builds a session on some directories, and where it logs. */
export interface SessionSource {
  sessionFor(this: void, directories: readonly string[], store: SessionStore): Session;
  log(this: void, line: string): void;
}

/**
 * One session per set of directories, shared by every connection of the server: the first on the configured
 * directories, whose history store every later session with --state shares.
 */
export class SessionPool {
  private readonly sessions = new Map<string, Session>();
  readonly base: Session;

  constructor(
    private readonly source: SessionSource,
    readonly configured: ConfiguredRoots,
  ) {
    const { stateDirectory } = configured;
    this.base = source.sessionFor(configured.directories, stateDirectory === undefined ? {} : { stateDirectory });
    this.sessions.set(this.key(configured.directories), this.base);
  }

  /** The session on a client's roots as the rules above narrow them; the configured one when it offers none. */
  forRoots(offered: readonly ClientRoot[] | undefined): Session {
    if (offered === undefined) return this.base;
    const narrowed = narrowRoots(offered, this.configured);
    for (const line of narrowed.ignored) this.source.log(line);
    if (narrowed.directories.length === 0) {
      const message = `None of the client's roots can be served: ${narrowed.ignored.join(' ')}`;
      return { ...this.base, workspace: () => Promise.reject(new ToolError('DIR_NOT_AVAILABLE', message)) };
    }
    if (offered.length > 0) this.source.log(`Serving the client's roots: ${narrowed.directories.join(', ')}.`);
    const key = this.key(narrowed.directories);
    let session = this.sessions.get(key);
    if (!session) {
      const store = this.storeFor(narrowed.directories);
      if (typeof store === 'string') return { ...this.base, workspace: () => Promise.reject(new ToolError('DIR_NOT_AVAILABLE', store)) };
      session = this.source.sessionFor(narrowed.directories, store);
      this.sessions.set(key, session);
    }
    return session;
  }

  private key(directories: readonly string[]): string {
    return directories.join('\0');
  }

  /**
   * The history of a session on these roots: the store given with --state, shared by every session; without it the
   * default folder for these roots (outside them), as the runner on the same folders uses; none with --no-history.
   * A message when no folder outside the roots can hold it.
   */
  private storeFor(directories: readonly string[]): SessionStore | string {
    const { stateDirectory, stateChosen } = this.configured;
    if (stateDirectory === undefined) return {};
    if (stateChosen === true) return this.base.history ? { history: this.base.history, stateDirectory } : {};
    const own = defaultHistoryDirectory(directories);
    const holder = directories.find((directory) => isInside(directory, own));
    if (holder !== undefined)
      return `The client's root ${holder} holds every folder Agent FS could keep its history in. Start agent-fs-mcp with --state DIR outside it, or --no-history.`;
    return { stateDirectory: own };
  }
}

/**
 * One connection's roots as a session: fetched when first needed and again after the client says they changed.
 * `listRoots` resolves undefined when the client offers none (no roots capability) and throws if it cannot say.
 */
export class RootsState {
  private current: Promise<Session> | undefined;

  constructor(
    private readonly pool: SessionPool,
    private readonly listRoots: () => Promise<ClientRoot[] | undefined>,
    private readonly log: (line: string) => void,
  ) {}

  /** Marks the roots as changed; the next call asks the client for them. */
  invalidate(): void {
    this.current = undefined;
  }

  /** Whether the roots are known (or being fetched), so a call need not ask for them. */
  get known(): boolean {
    return this.current !== undefined;
  }

  /** Takes roots the client gave unasked-for here (the 2026-07-28 revision answers them inside a call). */
  offer(roots: ClientRoot[] | undefined): void {
    this.current = Promise.resolve(this.pool.forRoots(roots));
  }

  session(): Promise<Session> {
    this.current ??= this.load();
    return this.current;
  }

  private async load(): Promise<Session> {
    let offered: ClientRoot[] | undefined;
    try {
      offered = await this.listRoots();
    } catch (error) {
      this.log(
        `The client did not list its roots (${error instanceof Error ? error.message : String(error)}); serving ${this.pool.configured.directories.join(', ')}.`,
      );
      return this.pool.base;
    }
    return this.pool.forRoots(offered);
  }
}
