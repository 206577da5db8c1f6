import { ToolError } from '../errors';
import { namePair } from '../files';
import { assertMayRead } from '../policy';
import { lineRequest, readLines } from '../readText';
import type { ConfinedPath } from '../root';
import { defineTool, type ToolContext, type InputSchema } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    file_name: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path of the file, relative to the base directory (or absolute inside it). Spaces and common filename characters are fine.',
    },
    start_line: {
      type: 'integer',
      minimum: 1,
      description: 'First line to return, 1-based. Default 1. Past the end of the file is refused with INVALID_INPUT (the error says how many lines there are).',
    },
    end_line: {
      type: 'integer',
      minimum: 1,
      description: 'Last line to return, 1-based and inclusive. Default: the last line; a value past the end reads to the end.',
    },
    tail_lines: {
      type: 'integer',
      minimum: 1,
      description: 'Return the last N lines instead of a start_line/end_line range (fast even on multi-gigabyte logs). Cannot be combined with start_line or end_line.',
    },
    max_bytes: {
      type: 'integer',
      minimum: 1,
      description: 'Most bytes of the file to return (whole lines only, except a single line longer than this). Default and cap: the setting agentFs.maxReadBytes (262144 unless changed); more is refused with LIMIT_EXCEEDED.',
    },
    encoding: {
      type: 'string',
      enum: ['utf-8', 'utf-16le', 'utf-16be', 'latin1'],
      description: 'Decode the file as this encoding instead of the one its byte-order mark names (else UTF-8). Naming one also reads a file that looks binary (latin1 shows every byte as one character).',
    },
  },
  required: ['file_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

/** Checks that `path` is a readable file (FILE_NOT_FOUND, FILE_NOT_FILE, SENSITIVE_PATH_REFUSED); returns its size. */
export async function statReadableFile(context: ToolContext, path: ConfinedPath): Promise<number> {
  const stat = await context.workspace.fs.stat(path.absolute);
  if (!stat) throw new ToolError('FILE_NOT_FOUND', `File does not exist: ${path.display}. Use agentfs_find_file to look for it by name.`);
  if (stat.kind !== 'file') throw new ToolError('FILE_NOT_FILE', `Not a file: ${path.display} is a ${stat.kind}. Use agentfs_list_directory to see what it contains.`);
  await assertMayRead(context, path, 'file');
  return stat.size;
}

export const readFile = defineTool({
  name: 'read_file',
  title: 'Read File',
  userDescription: 'Read a text file (or some of its lines) in the workspace.',
  modelDescription: 'Read a text file inside the base directory: the whole file, a 1-based inclusive line range (start_line, end_line), or its last lines (tail_lines). Output is bounded: at most max_bytes bytes (default and cap: the setting agentFs.maxReadBytes, 262144 unless changed). Line endings and a UTF-8 byte-order mark come back exactly as stored. Returns data {file_name, relative_path, content, size_bytes, total_lines, content_hash, encoding, bom, newline ("lf", "crlf", "mixed" or "none"), start_line, end_line, truncated, truncation_reason, next_start_line}. When truncated is true the range did not fit: truncation_reason "max_bytes" means continue with start_line = next_start_line; "line_too_long" means one line is longer than max_bytes and only its first bytes (its last bytes, for tail_lines) are returned. content_hash ("sha256:<hex>" of the whole file; pass it as expected_hash to guarded writes) is given for files up to 10 MiB; larger files are read in part, never whole, so content_hash is null and total_lines is null unless the read reached the end. Binary files (a NUL byte near the start) are refused unless encoding is named. Use agentfs_read_many_files for several files, agentfs_search_content to find the lines you need first. Errors: FILE_NOT_FOUND, FILE_NOT_FILE (a directory), FILE_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, BINARY_CONTENT_REFUSED, INVALID_INPUT (start_line past the end, end_line before start_line, tail_lines with a range), LIMIT_EXCEEDED (max_bytes above agentFs.maxReadBytes; or a file above 64 MiB on a file system that cannot read part of a file; or a UTF-16 file above 10 MiB), SENSITIVE_PATH_REFUSED (agentFs.hiddenPaths), READ_FAILED.',
  icon: 'file',
  tags: ['read'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { file_name: 'file' },
  async prepare(input, context) {
    const path = await context.paths.resolve(input.file_name, 'file');
    const range =
      input.tail_lines !== undefined
        ? ` (last ${input.tail_lines} lines)`
        : input.start_line !== undefined || input.end_line !== undefined
          ? ` (lines ${input.start_line ?? 1}–${input.end_line ?? 'end'})`
          : '';
    return { invocationMessage: `Reading ${path.display}${range}` };
  },
  async run(input, context) {
    const request = lineRequest(input, context.policy.maxReadBytes, context.policy.maxReadBytes, context.policy.knobs.maxReadBytes);
    const path = await context.paths.resolve(input.file_name, 'file');
    const size = await statReadableFile(context, path);
    const read = await readLines(context.workspace.fs, path.absolute, path.display, size, request);
    const { name, relative_path } = namePair(path);
    return { file_name: name, relative_path, ...read };
  },
});
