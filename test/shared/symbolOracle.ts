/**
 * Oracles for read_outline that nobody here wrote: Python's own `ast` module (through python3) for Python, and the
 * TypeScript compiler's syntax tree for TypeScript and JavaScript. Each gives the classes, functions and methods the
 * language sees, nested by the nearest enclosing one, with the lines of the whole declaration (decorators and
 * modifiers included, comments above not) and name paths built by the outline's rules (`Class/method`, `[i]` after
 * a name declared more than once under one parent, `/` in a name as `\/`). `differences` compares them with an
 * outline. Used by test/unit/symbolOracle.test.ts and bench/symbols.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as ts from 'typescript';
import { parserFor, withTree } from '../../src/core/symbols/engine';
import { languageOf } from '../../src/core/symbols/languages';
import { markdownOutliner } from '../../src/core/symbols/markdown';
import { allSymbols, type Outline, outlineOf } from '../../src/core/symbols/outline';
import { nodeGrammarSource } from '../../src/node/host/grammars';

export interface OracleSymbol {
  readonly namePath: string;
  readonly start: number;
  readonly end: number;
}

interface Entry {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly children: Entry[];
}

/** Name paths by the outline's rules, parents before children. */
function flatten(entries: readonly Entry[], prefix = ''): OracleSymbol[] {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.name, (counts.get(entry.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  return entries.flatMap((entry) => {
    const index = seen.get(entry.name) ?? 0;
    seen.set(entry.name, index + 1);
    const namePath = `${prefix}${entry.name.replace(/\//g, '\\/')}${(counts.get(entry.name) ?? 0) > 1 ? `[${index}]` : ''}`;
    return [{ namePath, start: entry.start, end: entry.end }, ...flatten(entry.children, `${namePath}/`)];
  });
}

const PYTHON_ORACLE = String.raw`
import ast, json, sys
def entries(node):
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([child.lineno] + [d.lineno for d in child.decorator_list])
            found.append({"name": child.name, "start": start, "end": child.end_lineno, "children": entries(child)})
        else:
            found.extend(entries(child))
    return sorted(found, key=lambda e: e["start"])
result = {}
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        source = f.read()
    try:
        result[path] = entries(ast.parse(source))
    except SyntaxError as error:
        result[path] = None
print(json.dumps(result))
`;

/** What Python's ast sees in each file (by absolute path); null for a file it cannot parse. */
export function pythonOracle(files: readonly string[]): Map<string, OracleSymbol[] | null> {
  const result = new Map<string, OracleSymbol[] | null>();
  for (let at = 0; at < files.length; at += 200) {
    const batch = files.slice(at, at + 200);
    const output = execFileSync('python3', ['-c', PYTHON_ORACLE, ...batch], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const parsed = JSON.parse(output) as Record<string, Entry[] | null>;
    for (const file of batch) {
      const entries = parsed[file];
      result.set(file, entries ? flatten(entries) : null);
    }
  }
  return result;
}

function isFunctionLike(node: ts.Node | undefined): boolean {
  return node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));
}

function functionOrClass(node: ts.Node | undefined): boolean {
  return node !== undefined && (isFunctionLike(node) || ts.isClassExpression(node));
}

/** A namespace's name: `namespace A.B {}` is two declarations to the compiler and one to the outline. */
function moduleName(node: ts.ModuleDeclaration, sourceFile: ts.SourceFile): { name: string; inner: ts.Node | undefined } {
  let name = node.name.getText(sourceFile);
  let body = node.body;
  while (body && ts.isModuleDeclaration(body)) {
    name += `.${body.name.getText(sourceFile)}`;
    body = body.body;
  }
  return { name, inner: body };
}

/** What the TypeScript compiler sees in a TypeScript or JavaScript file. */
export function typescriptOracle(fileName: string, text: string): OracleSymbol[] {
  const kind = /\.tsx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[mc]?ts$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JSX;
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (position: number): number => sourceFile.getLineAndCharacterOfPosition(position).line + 1;
  const entry = (name: string, range: ts.Node): Entry => ({
    name,
    start: lineOf(range.getStart(sourceFile)),
    end: lineOf(range.getEnd()),
    children: [],
  });

  /** The symbol `node` declares, with the node its lines are taken from; the node to descend into instead, if any. */
  function symbolOf(node: ts.Node): { entry: Entry; inner?: ts.Node } | undefined {
    const nameText = (name: ts.Node | undefined): string | undefined => name?.getText(sourceFile);
    if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isEnumDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      const name = nameText(node.name);
      return name === undefined ? undefined : { entry: entry(name, node) };
    }
    if (ts.isFunctionDeclaration(node)) {
      const name = nameText(node.name);
      return name === undefined ? undefined : { entry: entry(name, node) };
    }
    if (ts.isMethodDeclaration(node) || ts.isMethodSignature(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node))
      return { entry: entry(node.name.getText(sourceFile), node) };
    if (ts.isConstructorDeclaration(node)) return { entry: entry('constructor', node) };
    if (ts.isPropertyDeclaration(node) && isFunctionLike(node.initializer)) return { entry: entry(node.name.getText(sourceFile), node) };
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && functionOrClass(node.initializer)) {
      const list = node.parent;
      const statement = list.parent;
      const range =
        ts.isVariableDeclarationList(list) && list.declarations.length === 1 && ts.isVariableStatement(statement) ? statement : node;
      return { entry: entry(node.name.text, range) };
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      functionOrClass(node.right)
    ) {
      const name = node.left
        .getText(sourceFile)
        .replace(/\s+/g, '')
        .replace(/^(?:module\.)?exports\./, '');
      return { entry: entry(name, ts.isExpressionStatement(node.parent) ? node.parent : node) };
    }
    if (ts.isModuleDeclaration(node)) {
      const { name, inner } = moduleName(node, sourceFile);
      return { entry: entry(name, node), ...(inner ? { inner } : {}) };
    }
    return undefined;
  }

  function visit(node: ts.Node, into: Entry[]): void {
    const found = symbolOf(node);
    if (found) {
      into.push(found.entry);
      if (found.inner) visit(found.inner, found.entry.children);
      else ts.forEachChild(node, (child) => visit(child, found.entry.children));
    } else ts.forEachChild(node, (child) => visit(child, into));
  }
  const top: Entry[] = [];
  ts.forEachChild(sourceFile, (child) => visit(child, top));
  return flatten(top);
}

/** An outline's symbols as read_outline gives them (at any depth), flattened like the oracles'. */
export interface OutlineEntry {
  readonly name_path: string;
  readonly kind: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly children?: readonly OutlineEntry[];
}

export function flattenOutline(symbols: readonly OutlineEntry[]): OracleSymbol[] {
  return symbols.flatMap((symbol) => [
    { namePath: symbol.name_path, start: symbol.start_line, end: symbol.end_line },
    ...flattenOutline(symbol.children ?? []),
  ]);
}

/**
 * The whole outline of a file on disk (UTF-8, a BOM dropped), straight from the engine: read_outline's reply keeps
 * to 32 KB and may leave out deep levels of a large file, which a comparison must not mistake for disagreement.
 */
export async function outlineOfFile(file: string): Promise<{ symbols: OracleSymbol[]; hasErrors: boolean }> {
  const language = languageOf(file);
  if (!language) throw new Error(`no language for ${file}`);
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  let outline: Outline;
  if ('grammar' in language) {
    const parser = await parserFor(nodeGrammarSource(), language);
    outline = withTree(parser, text, (tree) => outlineOf(language, tree, text));
  } else outline = (await markdownOutliner())(text);
  const symbols = allSymbols(outline.symbols).map((symbol) => ({
    namePath: symbol.namePath,
    start: symbol.startLine,
    end: symbol.endLine,
  }));
  return { symbols, hasErrors: outline.hasErrors };
}

export interface Comparison {
  /** Symbols the oracle sees that the outline has with the same name path and both lines. */
  readonly agreed: number;
  /** The oracle's symbols. */
  readonly total: number;
  /** Each disagreement: a symbol of one side not found as such on the other. */
  readonly differences: readonly string[];
}

/**
 * The oracle's symbols against an outline's: agreement by name path and both lines, and what either side has alone.
 */
export function compareOutline(oracle: readonly OracleSymbol[], outline: readonly OracleSymbol[]): Comparison {
  const key = (symbol: OracleSymbol): string => `${symbol.namePath} ${symbol.start}-${symbol.end}`;
  const theirs = new Set(outline.map(key));
  const ours = new Set(oracle.map(key));
  const missing = oracle.filter((symbol) => !theirs.has(key(symbol))).map((symbol) => `oracle only: ${key(symbol)}`);
  const extra = outline.filter((symbol) => !ours.has(key(symbol))).map((symbol) => `outline only: ${key(symbol)}`);
  return { agreed: oracle.length - missing.length, total: oracle.length, differences: [...missing, ...extra] };
}
