import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { insertLinesAt } from '../lines';
import { countLines } from '../text';
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
    position: {
      type: 'string',
      enum: ['before', 'after', 'end'],
      description: 'Where to insert: "before" or "after" the given line, or "end" to append at the end of the file (then leave out line).',
    },
    line: {
      type: 'integer',
      minimum: 1,
      description: 'The 1-based line to insert before or after. Required for before/after, refused for end.',
    },
    content: {
      type: 'string',
      minLength: 1,
      description: 'The lines to insert. A trailing newline is optional; pass "\\n" for one empty line.',
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
  required: ['path', 'position', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

function transform(input: Input): (file: TextFile) => { text: string; extra: Record<string, unknown> } {
  return (file) => {
    const text = insertLinesAt(file.text, input.position, input.line, input.content, file.path.display);
    return { text, extra: { position: input.position, line: input.line ?? null, total_lines: countLines(text) } };
  };
}

export const insertLines = defineTool({
  name: 'insert_lines',
  title: 'Insert Lines',
  userDescription: 'Insert lines into a workspace file.',
  modelDescription: 'Insert lines into an existing file without replacing any: before or after a 1-based line, or at the end (position "end" takes no line). An out-of-range line is refused with INVALID_INPUT (never clamped). The new lines take the file\'s line-ending style; a file without a trailing newline keeps having none. Returns data {path, dry_run, changed, ..., lines_added, lines_removed, previous_hash, content_hash (pass it as expected_hash to the next edit), encoding, bom, newline} plus diff and diff_truncated when dry_run, with position, line and total_lines (after the edit). Errors: INVALID_INPUT, FILE_NOT_FOUND, FILE_NOT_FILE, CONTENT_CONFLICT (expected_hash differs), BINARY_CONTENT_REFUSED (binary, or not valid text in its encoding: name the encoding), LIMIT_EXCEEDED (file above 10 MiB), FILE_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, SENSITIVE_PATH_REFUSED (a protected or hidden path: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR (the file has unsaved changes in an editor), READ_ONLY_MODE, WORKSPACE_UNTRUSTED, WRITE_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'insert',
  tags: ['write', 'edit'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  async prepare(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    const where = input.position === 'end' ? 'at the end of' : `${input.position} line ${input.line ?? '?'} of`;
    return prepareTextEdit(context, path, editOptionsOf(input), transform(input), `Inserting lines ${where}`);
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
