/**
 * Where the rules of what git ignores come from, beside the .gitignore files inside the root (which a walk reads as
 * it enters each directory, rules.ts): the repository the root belongs to, its `info/exclude`, the user's global
 * excludes file, the .gitignore files between the top of the work tree and the root, and whether names are compared
 * without regard to case. Found afresh for every call, so a change to any of them counts at the next call.
 *
 * Every file here is read only for its rules, which can only hide entries: nothing read outside the root is ever
 * shown. A .gitignore is not read through a symbolic link (git refuses those too); a file larger than git's limit,
 * or one that cannot be read, adds no rules.
 */
import type { GitEnvironment } from '../../ports/git';
import type { IgnoreFileSettings } from '../../settings';
import type { FileStat, FileSystem } from '../../ports/fs';
import { dirname, isWithin, joinPath, normalizeAbsolute } from '../../paths';
import { configBoolean, configEntries } from './gitConfig';
import { type IgnoreFile, ignoreFileOf, MAX_IGNORE_FILE_BYTES } from './ignoreFile';

export const GITIGNORE = '.gitignore';

/** A rule file and the directory its rules are relative to. */
export interface RuleLink {
  readonly directory: string;
  readonly file: IgnoreFile;
  /** A .gitignore inside the root (read as a walk enters its directory), as opposed to one of the sources here. */
  readonly inRoot: boolean;
}

/** What every path under one root is asked beside the .gitignore files inside the root. */
export interface IgnoreBase {
  /** Lowest precedence first: the global excludes file, info/exclude, then the .gitignore files above the root. */
  readonly links: readonly RuleLink[];
  /** Names are compared without regard to ASCII case (core.ignoreCase, or the file system outside a repository). */
  readonly casefold: boolean;
}

interface Repository {
  /** The top of the work tree. */
  readonly top: string;
  /** Where info/ and config are: the git directory, or a linked worktree's common directory. */
  readonly commonDirectory: string;
}

/** The rules every path under `root` is asked beside its own .gitignore files, as the settings allow. */
export async function loadIgnoreBase(fs: FileSystem, root: string, git: GitEnvironment, settings: IgnoreFileSettings): Promise<IgnoreBase> {
  if (!settings.enabled) return { links: [], casefold: false };
  const repository = await findRepository(fs, root);
  const config = await readConfig(fs, [...git.configFiles, ...(repository ? [joinPath(repository.commonDirectory, 'config')] : [])], git);
  const casefold = repository ? (config.ignoreCase ?? false) : await namesFoldCase(fs, root);
  const top = repository?.top ?? root;
  const links: RuleLink[] = [];
  const add = async (directory: string, path: string | undefined, followLinks: boolean): Promise<void> => {
    const file = path === undefined ? undefined : await readRuleFile(fs, path, casefold, followLinks);
    if (file) links.push({ directory, file, inRoot: false });
  };
  if (settings.global) await add(top, excludesFilePath(config.excludesFile, git, top), true);
  if (repository) await add(top, joinPath(repository.commonDirectory, 'info/exclude'), true);
  if (settings.parents && repository && repository.top !== root) {
    const above: string[] = [];
    for (let directory = dirname(root); isWithin(repository.top, directory); directory = dirname(directory)) {
      above.unshift(directory);
      if (directory === repository.top) break;
    }
    for (const directory of above) await add(directory, gitignorePath(directory), false);
  }
  return { links, casefold };
}

export function gitignorePath(directory: string): string {
  return directory === '/' ? `/${GITIGNORE}` : `${directory}/${GITIGNORE}`;
}

/**
 * The rules of a pattern file, or undefined where it adds none: missing, not a file (a .gitignore that is a link is
 * not followed, as git does not), over git's size limit, or unreadable.
 */
export async function readRuleFile(fs: FileSystem, path: string, casefold: boolean, followLinks: boolean): Promise<IgnoreFile | undefined> {
  try {
    const stat = await fs.stat(path);
    if (stat?.kind !== 'file' || (stat.isSymlink && !followLinks) || stat.size > MAX_IGNORE_FILE_BYTES) return undefined;
    return ignoreFileOf(await fs.readFile(path), casefold);
  } catch {
    // An unreadable rule file hides nothing; the listing itself reports real I/O failures.
    return undefined;
  }
}

/**
 * The repository whose work tree holds `root`, as git finds it: the nearest folder at or above it with a `.git`
 * directory, or a `.git` file naming one ("gitdir: …", a linked worktree or a submodule), that looks like a git
 * directory (it has a HEAD). Undefined outside any repository.
 */
async function findRepository(fs: FileSystem, root: string): Promise<Repository | undefined> {
  for (let directory = root; ; directory = dirname(directory)) {
    const dotGit = directory === '/' ? '/.git' : `${directory}/.git`;
    const gitDirectory = await gitDirectoryAt(fs, directory, dotGit);
    if (gitDirectory !== undefined && (await statOf(fs, joinPath(gitDirectory, 'HEAD')))?.kind === 'file') {
      const common = await readText(fs, joinPath(gitDirectory, 'commondir'));
      const commonDirectory = common === undefined ? gitDirectory : resolveFrom(gitDirectory, common.trim());
      return { top: directory, commonDirectory };
    }
    if (directory === '/') return undefined;
  }
}

async function gitDirectoryAt(fs: FileSystem, directory: string, dotGit: string): Promise<string | undefined> {
  const stat = await statOf(fs, dotGit);
  if (stat?.kind === 'directory') return dotGit;
  if (stat?.kind !== 'file') return undefined;
  const named = /^gitdir: *(.+?)\s*$/m.exec((await readText(fs, dotGit)) ?? '')?.[1];
  return named === undefined ? undefined : resolveFrom(directory, named);
}

/** What is at `path`, or undefined where nothing is or it cannot be told: a source that cannot be read adds no rules. */
function statOf(fs: FileSystem, path: string): Promise<FileStat | undefined> {
  return fs.stat(path).catch(() => undefined);
}

/** `path` as an absolute path: itself if absolute, else below `base`. */
function resolveFrom(base: string, path: string): string {
  return normalizeAbsolute(path.startsWith('/') ? path : `${base}/${path}`);
}

async function readText(fs: FileSystem, path: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(path);
    if (stat?.kind !== 'file' || stat.size > MAX_IGNORE_FILE_BYTES) return undefined;
    return new TextDecoder().decode(await fs.readFile(path));
  } catch {
    return undefined;
  }
}

interface IgnoreConfig {
  /** core.excludesFile as written (undefined: not set). */
  readonly excludesFile: string | undefined;
  readonly ignoreCase: boolean | undefined;
}

/** core.excludesFile and core.ignoreCase from the config files in order, the last value winning, includes followed. */
async function readConfig(fs: FileSystem, files: readonly string[], git: GitEnvironment): Promise<IgnoreConfig> {
  let excludesFile: string | undefined;
  let ignoreCase: boolean | undefined;
  const read = async (path: string, depth: number): Promise<void> => {
    // git refuses deeper nesting as a loop; so does this.
    if (depth > 10) return;
    const text = await readText(fs, path);
    if (text === undefined) return;
    for (const { key, value } of configEntries(text)) {
      if (key === 'core.excludesfile' && value !== null) excludesFile = value;
      else if (key === 'core.ignorecase') ignoreCase = configBoolean(value) ?? ignoreCase;
      else if (key === 'include.path' && value !== null) {
        const included = expandHome(value, git);
        if (included !== undefined) await read(resolveFrom(dirname(path), included), depth + 1);
      }
    }
  };
  for (const file of files) await read(file, 0);
  return { excludesFile, ignoreCase };
}

/** A path setting with `~/` for the home folder; undefined for a form this cannot expand (`~user/`, `%(prefix)/`). */
function expandHome(path: string, git: GitEnvironment): string | undefined {
  if (path === '~' || path.startsWith('~/')) return git.home === undefined ? undefined : `${git.home}${path.slice(1)}`;
  if (path.startsWith('~') || path.startsWith('%(')) return undefined;
  return path;
}

/** The global excludes file git reads: core.excludesFile (relative to the top of the work tree), else the default. */
function excludesFilePath(setting: string | undefined, git: GitEnvironment, top: string): string | undefined {
  if (setting === undefined) return git.defaultExcludesFile;
  if (setting === '') return undefined;
  const expanded = expandHome(setting, git);
  return expanded === undefined ? undefined : resolveFrom(top, expanded);
}

/** Whether the file system holding `root` finds a name written in another case: case-insensitive. Remembered per root. */
const foldsByRoot = new Map<string, Promise<boolean>>();

function namesFoldCase(fs: FileSystem, root: string): Promise<boolean> {
  let known = foldsByRoot.get(root);
  if (!known) {
    known = probeCase(fs, root);
    if (foldsByRoot.size > 64) foldsByRoot.clear();
    foldsByRoot.set(root, known);
  }
  return known;
}

/** A name that exists, asked for with its case swapped: the same entry answers only where names ignore case. */
async function probeCase(fs: FileSystem, root: string): Promise<boolean> {
  const swap = (name: string): string =>
    name.replace(/[A-Za-z]/g, (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()));
  const parent = dirname(root);
  let directory = parent;
  let name = root.slice(parent === '/' ? 1 : parent.length + 1);
  if (root === '/' || swap(name) === name) {
    directory = root;
    name = (await fs.readDirectory(root).catch(() => [])).find((entry) => swap(entry.name) !== entry.name)?.name ?? '';
    if (name === '') return false;
  }
  const path = joinPath(directory, name);
  const [original, swapped] = await Promise.all([statOf(fs, path), statOf(fs, joinPath(directory, swap(name)))]);
  return (
    original !== undefined &&
    swapped !== undefined &&
    original.kind === swapped.kind &&
    original.size === swapped.size &&
    original.mtimeMs === swapped.mtimeMs &&
    original.ctimeMs === swapped.ctimeMs
  );
}
