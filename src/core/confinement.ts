/**
 * Confinement: the one function that turns a string from a caller into a path a tool may touch.
 *
 * Guarantees, for every path `resolve` returns:
 *  - It is lexically inside one of the workspace's roots, compared by whole segments: "/ws" never contains
 *    "/ws2", "..", "~", NUL bytes, drive letters, UNC paths and URIs of another scheme never get through.
 *  - Where the file system has real paths (`file:`), the real path of the target, or for a path that does not
 *    exist yet of its nearest existing ancestor, is inside the real path of that root. So no symbolic link, at
 *    any depth, leads out of the base, and a dangling link (whose target cannot be checked) is refused.
 *  - Where it has none, no existing component between the root and the target is a symbolic link.
 *
 * What it cannot guarantee: the check and the later I/O are separate calls (a time-of-check/time-of-use race).
 * A process that swaps a directory for a symbolic link between the two can redirect the I/O. Closing that needs
 * openat2(RESOLVE_BENEATH)-style handles that neither node:fs nor vscode.workspace.fs offer. Recursive walks
 * narrow the window by never descending through links they see (walk.ts).
 */
import { type ErrorCode, ToolError } from './errors';
import type { FileSystem } from './ports/fs';
import { basename, dirname, isWithin, joinPath, normalizeAbsolute, relativeTo } from './paths';

/** A base directory the tools may reach: the workspace folder, or the folder `agentFs.baseDirectory` narrows it to. */
export interface Root {
  /** The workspace folder's name; in a multi-root workspace a relative path may start with it. */
  readonly name: string;
  /** Normalised absolute path. */
  readonly path: string;
}

export interface Workspace {
  /** In priority order: a relative path without a root name resolves against the first. Never empty. */
  readonly roots: readonly Root[];
  readonly fs: FileSystem;
}

/** Which parameter a path came from; it decides the outside-base code, which names the parameter (as the
 * LM Studio plugin's contract does, docs/design.md "Compatibility"). */
export type PathSlot = 'file' | 'directory' | 'path' | 'source' | 'destination';

/** Longer paths are refused (INVALID_INPUT) before anything else: no file system takes them, no model needs one. */
const MAX_PATH_LENGTH = 4096;

/** The code a path outside the base is refused with, by the parameter slot it was given in. */
export const OUTSIDE_CODE: Readonly<Record<PathSlot, ErrorCode>> = {
  file: 'FILE_PATH_OUTSIDE_BASE',
  directory: 'DIRECTORY_PATH_OUTSIDE_BASE',
  path: 'PATH_OUTSIDE_BASE',
  source: 'SOURCE_PATH_OUTSIDE_BASE',
  destination: 'DESTINATION_PATH_OUTSIDE_BASE',
};

export interface ConfinedPath {
  readonly root: Root;
  /** Normalised absolute path, lexically inside `root.path`. */
  readonly absolute: string;
  /**
   * How results show the path: relative to the root, "." for the root itself, prefixed with the root's name in a
   * multi-root workspace so that it resolves back to the same place when passed in again.
   */
  readonly display: string;
}

const DRIVE_LETTER = /^[a-zA-Z]:/;
const URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

export class PathResolver {
  private realRoots: Promise<readonly (string | undefined)[]> | undefined;
  /**
   * Answers already given, by slot and input. A resolver lives for one call (invoke.ts), whose steps (history's
   * affected paths, the tool's plan and run, the record's summary) resolve the same inputs several times; checking
   * once per call is what `resolve` promises anyway (see the header on the time of check and of use).
   */
  private readonly answers = new Map<string, Promise<ConfinedPath>>();

  constructor(private readonly workspace: Workspace) {}

  get roots(): readonly Root[] {
    return this.workspace.roots;
  }

  /** Confines `input` or throws a ToolError with the slot's outside-base code (or SYMLINK_OUTSIDE_BASE). */
  resolve(input: string, slot: PathSlot): Promise<ConfinedPath> {
    const key = `${slot}\0${input}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = (async () => {
        const confined = this.resolveLexically(input, slot);
        await this.checkRealPath(confined, input);
        return confined;
      })();
      this.answers.set(key, answer);
    }
    return answer;
  }

  /**
   * Whether an absolute path found by a walk (so lexically inside `root`) passes the real-path check, i.e. no
   * symbolic link takes it out of the base. For deciding whether to show a link a walk came across.
   */
  async allows(root: Root, absolute: string): Promise<boolean> {
    try {
      await this.checkRealPath({ root, absolute, display: this.display(root, absolute) }, absolute);
      return true;
    } catch (error) {
      if (error instanceof ToolError) return false;
      throw error;
    }
  }

  /** The display form of an absolute path already known to be inside `root`. */
  display(root: Root, absolute: string): string {
    const relative = relativeTo(root.path, absolute);
    if (this.workspace.roots.length > 1) return relative === '' ? root.name : `${root.name}/${relative}`;
    return relative === '' ? '.' : relative;
  }

  /** The syntactic half of `resolve`: no I/O. Exported through `resolve` only; public for the path-case tests. */
  resolveLexically(input: string, slot: PathSlot): ConfinedPath {
    const outside = (why: string): ToolError =>
      new ToolError(
        OUTSIDE_CODE[slot],
        `Path is outside the base directory: ${JSON.stringify(input)} (${why}). Use a path relative to the base directory ${this.describeRoots()}.`,
      );
    if (input.length > MAX_PATH_LENGTH)
      throw new ToolError('INVALID_INPUT', `Path is ${input.length} characters long; a path has at most ${MAX_PATH_LENGTH}.`);
    if (input.includes('\0')) throw new ToolError('INVALID_INPUT', `Path contains a NUL byte: ${JSON.stringify(input)}.`);

    let path = input.trim() === '' ? '.' : input;
    if (/^file:/i.test(path)) path = this.fileUriPath(path, outside);
    else if (URI.test(path)) throw outside('a URI of another scheme');
    // Backslashes are separators here, so "..\\..\\etc" cannot slip past the '..' check as one odd file name.
    path = path.replace(/\\/g, '/');
    if (path.startsWith('//')) throw outside('a UNC or network path');
    if (DRIVE_LETTER.test(path)) throw outside('a drive-letter path');
    if (path === '~' || path.startsWith('~/')) throw outside('a home-directory path');

    if (path.startsWith('/')) {
      const absolute = normalizeAbsolute(path);
      const root = this.rootContaining(absolute);
      if (!root) throw outside('an absolute path outside every base directory');
      return { root, absolute, display: this.display(root, absolute) };
    }

    const { root, rest } = this.rootForRelative(path);
    const absolute = joinPath(root.path, rest);
    if (!isWithin(root.path, absolute)) throw outside("it climbs above the base directory with '..'");
    return { root, absolute, display: this.display(root, absolute) };
  }

  private fileUriPath(uri: string, outside: (why: string) => ToolError): string {
    const match = /^file:(\/\/([^/]*))?(\/.*)?$/i.exec(uri);
    if (!match || (match[2] !== undefined && match[2] !== '' && match[2].toLowerCase() !== 'localhost')) {
      throw outside('a file URI with a host');
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(match[3] ?? '/');
    } catch {
      throw new ToolError('INVALID_INPUT', `Malformed file URI: ${JSON.stringify(uri)}.`);
    }
    if (decoded.includes('\0')) throw new ToolError('INVALID_INPUT', `Path contains a NUL byte: ${JSON.stringify(uri)}.`);
    // "file:///c:/x" is a Windows path; it can never be inside a POSIX root.
    return decoded.replace(/^\/([a-zA-Z]:)/, '$1');
  }

  private rootContaining(absolute: string): Root | undefined {
    let best: Root | undefined;
    for (const root of this.workspace.roots) {
      if (isWithin(root.path, absolute) && (!best || root.path.length > best.path.length)) best = root;
    }
    return best;
  }

  private rootForRelative(path: string): { root: Root; rest: string } {
    const roots = this.workspace.roots;
    const first = roots[0];
    if (!first) throw new ToolError('DIR_NOT_SET', 'No base directory is set.');
    if (roots.length > 1) {
      const [head = '', ...tail] = path.split('/');
      const named = roots.find((root) => root.name === head);
      if (named) return { root: named, rest: tail.join('/') };
    }
    return { root: first, rest: path };
  }

  private async checkRealPath(confined: ConfinedPath, input: string): Promise<void> {
    const { fs } = this.workspace;
    const refuse = (why: string): ToolError =>
      new ToolError(
        'SYMLINK_OUTSIDE_BASE',
        `Path ${JSON.stringify(input)} goes through a symbolic link ${why}; Agent FS never follows a link out of the base directory.`,
      );
    if (!fs.realPath) {
      // No real paths on this file system: refuse any link between the root and the target.
      for (let path = confined.absolute; path !== confined.root.path && isWithin(confined.root.path, path); path = dirname(path)) {
        const stat = await fs.stat(path);
        if (stat?.isSymlink) throw refuse('(this file system cannot tell where links lead)');
      }
      return;
    }
    const realRoot = await this.realRoot(confined.root);
    if (realRoot === undefined) {
      throw new ToolError(
        'DIR_NOT_AVAILABLE',
        `The base directory ${confined.root.path} does not exist any more. Select another with "Agent FS: Select Base Directory…".`,
      );
    }
    // Walk up to the nearest existing ancestor; a component that stats as a link but has no real path dangles.
    for (let path = confined.absolute; ; path = dirname(path)) {
      const real = await fs.realPath(path);
      if (real !== undefined) {
        if (!isWithin(realRoot, real)) throw refuse(`that leads to ${real}, outside the base directory`);
        return;
      }
      const stat = await fs.stat(path);
      if (stat?.isSymlink) throw refuse('that dangles, so where it leads cannot be checked');
      if (path === confined.root.path || path === '/') return;
    }
  }

  private realRoot(root: Root): Promise<string | undefined> {
    const { fs, roots } = this.workspace;
    this.realRoots ??= Promise.all(roots.map((each) => (fs.realPath ? fs.realPath(each.path) : Promise.resolve(undefined))));
    return this.realRoots.then((reals) => reals[roots.indexOf(root)]);
  }

  private describeRoots(): string {
    return this.workspace.roots.map((root) => root.path).join(' or ');
  }
}

/** The plugin operations' naming pair (docs/design.md, "Compatibility"): the basename and the path as results show it. */
export function namePair(path: ConfinedPath): { name: string; relative_path: string } {
  return { name: basename(path.absolute) || path.display, relative_path: path.display };
}
