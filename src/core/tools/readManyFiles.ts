import { CancelledError, describeError, ToolError } from '../errors';
import { namePair } from '../files';
import { lineRequest, readLines } from '../readText';
import { defineTool, type InputSchema } from '../tool';
import { statReadableFile } from './readFile';

const inputSchema = {
  type: 'object',
  properties: {
    paths: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', minLength: 1, maxLength: 4096 },
      description: 'Paths of the files, relative to the base directory. At most 32; more is refused with LIMIT_EXCEEDED.',
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
      description: 'Most bytes to return from each file. Default: agentFs.maxReadBytes (262144 unless changed) divided by the number of paths, which is also the cap; more is refused with LIMIT_EXCEEDED.',
    },
    encoding: {
      type: 'string',
      enum: ['utf-8', 'utf-16le', 'utf-16be', 'latin1'],
      description: 'Decode the file as this encoding instead of the one its byte-order mark names (else UTF-8). Naming one also reads a file that looks binary (latin1 shows every byte as one character).',
    },
  },
  required: ['paths'],
  additionalProperties: false,
} as const satisfies InputSchema;

/** More paths than this is refused: 32 files is already a large share of a model's context. */
export const READ_MANY_FILES_CAP = 32;

export const readManyFiles = defineTool({
  name: 'read_many_files',
  title: 'Read Many Files',
  userDescription: 'Read several files in the workspace at once.',
  modelDescription: 'Read several text files in one call: at most 32 paths (more is refused with LIMIT_EXCEEDED, split them over calls). The same line options apply to every file (start_line/end_line, tail_lines, max_bytes, encoding, as in agentfs_read_file). The call returns at most agentFs.maxReadBytes bytes in all (262144 unless changed): by default each file gets an equal share, and max_bytes (per file) may not exceed that share. Each entry stands alone: one missing or refused file does not hide the others. Returns data {count, succeeded, failed, max_bytes_per_file, files: [{path (as given), ok, data | error: {code, message}}]} where data is what agentfs_read_file returns (content, content_hash, total_lines, truncated, next_start_line, …). Errors of the call: LIMIT_EXCEEDED (more than 32 paths, or max_bytes above the per-file share), INVALID_INPUT. Errors per entry: those of agentfs_read_file.',
  icon: 'files',
  tags: ['read'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { paths: 'file' },
  prepare(input) {
    return Promise.resolve({ invocationMessage: `Reading ${input.paths.length} file${input.paths.length === 1 ? '' : 's'}` });
  },
  async run(input, context) {
    const count = input.paths.length;
    if (count > READ_MANY_FILES_CAP) {
      throw new ToolError('LIMIT_EXCEEDED', `${count} paths is above the cap of ${READ_MANY_FILES_CAP} per call. Split them over several calls.`, {
        field: 'paths',
        cap: READ_MANY_FILES_CAP,
      });
    }
    // One budget for the whole call: by default the files share agentFs.maxReadBytes evenly.
    const budget = context.policy.maxReadBytes;
    const perFileCap = Math.floor(budget / count);
    if (input.max_bytes !== undefined && input.max_bytes > perFileCap) {
      throw new ToolError(
        'LIMIT_EXCEEDED',
        `max_bytes ${input.max_bytes} for each of ${count} files is above this call's budget of ${budget} bytes (${context.policy.knobs.maxReadBytes}), i.e. ${perFileCap} per file. Ask for less, or fewer files per call.`,
        { field: 'max_bytes', cap: perFileCap },
      );
    }
    const request = lineRequest(input, perFileCap, perFileCap, context.policy.knobs.maxReadBytes);
    const files = await Promise.all(
      input.paths.map(async (given) => {
        try {
          const path = await context.paths.resolve(given, 'file');
          const size = await statReadableFile(context, path);
          const read = await readLines(context.workspace.fs, path.absolute, path.display, size, request);
          const { name, relative_path } = namePair(path);
          return { path: given, ok: true, data: { file_name: name, relative_path, ...read } };
        } catch (error) {
          if (error instanceof CancelledError) throw error;
          const code = error instanceof ToolError ? error.code : 'READ_FAILED';
          const message = error instanceof ToolError ? error.message : `read failed: ${describeError(error)}`;
          return { path: given, ok: false, error: { code, message } };
        }
      }),
    );
    const failed = files.filter((file) => !file.ok).length;
    return { count, succeeded: count - failed, failed, max_bytes_per_file: request.maxBytes, files };
  },
});
