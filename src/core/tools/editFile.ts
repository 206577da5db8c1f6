import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { ToolError } from '../errors';
import { applyRegions, findMatches, type MatchStage } from '../match';
import { defineTool, type InputOf, type InputSchema } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path of the file to edit, relative to the base directory.',
    },
    old_string: {
      type: 'string',
      minLength: 1,
      description: 'The text to replace, copied from the file. Must match exactly once unless replace_all is true or expected_match_count is given.',
    },
    new_string: {
      type: 'string',
      description: 'The replacement text. Empty deletes old_string (whole lines, with their line endings, in the whitespace stage).',
    },
    replace_all: {
      type: 'boolean',
      default: false,
      description: 'Replace every match instead of requiring exactly one. Default false.',
    },
    expected_match_count: {
      type: 'integer',
      minimum: 1,
      description: 'Replace exactly this many matches; any other count is refused (MULTIPLE_MATCHES when more, NO_MATCH when fewer) and nothing changes.',
    },
    expected_hash: {
      type: 'string',
      pattern: '^(sha256:)?[0-9a-fA-F]{64}$',
      description: 'Optional guard: the content_hash you last read (agentfs_read_file, agentfs_file_info, or a previous edit\'s result). If the file\'s current hash differs, nothing is written and the call fails with CONTENT_CONFLICT.',
    },
    dry_run: {
      type: 'boolean',
      default: false,
      description: 'Check everything and return the unified diff of what would change (data.diff), writing nothing. Default false.',
    },
    encoding: {
      type: 'string',
      enum: ['utf-8', 'utf-16le', 'utf-16be', 'latin1'],
      description: 'The file\'s encoding, only needed for a file without a byte-order mark that is not UTF-8 (e.g. latin1). Default: from the byte-order mark, else UTF-8.',
    },
  },
  required: ['path', 'old_string', 'new_string'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

interface Extra extends Record<string, unknown> {
  stage: MatchStage;
  match_count: number;
  replaced: number;
  lines: number[];
}

function transform(input: Input): (file: TextFile) => { text: string; extra: Extra } {
  return (file) => {
    if (input.old_string === input.new_string) {
      throw new ToolError('INVALID_INPUT', 'old_string and new_string are the same, so the edit would change nothing.', { field: 'new_string' });
    }
    const display = file.path.display;
    const result = findMatches(file.text, input.old_string, input.new_string);
    if (result.stage === 'none') {
      const best = result.candidates[0];
      const nearest = best
        ? ` The nearest text is at lines ${best.start_line}-${best.end_line} (similarity ${best.similarity}):\n${best.lines.map((line) => `${line.line}: ${line.text}`).join('\n')}\nRead those lines and retry with old_string copied from them.`
        : ' The file has no similar lines.';
      throw new ToolError('NO_MATCH', `old_string was not found in ${display}, neither exactly nor ignoring indentation, trailing whitespace and line endings.${nearest}`, {
        path: display,
        candidates: result.candidates,
      });
    }
    const count = result.regions.length;
    const lines = result.regions.map((region) => region.line);
    const expected = input.expected_match_count;
    if (expected !== undefined && count !== expected) {
      throw new ToolError(
        count > expected ? 'MULTIPLE_MATCHES' : 'NO_MATCH',
        `old_string matches ${count} time${count === 1 ? '' : 's'} in ${display} (${result.stage} match, at line${count === 1 ? '' : 's'} ${lines.join(', ')}), but expected_match_count is ${expected}. Nothing was changed.`,
        { path: display, stage: result.stage, match_count: count, expected_match_count: expected, lines },
      );
    }
    if (expected === undefined && count > 1 && !input.replace_all) {
      throw new ToolError(
        'MULTIPLE_MATCHES',
        `old_string matches ${count} times in ${display} (${result.stage} match, at lines ${lines.join(', ')}). Include more surrounding lines so it matches once, or pass replace_all: true to change every one.`,
        { path: display, stage: result.stage, match_count: count, lines },
      );
    }
    return { text: applyRegions(file.text, result.regions), extra: { stage: result.stage, match_count: count, replaced: count, lines } };
  };
}

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit File',
  userDescription: 'Replace a unique piece of text in a workspace file.',
  modelDescription: 'Replace text in an existing file: old_string must match exactly one place (unless replace_all or expected_match_count says otherwise). Matching is staged and data.stage names the stage used: "exact" first; then "whitespace", which compares whole lines ignoring indentation, trailing whitespace and CRLF/LF differences and re-indents new_string onto the indentation actually found. The file\'s encoding, byte-order mark and line endings are kept; new lines take the file\'s line-ending style. Prefer this to agentfs_write_file for changes to part of a file; copy old_string from a fresh read, with enough surrounding lines to be unique. Returns data {path, dry_run, changed, ..., lines_added, lines_removed, previous_hash, content_hash (pass it as expected_hash to the next edit), encoding, bom, newline} plus diff and diff_truncated when dry_run, with stage, match_count, replaced and lines (the 1-based first line of each replaced match). Errors: NO_MATCH (details.candidates lists the nearest lines with line numbers and similarity; re-read them and retry), MULTIPLE_MATCHES (details.lines lists where; add context or set replace_all), INVALID_INPUT (old_string equals new_string), FILE_NOT_FOUND, FILE_NOT_FILE, CONTENT_CONFLICT (expected_hash differs), BINARY_CONTENT_REFUSED (binary, or not valid text in its encoding: name the encoding), LIMIT_EXCEEDED (file above 10 MiB), FILE_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, SENSITIVE_PATH_REFUSED (a protected or hidden path: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR (the file has unsaved changes in an editor), READ_ONLY_MODE, WORKSPACE_UNTRUSTED, WRITE_FAILED. Edits adding plus removing more lines than the setting agentFs.confirmEditsOverLines (default 20) ask the user first, showing the diff. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'edit',
  tags: ['write', 'edit'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  async prepare(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    return prepareTextEdit(context, path, editOptionsOf(input), transform(input), 'Editing');
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
