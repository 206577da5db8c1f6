/**
 * replace_in_files: the definition, its limits and its reply. The work is ../replace/'s: the pattern (pattern.ts),
 * the files (files.ts), each file's plan (plan.ts, text.ts, large.ts) and the all-or-nothing swap (apply.ts).
 *
 * One call's files are found once: `affects` (which the history and the locks need before the call runs) plans the
 * call and keeps the plan's promise for `run` under the call's own input object, so `run` plans again, under the
 * locks, only the files found to change, staging their new bytes as it goes, and checks the limits and expected_total
 * on what it read there before it swaps anything in.
 */
import { codePath, undoSentence } from '../changes/consequences';
import { arrayOf, BOOLEAN, described, INTEGER, object, optional, STRING } from '../contract/results';
import type { InputOf, InputSchema } from '../contract/schema';
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { fencedDiff } from '../edit/editing';
import { ToolError } from '../errors';
import { withPathLocks } from '../files/locks';
import { toolRef } from '../naming';
import { countPhrase } from '../ports/l10n';
import { applyPlan } from '../replace/apply';
import { compileGlobs, filesToSearch } from '../replace/files';
import { compileReplace, type ReplacePattern } from '../replace/pattern';
import { discardStaged, type FilePlan, type Plan, planFiles } from '../replace/plan';
import { defineTool, type PreviewFile } from '../tool';

/** The most files one call changes, and the default (which covers a rename across a large project). */
const REPLACE_FILES_CAP = 10_000;
const REPLACE_FILES_DEFAULT = 1_000;
/** The most replacements one call makes. */
const REPLACEMENTS_CAP = 10_000;
/** The longest query and replacement, checked in checkInput rather than in the schema to keep the definition short. */
const TEXT_MAX = 4096;
/** What the reply's file list may take (JSON characters): the whole reply then stays under 32 KB. */
const LIST_BUDGET = 26 * 1024;
/** Files a confirmation names one by one. */
const CONFIRMATION_FILES = 20;

const inputSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Text.' },
    replacement: { type: 'string', description: 'New.' },
    is_regex: { type: 'boolean', description: 'Regex.' },
    case_sensitive: { type: 'boolean', description: 'Default true.' },
    whole_word: { type: 'boolean', description: 'Words.' },
    include: { type: 'string', description: 'Glob.' },
    exclude: { type: 'string', description: 'Glob.' },
    paths: { type: 'array', items: { type: 'string' }, description: 'Paths.' },
    max_files: { type: 'integer', description: `${REPLACE_FILES_DEFAULT}; ≤${REPLACE_FILES_CAP}.` },
    expected_total: { type: 'integer', description: 'From dry_run.' },
    dry_run: { type: 'boolean', description: 'Diffs only.' },
  },
  required: ['query', 'replacement'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;
type Named = readonly { readonly path?: ConfinedPath; readonly error?: ToolError }[] | undefined;

/**
 * The plan `affects` made for a call, by the call's input object (the same object reaches prepare, affects and run of
 * one bound call, and no other): what `run` restricts itself to, so it changes only what the history recorded.
 */
const PLANNED = new WeakMap<object, Promise<Plan>>();

function compile(input: Input): ReplacePattern {
  return compileReplace({
    query: input.query,
    replacement: input.replacement,
    is_regex: input.is_regex ?? false,
    case_sensitive: input.case_sensitive ?? true,
    whole_word: input.whole_word ?? false,
  });
}

async function searchAndPlan(
  input: Input,
  context: ToolContext,
  named: Named,
  options: Parameters<typeof planFiles>[3] = {},
): Promise<Plan> {
  const pattern = compile(input);
  const files = await filesToSearch(context, named, compileGlobs(input), pattern);
  return planFiles(context, files, pattern, options);
}

/** "1 file", "3 files": for the error messages, which the model reads in English. */
function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** LIMIT_EXCEEDED when the plan changes more files or makes more replacements than the call allows, with the counts. */
function checkLimits(input: Input, plan: Plan): void {
  const files = plan.files.length;
  const over =
    files > (input.max_files ?? REPLACE_FILES_DEFAULT)
      ? { field: 'max_files', cap: input.max_files ?? REPLACE_FILES_DEFAULT }
      : plan.replacements > REPLACEMENTS_CAP
        ? { field: 'replacements', cap: REPLACEMENTS_CAP }
        : undefined;
  if (!over) return;
  const raise =
    over.field === 'max_files' && files <= REPLACE_FILES_CAP ? ` Pass max_files: ${files} if that is meant, or narrow` : ' Narrow';
  throw new ToolError(
    'LIMIT_EXCEEDED',
    `The query matches ${counted(plan.replacements, 'time')} in ${counted(files, 'file')}, over the limit of ${over.cap} ${over.field === 'max_files' ? 'files' : 'replacements'} a call makes.${raise} it with paths, include or exclude, and replace in several calls. Nothing was changed.`,
    { ...over, files, replacements: plan.replacements },
  );
}

/** CONTENT_CONFLICT when the tree no longer holds the replacements the dry run counted. */
function checkExpected(input: Input, plan: Plan): void {
  if (input.expected_total === undefined || input.expected_total === plan.replacements) return;
  throw new ToolError(
    'CONTENT_CONFLICT',
    `The files changed since the dry run: the query now matches ${counted(plan.replacements, 'time')} in ${counted(plan.files.length, 'file')}, not the ${input.expected_total} expected_total says. Nothing was changed. Run it with dry_run again and check the new diffs.`,
    { expected_total: input.expected_total, replacements: plan.replacements, files: plan.files.length },
  );
}

/** The reply's file list, cut to LIST_BUDGET: diffs while they fit, then paths alone, then nothing (truncated). */
function listed(files: readonly FilePlan[], withDiffs: boolean) {
  const entries: { path: string; replacements: number; diff?: string }[] = [];
  let used = 0;
  let truncated = false;
  let diffsCut = false;
  for (const file of files) {
    const diff = withDiffs && !diffsCut ? file.change?.diff : undefined;
    if (withDiffs && file.change?.diff === undefined) diffsCut = true;
    const bare = { path: file.path.display, replacements: file.replacements };
    const full = diff === undefined ? bare : { ...bare, diff };
    const size = JSON.stringify(full).length + 1;
    if (used + size <= LIST_BUDGET) {
      entries.push(full);
      used += size;
      continue;
    }
    if (diff !== undefined) diffsCut = true;
    const bareSize = JSON.stringify(bare).length + 1;
    if (used + bareSize > LIST_BUDGET) {
      truncated = true;
      break;
    }
    entries.push(bare);
    used += bareSize;
  }
  return { entries, truncated, diffsCut: withDiffs && diffsCut };
}

/** What the editor shows of each file before the change is made: its text now and after it, read when shown. */
function previewOf(input: Input, context: ToolContext, plan: Plan): PreviewFile[] {
  return plan.files
    .filter((file) => file.changed)
    .map((file) => ({
      absolute: file.path.absolute,
      display: file.path.display,
      texts: async () => {
        const single = await planFiles(context, [file.path], compile(input), { wantDiff: () => true, texts: true });
        const [only] = single.files;
        return only?.texts ?? { before: '', after: '' };
      },
    }));
}

export const replaceInFiles = defineTool({
  name: 'replace_in_files',
  title: 'Replace in Files',
  userDescription: 'Replace text or a regular expression across workspace files, all or nothing, in one undoable step.',
  modelDescription: `Replace text/regex in ${toolRef('search_content')}'s files (replacement: $1 $<name> $$). All or none; one undo.`,
  icon: 'replace-all',
  tags: ['write', 'edit', 'replace', 'refactor'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { paths: 'path' },
  outputSchema: object({
    dry_run: BOOLEAN,
    files_changed: described('Files whose bytes change.', INTEGER),
    replacements: INTEGER,
    skipped_binary: INTEGER,
    skipped_not_text: described('Not text in their encoding.', INTEGER),
    files: arrayOf(object({ path: STRING, replacements: INTEGER, diff: optional(STRING) })),
    truncated: described('files lists only the first; the counts are of all.', BOOLEAN),
    diffs_truncated: optional(BOOLEAN),
  }),
  errors: [
    'INVALID_PATTERN',
    'CONTENT_CONFLICT',
    'LIMIT_EXCEEDED',
    'SENSITIVE_PATH_REFUSED',
    'FILE_DIRTY_IN_EDITOR',
    'FILE_NOT_FOUND',
    'DIRECTORY_NOT_DIRECTORY',
    'INVALID_INPUT',
  ],
  caps: { max_files: { cap: REPLACE_FILES_CAP, advice: 'Narrow the call with paths, include or exclude, and replace in several calls.' } },
  checkInput(input) {
    for (const field of ['query', 'replacement'] as const) {
      if (input[field].length > TEXT_MAX) {
        throw new ToolError('INVALID_INPUT', `${field} is ${input[field].length} characters long; it may have at most ${TEXT_MAX}.`, {
          field,
        });
      }
    }
    compile(input);
    compileGlobs(input);
  },
  async prepare(input, context, paths) {
    const { l10n } = context;
    const query = JSON.stringify(input.query);
    const replacement = JSON.stringify(input.replacement);
    const invocationMessage = input.dry_run
      ? l10n.t('Previewing replacing {0} with {1}', query, replacement)
      : l10n.t('Replacing {0} with {1}', query, replacement);
    if (input.dry_run) return { invocationMessage };
    let shown = 0;
    const plan = await searchAndPlan(input, context, paths.paths, { wantDiff: () => shown++ < CONFIRMATION_FILES });
    checkLimits(input, plan);
    checkExpected(input, plan);
    const changed = plan.files.filter((file) => file.changed);
    if (changed.length === 0) return { invocationMessage };
    const list = changed
      .slice(0, CONFIRMATION_FILES)
      .map((file) => `- ${codePath(file.path.display)}: ${countPhrase(l10n, file.replacements, '1 replacement', '{0} replacements')}`)
      .join('\n');
    const more =
      changed.length > CONFIRMATION_FILES
        ? `\n- ${countPhrase(l10n, changed.length - CONFIRMATION_FILES, '…and 1 more file', '…and {0} more files')}`
        : '';
    const bytes = changed.reduce((sum, file) => sum + file.stat.size, 0);
    const diff = changed.map((file) => file.change?.diff ?? '').join('');
    return {
      invocationMessage,
      confirmation: {
        title: l10n.t(
          'Replace {0} in {1} ({2})?',
          query,
          countPhrase(l10n, changed.length, '1 file', '{0} files'),
          countPhrase(l10n, plan.replacements, '1 replacement', '{0} replacements'),
        ),
        message: `${list}${more}\n\n${undoSentence(context, bytes)}\n\n${fencedDiff(diff)}`,
      },
      preview: {
        title: l10n.t('Replace {0} with {1}', query, replacement),
        files: previewOf(input, context, plan),
      },
    };
  },
  // The files that match: found by searching, which is why the plan is kept for run (see the header).
  async affects(input, context, paths) {
    const planned = searchAndPlan(input, context, paths.paths, { checkWrites: false });
    PLANNED.set(input, planned);
    return (await planned).files.map((file) => file.path);
  },
  async run(input, context, paths) {
    const dryRun = input.dry_run === true;
    const earlier = await PLANNED.get(input);
    const found = earlier?.files.map((file) => file.path);
    return withPathLocks(
      (found ?? []).map((path) => path.absolute),
      async () => {
        let shown = 0;
        const pattern = compile(input);
        const files = found ?? (await filesToSearch(context, paths.paths, compileGlobs(input), pattern));
        const plan = await planFiles(context, files, pattern, dryRun ? { wantDiff: () => shown++ < 200 } : { stage: true });
        try {
          checkLimits(input, plan);
          checkExpected(input, plan);
        } catch (error) {
          await discardStaged(context, plan.files);
          throw error;
        }
        if (!dryRun) await applyPlan(context, plan);
        const { entries, truncated, diffsCut } = listed(plan.files, dryRun);
        return {
          dry_run: dryRun,
          files_changed: plan.files.filter((file) => file.changed).length,
          replacements: plan.replacements,
          // The files passed over were met by the search before the locks (affects); run reads only those that match.
          skipped_binary: (earlier ?? plan).binary,
          skipped_not_text: (earlier ?? plan).undecodable,
          files: entries,
          truncated,
          ...(dryRun ? { diffs_truncated: diffsCut } : {}),
        };
      },
    );
  },
});
