import { described, INTEGER, object, oneOf, onlyIn, optional, STRING, variants } from '../contract/results';
import { FILE_NAMES, HASH, LINE_READ } from './fields';
import { renderText, toolRef } from '../naming';
import { fileRef } from '../encoding/fileText';
import { ToolError } from '../errors';
import { assertMayRead } from '../policy/policy';
import { readImage } from '../read/image';
import { checkPages, DOCX_READ, PDF_READ, readDocument } from '../documents/read';
import { DEFAULT_READ_BYTES } from '../read/limits';
import { readLines } from '../read/lines';
import { lineRequest } from '../read/request';
import { type ConfinedPath, namePair } from '../confinement';
import type { ToolContext } from '../context';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { pathParameter, ENCODING } from './parameters';
import { NOTEBOOK_READ, readNotebookFor } from '../notebook/read';
import { parseCellRange } from '../notebook/view';
import type { LineRequest } from '../read/select';
import { languageOf } from '../symbols/languages';
import { findSymbol, languageFor, outlinerFor, readSourceText } from '../symbols/symbols';

const inputSchema = {
  type: 'object',
  properties: {
    file_name: pathParameter('File.'),
    start_line: { type: 'integer', minimum: 1, description: 'First line.' },
    end_line: { type: 'integer', minimum: 1, description: 'Last line.' },
    tail_lines: { type: 'integer', minimum: 1, description: 'Last N lines.' },
    max_bytes: {
      type: 'integer',
      minimum: 1,
      description: `Default ${DEFAULT_READ_BYTES}.`,
    },
    encoding: ENCODING,
    cells: { type: 'string', description: 'Cells: "2-5".' },
    raw: { type: 'boolean', description: 'As JSON.' },
    pages: { type: 'string', description: 'Pages: "3-5".' },
    symbol: { type: 'string', description: 'name_path.' },
  },
  required: ['file_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

/** Checks that `path` is a readable file (FILE_NOT_FOUND, FILE_NOT_FILE, SENSITIVE_PATH_REFUSED); returns its size. */
export async function statReadableFile(context: ToolContext, path: ConfinedPath): Promise<number> {
  const stat = await context.workspace.fs.stat(path.absolute);
  if (!stat)
    throw new ToolError('FILE_NOT_FOUND', `File does not exist: ${path.display}. Use ${toolRef('find_file')} to look for it by name.`);
  if (stat.kind !== 'file')
    throw new ToolError(
      'FILE_NOT_FILE',
      `Not a file: ${path.display} is a ${stat.kind}. Use ${toolRef('list_directory')} to see what it contains.`,
    );
  await assertMayRead(context, path, 'file');
  return stat.size;
}

export const readFile = defineTool({
  name: 'read_file',
  title: 'Read File',
  userDescription: 'Read a text file (or some of its lines), or see an image, in the workspace.',
  modelDescription:
    'Read a file (text, image, notebook, PDF, DOCX): whole, start_line..end_line (1-based), last tail_lines or a symbol, within max_bytes; if cut, go on from next_start_line. content_hash feeds expected_hash.',
  icon: 'file',
  tags: ['read'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { file_name: 'file' },
  outputSchema: variants(
    object(
      {
        ...FILE_NAMES,
        ...LINE_READ,
        hint: optional(described('Where a whole read of a source file was cut: that its outline lists its symbols.', STRING)),
      },
      'Text',
    ),
    object(
      {
        ...FILE_NAMES,
        mime_type: oneOf('image/png', 'image/jpeg', 'image/gif', 'image/webp'),
        width: INTEGER,
        height: INTEGER,
        size_bytes: INTEGER,
        content_hash: HASH,
        base64: onlyIn(
          ['runner'],
          described('The image bytes, from the runner (it prints JSON only); other hosts pass the image beside the envelope.', STRING),
        ),
      },
      'An image (its bytes go beside the envelope, as the host passes images)',
    ),
    NOTEBOOK_READ,
    PDF_READ,
    DOCX_READ,
  ),
  errors: [
    'ENCODING_MISMATCH',
    'FILE_NOT_FOUND',
    'FILE_NOT_FILE',
    'SENSITIVE_PATH_REFUSED',
    'BINARY_CONTENT_REFUSED',
    'LIMIT_EXCEEDED',
    'DOCUMENT_UNREADABLE',
    'LANGUAGE_UNSUPPORTED',
    'SYMBOL_NOT_FOUND',
    'SYMBOL_AMBIGUOUS',
  ],
  checkInput(input, context) {
    parseCellRange(input.cells);
    lineRequest(input, context.policy.maxReadBytes, context.policy.maxReadBytes, context.policy.wording.maxReadBytes);
    checkPages(input.pages);
    if (
      input.symbol !== undefined &&
      (input.start_line ?? input.end_line ?? input.tail_lines ?? input.cells ?? input.pages) !== undefined
    ) {
      throw new ToolError(
        'INVALID_INPUT',
        "symbol reads that symbol's lines; leave out start_line, end_line, tail_lines, cells and pages.",
        {
          field: 'symbol',
        },
      );
    }
  },
  async prepare(input, context, { file_name: path }) {
    // The checks the call would fail first, so the editor can show a refusal before the call instead of "Reading …".
    await statReadableFile(context, path);
    const { l10n } = context;
    return {
      invocationMessage:
        input.symbol !== undefined
          ? l10n.t('Reading {0} ({1})', path.display, input.symbol)
          : input.tail_lines !== undefined
            ? l10n.t('Reading {0} (last {1} lines)', path.display, input.tail_lines)
            : input.end_line !== undefined
              ? l10n.t('Reading {0} (lines {1}–{2})', path.display, input.start_line ?? 1, input.end_line)
              : input.start_line !== undefined
                ? l10n.t('Reading {0} (lines {1}–end)', path.display, input.start_line)
                : l10n.t('Reading {0}', path.display),
    };
  },
  async run(input, context, { file_name: path }) {
    const request = lineRequest(
      input,
      context.policy.maxReadBytes,
      Math.min(DEFAULT_READ_BYTES, context.policy.maxReadBytes),
      context.policy.wording.maxReadBytes,
    );
    const size = await statReadableFile(context, path);
    if (input.symbol !== undefined) return readSymbol(context, path, size, input.symbol, request);
    const notebook = await readNotebookFor(context, path, size, input, request.maxBytes);
    if (notebook) return notebook;
    const document = await readDocument(context, path, size, input, request.maxBytes);
    if (document) return document;
    let read;
    try {
      read = await readLines(context.workspace.fs, fileRef(context, path), size, request);
    } catch (error) {
      // Only what the text read refuses as binary can be an image; naming an encoding asks for text regardless.
      if (!(error instanceof ToolError) || error.code !== 'BINARY_CONTENT_REFUSED' || input.encoding !== undefined) throw error;
      const image = await readImage(context, path, size, input);
      if (image === undefined) throw error;
      return image;
    }
    const { name, relative_path } = namePair(path);
    const whole = input.start_line === undefined && input.end_line === undefined && input.tail_lines === undefined;
    const cut = whole && read.truncation_reason === 'max_bytes' && languageOf(path.display) !== undefined;
    return {
      file_name: name,
      relative_path,
      ...read,
      ...(cut
        ? {
            hint: renderText(
              `Cut at max_bytes: ${toolRef('read_outline')} lists its symbols, and symbol reads one of them.`,
              context.naming,
            ),
          }
        : {}),
    };
  },
});

/** read_file with `symbol`: exactly that declaration's lines, read as any line range is. */
async function readSymbol(context: ToolContext, path: ConfinedPath, size: number, symbol: string, request: LineRequest) {
  const language = languageFor(path);
  const outliner = await outlinerFor(context, path, language);
  const found = findSymbol(outliner((await readSourceText(context, path, size, request.encoding)).text), symbol, path.display);
  const read = await readLines(context.workspace.fs, fileRef(context, path), size, {
    ...request,
    startLine: found.startLine,
    endLine: found.endLine,
  });
  const { name, relative_path } = namePair(path);
  return { file_name: name, relative_path, ...read };
}
