/**
 * Which files a replace_in_files call looks into: those search_content would search below each named directory (or
 * every root) — git's ignore rules, the exclude settings and the hidden paths applied by the same walk, dot files
 * searched, links not followed — narrowed by `include` and `exclude`, and by the content index where the host keeps
 * one (a file it rules out holds no matching line, ports/contentIndex.ts). A file named in `paths` is taken as named,
 * unless it is hidden. The answer is in the order of the paths as results show them.
 */
import type { Minimatch } from 'minimatch';
import type { ConfinedPath, Root } from '../confinement';
import type { ToolContext } from '../context';
import { ToolError } from '../errors';
import { basename, relativeTo } from '../paths';
import { assertMayRead } from '../policy/policy';
import { compileSearchGlob, searchNameRegex } from '../policy/glob';
import { throwIfCancelled } from '../signals';
import { checkDirectory, compareCodePoints, walkVisible } from '../walk/listing';
import type { ReplacePattern } from './pattern';

/** The globs of a call: compiled once (INVALID_PATTERN for one that is not a usable glob). */
export interface FileGlobs {
  readonly include?: Minimatch;
  readonly exclude?: Minimatch;
}

export function compileGlobs(input: { readonly include?: string | undefined; readonly exclude?: string | undefined }): FileGlobs {
  return {
    ...(input.include === undefined ? {} : { include: compileSearchGlob(input.include, 'include') }),
    ...(input.exclude === undefined ? {} : { exclude: compileSearchGlob(input.exclude, 'exclude') }),
  };
}

/** A glob as a test of a root-relative path, by the name alone where the glob looks at nothing else. */
function pathTest(matcher: Minimatch): (relative: string, name: string) => boolean {
  const byName = searchNameRegex(matcher);
  return byName ? (_relative, name) => byName.test(name) : (relative) => matcher.match(relative);
}

/** What a call named in `paths`: each entry resolved, or its refusal (the first refuses the call). */
type Named = readonly { readonly path?: ConfinedPath; readonly error?: ToolError }[] | undefined;

/**
 * The files to look into, in the order results show them, each once. FILE_NOT_FOUND for a named path that does not
 * exist; a named directory must be one the tools may show (checkDirectory).
 */
export async function filesToSearch(
  context: ToolContext,
  named: Named,
  globs: FileGlobs,
  pattern: ReplacePattern,
): Promise<ConfinedPath[]> {
  const starts: ConfinedPath[] = [];
  const files = new Map<string, ConfinedPath>();
  const include = globs.include ? pathTest(globs.include) : undefined;
  const exclude = globs.exclude ? pathTest(globs.exclude) : undefined;
  const wanted = (root: Root, absolute: string, name: string): boolean => {
    if (!include && !exclude) return true;
    const relative = relativeTo(root.path, absolute);
    return (include?.(relative, name) ?? true) && !(exclude?.(relative, name) ?? false);
  };
  if (named === undefined || named.length === 0) {
    for (const root of context.paths.roots) starts.push(await checkDirectory(context, await context.paths.resolve(root.path, 'directory')));
  } else {
    for (const entry of named) {
      if (entry.error) throw entry.error;
      const path = entry.path;
      if (!path) continue;
      const stat = await context.workspace.fs.stat(path.absolute);
      if (!stat) throw new ToolError('FILE_NOT_FOUND', `Path does not exist: ${path.display}.`, { path: path.display });
      if (stat.kind === 'directory') starts.push(await checkDirectory(context, path));
      else {
        await assertMayRead(context, path, stat.kind);
        if (stat.kind === 'file' && wanted(path.root, path.absolute, basename(path.absolute))) files.set(path.absolute, path);
      }
    }
  }
  for (const start of starts) {
    throwIfCancelled(context);
    const { root } = start;
    const mayMatch =
      context.contentIndex && pattern.plan
        ? await context.contentIndex.narrow(root.path, pattern.plan, pattern.regex.ignoreCase === false)
        : undefined;
    await walkVisible(context, start, { includeIgnored: false, search: true, includeDotFiles: true }, (entry) => {
      // Links are not followed, as search_content does not follow them.
      if (entry.kind !== 'file' || entry.isSymlink || files.has(entry.absolute)) return;
      if (mayMatch && !mayMatch(entry.absolute)) return;
      if (!wanted(root, entry.absolute, entry.name)) return;
      files.set(entry.absolute, { root, absolute: entry.absolute, display: context.paths.display(root, entry.absolute) });
    });
  }
  return [...files.values()].sort((a, b) => compareCodePoints(a.display, b.display));
}
