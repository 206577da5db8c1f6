import { BOOLEAN, INTEGER, nullable, object, oneOf, optional, STRING } from '../contract/results';
import { ENCODING_NAME, HASH, NEWLINE } from './fields';
import { toolRef } from '../naming';
import { fileRef } from '../encoding/fileText';
import { ToolError } from '../errors';
import { namePair } from '../confinement';
import { extname } from '../paths';
import { assertMayRead } from '../policy/policy';
import { humanSize } from '../read/bytes';
import { describeText } from '../read/facts';
import { WHOLE_READ_BYTES } from '../read/limits';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File or directory.'),
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies InputSchema;

function isoTime(milliseconds: number): string | null {
  // Rounded as Node rounds Stats.mtime, so the time matches what other tools show for the file.
  return Number.isFinite(milliseconds) && milliseconds > 0 ? new Date(Math.round(milliseconds)).toISOString() : null;
}

export const fileInfo = defineTool({
  name: 'file_info',
  title: 'File Info',
  userDescription: 'Show size, dates, hash and text details of a workspace path.',
  modelDescription:
    "A file or directory's metadata, no content: type, size, times; for text also content_hash, encoding, newline style, line count.",
  icon: 'info',
  tags: ['read'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'path' },
  outputSchema: object({
    name: STRING,
    relative_path: STRING,
    type: oneOf('file', 'directory', 'other'),
    is_symlink: BOOLEAN,
    size_bytes: INTEGER,
    size_human: STRING,
    modified: nullable(STRING),
    created: nullable(STRING),
    extension: STRING,
    readonly: BOOLEAN,
    is_text: optional(BOOLEAN),
    content_hash: optional(nullable(HASH)),
    encoding: optional(nullable(ENCODING_NAME)),
    bom: optional(nullable(BOOLEAN)),
    newline: optional(nullable(NEWLINE)),
    line_count: optional(nullable(INTEGER)),
    note: optional(STRING),
  }),
  errors: ['FILE_NOT_FOUND', 'SENSITIVE_PATH_REFUSED'],
  prepare(_input, context, { path }) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Inspecting {0}', path.display) });
  },
  async run(_input, context, { path }) {
    const { fs } = context.workspace;
    const stat = await fs.stat(path.absolute);
    if (!stat)
      throw new ToolError(
        'FILE_NOT_FOUND',
        `Nothing exists at ${path.display}. Use ${toolRef('find_file')} or ${toolRef('search_files')} to look for it.`,
      );
    await assertMayRead(context, path, stat.kind);
    const { name, relative_path } = namePair(path);
    const common = {
      name,
      relative_path,
      type: stat.kind,
      is_symlink: stat.isSymlink,
      size_bytes: stat.size,
      size_human: humanSize(stat.size),
      modified: isoTime(stat.mtimeMs),
      created: isoTime(stat.ctimeMs),
      extension: stat.kind === 'file' ? extname(path.absolute) : '',
      readonly: stat.readonly,
    };
    if (stat.kind !== 'file') return common;
    const text = await describeText(fs, fileRef(context, path), stat.size);
    const note =
      stat.size > WHOLE_READ_BYTES && text.is_text
        ? `Files above ${humanSize(WHOLE_READ_BYTES)} are not read whole: content_hash and line_count are null, and encoding, bom and newline describe the first MiB.`
        : undefined;
    return note === undefined ? { ...common, ...text } : { ...common, ...text, note };
  },
});
