/** Reading a notebook file as cells (read_file) and as text to change (edit_notebook), with its hash and encoding. */
import type { ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { limitExceeded } from '../contract/caps';
import { type DecodedText, decodeFileText, fileRef } from '../encoding/fileText';
import { ToolError } from '../errors';
import { contentHash } from '../files/hashing';
import { humanSize } from '../read/bytes';
import { toolRef } from '../naming';
import { type ParsedNotebook, parseNotebook } from './model';
import { type CellRange, notebookView, type NotebookRead } from './view';

/** Whether read_file shows this path as cells (and edit_notebook takes it). */
export const isNotebookPath = (path: string): boolean => /\.ipynb$/i.test(path);

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
export async function readNotebook(
  context: ToolContext,
  path: ConfinedPath,
  size: number,
  range: CellRange | undefined,
  maxBytes: number,
): Promise<(NotebookRead & { size_bytes: number; content_hash: string }) | undefined> {
  let parsed: ParsedNotebook;
  let file: NotebookFile;
  try {
    file = await loadNotebook(context, path, size);
    parsed = parseNotebook(file.decoded.text, path.display);
  } catch (error) {
    if (error instanceof ToolError && (error.code === 'NOTEBOOK_INVALID' || error.code === 'LIMIT_EXCEEDED')) return undefined;
    throw error;
  }
  return { ...notebookView(parsed, range, maxBytes), size_bytes: file.bytes.length, content_hash: file.hash };
}
