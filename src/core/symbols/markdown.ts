/**
 * Markdown's outline: its headings, each section from its heading to the line before the next heading of the same
 * or a higher level (trailing blank lines left out), deeper headings nested inside. markdown-it finds them as
 * CommonMark does, so a `#` in a fenced code block or an HTML block is not a heading and a setext heading is one.
 * No tree-sitter grammar for Markdown is shipped prebuilt (docs/design.md, "Dependencies").
 */
import type MarkdownIt from 'markdown-it';
import { type CodeSymbol, type Outline, namePaths } from './outline';

let loading: Promise<MarkdownIt> | undefined;

/**
 * The Markdown outliner, markdown-it loaded on the first Markdown file: imported here and nowhere else, so a process
 * that outlines no Markdown never evaluates it (a runner call or a server's start would pay for its tables).
 */
export async function markdownOutliner(): Promise<(text: string) => Outline> {
  loading ??= import('markdown-it').then(({ default: MarkdownIt }) => new MarkdownIt('commonmark'));
  const parser = await loading;
  return (text) => markdownOutline(parser, text);
}

function markdownOutline(parser: MarkdownIt, text: string): Outline {
  const lines = text.split('\n');
  const blank = (line: number): boolean => (lines[line - 1] ?? '').trim() === '';
  const tokens = parser.parse(text, {});
  const headings: { level: number; name: string; line: number }[] = [];
  for (const [index, token] of tokens.entries()) {
    if (token.type !== 'heading_open' || !token.map) continue;
    const inline = tokens[index + 1];
    headings.push({ level: Number(token.tag.slice(1)), name: inline?.content.trim() ?? '', line: token.map[0] + 1 });
  }
  // The last line with text: a final newline does not start another line.
  const lastLine = text.endsWith('\n') ? lines.length - 1 : lines.length;
  const top: CodeSymbol[] = [];
  const open: { level: number; symbol: CodeSymbol }[] = [];
  for (const [index, heading] of headings.entries()) {
    const next = headings.slice(index + 1).find((later) => later.level <= heading.level);
    let end = next ? next.line - 1 : lastLine;
    while (end > heading.line && blank(end)) end--;
    while (open.length > 0 && (open[open.length - 1]?.level ?? 0) >= heading.level) open.pop();
    const symbol: CodeSymbol = {
      name: heading.name,
      kind: 'heading',
      namePath: '',
      startLine: heading.line,
      endLine: end,
      nameLine: heading.line,
      nameColumn: 1,
      children: [],
    };
    (open[open.length - 1]?.symbol.children ?? top).push(symbol);
    open.push({ level: heading.level, symbol });
  }
  namePaths(top, '');
  return { language: 'markdown', hasErrors: false, symbols: top };
}
