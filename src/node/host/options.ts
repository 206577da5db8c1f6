/**
 * The command-line flags the runner (cli.ts) and the MCP server (mcp.ts) share, parsed one way for both:
 *
 *   --root DIR            a base directory; repeatable (several roots, as a multi-root workspace); default: the current directory
 *   --read-only           refuse every tool that changes files (READ_ONLY_MODE)
 *   --max-read-bytes N    the most file bytes one read returns
 *   --state DIR           keep the history in DIR (never inside a root); --no-history: record nothing
 *   --history-max-bytes N the most bytes of old content the history keeps (default 50 MiB; the editor's agentFs.history.maxBytes)
 *   --history-max-age-days N  sessions whose last change is older go (default 30; the editor's agentFs.history.maxAgeDays)
 *   --durability full|fast  sync every change to the disk before replying (full, the default) or not (fast)
 *   --encoding NAME       the encoding of files without a BOM that a guess does not settle, and of new files (utf-8)
 *   --no-guess-encoding   do not guess the encoding of files without a BOM (guessing is on by default)
 *   --no-index            keep no path index: every listing walks the disk (the MCP server; the runner always walks)
 *   --no-content-index    keep no content index: search_content reads every file it reaches (the MCP server)
 *   --no-ignore-files     read no ignore file (.gitignore, info/exclude, global excludes); --no-ignore-global: not the
 *                         user's global excludes file; --no-ignore-parent: no .gitignore above a root
 *   --help (-h), --version (-v)
 */
import { flagEncodingHost, type EncodingHost } from '../../core/encoding/host';
import { type EncodingId, encodingNamed, someEncodingNames } from '../../core/encoding/names';
import { ALL_IGNORE_FILES, DURABILITIES, type Durability, type IgnoreFileSettings } from '../../core/settings';
import { isWithin } from '../../core/paths';
import type { PolicyWording } from '../../core/settings';
import { toPosixPath } from '../fs/nativePaths';
import { defaultHistoryDirectory } from './stateDirectory';

export interface HostOptions {
  /** The --root directories in the order given; empty when none was given (the current directory serves). */
  readonly roots: string[];
  readOnly: boolean;
  maxReadBytes: number | undefined;
  /** undefined: the per-user default; null: --no-history. */
  state: string | null | undefined;
  /** --history-max-bytes; undefined: the default (history/store.ts). */
  historyMaxBytes: number | undefined;
  /** --history-max-age-days; undefined: the default (history/store.ts). */
  historyMaxAgeDays: number | undefined;
  /** --durability: whether changes are synced before a call replies (settings.ts Durability). */
  durability: Durability;
  /** --encoding; undefined: UTF-8. */
  encoding: EncodingId | undefined;
  /** False with --no-guess-encoding. */
  guessEncoding: boolean;
  /** False with --no-index: a long-lived host keeps no path index (pathIndex.ts). */
  index: boolean;
  /** False with --no-content-index (or --no-index, which it stands on): no content index (contentIndex.ts). */
  contentIndex: boolean;
  /** Which ignore sources the finding tools read (core/ignore/sources.ts): all, less what --no-ignore-* turn off. */
  ignoreFiles: IgnoreFileSettings;
  help: boolean;
  version: boolean;
}

/**
 * What a host does with an argument the shared flags do not know: `flag` without any `=value`, `value()` takes the
 * inline value or else the next argument. Returns an error message, or undefined when the argument was accepted.
 */
export type OtherArgument = (
  argument: string,
  flag: string,
  value: () => string | undefined,
  inline: string | undefined,
) => string | undefined;

/** Parses `argv`; returns an error message for a flag unknown to both, lacking its value, or given one it takes not. */
export function parseHostOptions(argv: readonly string[], other: OtherArgument): HostOptions | string {
  const options: HostOptions = {
    roots: [],
    readOnly: false,
    maxReadBytes: undefined,
    state: undefined,
    historyMaxBytes: undefined,
    historyMaxAgeDays: undefined,
    durability: 'full',
    encoding: undefined,
    guessEncoding: true,
    index: true,
    contentIndex: true,
    ignoreFiles: ALL_IGNORE_FILES,
    help: false,
    version: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const [flag, inline] =
      argument.startsWith('--') && argument.includes('=')
        ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)]
        : [argument, undefined];
    const value = (): string | undefined => inline ?? argv[++index];
    if (flag === '--root' || flag === '--state') {
      const directory = value();
      if (directory === undefined || directory === '') return `${flag} needs a directory`;
      if (flag === '--root') options.roots.push(directory);
      else options.state = directory;
    } else if (flag === '--durability') {
      const mode = value();
      if (!DURABILITIES.includes(mode as Durability)) return `--durability needs one of ${DURABILITIES.join(', ')}`;
      options.durability = mode as Durability;
    } else if (flag === '--encoding') {
      const name = value() ?? '';
      const encoding = encodingNamed(name);
      if (encoding === undefined) return `--encoding needs an encoding VS Code knows (for example ${someEncodingNames()}), not "${name}"`;
      options.encoding = encoding;
    } else if (flag === '--no-guess-encoding' || flag === '--no-index' || flag === '--no-content-index') {
      if (inline !== undefined) return `${flag} takes no value`;
      if (flag === '--no-index') options.index = false;
      else if (flag === '--no-content-index') options.contentIndex = false;
      else options.guessEncoding = false;
    } else if (flag === '--no-ignore-files' || flag === '--no-ignore-global' || flag === '--no-ignore-parent') {
      if (inline !== undefined) return `${flag} takes no value`;
      const off = flag === '--no-ignore-files' ? 'enabled' : flag === '--no-ignore-global' ? 'global' : 'parents';
      options.ignoreFiles = { ...options.ignoreFiles, [off]: false };
    } else if (flag === '--history-max-bytes') {
      const bytes = Number(value());
      if (!Number.isInteger(bytes) || bytes < 0) return '--history-max-bytes needs a whole number of bytes';
      options.historyMaxBytes = bytes;
    } else if (flag === '--history-max-age-days') {
      const days = Number(value());
      if (!Number.isInteger(days) || days < 0) return '--history-max-age-days needs a whole number of days';
      options.historyMaxAgeDays = days;
    } else if (flag === '--max-read-bytes') {
      const bytes = Number(value());
      if (!Number.isInteger(bytes) || bytes < 1024) return '--max-read-bytes needs a whole number of bytes, at least 1024';
      options.maxReadBytes = bytes;
    } else if (
      flag === '--read-only' ||
      flag === '--no-history' ||
      flag === '--help' ||
      flag === '-h' ||
      flag === '--version' ||
      flag === '-v'
    ) {
      if (inline !== undefined) return `${flag} takes no value`;
      if (flag === '--read-only') options.readOnly = true;
      else if (flag === '--no-history') options.state = null;
      else if (flag === '--help' || flag === '-h') options.help = true;
      else options.version = true;
    } else {
      const error = other(argument, flag, value, inline);
      if (error !== undefined) return error;
    }
  }
  return options;
}

/** The directories to serve: the --root ones, else the current directory. */
export function rootsOf(options: HostOptions, cwd: string = process.cwd()): string[] {
  return options.roots.length > 0 ? options.roots : [cwd];
}

/**
 * Where the history goes: --state, else the per-user folder for these roots (outside every root: see
 * defaultHistoryDirectory); undefined with --no-history. Returns an error message when it would lie inside a root:
 * there the very tools it records would list, search and change it. The message names --state only when it was given.
 */
export function stateDirectoryOf(options: HostOptions, roots: readonly string[]): { directory: string | undefined } | string {
  if (options.state === null) return { directory: undefined };
  const directory = options.state ?? defaultHistoryDirectory(roots);
  const inside = roots.find((root) => isWithin(toPosixPath(root), toPosixPath(directory)));
  if (inside === undefined) return { directory };
  if (options.state !== undefined) return `--state ${directory} is inside the root ${inside}; keep the history outside it.`;
  return `The root ${inside} holds every folder the history could go to (${directory} among them). Keep the history elsewhere with --state DIR, or record nothing with --no-history.`;
}

/** Refusals of a host started from the command line point at its flags, not at editor settings it does not read. */
export function flagWording(host: string): PolicyWording {
  return {
    readOnly: `the ${host} was started with --read-only`,
    maxReadBytes: `the ${host}'s --max-read-bytes`,
    protectedPaths: `the protected paths the ${host} always applies (the defaults of the editor's agentFs.protectedPaths)`,
    hiddenPaths: `the hidden paths the ${host} always applies (the defaults of the editor's agentFs.hiddenPaths)`,
    pathRuleRemedy: `the ${host} has no flag that lifts this`,
    history: `start the ${host} with --no-history`,
  };
}

/** The policy a host started with these flags runs under. */
export function flagPolicy(
  options: HostOptions,
  host: string,
): { readOnly: boolean; wording: PolicyWording; ignoreFiles: IgnoreFileSettings; durability: Durability; maxReadBytes?: number } {
  const { enabled, global, parents } = options.ignoreFiles;
  return {
    readOnly: options.readOnly,
    durability: options.durability,
    wording: flagWording(host),
    ignoreFiles: { enabled, global: enabled && global, parents: enabled && parents },
    ...(options.maxReadBytes !== undefined ? { maxReadBytes: options.maxReadBytes } : {}),
  };
}

/** The encoding rules a host started with these flags reads and writes text by (encoding/detect.ts). */
export function flagEncodings(options: Pick<HostOptions, 'encoding' | 'guessEncoding'>, host: string): EncodingHost {
  return flagEncodingHost(
    { default: options.encoding ?? 'utf8', guess: options.guessEncoding, candidates: [] },
    `the ${host}'s --encoding flag`,
  );
}

/** The history's limits a host started with these flags keeps (--history-max-bytes, --history-max-age-days), over the store's defaults. */
export function flagHistoryLimits(options: Pick<HostOptions, 'historyMaxBytes' | 'historyMaxAgeDays'>): {
  maxBytes?: number;
  maxAgeDays?: number;
} {
  return {
    ...(options.historyMaxBytes === undefined ? {} : { maxBytes: options.historyMaxBytes }),
    ...(options.historyMaxAgeDays === undefined ? {} : { maxAgeDays: options.historyMaxAgeDays }),
  };
}
