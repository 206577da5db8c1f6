/**
 * read_file of a document: a PDF page by page (`pages`, `next_page`), a Word file by lines of its extracted text
 * (start_line / end_line / tail_lines and next_start_line, as for any text), both within the read's byte budget.
 * readFile.ts only hands a call here; the result shapes its outputSchema lists are these.
 */
import { namePair, type ConfinedPath } from '../confinement';
import type { ToolContext } from '../context';
import { INTEGER, nullable, object, oneOf, BOOLEAN, STRING, described } from '../contract/results';
import { ToolError } from '../errors';
import { cutEnd } from '../read/bytes';
import { memorySource, selectForward, selectTail } from '../read/select';
import { throwIfCancelled } from '../signals';
import { Deadline, documentBytes, documentKind, unreadable, utf8Length } from './document';
import { docxLines } from './docx';
import { openPdf, type PdfText } from './pdf';

const FILE_NAMES = { file_name: STRING, relative_path: STRING } as const;

/** read_file's result for a PDF. */
export const PDF_READ = object(
  {
    ...FILE_NAMES,
    document: oneOf('pdf'),
    content: described('Each page read, after a line "--- page N ---".', STRING),
    size_bytes: INTEGER,
    total_pages: INTEGER,
    start_page: INTEGER,
    end_page: INTEGER,
    truncated: BOOLEAN,
    truncation_reason: nullable(oneOf('max_bytes', 'page_too_long', 'time_limit')),
    next_page: described('Pass as pages to read on.', nullable(INTEGER)),
  },
  "A PDF's text",
);

/** read_file's result for a Word file: lines of its text, as for a text file. */
export const DOCX_READ = object(
  {
    ...FILE_NAMES,
    document: oneOf('docx'),
    content: STRING,
    size_bytes: INTEGER,
    total_lines: INTEGER,
    start_line: nullable(INTEGER),
    end_line: nullable(INTEGER),
    truncated: BOOLEAN,
    truncation_reason: nullable(oneOf('max_bytes', 'line_too_long')),
    next_start_line: nullable(INTEGER),
  },
  "A Word file's text, with headings, lists and tables in Markdown",
);

/** The first and last page `pages` names ("3", "3-5", "3-"), or undefined when it names none that way. */
function parsePages(pages: string): { first: number; last: number | undefined } | undefined {
  const match = /^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$/.exec(pages);
  if (!match) return undefined;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : match[3] === '' ? undefined : Number(match[3]);
  if (first < 1 || (last !== undefined && last < first)) return undefined;
  return { first, last };
}

/** The page range asked for, checked before any path is resolved (INVALID_INPUT). */
export function checkPages(pages: string | undefined): void {
  if (pages !== undefined && !parsePages(pages)) {
    throw new ToolError('INVALID_INPUT', `pages "${pages}" names no page range; write "3", "3-5" or "3-" (1-based, inclusive).`, {
      field: 'pages',
    });
  }
}

/** What read_file's input says about a document read. */
export interface DocumentRequest {
  readonly pages?: string;
  readonly start_line?: number;
  readonly end_line?: number;
  readonly tail_lines?: number;
  readonly encoding?: string;
}

/**
 * read_file of `path` when it is a PDF or Word file; undefined for any other file, and for a document whose bytes a
 * named encoding asks for as text (as it does an image's). `pages` applies to a PDF's text only (INVALID_INPUT).
 */
export async function readDocument(context: ToolContext, path: ConfinedPath, size: number, input: DocumentRequest, maxBytes: number) {
  const kind = input.encoding === undefined ? documentKind(path.absolute) : undefined;
  const misplaced =
    kind === 'pdf' ? (['start_line', 'end_line', 'tail_lines'] as const).find((field) => input[field] !== undefined) : 'pages';
  if (misplaced !== undefined && input[misplaced] !== undefined) {
    const why =
      kind === 'pdf'
        ? 'a PDF is read by pages'
        : input.encoding !== undefined
          ? 'an encoding reads its bytes as text'
          : 'only a PDF is read by pages';
    throw new ToolError('INVALID_INPUT', `${misplaced} does not apply to ${path.display}: ${why}.`, { field: misplaced });
  }
  if (kind === undefined) return undefined;
  const bytes = await documentBytes(context.workspace.fs, path.absolute, path.display, size);
  const { name, relative_path } = namePair(path);
  const file = { file_name: name, relative_path, size_bytes: bytes.length };
  if (kind === 'docx') return { ...file, document: kind, ...(await docxRead(bytes, path.display, input, maxBytes)) };
  const deadline = new Deadline();
  const pdf = await openPdf(bytes, path.display, deadline);
  try {
    return { ...file, document: kind, ...(await pdfPages(context, pdf, path.display, input.pages ?? '1-', maxBytes, deadline)) };
  } finally {
    await pdf.close();
  }
}

/** A page's text as the read shows it: after a line naming the page. */
function pageBlock(number: number, text: string): string {
  return `--- page ${number} ---\n${text === '' ? '' : `${text}\n`}`;
}

/** Whole pages from the first asked for, while they fit in `maxBytes` and time is left. */
async function pdfPages(context: ToolContext, pdf: PdfText, display: string, pages: string, maxBytes: number, deadline: Deadline) {
  const { first, last: asked } = parsePages(pages) ?? { first: 1, last: undefined };
  const total = pdf.pageCount;
  if (first > total) {
    throw new ToolError(
      'INVALID_INPUT',
      `pages starts at ${first}, past the end of ${display}, which has ${total} page${total === 1 ? '' : 's'}.`,
      {
        field: 'pages',
        total_pages: total,
      },
    );
  }
  const last = Math.min(asked ?? total, total);
  let content = '';
  let used = 0;
  let end = first - 1;
  let reason: 'max_bytes' | 'page_too_long' | 'time_limit' | null = null;
  let withText = false;
  for (let number = first; number <= last; number++) {
    throwIfCancelled(context);
    if (number > first && deadline.passed) {
      reason = 'time_limit';
      break;
    }
    const text = await pdf.page(number);
    const block = pageBlock(number, text);
    const bytes = utf8Length(block);
    if (used + bytes > maxBytes) {
      if (number === first) {
        content = cutToBytes(block, maxBytes);
        end = number;
        reason = 'page_too_long';
      } else reason = 'max_bytes';
      break;
    }
    content += block;
    used += bytes;
    end = number;
    withText ||= text !== '';
  }
  if (!withText && reason === null) {
    const range = first === end ? `page ${first}` : `pages ${first}–${end}`;
    throw unreadable(
      'no_text',
      `${display} holds no text on ${range} of ${total}: its pages may be scanned images, which are not read as text.`,
    );
  }
  const next = end < last ? end + 1 : null;
  return {
    content,
    total_pages: total,
    start_page: first,
    end_page: end,
    truncated: reason !== null,
    truncation_reason: reason,
    next_page: next,
  };
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** The longest start of `text` within `maxBytes` bytes of UTF-8, not splitting a character. */
function cutToBytes(text: string, maxBytes: number): string {
  const bytes = utf8.encode(text);
  return utf8Decoder.decode(bytes.subarray(0, cutEnd(bytes, Math.min(maxBytes, bytes.length), 'utf8')));
}

/** Lines of a Word file's text, selected as read_file selects a text file's. */
async function docxRead(bytes: Uint8Array, display: string, input: DocumentRequest, maxBytes: number) {
  const lines = await docxLines(bytes, display);
  const text = utf8.encode(`${lines.join('\n')}\n`);
  const request = { startLine: input.start_line, endLine: input.end_line, tailLines: input.tail_lines, maxBytes };
  const source = memorySource(text);
  const selection =
    input.tail_lines !== undefined
      ? await selectTail(source, request, 'utf8', lines.length)
      : await selectForward(source, request, 'utf8', lines.length);
  return {
    content: utf8Decoder.decode(text.subarray(selection.start, selection.end)),
    total_lines: lines.length,
    start_line: selection.startLine,
    end_line: selection.endLine,
    truncated: selection.truncation !== null,
    truncation_reason: selection.truncation,
    next_start_line: selection.nextStartLine,
  };
}
