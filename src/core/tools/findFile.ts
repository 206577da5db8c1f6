import Fuse from 'fuse.js';
import { ToolError } from '../errors';
import { basename } from '../paths';
import type { InputSchema } from '../schema';
import { defineTool } from '../tool';
import { compareCodePoints, walkVisible } from '../listing';
import { INCLUDE_IGNORED } from './parameters';

export const FIND_FILE_CAP = 200;

const inputSchema = {
  type: 'object',
  properties: {
    file_name: { type: 'string', minLength: 1, maxLength: 1024, description: 'Name or part of it.' },
    max_results: { type: 'integer', minimum: 1, default: 20, description: `At most ${FIND_FILE_CAP}.` },
    include_ignored: INCLUDE_IGNORED,
  },
  required: ['file_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

interface Candidate {
  readonly file_name: string;
  readonly relative_path: string;
}

interface Match extends Candidate {
  readonly score: number;
}

/**
 * Fuzzy fallback: the query's words (split like the seed plugin splits them: whitespace, '.', '_', '-') must each
 * match the file name approximately (Fuse's extended search ANDs space-separated terms). Bitap tolerates typos
 * such as "reprot" for "report"; `ignoreLocation` lets a word match anywhere in the name.
 */
function laxMatches(query: string, candidates: readonly Candidate[]): Match[] {
  const words = query.trim().toLowerCase().split(/[\s._-]+/).filter((word) => word !== '');
  if (words.length === 0) return [];
  const fuse = new Fuse(candidates, {
    keys: ['file_name'],
    includeScore: true,
    ignoreLocation: true,
    threshold: 0.4,
    useExtendedSearch: true,
    isCaseSensitive: false,
  });
  // Each word is quoted so that characters with meaning in extended search ('!', '^', '=') stay literal.
  const pattern = words.map((word) => `"${word.replace(/"/g, '')}"`).join(' ');
  return fuse.search(pattern).map(({ item, score = 1 }) => ({
    ...item,
    // Fuse scores 0 for a perfect match; the contract wants 0 < score < 1 for lax matches, higher is better.
    score: Math.min(0.99, Math.max(0.0001, Math.round((1 - score) * 10000) / 10000)),
  }));
}

export const findFile = defineTool({
  name: 'find_file',
  title: 'Find File',
  userDescription: 'Find files by name anywhere in the workspace.',
  modelDescription: 'Find files by name anywhere: exact (case-insensitive) matches, else a fuzzy ranking that tolerates typos and partial words (match_type exact, lax or none). For globs use agentfs_search_files.',
  icon: 'search',
  tags: ['read', 'search'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {},
  prepare(input) {
    return Promise.resolve({ invocationMessage: `Finding files named like "${input.file_name}"` });
  },
  async run(input, context) {
    if (input.max_results > FIND_FILE_CAP) {
      throw new ToolError('LIMIT_EXCEEDED', `max_results ${input.max_results} is above the cap of ${FIND_FILE_CAP}. Ask for at most ${FIND_FILE_CAP}, or use a more specific name.`);
    }
    const query = input.file_name.trim();
    if (query === '') throw new ToolError('INVALID_INPUT', 'Parameter "file_name" must contain more than whitespace.', { field: 'file_name' });

    const candidates: Candidate[] = [];
    let ignored = 0;
    for (const root of context.paths.roots) {
      const start = { root, absolute: root.path, display: context.paths.display(root, root.path) };
      const rules = await walkVisible(context, start, { includeIgnored: input.include_ignored, search: false, includeDotFiles: true }, (entry) => {
        // Links are neither followed nor offered: a match must be a file that is really inside the base.
        if (entry.kind === 'file' && !entry.isSymlink) {
          candidates.push({ file_name: basename(entry.absolute), relative_path: context.paths.display(root, entry.absolute) });
        }
      });
      ignored += rules.ignoredCount;
    }

    const wanted = query.toLowerCase();
    const exact = candidates.filter((candidate) => candidate.file_name.toLowerCase() === wanted);
    let matchType: 'exact' | 'lax' | 'none';
    let matches: Match[];
    if (exact.length > 0) {
      matchType = 'exact';
      matches = exact.map((candidate) => ({ ...candidate, score: 1 }));
    } else {
      matches = laxMatches(query, candidates);
      matchType = matches.length > 0 ? 'lax' : 'none';
    }
    // Equal scores: the shorter name is the closer match ("reprot" → report.md before report-final-2026.md).
    matches.sort((a, b) => b.score - a.score || a.file_name.length - b.file_name.length || compareCodePoints(a.relative_path, b.relative_path));
    const truncated = matches.length > input.max_results;
    const shown = truncated ? matches.slice(0, input.max_results) : matches;
    return { query: input.file_name, match_type: matchType, count: shown.length, matches: shown, truncated, ignored_count: ignored };
  },
});
