/**
 * What the document readers (pdf.ts, docx.ts) share: which files are documents, the bounds one document's text is
 * had within, and the one refusal for a document whose text cannot be had (DOCUMENT_UNREADABLE, `details.reason`).
 */
import { limitExceeded } from '../contract/caps';
import { ToolError } from '../errors';
import type { FileSystem } from '../ports/fs';
import { humanSize } from '../read/bytes';

export type DocumentKind = 'pdf' | 'docx';

/** A document by its name: read_file and search_content treat these as documents, whatever their bytes. */
export function documentKind(path: string): DocumentKind | undefined {
  const dot = path.lastIndexOf('.');
  const extension = dot === -1 ? '' : path.slice(dot + 1).toLowerCase();
  return extension === 'pdf' || extension === 'docx' ? extension : undefined;
}

/**
 * The largest document read. pdf.js and mammoth hold the whole file and what they parse from it (a few times its
 * size), so this bounds the memory one document takes; a larger one is LIMIT_EXCEEDED (`size_bytes`).
 */
const DOCUMENT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * How long one document's text may take. Parsing runs in this thread, so it is checked between pages and between
 * pdf.js's text chunks: a read cut by it says so and where to go on, a search passes the rest of the file over.
 */
const DOCUMENT_TIME_MS = 15_000;

export type UnreadableReason = 'encrypted' | 'damaged' | 'no_text';

/** The refusal for a document whose text cannot be had; `details.reason` says why, in a word a model can test. */
export function unreadable(reason: UnreadableReason, message: string): ToolError {
  return new ToolError('DOCUMENT_UNREADABLE', message, { reason });
}

/** A point in time after which a document's work stops at the next check. */
export class Deadline {
  private readonly end: number;

  constructor(milliseconds = DOCUMENT_TIME_MS) {
    this.end = Date.now() + milliseconds;
  }

  get passed(): boolean {
    return Date.now() > this.end;
  }

  /** Milliseconds left (0 once passed). */
  get left(): number {
    return Math.max(0, this.end - Date.now());
  }
}

/** A document's bytes (`absolute`, shown as `display`), after its size is checked against DOCUMENT_MAX_BYTES. */
export async function documentBytes(fs: FileSystem, absolute: string, display: string, size: number): Promise<Uint8Array> {
  const tooLarge = (bytes: number): ToolError =>
    limitExceeded(
      'size_bytes',
      DOCUMENT_MAX_BYTES,
      `${display} is ${humanSize(bytes)}; documents are read up to ${humanSize(DOCUMENT_MAX_BYTES)}. Name an encoding to read its bytes as text instead.`,
      display,
    );
  if (size > DOCUMENT_MAX_BYTES) throw tooLarge(size);
  const bytes = await fs.readFile(absolute);
  // It may have grown since it was measured.
  if (bytes.length > DOCUMENT_MAX_BYTES) throw tooLarge(bytes.length);
  return bytes;
}

const utf8 = new TextEncoder();

/** The UTF-8 length of `text`: what a read's byte budget counts. */
export function utf8Length(text: string): number {
  return utf8.encode(text).length;
}
