/**
 * What search_content asks the external searcher (ripgrep, src/node/ripgrep.ts) for one start: the same files and
 * the same meaning of the query as the core's own scan, or nothing when ripgrep cannot be told the rules exactly.
 */
import type { ToolContext } from '../context';
import { normaliseGlob } from '../glob';
import { GITIGNORE, type IgnoreRules } from '../ignore';
import { dirname, isWithin } from '../paths';
import type { ConfinedPath } from '../confinement';
import type { CompiledQuery } from './query';
import type { ContentSearchRequest } from './searcher';

/** The parts of search_content's input the request depends on. */
export interface RequestInput {
  readonly file_pattern?: string | undefined;
  readonly case_sensitive: boolean;
  readonly context_lines: number;
  readonly include_ignored: boolean;
}

/** The .gitignore files from the root down to `start`'s parent: ripgrep reads only the root's itself (cwd-relative). */
export async function parentIgnoreFiles(context: ToolContext, start: ConfinedPath): Promise<string[] | undefined> {
  const found: string[] = [];
  for (
    let directory = dirname(start.absolute);
    isWithin(start.root.path, directory) && start.absolute !== start.root.path;
    directory = dirname(directory)
  ) {
    const candidate = directory === '/' ? `/${GITIGNORE}` : `${directory}/${GITIGNORE}`;
    if ((await context.workspace.fs.stat(candidate))?.kind === 'file') found.push(candidate);
    if (directory === start.root.path) break;
  }
  // A .gitignore between the root and start is relative to its own folder, which ripgrep cannot be told.
  if (found.some((file) => file !== `${start.root.path}/${GITIGNORE}`)) return undefined;
  return found;
}

export function externalRequest(
  start: ConfinedPath,
  query: CompiledQuery,
  input: RequestInput,
  rules: IgnoreRules,
  parents: readonly string[],
  need: number,
): ContentSearchRequest | undefined {
  if (!query.external) return undefined;
  // The clean-up compileSearchGlob gives the pattern (ripgrep would read a '\\' as an escape); a leading '/' stays, as
  // ripgrep anchors it at the root too.
  const glob = input.file_pattern === undefined ? undefined : normaliseGlob(input.file_pattern);
  const includeGlobs = glob === undefined ? [] : [glob, `${glob}.txt`];
  return {
    root: start.root.path,
    start: start.absolute,
    query: query.external,
    caseSensitive: input.case_sensitive,
    contextLines: input.context_lines,
    includeGlobs,
    includeCaseInsensitive: input.file_pattern !== undefined && input.file_pattern === input.file_pattern.toLowerCase(),
    excludeGlobs: [...rules.hiddenGlobs, ...rules.excludeGlobs],
    respectIgnoreFiles: !input.include_ignored,
    parentIgnoreFiles: parents,
    maxMatchesPerFile: need,
  };
}
