/** Reading a notebook file as cells (read_file) and as text to change (edit_notebook), with its hash and encoding. */
import { type ConfinedPath, namePair } from '../confinement';
import { arrayOf, BOOLEAN, described, INTEGER, nullable, object, OPEN_OBJECT, oneOf, STRING } from '../contract/results';
import type { ToolContext } from '../context';
import { limitExceeded } from '../contract/caps';
import { type DecodedText, decodeFileText, fileRef } from '../encoding/fileText';
import { ToolError } from '../errors';
import { contentHash } from '../files/hashing';
import { humanSize } from '../read/bytes';
import { toolRef } from '../naming';
import { type ParsedNotebook, parseNotebook } from './model';
import { type CellRange, notebookView, type NotebookRead, parseCellRange } from './view';

/** Whether read_file shows this path as cells (and edit_notebook takes it). */
const isNotebookPath = (path: string): boolean => /\.ipynb$/i.test(path);

export interface NotebookFile {
  readonly bytes: Uint8Array;
  readonly decoded: DecodedText;
  readonly hash: string;
}

/** The notebook's bytes and text; above the in-memory edit limit a notebook is only read as text, by lines. */
export async function loadNotebook(context: ToolContext, path: ConfinedPath, size: number): Promise<NotebookFile> {
  const limit = context.policy.editInMemoryBytes;
  if (size > limit) {
    throw limitExceeded(
      'file_name',
      limit,
      `${path.display} is ${humanSize(size)}; notebooks above ${humanSize(limit)} are read and changed as text (${toolRef('read_file')} with raw: true or a line range).`,
      path.display,
    );
  }
  const bytes = await context.workspace.fs.readFile(path.absolute);
  const decoded = await decodeFileText(fileRef(context, path), bytes);
  return { bytes, decoded, hash: contentHash(bytes) };
}

/**
 * read_file's answer for a notebook, or undefined where the text read should answer instead: a notebook too large
 * for memory or not a version-4 notebook at all (its JSON then shows what is wrong).
 */
async function readNotebook(
  context: ToolContext,
  path: ConfinedPath,
  size: number,
  range: CellRange | undefined,
  maxBytes: number,
): Promise<(NotebookRead & { size_bytes: number; content_hash: string }) | undefined> {
  if (size > context.policy.editInMemoryBytes) return undefined;
  const file = await loadNotebook(context, path, size);
  let parsed: ParsedNotebook;
  try {
    parsed = parseNotebook(file.decoded.text, path.display);
  } catch (error) {
    if (error instanceof ToolError && error.code === 'NOTEBOOK_INVALID') return undefined;
    throw error;
  }
  return { ...notebookView(parsed, range, maxBytes), size_bytes: file.bytes.length, content_hash: file.hash };
}

/** read_file's answer for a notebook, as its outputSchema declares it. */
export const NOTEBOOK_READ = object(
  {
    file_name: STRING,
    relative_path: STRING,
    format: oneOf('notebook'),
    nbformat: STRING,
    language: STRING,
    total_cells: INTEGER,
    cells: described(
      "Each cell: index, id, kind, language (where not the notebook's), source as numbered lines, and for code cells execution_count and outputs summed up.",
      arrayOf(OPEN_OBJECT),
    ),
    truncated: BOOLEAN,
    next_cell: nullable(INTEGER),
    size_bytes: INTEGER,
    content_hash: STRING,
  },
  'A Jupyter notebook, as cells',
);

/** The read_file parameters that choose between a notebook's cells and its text. */
interface NotebookParameters {
  readonly start_line?: number;
  readonly end_line?: number;
  readonly tail_lines?: number;
  readonly encoding?: string;
  readonly cells?: string;
  readonly raw?: boolean;
}

/**
 * read_file's answer where it shows cells: a notebook read without `raw`, a line range or an encoding, each of which
 * asks for its text. Undefined where the text read answers.
 */
export async function readNotebookFor(
  context: ToolContext,
  path: ConfinedPath,
  size: number,
  input: NotebookParameters,
  maxBytes: number,
): Promise<(NotebookRead & { file_name: string; relative_path: string; size_bytes: number; content_hash: string }) | undefined> {
  const asText =
    input.raw === true ||
    input.encoding !== undefined ||
    [input.start_line, input.end_line, input.tail_lines].some((value) => value !== undefined);
  if (!isNotebookPath(path.absolute) || asText) return undefined;
  const notebook = await readNotebook(context, path, size, parseCellRange(input.cells), maxBytes);
  if (!notebook) return undefined;
  const { name, relative_path } = namePair(path);
  return { file_name: name, relative_path, ...notebook };
}
