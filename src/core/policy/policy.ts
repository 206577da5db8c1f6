/**
 * Protected and hidden paths, and the unsaved-editor rule: the one place that decides whether a tool may touch a
 * path. Every mutating tool asks `assertMayWrite` (and `assertTreeMayChange` for a directory tree)
 * before it writes; every tool that shows content, names or metadata asks `assertMayRead` or filters walk entries
 * with `isHidden`.
 *
 * The patterns are path rules (glob.ts, documented in the README): case-insensitive, at any depth unless anchored
 * with a leading '/', a trailing '/' for a directory and everything in it, and a path inside a matched directory
 * covered too. A hidden path is protected as well: writing to it could reveal its content through a diff, a NO_MATCH
 * candidate or a patch failure.
 *
 * Symbolic links: the lexical path and the real path (where the file system has real paths) are both checked, so a
 * link named `notes.txt` pointing at `.env` is as protected as `.env` itself.
 */
import { ToolError } from '../errors';
import type { EntryKind } from '../ports/fs';
import { globList } from './glob';
import { basename, dirname, isWithin, joinPath, relativeTo } from '../paths';
import type { ConfinedPath, Root } from '../confinement';
import type { Policy, PolicyWording } from '../settings';
import type { ToolContext } from '../context';
import { walkTree } from '../files/walk';

type PathSetting = 'agentFs.protectedPaths' | 'agentFs.hiddenPaths';

interface PathRuleMatch {
  readonly setting: PathSetting;
  readonly pattern: string;
}

function firstMatch(patterns: readonly string[], relative: string, kind: EntryKind | undefined): string | undefined {
  return globList(patterns).firstMatch(relative, kind === 'directory');
}

/** Whether reads, listings and searches must leave this path out. `relative` is relative to its root ('/'-separated). */
export function isHidden(policy: Pick<Policy, 'hiddenPaths'>, relative: string, kind?: EntryKind): boolean {
  return firstMatch(policy.hiddenPaths, relative, kind) !== undefined;
}

/** Whether mutating tools must refuse this path (hidden paths included). `relative` is relative to its root. */
export function isProtected(policy: Pick<Policy, 'protectedPaths' | 'hiddenPaths'>, relative: string, kind?: EntryKind): boolean {
  return matchRule(policy, relative, 'write', kind) !== undefined;
}

/** The setting and pattern that cover `relative` for this kind of access, if any. */
function matchRule(
  policy: Pick<Policy, 'protectedPaths' | 'hiddenPaths'>,
  relative: string,
  access: 'read' | 'write',
  kind?: EntryKind,
): PathRuleMatch | undefined {
  // A write names the protecting setting first: that is the one a user would look at for "why can't it write this".
  if (access === 'write') {
    const protectedBy = firstMatch(policy.protectedPaths, relative, kind);
    if (protectedBy !== undefined) return { setting: 'agentFs.protectedPaths', pattern: protectedBy };
  }
  const hidden = firstMatch(policy.hiddenPaths, relative, kind);
  return hidden === undefined ? undefined : { setting: 'agentFs.hiddenPaths', pattern: hidden };
}

/** The path relative to its root, as patterns are matched. */
function rootRelative(path: ConfinedPath): string {
  return relativeTo(path.root.path, path.absolute);
}

function refusal(display: string, match: PathRuleMatch, access: 'read' | 'write', wording: PolicyWording): ToolError {
  const verb = access === 'read' ? 'read' : 'change';
  const hidden = match.setting === 'agentFs.hiddenPaths';
  const why = hidden
    ? 'which keeps secrets out of what the tools read, list, search and change'
    : 'which protects credentials and configuration from the tools';
  return new ToolError(
    'SENSITIVE_PATH_REFUSED',
    `Refusing to ${verb} ${display}: it matches "${match.pattern}" in ${hidden ? wording.hiddenPaths : wording.protectedPaths}, ${why}. Ask the user to do this themselves; ${wording.pathRuleRemedy}.`,
    { path: display, setting: match.setting, pattern: match.pattern },
  );
}

/**
 * The root-relative paths a rule check must consider: the lexical one and, through symbolic links, the real one
 * (of the nearest existing ancestor, for a path that does not exist yet) when it lies inside some root.
 */
async function pathsToCheck(context: ToolContext, path: ConfinedPath): Promise<{ relatives: string[]; absolutes: string[] }> {
  const relatives = [rootRelative(path)];
  const absolutes = [path.absolute];
  const { fs } = context.workspace;
  if (!fs.realPath) return { relatives, absolutes };
  let existing = path.absolute;
  let rest = '';
  let real: string | undefined;
  for (;;) {
    real = await fs.realPath(existing);
    if (real !== undefined || existing === path.root.path || existing === '/') break;
    rest = rest === '' ? basename(existing) : `${basename(existing)}/${rest}`;
    existing = dirname(existing);
  }
  if (real === undefined) return { relatives, absolutes };
  const realFull = rest === '' ? real : joinPath(real, rest);
  if (realFull === path.absolute) return { relatives, absolutes };
  absolutes.push(realFull);
  for (const root of context.paths.roots) {
    const realRoot = await realRootOf(context, root);
    if (realRoot !== undefined && isWithin(realRoot, realFull)) {
      const relative = relativeTo(realRoot, realFull);
      if (!relatives.includes(relative)) relatives.push(relative);
    }
  }
  return { relatives, absolutes };
}

async function realRootOf(context: ToolContext, root: Root): Promise<string | undefined> {
  return (await context.workspace.fs.realPath?.(root.path)) ?? root.path;
}

/** Refuses (SENSITIVE_PATH_REFUSED) a hidden path. For tools that show content, names or metadata. */
export async function assertMayRead(context: ToolContext, path: ConfinedPath, kind?: EntryKind): Promise<void> {
  const { relatives } = await pathsToCheck(context, path);
  for (const relative of relatives) {
    const match = matchRule(context.policy, relative, 'read', kind);
    if (match) throw refusal(path.display, match, 'read', context.policy.wording);
  }
}

/**
 * Refuses a protected or hidden path (SENSITIVE_PATH_REFUSED), then a file open in an editor with unsaved changes
 * (FILE_DIRTY_IN_EDITOR). Every mutating tool calls it for every path it writes, deletes or moves away.
 */
export async function assertMayWrite(context: ToolContext, path: ConfinedPath, kind?: EntryKind): Promise<void> {
  const { relatives, absolutes } = await pathsToCheck(context, path);
  for (const relative of relatives) {
    const match = matchRule(context.policy, relative, 'write', kind);
    if (match) throw refusal(path.display, match, 'write', context.policy.wording);
  }
  for (const absolute of absolutes) assertNotDirty(context, path.display, absolute);
}

function assertNotDirty(context: ToolContext, display: string, absolute: string): void {
  if (context.editors?.isDirty(absolute)) {
    throw new ToolError(
      'FILE_DIRTY_IN_EDITOR',
      `${display} is open in an editor with unsaved changes; Agent FS does not overwrite them. Ask the user to save or revert the file, then try again.`,
      { path: display },
    );
  }
}

/**
 * Checks everything inside the directory `tree` (links are not followed) before a tool deletes, moves or copies it:
 * with `access` 'write' every entry must be neither protected nor hidden nor dirty in an editor (a recursive delete
 * of a folder holding `.env` is refused, not half-done); with 'read' no entry may be hidden (a copy must not carry a
 * secret to a readable name). With `destination`, every entry is also checked where it would land.
 * The directory itself is the caller's to check with assertMayWrite / assertMayRead.
 */
export async function assertTreeMayChange(
  context: ToolContext,
  tree: ConfinedPath,
  access: 'read' | 'write',
  destination?: ConfinedPath,
): Promise<void> {
  const { fs } = context.workspace;
  const base = rootRelative(tree);
  const destinationBase = destination ? rootRelative(destination) : undefined;
  let offence: ToolError | undefined;
  await walkTree(fs, tree.absolute, context, (entry) => {
    if (offence) return false;
    const inside = relativeTo(tree.absolute, entry.absolute);
    const kind = entry.isSymlink ? 'other' : entry.kind;
    const relative = base === '' ? inside : `${base}/${inside}`;
    const display = context.paths.display(tree.root, entry.absolute);
    const match = matchRule(context.policy, relative, access, kind);
    if (match) {
      offence = refusal(display, match, access, context.policy.wording);
      return false;
    }
    if (access === 'write' && entry.kind === 'file' && context.editors?.isDirty(entry.absolute)) {
      offence = new ToolError(
        'FILE_DIRTY_IN_EDITOR',
        `${display} is open in an editor with unsaved changes; Agent FS does not delete or move it. Ask the user to save or revert it first.`,
        { path: display },
      );
      return false;
    }
    if (destination && destinationBase !== undefined) {
      const landing = destinationBase === '' ? inside : `${destinationBase}/${inside}`;
      const landingMatch = matchRule(context.policy, landing, 'write', kind);
      if (landingMatch) {
        offence = refusal(
          context.paths.display(destination.root, joinPath(destination.absolute, inside)),
          landingMatch,
          'write',
          context.policy.wording,
        );
        return false;
      }
    }
    return true;
  });
  if (offence) throw offence;
}
