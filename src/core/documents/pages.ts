/**
 * A document's text for a search, page by page: a PDF's pages with their numbers, a Word file's lines as one page
 * without a number. Bounded like a read (document.ts) and by DOCUMENT_SEARCH_TEXT, past which, or past the time, the
 * pages simply end: `complete` then says the text was not had to its end.
 */
import type { FileSystem } from '../ports/fs';
import { Deadline, documentBytes, documentKind } from './document';
import { docxLines } from './docx';
import { openPdf } from './pdf';

/** The most text kept from one document for a search (UTF-16 code units); the rest is not searched. */
const DOCUMENT_SEARCH_TEXT = 16 * 1024 * 1024;

export interface DocumentPage {
  /** A PDF's page number (1-based); absent for a Word file. */
  readonly page?: number;
  readonly lines: readonly string[];
}

/** What `documentPages` tells its caller once the pages end. */
export interface PagesEnd {
  /** False when the time or the text cap cut the document short. */
  complete: boolean;
}

/**
 * The pages of the document at `absolute` (which documentKind names), read through `fs`. Throws what a read would
 * (DOCUMENT_UNREADABLE, LIMIT_EXCEEDED) when the document cannot be opened; a PDF page that cannot be read ends it.
 */
export async function* documentPages(fs: FileSystem, absolute: string, display: string, end: PagesEnd): AsyncGenerator<DocumentPage> {
  const stat = await fs.stat(absolute);
  const bytes = await documentBytes(fs, absolute, display, stat?.size ?? 0);
  if (documentKind(absolute) === 'docx') {
    yield { lines: await docxLines(bytes, display) };
    return;
  }
  const deadline = new Deadline();
  const pdf = await openPdf(bytes, display, deadline);
  try {
    let kept = 0;
    for (let page = 1; page <= pdf.pageCount; page++) {
      if (deadline.passed || kept > DOCUMENT_SEARCH_TEXT) {
        end.complete = false;
        return;
      }
      const text = await pdf.page(page);
      kept += text.length;
      if (text !== '') yield { page, lines: text.split('\n') };
    }
  } finally {
    await pdf.close();
  }
}
