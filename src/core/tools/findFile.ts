import Fuse from 'fuse.js';
import { ToolError } from '../errors';
import { basename } from '../paths';
import { defineTool, type InputSchema } from '../tool';
import { walkVisible } from '../listing';
import { compareCodePoints } from './listFiles';

const inputSchema = {
  type: 'object',
  properties: {
    file_name: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description: 'The file name or part of it, e.g. "report_2026" or "package.json". Spaces are fine.',
    },
    max_results: {
      type: 'integer',
      minimum: 1,
      default: 20,
      description: 'Most matches to return (default 20, at most 200; more is refused with LIMIT_EXCEEDED).',
    },
    include_ignored: {
      type: 'boolean',
      default: false,
      description: 'Also search what is normally skipped: .git, paths matched by .gitignore files, VS Code\'s files.exclude and search.exclude and the setting agentFs.exclude. Default false; the result\'s ignored_count says how much was skipped. Paths in agentFs.hiddenPaths stay hidden either way.',
    },
  },
  required: ['file_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const FIND_FILE_CAP = 200;

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
  modelDescription: 'Find files by name anywhere under the base directory. An exact, case-insensitive match of the whole file name comes first (score 1, match_type "exact"); otherwise a fuzzy ranking of file names tolerant of separators, partial words and typos (0 < score < 1, match_type "lax"); nothing found is ok with match_type "none" and matches []. Matches the file name only, not directory names. Use it when you know roughly what a file is called but not where it is. Skips .git, paths matched by .gitignore files, VS Code\'s files.exclude and agentFs.exclude unless include_ignored is true. Returns data {query, match_type, count, matches: [{file_name, relative_path, score}], truncated, ignored_count}. Errors: INVALID_INPUT, LIMIT_EXCEEDED (max_results above 200), LIST_FAILED.',
  icon: 'search',
  tags: ['read', 'search'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {  },
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
