/**
 * PDF and Word files built by the tests themselves, so every byte is known: PDFs written object by object (text in
 * Helvetica, and text outside Latin-1 in a Type0 font with Identity-H and a ToUnicode CMap, which needs no embedded
 * font program), each with a binary stream as real PDFs have, so a search without `documents` skips them; a PDF
 * with an /Encrypt dictionary whose password no one knows; .docx files zipped with JSZip, with the styles and
 * numbering mammoth reads headings and lists from; and an encrypted Word file's OLE container, reduced to what
 * says so.
 */
import JSZip from 'jszip';

/** One page: its lines, top to bottom; an empty page has a drawing and no text (as a scanned page has). */
type Page = readonly string[];

const hex4 = (code: number): string => code.toString(16).toUpperCase().padStart(4, '0');
const wide = (line: string): boolean => /[^\x20-\x7e]/.test(line);

/** A ToUnicode CMap mapping each code (a UTF-16 code unit, BMP only) to itself. */
function toUnicode(codes: readonly number[]): string {
  let cmap =
    '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n' +
    '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n';
  for (let index = 0; index < codes.length; index += 100) {
    const part = codes.slice(index, index + 100);
    cmap += `${part.length} beginbfchar\n${part.map((code) => `<${hex4(code)}> <${hex4(code)}>`).join('\n')}\nendbfchar\n`;
  }
  return `${cmap}endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend`;
}

/** A page's content stream: one line of text per BT block, 16 points apart. */
function pageContent(lines: Page): string {
  if (lines.length === 0) return '0 0 1 rg 72 72 200 200 re f\n';
  return lines
    .map((line, index) => {
      const text = wide(line)
        ? `<${Array.from(line, (char) => hex4(char.charCodeAt(0))).join('')}>`
        : `(${line.replace(/[\\()]/g, (char) => `\\${char}`)})`;
      return `BT /${wide(line) ? 'F2' : 'F1'} 12 Tf 72 ${750 - 16 * index} Td ${text} Tj ET\n`;
    })
    .join('');
}

const stream = (data: string): string => `<< /Length ${Buffer.byteLength(data, 'latin1')} >>\nstream\n${data}\nendstream`;

/** A PDF of `pages`; `encrypted` adds a standard-security /Encrypt dictionary with a user password pdf.js lacks. */
export function makePdf(pages: readonly Page[], options: { encrypted?: boolean } = {}): Buffer {
  const objects: string[] = [];
  const add = (object: string): number => objects.push(object);
  const catalog = add('');
  const tree = add('');
  const helvetica = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const codes = [
    ...new Set(pages.flatMap((lines) => lines.filter(wide).flatMap((line) => Array.from(line, (char) => char.charCodeAt(0))))),
  ];
  const cmap = add(stream(toUnicode(codes.sort((a, b) => a - b))));
  const descriptor = add(
    '<< /Type /FontDescriptor /FontName /NoEmbed /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 1000 /Descent 0 /CapHeight 1000 /StemV 80 >>',
  );
  const cidFont = add(
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /NoEmbed /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /DW 1000 >>`,
  );
  const type0 = add(
    `<< /Type /Font /Subtype /Type0 /BaseFont /NoEmbed /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${cmap} 0 R >>`,
  );
  // Bytes no text file holds (NUL among them), in an object nothing refers to.
  add(stream('\x00\x01\x02\xff binary'));
  const kids = pages.map((lines) => {
    const content = add(stream(pageContent(lines)));
    return add(
      `<< /Type /Page /Parent ${tree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${helvetica} 0 R /F2 ${type0} 0 R >> >> /Contents ${content} 0 R >>`,
    );
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${tree} 0 R >>`;
  objects[tree - 1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let trailer = '';
  if (options.encrypted) {
    const encrypt = add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /O <${'1A'.repeat(32)}> /U <${'2B'.repeat(32)}> /P -44 >>`);
    trailer = ` /Encrypt ${encrypt} 0 R /ID [<${'3C'.repeat(16)}> <${'3C'.repeat(16)}>]`;
  }
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets = objects.map((object, index) => {
    const offset = out.length;
    out += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** `count` pages, page N holding `lines` lines of about 70 characters that name it ("p7 l3 …"). */
export function manyPages(count: number, lines = 30): string[][] {
  return Array.from({ length: count }, (_page, page) =>
    Array.from({ length: lines }, (_line, line) => `p${page + 1} l${line + 1} the quick brown fox jumps over the lazy dog again`),
  );
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Pieces of a Word document's body. */
export const word = {
  paragraph(text: string, style?: string): string {
    const properties = style === undefined ? '' : `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>`;
    return `<w:p>${properties}<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  },
  /** A list item: numbering 1 is bullets, 2 is decimal; `level` 0 is the outermost. */
  item(text: string, numbering: 1 | 2, level = 0): string {
    return `<w:p><w:pPr><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="${numbering}"/></w:numPr></w:pPr><w:r><w:t>${escapeXml(text)}</w:t></w:r></w:p>`;
  },
  table(rows: readonly (readonly string[])[]): string {
    return `<w:tbl>${rows.map((row) => `<w:tr>${row.map((cell) => `<w:tc>${word.paragraph(cell)}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
  },
};

const RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A .docx whose body is `body` (word.* pieces), with heading styles 1–2 and the two numberings word.item uses. */
export async function makeDocx(body: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    `<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE}/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${OFFICE}/numbering" Target="numbering.xml"/></Relationships>`,
  );
  zip.file(
    'word/styles.xml',
    `<w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`,
  );
  const level = (index: number, format: string): string => `<w:lvl w:ilvl="${index}"><w:numFmt w:val="${format}"/></w:lvl>`;
  zip.file(
    'word/numbering.xml',
    `<w:numbering ${W}><w:abstractNum w:abstractNumId="0">${level(0, 'bullet')}${level(1, 'bullet')}</w:abstractNum>` +
      `<w:abstractNum w:abstractNumId="1">${level(0, 'decimal')}${level(1, 'decimal')}</w:abstractNum>` +
      '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>',
  );
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/**
 * What Word writes for a password-protected document: an OLE compound file (its signature) whose directory holds an
 * "EncryptedPackage" stream (its name in UTF-16LE), the rest left out.
 */
export function makeEncryptedDocx(): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  return Buffer.concat([
    header,
    Buffer.from('EncryptionInfo', 'utf16le'),
    Buffer.alloc(50),
    Buffer.from('EncryptedPackage', 'utf16le'),
    Buffer.alloc(512),
  ]);
}
