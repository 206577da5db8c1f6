/**
 * The one parsing engine of every host: tree-sitter compiled to WebAssembly (web-tree-sitter), with the grammars
 * VS Code itself ships (@vscode/tree-sitter-wasm). Nothing is loaded until a call needs a language: the runtime on the
 * first parse, each grammar on the first file of its language, once per process (a failed load is tried again by the
 * next call), so a process that never outlines pays nothing at start.
 *
 * The bytes come through the host's GrammarSource (ports/grammars.ts); the core never touches a file system here.
 */
import type { Language, Parser, Tree } from 'web-tree-sitter';
import type { GrammarSource } from '../ports/grammars';
import type { TreeLanguage } from './languages';

const RUNTIME_FILE = 'web-tree-sitter.wasm';

type Binding = typeof import('web-tree-sitter');

let runtime: Promise<Binding> | undefined;
const parsers = new Map<string, Promise<Parser>>();

/** The runtime, initialised once; the module itself is imported only here, so a start-up never evaluates it. */
function loadRuntime(source: GrammarSource): Promise<Binding> {
  runtime ??= (async () => {
    const binding = await import('web-tree-sitter');
    await binding.Parser.init({ wasmBinary: await source.read(RUNTIME_FILE) });
    return binding;
  })().catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

/** A parser for `language`, its grammar loaded on first use. */
export function parserFor(source: GrammarSource, language: TreeLanguage): Promise<Parser> {
  let parser = parsers.get(language.grammar);
  if (!parser) {
    parser = (async () => {
      const binding = await loadRuntime(source);
      const grammar: Language = await binding.Language.load(await source.read(language.grammar));
      const created = new binding.Parser();
      created.setLanguage(grammar);
      return created;
    })();
    parser.catch(() => parsers.delete(language.grammar));
    parsers.set(language.grammar, parser);
  }
  return parser;
}

/**
 * Parses `text` and hands the tree to `use`, freeing it afterwards (a tree lives in the WebAssembly heap, which no
 * garbage collector sees). Synchronous once the parser is loaded.
 */
export function withTree<T>(parser: Parser, text: string, use: (tree: Tree) => T): T {
  // Tree-sitter's lexers read a NUL as the end of the input, so one inside a string literal (a bundled binary blob)
  // cut the enclosing function short: the same number of code units, which no grammar ends on, keeps every position.
  const tree = parser.parse(text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text);
  if (!tree) throw new Error('tree-sitter gave no tree');
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}
