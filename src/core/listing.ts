/** The walk the listing and search tools share: walkTree plus the ignore rules (ignore.ts) and dot-file hiding. */
import { ToolError } from './errors';
import type { EntryKind } from './fs';
import { IgnoreRules } from './ignore';
import { assertMayRead } from './policy';
import type { ConfinedPath } from './root';
import type { ToolContext } from './context';
import { walkTree } from './walk';

export interface VisibleEntry {
  readonly absolute: string;
  readonly name: string;
  /** 1 for the start directory's own entries. */
  readonly depth: number;
  /** The directory the entry is in. */
  readonly parent: string;
  /** Of the link's target for a symbolic link (as in the port). */
  readonly kind: EntryKind;
  readonly isSymlink: boolean;
}

export interface VisibleWalkOptions {
  readonly includeIgnored: boolean;
  /** Apply search.exclude too. */
  readonly search: boolean;
  /** Show names starting with '.' (they are neither ignored nor counted when hidden this way). */
  readonly includeDotFiles: boolean;
  readonly maxDepth?: number;
  /** Return false to not descend into a directory the walk would otherwise enter. */
  readonly descend?: (entry: VisibleEntry) => boolean;
}

/**
 * Walks `start` calling `visit` for every entry the rules let through (links are reported, never descended).
 * Returns the rules, whose `ignoredCount` says how much was skipped.
 */
export async function walkVisible(
  context: ToolContext,
  start: ConfinedPath,
  options: VisibleWalkOptions,
  visit: (entry: VisibleEntry) => void,
): Promise<IgnoreRules> {
  const rules = new IgnoreRules(context, start.root, { includeIgnored: options.includeIgnored, search: options.search });
  await rules.prepare(start.absolute);
  // A folder that is itself ignored (listing "node_modules" by name) shows nothing unless include_ignored: the same
  // answer whichever way its .gitignore rule is written, and the one ripgrep's results are held to.
  if (start.absolute !== start.root.path && (await rules.excludesPath(start.absolute, true))) {
    rules.ignoredCount++;
    return rules;
  }
  await walkTree(
    context.workspace.fs,
    start.absolute,
    context,
    (entry) => {
      if (!options.includeDotFiles && entry.name.startsWith('.')) return false;
      const isDirectory = entry.kind === 'directory' && !entry.isSymlink;
      if (rules.skips(entry.absolute, entry.name, isDirectory, entry.parent)) return false;
      visit(entry);
      return isDirectory && (options.descend?.(entry) ?? true);
    },
    { maxDepth: options.maxDepth, enterDirectory: options.includeIgnored ? undefined : rules.enterDirectory },
  );
  return rules;
}

/** Resolves a directory parameter and checks that it is a directory the tools may show. */
export async function resolveDirectory(context: ToolContext, input: string | undefined): Promise<ConfinedPath> {
  const directory = await context.paths.resolve(input ?? '.', 'directory');
  const stat = await context.workspace.fs.stat(directory.absolute);
  if (!stat) throw new ToolError('DIRECTORY_NOT_FOUND', `Directory does not exist: ${directory.display}.`);
  if (stat.kind !== 'directory') {
    throw new ToolError('DIRECTORY_NOT_DIRECTORY', `Not a directory: ${directory.display} is a ${stat.kind}. Use agentfs_file_info or agentfs_read_file for a file.`);
  }
  await assertMayRead(context, directory, 'directory');
  return directory;
}

/** The directories to search: the named one, or every root when none is named. */
export async function searchStarts(context: ToolContext, input: string | undefined): Promise<ConfinedPath[]> {
  if (input !== undefined) return [await resolveDirectory(context, input)];
  return Promise.all(context.paths.roots.map((root) => resolveDirectory(context, root.path)));
}

/**
 * The `count` smallest of `items` in code-unit order (compareCodePoints' order), sorted; reorders `items`. A listing
 * of 100,000 paths that returns the first 1,000 needs only those sorted: a quickselect moves them to the front in
 * linear time, then only they are sorted.
 */
export function firstInOrder(items: string[], count: number): string[] {
  // The default sort compares UTF-16 code units, as compareCodePoints does, without a call per comparison.
  if (items.length <= count) return items.sort();
  const at = (index: number): string => items[index] ?? '';
  let left = 0;
  let right = items.length - 1;
  const last = count - 1;
  for (let rounds = 0; left < right; rounds++) {
    // Far more rounds than a random order needs: an adversarial one falls back to sorting everything.
    if (rounds > 100) return items.sort().slice(0, count);
    const [a, b, c] = [at(left), at((left + right) >>> 1), at(right)];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = left;
    let j = right;
    while (i <= j) {
      while (i < right && at(i) < pivot) i++;
      while (j > left && at(j) > pivot) j--;
      if (i <= j) {
        const swap = at(i);
        items[i++] = at(j);
        items[j--] = swap;
      }
    }
    // Now items[left..j] ≤ pivot ≤ items[i..right], and anything between j and i equals the pivot.
    if (last <= j) right = j;
    else if (last >= i) left = i;
    else break;
  }
  return items.slice(0, count).sort();
}

export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The type a listing shows: a link is a link, whatever it points at. */
export function entryType(entry: Pick<VisibleEntry, 'kind' | 'isSymlink'>): 'file' | 'directory' | 'symlink' | 'other' {
  return entry.isSymlink ? 'symlink' : entry.kind;
}
