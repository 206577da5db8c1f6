/**
 * A file's outline: its symbols as a tree, each with its name path and the lines of its whole declaration.
 *
 * Name paths (docs/design.md, "Symbols"): a symbol's names from the top down, joined by `/` (`Server/listen`), a `/`
 * inside a name written `\/`; a name declared more than once under one parent gets `[i]` after it, counting from 0
 * in the file's order (`overload[0]`, `overload[1]`), so every symbol has one path and a path names one symbol.
 *
 * Lines are 1-based and inclusive. A declaration's lines start at its first decorator, attribute or modifier
 * (`export`, `async`, `@Component(…)`, `#[derive(…)]`) and never at a comment above it; they end at its last
 * character. Rows are counted at '\n', as read_file counts lines, so `start_line`/`end_line` read back exactly the
 * declaration.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { isTypeKind, type SymbolKind, type TreeLanguage } from './languages';

export interface CodeSymbol {
  readonly name: string;
  readonly kind: SymbolKind;
  /** Filled in once the parent's children are known (namePaths). */
  namePath: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Where the name is (1-based line; column in UTF-16 code units, 1-based), for find_references. */
  readonly nameLine: number;
  readonly nameColumn: number;
  readonly children: CodeSymbol[];
}

export interface Outline {
  readonly language: string;
  /** Whether the parser met syntax errors: the outline holds what parsed. */
  readonly hasErrors: boolean;
  readonly symbols: CodeSymbol[];
}

/** The node whose lines are the declaration's: its own wrappers, then the decorators and attributes before it. */
function declarationStart(language: TreeLanguage, node: Node): { outer: Node; first: Node } {
  let outer = node;
  for (let parent = outer.parent; parent && language.wrappers.has(parent.type); parent = outer.parent) {
    // `const a = () => 1, b = 2` is not a's alone: a wrapper counts only around its one declaration.
    const type = outer.type;
    let same = 0;
    for (let index = 0; index < parent.namedChildCount && same < 2; index++) if (parent.namedChild(index)?.type === type) same++;
    if (same > 1) break;
    outer = parent;
  }
  let first = outer;
  let sibling = outer.previousNamedSibling;
  while (sibling && (language.leading.has(sibling.type) || sibling.type.includes('comment'))) {
    if (language.leading.has(sibling.type)) first = sibling;
    sibling = sibling.previousNamedSibling;
  }
  return { outer, first };
}

/**
 * Where a declaration's own text ends: at its last token that is not a comment. A grammar may count the comments
 * after a block's last statement into the block (Python's does); they belong to what follows.
 */
function contentEnd(node: Node): { row: number; column: number } {
  for (let index = node.childCount - 1; index >= 0; index--) {
    const child = node.child(index);
    if (!child || child.type.includes('comment')) continue;
    return child.childCount === 0 ? child.endPosition : contentEnd(child);
  }
  return node.endPosition;
}

/** The 1-based line a node ends on: a node that ends just after a line break ends on the line before. */
function endLineOf(node: Node): number {
  const { row, column } = contentEnd(node);
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

/** Line starts (UTF-16 offsets) of `text`, to turn an offset into a column. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

/** The symbols of a parsed tree, nested as the code nests them. */
export function outlineOf(language: TreeLanguage, tree: Tree, text: string): Outline {
  const root = tree.rootNode;
  const starts = lineStarts(text);
  const top: CodeSymbol[] = [];
  // The symbols whose node contains the current one, innermost last, with the node's span.
  const open: { symbol: CodeSymbol; start: number; end: number }[] = [];
  for (const node of root.descendantsOfType([...language.candidates])) {
    if (!node) continue;
    const start = node.startIndex;
    const end = node.endIndex;
    while (open.length > 0) {
      const last = open[open.length - 1];
      if (last && last.start <= start && end <= last.end) break;
      open.pop();
    }
    const parent = open[open.length - 1]?.symbol;
    const found = language.symbol(node, parent !== undefined && isTypeKind(parent.kind));
    if (!found || found.name === '') continue;
    const { outer, first } = declarationStart(language, node);
    const nameNode = found.nameNode ?? node.childForFieldName('name') ?? node;
    const nameRow = nameNode.startPosition.row;
    const symbol: CodeSymbol = {
      name: found.name,
      kind: found.kind,
      namePath: '',
      startLine: first.startPosition.row + 1,
      endLine: endLineOf(outer),
      nameLine: nameRow + 1,
      nameColumn: nameNode.startIndex - (starts[nameRow] ?? 0) + 1,
      children: [],
    };
    (parent ? parent.children : top).push(symbol);
    open.push({ symbol, start, end });
  }
  namePaths(top, '');
  return { language: language.id, hasErrors: root.hasError, symbols: top };
}

/** A name as a name path writes it: `/` escaped. */
function escapeName(name: string): string {
  return name.replace(/\//g, '\\/');
}

/** Gives every symbol its name path: `[i]` after a name its parent declares more than once. */
export function namePaths(symbols: readonly CodeSymbol[], prefix: string): void {
  const counts = new Map<string, number>();
  for (const symbol of symbols) counts.set(symbol.name, (counts.get(symbol.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const symbol of symbols) {
    const index = seen.get(symbol.name) ?? 0;
    seen.set(symbol.name, index + 1);
    const segment = escapeName(symbol.name) + ((counts.get(symbol.name) ?? 0) > 1 ? `[${index}]` : '');
    symbol.namePath = prefix + segment;
    namePaths(symbol.children, `${symbol.namePath}/`);
  }
}

/** Every symbol of an outline, parents before their children, in the file's order. */
export function allSymbols(symbols: readonly CodeSymbol[]): CodeSymbol[] {
  return symbols.flatMap((symbol) => [symbol, ...allSymbols(symbol.children)]);
}
