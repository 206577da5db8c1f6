/**
 * What search_content asks the external searcher (ripgrep, src/node/search/ripgrep.ts) for one start: the same files and
 * the same meaning of the query as the core's own scan, or nothing when ripgrep cannot be told the query exactly.
 *
 * ripgrep reads no ignore file. Its reading of .gitignore files differs from git's (case under core.ignoreCase,
 * trailing tabs, classes and `?` over multi-byte names, allow-lists), and every difference would hide a file git
 * shows; so where ignore files count, the core walks the start first and hands ripgrep what the walk skipped.
 */
import type { ToolContext } from '../context';
import { normaliseGlob } from '../policy/glob';
import type { IgnoreRules } from '../walk/ignore/rules';
import { walkListings } from '../walk/listing';
import type { ConfinedPath } from '../confinement';
import type { CompiledQuery } from './query';
import type { ContentSearchRequest } from '../ports/searcher';

/** The parts of search_content's input the request depends on. */
export interface RequestInput {
  readonly file_pattern?: string | undefined;
  readonly case_sensitive: boolean;
  readonly context_lines: number;
  readonly include_ignored: boolean;
}

/** What the tools' walk of `start` skips (ignore files, excludes, hidden paths), and how many of them it ignored. */
export async function skippedBelow(
  context: ToolContext,
  start: ConfinedPath,
): Promise<{ readonly skipped: readonly string[]; readonly ignored: number }> {
  const skipped: string[] = [];
  const rules = await walkListings(
    context,
    start,
    { includeIgnored: false, search: true, includeDotFiles: true, skipped: (absolute) => skipped.push(absolute) },
    () => undefined,
  );
  return { skipped, ignored: rules.ignoredCount };
}

export function externalRequest(
  start: ConfinedPath,
  query: CompiledQuery,
  input: RequestInput,
  rules: IgnoreRules,
  skipped: readonly string[] | undefined,
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
    ...(skipped === undefined ? {} : { skipped }),
    query: query.external,
    caseSensitive: input.case_sensitive,
    contextLines: input.context_lines,
    includeGlobs,
    includeCaseInsensitive: input.file_pattern !== undefined && input.file_pattern === input.file_pattern.toLowerCase(),
    excludeGlobs: [...rules.hiddenGlobs, ...rules.excludeGlobs],
    skipGit: !input.include_ignored,
    maxMatchesPerFile: need,
  };
}
