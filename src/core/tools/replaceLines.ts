import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { countLines } from '../text';
import { replaceLineRange } from '../lines';
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
    start_line: { type: 'integer', minimum: 1, description: 'First line to replace, 1-based.' },
    end_line: {
      type: 'integer',
      minimum: 1,
      description: 'Last line to replace, 1-based and inclusive (equal to start_line for one line).',
    },
    content: {
      type: 'string',
      description: 'The new lines. A trailing newline is optional; empty removes the range.',
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
  required: ['path', 'start_line', 'end_line', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

function transform(input: Input): (file: TextFile) => { text: string; extra: Record<string, unknown> } {
  return (file) => {
    const text = replaceLineRange(file.text, input.start_line, input.end_line, input.content, file.path.display);
    return { text, extra: { start_line: input.start_line, end_line: input.end_line, total_lines: countLines(text) } };
  };
}

export const replaceLines = defineTool({
  name: 'replace_lines',
  title: 'Replace Lines',
  userDescription: 'Replace a range of lines in a workspace file.',
  modelDescription: 'Replace an inclusive, 1-based range of lines (start_line..end_line) in an existing file with content. Out-of-range line numbers are refused with INVALID_INPUT (never clamped; details.total_lines says how many there are). content\'s lines take the file\'s line-ending style, and a content without a trailing newline does not fuse with the next line; empty content removes the lines. The file\'s encoding and byte-order mark are kept. Use it when you know the line numbers from a recent read; agentfs_edit_file is safer when you do not. Returns data {path, dry_run, changed, ..., lines_added, lines_removed, previous_hash, content_hash (pass it as expected_hash to the next edit), encoding, bom, newline} plus diff and diff_truncated when dry_run, with start_line, end_line and total_lines (after the edit). Errors: INVALID_INPUT, FILE_NOT_FOUND, FILE_NOT_FILE, CONTENT_CONFLICT (expected_hash differs), BINARY_CONTENT_REFUSED (binary, or not valid text in its encoding: name the encoding), LIMIT_EXCEEDED (file above 10 MiB), FILE_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, SENSITIVE_PATH_REFUSED (a protected or hidden path: settings agentFs.protectedPaths / agentFs.hiddenPaths), FILE_DIRTY_IN_EDITOR (the file has unsaved changes in an editor), READ_ONLY_MODE, WORKSPACE_UNTRUSTED, WRITE_FAILED. Every change is recorded: data also has operation_id and undo_available, for agentfs_history_get and agentfs_undo_operation (operation_id is null for a dry run or when nothing changed).',
  icon: 'replace',
  tags: ['write', 'edit'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  async prepare(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    return prepareTextEdit(context, path, editOptionsOf(input), transform(input), `Replacing lines ${input.start_line}-${input.end_line} of`);
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
