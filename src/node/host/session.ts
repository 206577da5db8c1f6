/** A Session over node:fs rooted at one or more directories: what the runner, the MCP server, unit tests and benchmark call tools with. */
import type { GitEnvironment } from '../../core/ports/git';
import type { GrammarSource } from '../../core/ports/grammars';
import { nodeGrammarSource } from './grammars';
import { gitEnvironment } from './gitEnvironment';
import { toNativePath, toPosixPath } from '../fs/nativePaths';
import { realpathSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';
import { flagEncodingHost, type EncodingHost } from '../../core/encoding/host';
import { ToolError } from '../../core/errors';
import { HistoryStore } from '../../core/history/store';
import { DEFAULT_HISTORY_LIMITS, type HistoryLimits } from '../../core/settings';
import type { Session } from '../../core/invoke';
import { isWithin } from '../../core/paths';
import type { PathIndex } from '../../core/ports/pathIndex';
import type { ContentIndex } from '../../core/ports/contentIndex';
import { type HostNaming, RUNNER_NAMING } from '../../core/naming';
import type { Root, Workspace } from '../../core/confinement';
import { AGENT_FS_STORAGE_PATHS, DEFAULT_POLICY, type Policy } from '../../core/settings';
import { isDirtyInEditor, narrowedPolicy, narrowedRoots, type PublishedPolicy } from '../../core/policy/sharedPolicy';
import { type NodeLockOptions, NodeLocks } from '../fs/locks';
import { NodeFileSystem } from '../fs/nodeFileSystem';
import { pausePointsIn, withPausePoints } from '../fs/pausePoints';
import { findRipgrepOnPath, RipgrepSearcher } from '../search/ripgrep';
import { CASE_INSENSITIVE_PATHS, type SharedPolicyFile } from './sharedPolicy';
import { defaultLockDirectory, reservedPatterns, userStateDirectory } from './stateDirectory';
import { nextTurn } from './foreground';

export interface NodeSessionOptions {
  /** Where to keep the operation history (created on first change); absent: nothing is recorded. */
  readonly stateDirectory?: string;
  readonly historyLimits?: Partial<HistoryLimits>;
  /**
   * A store to share instead of opening `stateDirectory`: a long-lived host (the MCP server) builds a session per
   * set of roots, and every one of them must serialise its recorded calls through the same store.
   */
  readonly history?: HistoryStore;
  /** The ripgrep executable for search_content; false: always the pure scan. Default: `rg` on PATH, if any. */
  readonly ripgrep?: string | false;
  /** How text is decoded and encoded (options.ts flagEncodings); default: the runner's, UTF-8 and guessing. */
  readonly encodings?: EncodingHost;
  /** What workspace_info reports as the host: 'runner' (default) or 'mcp'. */
  readonly hostKind?: string;
  /** How the host names tools in its messages (naming.ts); default: the runner's. */
  readonly naming?: HostNaming;
  /**
   * The cross-process lock directory every cooperating process shares (default: the per-user one,
   * stateDirectory.ts), with its wait and staleness bounds; false: exclusion within this process only.
   */
  readonly locks?: ({ readonly directory?: string } & NodeLockOptions) | false;
  /**
   * The policy an editor publishes into the state folder (sharedPolicy.ts): read on every call, it narrows the
   * roots and the policy and names the files with unsaved changes. Absent: the flags alone.
   */
  readonly sharedPolicy?: SharedPolicyFile;
  /**
   * The warm path index the listing and search tools read (pathIndex.ts), shared by every session of a long-lived
   * host. Absent: every call walks the disk, as the runner (one process per call) always does.
   */
  readonly index?: PathIndex;
  /** The content index search_content narrows its reads by (contentIndex.ts), shared like `index`. */
  readonly contentIndex?: ContentIndex;
  /** Where git's per-user config and excludes file are (gitEnvironment.ts); default: as this process's environment says. */
  readonly git?: GitEnvironment;
  /** Where the parsers' WebAssembly is read from (grammars.ts); default: beside the bundle, else its packages. */
  readonly grammars?: GrammarSource;
  /** Where the history says what it repaired (a torn pack cut, an old layout migrated): the host's log; default: nowhere. */
  readonly log?: (line: string) => void;
}

/**
 * The roots (the core's absolute paths), named by their directory's base name as workspace folders are. A name two
 * roots share gets a " (2)"-style suffix, so a relative path that starts with a name always means one root.
 */
function namedRoots(paths: readonly string[]): Root[] {
  const used = new Set<string>();
  return paths.map((path) => {
    const base = nodePath.posix.basename(path) || path;
    let name = base;
    for (let index = 2; used.has(name); index++) name = `${base} (${index})`;
    used.add(name);
    return { name, path };
  });
}

/** The runner's encoding rules without flags: UTF-8 where a BOM or a guess does not say otherwise. */
const RUNNER_ENCODINGS = flagEncodingHost({ default: 'utf8', guess: true, candidates: [] }, "the runner's --encoding flag");

export function createNodeSession(
  rootDirectories: string | readonly string[],
  policy: Partial<Policy> = {},
  options: NodeSessionOptions = {},
): Session {
  const directories = typeof rootDirectories === 'string' ? [rootDirectories] : rootDirectories;
  if (directories.length === 0) throw new Error('createNodeSession needs at least one root directory.');
  const lockDirectory = options.locks === false ? undefined : (options.locks?.directory ?? defaultLockDirectory());
  const locks =
    lockDirectory === undefined ? undefined : NodeLocks.shared(lockDirectory, options.locks === false ? {} : (options.locks ?? {}));
  // Agent FS's own folders inside a root (a home folder as root holds the per-user state directory: every history
  // kept there, and the lock directory) are hidden paths, so no tool reads, lists, searches or changes them.
  const reserved = reservedPatterns(
    directories,
    [userStateDirectory(), lockDirectory, options.stateDirectory].filter((folder): folder is string => folder !== undefined),
  );
  const pausePoints = pausePointsIn();
  const disk = new NodeFileSystem(locks);
  const fs = pausePoints ? withPausePoints(disk, pausePoints) : disk;
  const roots = namedRoots(directories.map(toPosixPath));
  const { sharedPolicy } = options;
  const limits: HistoryLimits = { ...DEFAULT_HISTORY_LIMITS, ...options.historyLimits };
  const history =
    options.history ??
    (options.stateDirectory === undefined
      ? undefined
      : new HistoryStore(fs, toPosixPath(options.stateDirectory), () => limits, options.log));
  const ripgrep = options.ripgrep === undefined ? findRipgrepOnPath() : options.ripgrep || undefined;
  return {
    ...(history ? { history } : {}),
    ...(ripgrep ? { contentSearcher: new RipgrepSearcher(ripgrep) } : {}),
    ...(options.index ? { index: options.index } : {}),
    ...(options.contentIndex ? { contentIndex: options.contentIndex } : {}),
    encodings: options.encodings ?? RUNNER_ENCODINGS,
    git: options.git ?? gitEnvironment(),
    grammars: options.grammars ?? nodeGrammarSource(),
    host: {
      kind: options.hostKind ?? 'runner',
      version: process.version,
      baseDirectoryAsGiven: directories.join(', '),
      workspaceFolders: roots,
      // Only the editor has language services to ask.
      problemsAfterEdits: false,
    },
    ...(sharedPolicy ? { editors: { isDirty: (absolute: string) => isDirty(sharedPolicy.current(), absolute) } } : {}),
    policy: () => {
      const merged = { ...DEFAULT_POLICY, ...policy };
      const own: Policy = { ...merged, hiddenPaths: [...merged.hiddenPaths, ...reserved, ...AGENT_FS_STORAGE_PATHS] };
      const published = sharedPolicy?.current();
      return published && sharedPolicy ? narrowedPolicy(own, published, sharedPolicy.host) : own;
    },
    naming: options.naming ?? RUNNER_NAMING,
    turn: nextTurn,
    workspace(): Promise<Workspace> {
      for (const [index, directory] of directories.entries()) {
        if (!isDirectory(directory)) {
          const path = roots[index]?.path ?? directory;
          return Promise.reject(
            new ToolError(
              'DIR_NOT_AVAILABLE',
              `The base directory ${path} does not exist or is not a directory. Pass an existing directory with --root.`,
            ),
          );
        }
      }
      try {
        const published = sharedPolicy?.current();
        return Promise.resolve({ roots: published && sharedPolicy ? followedRoots(roots, published, sharedPolicy.host) : roots, fs });
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}

/** The real path of one of the core's absolute paths, in the core's form; undefined when it does not exist. */
function realOf(path: string): string | undefined {
  try {
    return toPosixPath(realpathSync(toNativePath(path)));
  } catch {
    return undefined;
  }
}

function isDirectory(directory: string): boolean {
  try {
    // stat follows every link on the way, as a real path would.
    return statSync(directory).isDirectory();
  } catch {
    return false;
  }
}

function isDirty(published: PublishedPolicy | undefined, absolute: string): boolean {
  return published !== undefined && isDirtyInEditor(published, absolute, CASE_INSENSITIVE_PATHS);
}

/** The roots narrowed to the editor's base directories (sharedPolicy.ts); DIR_NOT_AVAILABLE when none is left. */
function followedRoots(roots: readonly Root[], published: PublishedPolicy, host: string): Root[] {
  if (published.roots.length === 0) {
    throw new ToolError(
      'DIR_NOT_AVAILABLE',
      `VS Code's Agent FS has no base directory for this workspace, and this ${host} follows it: ${published.unavailable ?? 'no folder is open'}`,
    );
  }
  const kept = narrowedRoots(
    roots.map((root) => root.path),
    published,
    CASE_INSENSITIVE_PATHS,
  );
  const paths = kept
    .map((entry) => ('own' in entry ? roots[entry.own]?.path : published.roots[entry.published]))
    .filter((path) => path !== undefined);
  if (paths.length === 0) {
    throw new ToolError(
      'DIR_NOT_AVAILABLE',
      `VS Code narrows Agent FS on this workspace to ${published.roots.join(', ')}, which this ${host} follows, and none of the ${host}'s directories (${roots.map((root) => root.path).join(', ')}) lies there or holds one.`,
    );
  }
  // A root narrowed to must really lie inside one of the host's: lexically inside but a link leading out would widen.
  const ownReal = roots.map((root) => realOf(root.path)).filter((real) => real !== undefined);
  const escaping = paths.find((path) => {
    const real = realOf(path);
    return real === undefined || !isDirectory(toNativePath(path)) || !ownReal.some((own) => isWithin(own, real));
  });
  if (escaping !== undefined) {
    throw new ToolError(
      'DIR_NOT_AVAILABLE',
      `VS Code narrows Agent FS on this workspace to ${escaping}, which this ${host} follows, and it is not an existing directory inside the ${host}'s own (${roots.map((root) => root.path).join(', ')}).`,
    );
  }
  // Roots kept as they are keep their names; the ones narrowed to are named by their base name, as the editor does.
  return paths.every((path, index) => path === roots[index]?.path) && paths.length === roots.length ? [...roots] : namedRoots(paths);
}
