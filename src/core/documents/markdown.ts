/**
 * The HTML mammoth makes of a Word document, as lines a model reads like Markdown: `#` headings, `- ` and `1. `
 * list items (nested ones indented), `| a | b |` table rows, every paragraph a line of its own. Inline formatting
 * and links are left out, so a search finds the words as written. Only mammoth's output is read: well-formed tags
 * from a fixed set, text escaped with the five XML entities.
 */

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#39|#x?[0-9a-fA-F]+);/g, (whole, name: string) => {
    const known = ENTITIES[name];
    if (known !== undefined) return known;
    const code = name.startsWith('#x') ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** What the conversion holds while it walks the tags: the lines so far and the open block. */
class Lines {
  readonly lines: string[] = [];
  /** The open block's text, and what its line begins with. */
  private text = '';
  private prefix = '';
  /** The open lists, innermost last, with the number of the last item of each ordered one. */
  private readonly lists: { ordered: boolean; count: number }[] = [];
  /** The open table's row so far, and how many rows it has had; undefined outside a table. */
  private row: string[] | undefined;
  private rows = 0;
  private cell: string | undefined;

  add(text: string): void {
    if (this.cell !== undefined) this.cell += text;
    else this.text += text;
  }

  /** Ends the open block, as a line when it holds text. */
  flush(): void {
    const text = this.text.replace(/\s+/g, ' ').trim();
    if (text !== '') this.lines.push(this.prefix + text);
    this.text = '';
    this.prefix = '';
  }

  heading(level: number): void {
    this.flush();
    this.prefix = `${'#'.repeat(level)} `;
  }

  openList(ordered: boolean): void {
    this.flush();
    this.lists.push({ ordered, count: 0 });
  }

  closeList(): void {
    this.flush();
    this.lists.pop();
  }

  item(): void {
    this.flush();
    const list = this.lists[this.lists.length - 1];
    const indent = '  '.repeat(Math.max(0, this.lists.length - 1));
    if (!list) this.prefix = '- ';
    else this.prefix = `${indent}${list.ordered ? `${++list.count}.` : '-'} `;
  }

  /** A paragraph: its own line, except inside a list item or a table cell, where it goes on the same one. */
  paragraph(): void {
    if (this.cell !== undefined) {
      if (this.cell.trim() !== '') this.cell += ' ';
    } else if (this.text.trim() !== '') {
      const prefix = this.prefix;
      this.flush();
      this.prefix = prefix.replace(/\S.*$/, '').padEnd(prefix.length);
    }
  }

  lineBreak(): void {
    if (this.cell !== undefined) this.cell += ' ';
    else this.paragraph();
  }

  openTable(): void {
    this.flush();
    this.rows = 0;
  }

  openRow(): void {
    this.row = [];
  }

  openCell(): void {
    this.cell = '';
  }

  closeCell(): void {
    this.row?.push((this.cell ?? '').replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|'));
    this.cell = undefined;
  }

  /** A table row as `| a | b |`; the first row is followed by the separator Markdown puts under a header. */
  closeRow(): void {
    const row = this.row ?? [];
    this.row = undefined;
    if (row.length === 0) return;
    this.lines.push(`| ${row.join(' | ')} |`);
    if (this.rows++ === 0) this.lines.push(`|${' --- |'.repeat(row.length)}`);
  }
}

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^>]*?)?)\s*(\/?)>|([^<]+)/g;

/** mammoth's HTML as Markdown-like lines (see the file's header). */
export function htmlToLines(html: string): string[] {
  const out = new Lines();
  for (const token of html.matchAll(TAG)) {
    const [, closing, rawName, attributes, , text] = token;
    if (text !== undefined) {
      out.add(decode(text));
      continue;
    }
    const name = (rawName ?? '').toLowerCase();
    if (closing === '/') close(out, name);
    else open(out, name, attributes ?? '');
  }
  out.flush();
  return out.lines;
}

function open(out: Lines, name: string, attributes: string): void {
  const heading = /^h([1-6])$/.exec(name);
  if (heading) out.heading(Number(heading[1]));
  else if (name === 'p') out.paragraph();
  else if (name === 'ul' || name === 'ol') out.openList(name === 'ol');
  else if (name === 'li') out.item();
  else if (name === 'table') out.openTable();
  else if (name === 'tr') out.openRow();
  else if (name === 'td' || name === 'th') out.openCell();
  else if (name === 'br') out.lineBreak();
  else if (name === 'img') {
    const alt = /\balt="([^"]*)"/.exec(attributes)?.[1];
    out.add(alt ? `[image: ${decode(alt)}]` : '[image]');
  }
}

function close(out: Lines, name: string): void {
  if (/^h[1-6]$/.test(name) || name === 'li') out.flush();
  else if (name === 'p') out.paragraph();
  else if (name === 'ul' || name === 'ol') out.closeList();
  else if (name === 'td' || name === 'th') out.closeCell();
  else if (name === 'tr') out.closeRow();
  else if (name === 'table') out.flush();
}
