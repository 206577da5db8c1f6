import { anyOf, arrayOf, BOOLEAN, described, INTEGER, literal, nullable, object, oneOf, optional, STRING } from '../contract/results';
import { countPhrase } from '../ports/l10n';
import { ENCODING_NAME, NEWLINE, SHARABLE_READ } from './fields';
import { renderText, toolRef } from '../naming';
import { fileRef } from '../encoding/fileText';
import { CancelledError, describeError, ToolError } from '../errors';
import { namePair } from '../confinement';
import { DEFAULT_READ_MANY_BYTES } from '../read/limits';
import { type LineRead, readLines } from '../read/lines';
import { type LineParameters, lineRequest } from '../read/request';
import type { LineRequest } from '../read/select';
import { limitExceeded } from '../contract/caps';
import type { ToolContext } from '../context';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { statReadableFile } from './readFile';
import { ENCODING } from './parameters';

/** More paths than this is refused: 32 files is already a large share of a model's context. */
export const READ_MANY_FILES_CAP = 32;

/**
 * One budget for the whole call: the files share it evenly, by default DEFAULT_READ_MANY_BYTES, at most
 * agentFs.maxReadBytes; a larger max_bytes per file is LIMIT_EXCEEDED.
 */
function lineRequestOf(input: LineParameters & { readonly paths: readonly string[] }, context: ToolContext): LineRequest {
  const count = input.paths.length;
  const budget = context.policy.maxReadBytes;
  const perFileCap = Math.floor(budget / count);
  if (input.max_bytes !== undefined && input.max_bytes > perFileCap) {
    throw limitExceeded(
      'max_bytes',
      perFileCap,
      `max_bytes ${input.max_bytes} for each of ${count} files is above this call's budget of ${budget} bytes (${context.policy.wording.maxReadBytes}), i.e. ${perFileCap} per file. Ask for less, or fewer files per call.`,
    );
  }
  return lineRequest(input, perFileCap, Math.floor(Math.min(DEFAULT_READ_MANY_BYTES, budget) / count), context.policy.wording.maxReadBytes);
}

/**
 * Fields of an entry's data that usually have one value for every file a call reads (files of one project share
 * their encoding and line endings, and a default read of many files cuts them all for the same reason). When every
 * file read has the same value, it is given once in the reply's `shared` and left out of the entries: 32 entries
 * repeating them cost about 2.5 KB. Fields a model acts on per file (`truncated`, `next_start_line`) always stay.
 */
const SHARED_FIELDS = ['encoding', 'bom', 'newline', 'truncation_reason'] as const;

/** One file read: its names and the read fields. */
type ReadData = { readonly file_name: string; readonly relative_path: string } & LineRead;
type SharedField = (typeof SHARED_FIELDS)[number];
type Shared = Partial<Pick<ReadData, SharedField>>;

type Failed = { readonly path: string; readonly ok: false; readonly error: { readonly code: string; readonly message: string } };
type Entry = { readonly path: string; readonly ok: true; readonly data: ReadData } | Failed;
type SharedEntry = { readonly path: string; readonly ok: true; readonly data: Omit<ReadData, SharedField> & Shared } | Failed;

/** The value every file read has for `field`, or undefined when they differ (or fewer than two files were read). */
function agreed<Field extends SharedField>(read: readonly ReadData[], field: Field): Pick<ReadData, Field> | undefined {
  const [first] = read;
  if (!first || read.length < 2 || !read.every((data) => data[field] === first[field])) return undefined;
  // A computed key types as an index signature; the object holds exactly `field`, with its value.
  return { [field]: first[field] } as Pick<ReadData, Field>;
}

/** Moves the SHARED_FIELDS every read file agrees on into one object; with fewer than two files read, nothing moves. */
function shareFields(files: readonly Entry[]): { shared: Shared; files: SharedEntry[] } {
  const read = files.flatMap((file) => (file.ok ? [file.data] : []));
  const shared: Shared = {
    ...agreed(read, 'encoding'),
    ...agreed(read, 'bom'),
    ...agreed(read, 'newline'),
    ...agreed(read, 'truncation_reason'),
  };
  return {
    shared,
    files: files.map((file): SharedEntry => {
      if (!file.ok) return file;
      const { encoding, bom, newline, truncation_reason, ...data } = file.data;
      const own: Shared = { encoding, bom, newline, truncation_reason };
      for (const field of SHARED_FIELDS) if (field in shared) delete own[field];
      return { ...file, data: { ...data, ...own } };
    }),
  };
}

const inputSchema = {
  type: 'object',
  properties: {
    paths: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'Files.' },
    start_line: { type: 'integer', minimum: 1, description: 'First line.' },
    end_line: { type: 'integer', minimum: 1, description: 'Last line.' },
    tail_lines: { type: 'integer', minimum: 1, description: 'Last N lines.' },
    max_bytes: { type: 'integer', minimum: 1, description: 'Per file.' },
    encoding: ENCODING,
  },
  required: ['paths'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const readManyFiles = defineTool({
  name: 'read_many_files',
  title: 'Read Many Files',
  userDescription: 'Read several files in the workspace at once.',
  modelDescription: `Read up to ${READ_MANY_FILES_CAP} text files at once with ${toolRef('read_file')}'s line options, sharing its byte budget evenly. Each entry: ok, data or error; fields equal in all come once, in shared.`,
  icon: 'files',
  tags: ['read'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { paths: 'file' },
  outputSchema: object({
    count: INTEGER,
    succeeded: INTEGER,
    failed: INTEGER,
    max_bytes_per_file: INTEGER,
    shared: described(
      'Data fields every file read has alike, left out of its entry.',
      object({
        encoding: optional(ENCODING_NAME),
        bom: optional(BOOLEAN),
        newline: optional(NEWLINE),
        truncation_reason: optional(nullable(oneOf('max_bytes', 'line_too_long'))),
      }),
    ),
    files: arrayOf(
      anyOf(
        object({ path: STRING, ok: literal(true), data: object(SHARABLE_READ) }),
        object({ path: STRING, ok: literal(false), error: object({ code: STRING, message: STRING }) }),
      ),
    ),
  }),
  errors: ['FILE_NOT_FOUND', 'FILE_NOT_FILE', 'SENSITIVE_PATH_REFUSED', 'BINARY_CONTENT_REFUSED'],
  caps: { paths: { cap: READ_MANY_FILES_CAP, advice: 'Split them over several calls.' } },
  checkInput(input, context) {
    lineRequestOf(input, context);
  },
  prepare(input, context) {
    return Promise.resolve({ invocationMessage: countPhrase(context.l10n, input.paths.length, 'Reading 1 file', 'Reading {0} files') });
  },
  async run(input, context, { paths }) {
    const count = input.paths.length;
    const request = lineRequestOf(input, context);
    const entries = await Promise.all(
      paths.map(async ({ given, path, error: refused }): Promise<Entry> => {
        try {
          if (refused) throw refused;
          const size = await statReadableFile(context, path);
          const read = await readLines(context.workspace.fs, fileRef(context, path), size, request);
          const { name, relative_path } = namePair(path);
          return { path: given, ok: true, data: { file_name: name, relative_path, ...read } };
        } catch (error) {
          if (error instanceof CancelledError) throw error;
          const code = error instanceof ToolError ? error.code : 'READ_FAILED';
          // An entry's message is part of the data, which the pipeline hands out as it is: rendered here.
          const message = error instanceof ToolError ? renderText(error.message, context.naming) : `read failed: ${describeError(error)}`;
          return { path: given, ok: false, error: { code, message } };
        }
      }),
    );
    const failed = entries.filter((file) => !file.ok).length;
    const { shared, files } = shareFields(entries);
    return { count, succeeded: count - failed, failed, max_bytes_per_file: request.maxBytes, shared, files };
  },
});
