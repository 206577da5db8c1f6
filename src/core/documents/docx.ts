/**
 * A Word (.docx) file's text through mammoth: its HTML made into Markdown-like lines (markdown.ts). Before mammoth
 * unpacks anything, the zip's own directory says how much XML it would parse, which bounds the memory a small file
 * that unpacks to a huge one could take; an encrypted Word file is not a zip at all but an OLE container.
 */
import { limitExceeded } from '../contract/caps';
import { describeError } from '../errors';
import { humanSize } from '../read/bytes';
import { unreadable } from './document';
import { htmlToLines } from './markdown';

/** The most XML (unpacked) a .docx may hold for mammoth to parse: its DOM takes several times as much memory. */
const DOCX_XML_MAX = 32 * 1024 * 1024;

/** The first bytes of an OLE compound file, which is what Word writes an encrypted document as (and a .doc). */
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * The part of mammoth used here. Its types name Node's Buffer for `buffer`, which the core cannot make; mammoth's
 * Node entry hands it to JSZip, which takes any Uint8Array, so the core sees mammoth through this narrower view.
 */
interface Mammoth {
  convertToHtml(input: { buffer: Uint8Array }, options: object): Promise<{ value: string }>;
  readonly images: { imgElement(convert: () => Promise<{ src: string }>): unknown };
}

/** Whether `bytes` hold `name` as UTF-16LE, as an OLE directory entry spells it. */
function holdsUtf16(bytes: Uint8Array, name: string): boolean {
  const needle = new Uint8Array(name.length * 2);
  for (let index = 0; index < name.length; index++) needle[index * 2] = name.charCodeAt(index);
  outer: for (let at = bytes.indexOf(needle[0] ?? 0); at !== -1; at = bytes.indexOf(needle[0] ?? 0, at + 1)) {
    for (let offset = 1; offset < needle.length; offset++) if (bytes[at + offset] !== needle[offset]) continue outer;
    return true;
  }
  return false;
}

/**
 * The XML bytes the zip's central directory says its entries unpack to; undefined when it has none to read (not a
 * zip, or a ZIP64 one, whose sizes sit elsewhere: JSZip then says whether it can open it).
 */
function declaredXmlBytes(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-directory record is the last 22 bytes, unless a comment (up to 64 KiB) follows it.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end === -1) return undefined;
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (entries === 0xffff || at === 0xffffffff) return undefined;
  let total = 0;
  for (let entry = 0; entry < entries && at + 46 <= bytes.length; entry++) {
    if (view.getUint32(at, true) !== 0x02014b50) return undefined;
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const name = String.fromCharCode(...bytes.subarray(at + 46, at + 46 + nameLength));
    if (/\.(xml|rels)$/i.test(name)) total += size;
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}

/** Refuses what mammoth should not be given: an encrypted or OLE file, and a zip whose XML is over DOCX_XML_MAX. */
function checkContainer(bytes: Uint8Array, display: string): void {
  if (OLE_MAGIC.every((byte, index) => bytes[index] === byte)) {
    if (holdsUtf16(bytes, 'EncryptedPackage')) {
      throw unreadable(
        'encrypted',
        `${display} is encrypted: it opens only with a password, so its text cannot be read. Ask for a copy without one.`,
      );
    }
    throw unreadable('damaged', `${display} is an OLE file (an older Word .doc, perhaps), not a .docx; its text cannot be read here.`);
  }
  const xml = declaredXmlBytes(bytes);
  if (xml !== undefined && xml > DOCX_XML_MAX) {
    throw limitExceeded(
      'size_bytes',
      DOCX_XML_MAX,
      `${display} unpacks to ${humanSize(xml)} of XML; Word files are read up to ${humanSize(DOCX_XML_MAX)} of it.`,
      display,
    );
  }
}

/** A .docx file's text as Markdown-like lines; DOCUMENT_UNREADABLE (`encrypted`, `damaged`, `no_text`) otherwise. */
export async function docxLines(bytes: Uint8Array, display: string): Promise<string[]> {
  checkContainer(bytes, display);
  const mammoth = (await import('mammoth')) as unknown as Mammoth;
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      {
        // Images are named, never read; no file outside the document is opened.
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
        externalFileAccess: false,
      },
    );
    html = result.value;
  } catch (error) {
    throw unreadable(
      'damaged',
      `${display} cannot be read as a Word file (${describeError(error)}): it may be damaged, cut short or not a .docx. Name an encoding to read its bytes as text.`,
    );
  }
  const lines = htmlToLines(html);
  if (lines.length === 0) throw unreadable('no_text', `${display} holds no text (only images or empty paragraphs, perhaps).`);
  return lines;
}
