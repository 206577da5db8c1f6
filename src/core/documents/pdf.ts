/**
 * A PDF's text through pdf.js (pdfjs-dist's legacy build, the one meant for Node): the page count, and each page's
 * text as lines, one page at a time, so a 500-page file read by pages holds the file and one page's text, not all
 * of it. pdf.js's "worker" runs in this thread (the fake worker pdf.js uses without a Worker), loaded on the first PDF.
 */
import { describeError } from '../errors';
import { type Deadline, unreadable } from './document';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

/** The globals pdf.js sets when it loads in Node, for rendering this text-only use never does. */
const RENDERING_GLOBALS = ['navigator', 'DOMMatrix', 'ImageData', 'Path2D'] as const;

let loaded: Promise<PdfJs> | undefined;

/**
 * Where the bins of the runner and the server (src/node/bin/compileCache.ts) put their import of pdf.js's two modules:
 * their bundle runs as a cached vm script, which has no import() of its own. Elsewhere (the editor) it is imported here.
 */
const IMPORT_PDFJS = Symbol.for('agent-fs.importPdfjs');
type ImportPdfJs = () => Promise<readonly [PdfJs, unknown]>;

/**
 * pdf.js, loaded once. Loading it in Node sets browser-like globals (a `navigator` that other code in the editor's
 * extension host would take for a browser's), warns when its canvas package is absent, as in the bundles, and makes
 * a DOMMatrix for canvas rendering, which Node lacks without that package. So for the load a bare identity matrix
 * stands in (text extraction never uses one), the load's warnings (about rendering only) are not passed on, and the
 * globals are put back as they were.
 */
function pdfjs(): Promise<PdfJs> {
  loaded ??= (async () => {
    const host = globalThis as Record<string, unknown>;
    const before = RENDERING_GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(host, name)] as const);
    for (const [name, descriptor] of before) {
      // A global the host gives only a getter (VS Code's extension host, for `navigator`) would make pdf.js's
      // assignment to it throw: for the load it is a plain slot, put back below.
      if (descriptor?.get && !descriptor.set && descriptor.configurable === true)
        Object.defineProperty(host, name, { value: undefined, writable: true, configurable: true });
    }
    host.DOMMatrix ??= IdentityMatrix;
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const importPdfjs = (globalThis as { [IMPORT_PDFJS]?: ImportPdfJs })[IMPORT_PDFJS];
      const [library, worker] = await (importPdfjs?.() ??
        Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]));
      // pdf.js's own hook for a worker loaded by the embedder: it then never imports one from a URL (none is bundled).
      host.pdfjsWorker = worker;
      return library;
    } finally {
      console.warn = warn;
      for (const [name, descriptor] of before) {
        if (descriptor) Object.defineProperty(host, name, descriptor);
        else delete host[name];
      }
    }
  })();
  return loaded;
}

/** What pdf.js's load makes of a DOMMatrix where there is none: the identity, which it keeps for rendering. */
class IdentityMatrix {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
}

/** An open PDF: its page count and its pages' text. close() frees what pdf.js holds. */
export interface PdfText {
  readonly pageCount: number;
  /** Page `number`'s text (1-based) as lines, trailing blanks trimmed; '' for a page without text. */
  page(number: number): Promise<string>;
  close(): Promise<void>;
}

/** Resolves as `promise` does, or rejects once the deadline passes (pdf.js yields to timers only now and then). */
async function beforeDeadline<T>(promise: Promise<T>, deadline: Deadline, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(deadline.left / 1000)} s`)), deadline.left);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens a PDF from its bytes; DOCUMENT_UNREADABLE (`encrypted`, `damaged`) when pdf.js cannot. */
export async function openPdf(bytes: Uint8Array, display: string, deadline: Deadline): Promise<PdfText> {
  const library = await pdfjs();
  const task = library.getDocument({
    // A copy: pdf.js hands its buffer to its worker (detaching it), and refuses Node's Buffer, which the port may give.
    data: new Uint8Array(bytes),
    // Errors only, and nothing a document could run or fetch: no eval'd font code, no fonts or CMaps from a URL.
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    enableXfa: false,
    stopAtErrors: false,
  });
  let document: PdfDocument;
  try {
    document = await beforeDeadline(task.promise, deadline, 'Opening it');
  } catch (error) {
    await task.destroy();
    // pdf.js does not export the class; its name is part of its API (getDocument's promise rejects with it).
    if (error instanceof Error && error.name === 'PasswordException') {
      throw unreadable(
        'encrypted',
        `${display} is encrypted: it opens only with a password, so its text cannot be read. Ask for a copy without one.`,
      );
    }
    throw unreadable(
      'damaged',
      `${display} cannot be read as a PDF (${describeError(error)}): it may be damaged, cut short or not a PDF. Name an encoding to read its bytes as text.`,
    );
  }
  return {
    pageCount: document.numPages,
    page: (number) => pageText(document, number, display, deadline),
    close: () => task.destroy(),
  };
}

/** One page's text, read chunk by chunk so the deadline is checked as pdf.js goes. */
async function pageText(document: PdfDocument, number: number, display: string, deadline: Deadline): Promise<string> {
  let text = '';
  try {
    const page = await beforeDeadline(document.getPage(number), deadline, `Page ${number}`);
    const reader = page.streamTextContent().getReader();
    for (;;) {
      if (deadline.passed) {
        await reader.cancel();
        throw new Error(`its text took longer than the time a document may take`);
      }
      const chunk = await beforeDeadline(reader.read(), deadline, `Page ${number}`);
      if (chunk.done) break;
      text += chunkText(chunk.value);
    }
    page.cleanup();
  } catch (error) {
    throw unreadable('damaged', `Page ${number} of ${display} cannot be read (${describeError(error)}); it may be damaged.`);
  }
  return tidy(text);
}

/** The text of one chunk of pdf.js's text stream: its items' strings, with line ends where pdf.js saw them. */
function chunkText(value: unknown): string {
  const items = (value as { items?: readonly unknown[] } | undefined)?.items ?? [];
  let text = '';
  for (const item of items) {
    const { str, hasEOL } = item as { str?: unknown; hasEOL?: unknown };
    if (typeof str === 'string') text += str;
    if (hasEOL === true) text += '\n';
  }
  return text;
}

/** Lines without trailing blanks, and without blank lines at the end. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}
