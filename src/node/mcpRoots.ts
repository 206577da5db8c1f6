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
import { isWithin } from '../core/paths';
import { toPosixPath } from './nativePaths';

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

export interface NarrowedRoots {
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

export function narrowRoots(clientRoots: readonly ClientRoot[] | undefined, configured: ConfiguredRoots): NarrowedRoots {
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
