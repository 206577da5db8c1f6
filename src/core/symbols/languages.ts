/**
 * The languages the outline knows, each by its file extensions, its grammar and the rules that say which syntax
 * nodes are symbols: what each is called and what kind it is. One table for every language, so adding one is a row.
 *
 * A symbol's lines are the whole declaration (docs/design.md, "Symbols"): a node is widened to the wrapper a grammar
 * puts around it (Python's decorated_definition, TypeScript's export_statement, C++'s template_declaration, a
 * `const` holding one function) and to the decorators or attributes a grammar leaves before it as siblings
 * (decorators of class members in TypeScript, Rust's `#[…]`), never to the comments above it.
 *
 * Over 300 lines: every language's rules side by side, one entry each, so that what one language does differently
 * from the others is seen at a glance, and adding one is an entry and a line of the extension table.
 */
import type { Node } from 'web-tree-sitter';

export type SymbolKind =
  | 'class'
  | 'interface'
  | 'struct'
  | 'enum'
  | 'type'
  | 'namespace'
  | 'module'
  | 'trait'
  | 'impl'
  | 'function'
  | 'method'
  | 'constructor'
  | 'property'
  | 'rule'
  | 'heading';

/** What a rule says a node is. */
interface SymbolNode {
  readonly name: string;
  readonly kind: SymbolKind;
  /** The node whose position find_references asks about (the name), where it is not the symbol node's `name`. */
  readonly nameNode?: Node | null;
}

/** A parsed language: its grammar's file and how its symbols are found. */
export interface TreeLanguage {
  readonly id: string;
  /** The grammar's WebAssembly file, as the GrammarSource names it. */
  readonly grammar: string;
  /** The node types a rule may accept: the engine asks the tree for these only. */
  readonly candidates: readonly string[];
  /** The symbol a candidate node is, if any; `inType` is whether its nearest symbol above is a type (class, …). */
  symbol(node: Node, inType: boolean): SymbolNode | undefined;
  /** Parent types that are the declaration's own wrapper (when the symbol is their one declaration). */
  readonly wrappers: ReadonlySet<string>;
  /** Sibling types before a declaration that belong to it (decorators, attributes). */
  readonly leading: ReadonlySet<string>;
}

/** Markdown's outline is its headings (symbols/markdown.ts), not a tree-sitter grammar's. */
interface MarkdownLanguage {
  readonly id: 'markdown';
}

export type OutlineLanguage = TreeLanguage | MarkdownLanguage;

const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'impl', 'type']);

export function isTypeKind(kind: SymbolKind): boolean {
  return TYPE_KINDS.has(kind);
}

function nameOf(node: Node, field = 'name'): string | undefined {
  return node.childForFieldName(field)?.text;
}

/** A function where a type holds it, else `kind`. */
function functionIn(inType: boolean, name: string | undefined, nameNode?: Node | null): SymbolNode | undefined {
  if (name === undefined) return undefined;
  return { name, kind: inType ? (name === 'constructor' ? 'constructor' : 'method') : 'function', ...(nameNode ? { nameNode } : {}) };
}

function named(node: Node, kind: SymbolKind, field = 'name'): SymbolNode | undefined {
  const name = nameOf(node, field);
  return name === undefined ? undefined : { name, kind };
}

// ----- TypeScript and JavaScript

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_VALUES = new Set(['class']);

/** `module.exports.x` and `exports.x` name `x`; any other member expression names itself (`app.listen`). */
function memberName(left: Node): string {
  return left.text.replace(/\s+/g, '').replace(/^(?:module\.)?exports\./, '');
}

function scriptSymbol(node: Node, inType: boolean): SymbolNode | undefined {
  switch (node.type) {
    case 'class_declaration':
    case 'abstract_class_declaration':
      return named(node, 'class');
    case 'interface_declaration':
      return named(node, 'interface');
    case 'enum_declaration':
      return named(node, 'enum');
    case 'type_alias_declaration':
      return named(node, 'type');
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature':
      return named(node, 'function');
    case 'method_definition':
    case 'method_signature':
    case 'abstract_method_signature': {
      const name = nameOf(node);
      return name === undefined ? undefined : { name, kind: name === 'constructor' ? 'constructor' : 'method' };
    }
    case 'public_field_definition':
    case 'field_definition': {
      const value = node.childForFieldName('value');
      const name = nameOf(node) ?? nameOf(node, 'property');
      return value && FUNCTION_VALUES.has(value.type) && name !== undefined ? { name, kind: 'method' } : undefined;
    }
    case 'variable_declarator': {
      const value = node.childForFieldName('value');
      const name = node.childForFieldName('name');
      if (!value || name?.type !== 'identifier') return undefined;
      if (FUNCTION_VALUES.has(value.type)) return functionIn(false, name.text);
      if (CLASS_VALUES.has(value.type)) return { name: name.text, kind: 'class' };
      return undefined;
    }
    case 'assignment_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left?.type !== 'member_expression' || !right) return undefined;
      if (FUNCTION_VALUES.has(right.type)) return { name: memberName(left), kind: inType ? 'method' : 'function', nameNode: left };
      if (CLASS_VALUES.has(right.type)) return { name: memberName(left), kind: 'class', nameNode: left };
      return undefined;
    }
    case 'ambient_declaration':
      // `declare global { … }`: the one ambient declaration that is a block of its own, named as TypeScript names it.
      return node.child(1)?.type === 'global' ? { name: 'global', kind: 'namespace' } : undefined;
    case 'internal_module':
    case 'module': {
      const name = node.childForFieldName('name');
      return name ? { name: name.text, kind: 'namespace' } : undefined;
    }
    default:
      return undefined;
  }
}

const SCRIPT_CANDIDATES = [
  'class_declaration',
  'abstract_class_declaration',
  'interface_declaration',
  'enum_declaration',
  'type_alias_declaration',
  'function_declaration',
  'generator_function_declaration',
  'function_signature',
  'method_definition',
  'method_signature',
  'abstract_method_signature',
  'public_field_definition',
  'field_definition',
  'variable_declarator',
  'assignment_expression',
  'internal_module',
  'module',
  'ambient_declaration',
];

const SCRIPT_WRAPPERS = new Set([
  'export_statement',
  'lexical_declaration',
  'variable_declaration',
  'expression_statement',
  'ambient_declaration',
]);

function script(id: string, grammar: string): TreeLanguage {
  return {
    id,
    grammar,
    candidates: SCRIPT_CANDIDATES,
    symbol: scriptSymbol,
    wrappers: SCRIPT_WRAPPERS,
    leading: new Set(['decorator']),
  };
}

// ----- The others

const python: TreeLanguage = {
  id: 'python',
  grammar: 'tree-sitter-python.wasm',
  candidates: ['class_definition', 'function_definition'],
  symbol: (node, inType) => (node.type === 'class_definition' ? named(node, 'class') : functionIn(inType, nameOf(node))),
  wrappers: new Set(['decorated_definition']),
  leading: new Set(),
};

/** Go's methods stand at the top level; gopls names them by receiver, as `(*Server).Start`. */
function goReceiver(node: Node): string {
  const receiver = node.childForFieldName('receiver')?.namedChildren.find((child) => child?.type === 'parameter_declaration');
  const type = receiver?.childForFieldName('type')?.text ?? '';
  return `(${type.replace(/\[.*\]$/, '')}).`;
}

const go: TreeLanguage = {
  id: 'go',
  grammar: 'tree-sitter-go.wasm',
  candidates: ['function_declaration', 'method_declaration', 'type_spec', 'type_alias'],
  symbol(node) {
    if (node.type === 'function_declaration') return named(node, 'function');
    if (node.type === 'method_declaration') {
      const name = node.childForFieldName('name');
      return name ? { name: goReceiver(node) + name.text, kind: 'method', nameNode: name } : undefined;
    }
    const type = node.childForFieldName('type')?.type;
    return named(node, type === 'struct_type' ? 'struct' : type === 'interface_type' ? 'interface' : 'type');
  },
  wrappers: new Set(['type_declaration']),
  leading: new Set(),
};

function rustImplName(node: Node): string | undefined {
  const type = node.childForFieldName('type')?.text;
  if (type === undefined) return undefined;
  const trait = node.childForFieldName('trait')?.text;
  return trait === undefined ? `impl ${type}` : `impl ${trait} for ${type}`;
}

const rust: TreeLanguage = {
  id: 'rust',
  grammar: 'tree-sitter-rust.wasm',
  candidates: [
    'function_item',
    'function_signature_item',
    'struct_item',
    'enum_item',
    'union_item',
    'trait_item',
    'impl_item',
    'mod_item',
    'type_item',
    'macro_definition',
  ],
  symbol(node, inType) {
    switch (node.type) {
      case 'function_item':
      case 'function_signature_item':
        return functionIn(inType, nameOf(node));
      case 'struct_item':
      case 'union_item':
        return named(node, 'struct');
      case 'enum_item':
        return named(node, 'enum');
      case 'trait_item':
        return named(node, 'trait');
      case 'impl_item': {
        const name = rustImplName(node);
        return name === undefined ? undefined : { name, kind: 'impl', nameNode: node.childForFieldName('type') };
      }
      case 'mod_item':
        return named(node, 'module');
      case 'type_item':
        return named(node, 'type');
      default:
        return named(node, 'function');
    }
  },
  wrappers: new Set(),
  leading: new Set(['attribute_item']),
};

const java: TreeLanguage = {
  id: 'java',
  grammar: 'tree-sitter-java.wasm',
  candidates: [
    'class_declaration',
    'interface_declaration',
    'enum_declaration',
    'record_declaration',
    'annotation_type_declaration',
    'method_declaration',
    'constructor_declaration',
  ],
  symbol(node) {
    switch (node.type) {
      case 'class_declaration':
      case 'record_declaration':
        return named(node, 'class');
      case 'interface_declaration':
      case 'annotation_type_declaration':
        return named(node, 'interface');
      case 'enum_declaration':
        return named(node, 'enum');
      case 'constructor_declaration':
        return named(node, 'constructor');
      default:
        return named(node, 'method');
    }
  },
  wrappers: new Set(),
  leading: new Set(),
};

const csharp: TreeLanguage = {
  id: 'csharp',
  grammar: 'tree-sitter-c-sharp.wasm',
  candidates: [
    'namespace_declaration',
    'file_scoped_namespace_declaration',
    'class_declaration',
    'struct_declaration',
    'interface_declaration',
    'enum_declaration',
    'record_declaration',
    'method_declaration',
    'constructor_declaration',
    'destructor_declaration',
    'property_declaration',
    'delegate_declaration',
  ],
  symbol(node) {
    switch (node.type) {
      case 'namespace_declaration':
      case 'file_scoped_namespace_declaration':
        return named(node, 'namespace');
      case 'class_declaration':
      case 'record_declaration':
        return named(node, 'class');
      case 'struct_declaration':
        return named(node, 'struct');
      case 'interface_declaration':
        return named(node, 'interface');
      case 'enum_declaration':
        return named(node, 'enum');
      case 'constructor_declaration':
        return named(node, 'constructor');
      case 'destructor_declaration': {
        const name = nameOf(node);
        return name === undefined ? undefined : { name: `~${name}`, kind: 'method' };
      }
      case 'property_declaration':
        return named(node, 'property');
      case 'delegate_declaration':
        return named(node, 'type');
      default:
        return named(node, 'method');
    }
  },
  wrappers: new Set(),
  leading: new Set(),
};

const C_DECLARATOR_WRAPPERS = new Set(['pointer_declarator', 'reference_declarator', 'parenthesized_declarator', 'attributed_declarator']);

/** The name a C or C++ function definition declares: its declarator's, through pointers and references. */
function cFunctionName(node: Node): Node | undefined {
  let declarator = node.childForFieldName('declarator');
  while (declarator && C_DECLARATOR_WRAPPERS.has(declarator.type)) declarator = declarator.childForFieldName('declarator');
  if (declarator?.type !== 'function_declarator') return undefined;
  return declarator.childForFieldName('declarator') ?? undefined;
}

const cpp: TreeLanguage = {
  id: 'cpp',
  grammar: 'tree-sitter-cpp.wasm',
  candidates: ['function_definition', 'class_specifier', 'struct_specifier', 'union_specifier', 'enum_specifier', 'namespace_definition'],
  symbol(node, inType) {
    switch (node.type) {
      case 'function_definition': {
        const name = cFunctionName(node);
        return name ? functionIn(inType, name.text.replace(/\s+/g, ''), name) : undefined;
      }
      case 'namespace_definition':
        return named(node, 'namespace');
      case 'enum_specifier':
        return node.childForFieldName('body') ? named(node, 'enum') : undefined;
      default:
        // Only a definition (with a body) declares a type here; `struct S x;` uses one.
        return node.childForFieldName('body') ? named(node, node.type === 'class_specifier' ? 'class' : 'struct') : undefined;
    }
  },
  wrappers: new Set(['template_declaration']),
  leading: new Set(),
};

const ruby: TreeLanguage = {
  id: 'ruby',
  grammar: 'tree-sitter-ruby.wasm',
  candidates: ['class', 'module', 'method', 'singleton_method', 'singleton_class'],
  symbol(node, inType) {
    switch (node.type) {
      case 'class':
        return named(node, 'class');
      case 'module':
        return named(node, 'module');
      case 'singleton_class':
        return { name: `<< ${node.childForFieldName('value')?.text ?? 'self'}`, kind: 'class' };
      case 'singleton_method': {
        const name = nameOf(node);
        const object = node.childForFieldName('object')?.text ?? 'self';
        return name === undefined ? undefined : { name: `${object}.${name}`, kind: 'method', nameNode: node.childForFieldName('name') };
      }
      default:
        return functionIn(inType, nameOf(node));
    }
  },
  wrappers: new Set(),
  leading: new Set(),
};

const php: TreeLanguage = {
  id: 'php',
  grammar: 'tree-sitter-php.wasm',
  candidates: [
    'namespace_definition',
    'class_declaration',
    'interface_declaration',
    'trait_declaration',
    'enum_declaration',
    'function_definition',
    'method_declaration',
  ],
  symbol(node) {
    switch (node.type) {
      case 'namespace_definition':
        return named(node, 'namespace');
      case 'class_declaration':
        return named(node, 'class');
      case 'interface_declaration':
        return named(node, 'interface');
      case 'trait_declaration':
        return named(node, 'trait');
      case 'enum_declaration':
        return named(node, 'enum');
      case 'function_definition':
        return named(node, 'function');
      default: {
        const name = nameOf(node);
        return name === undefined ? undefined : { name, kind: name === '__construct' ? 'constructor' : 'method' };
      }
    }
  },
  wrappers: new Set(),
  leading: new Set(),
};

const bash: TreeLanguage = {
  id: 'bash',
  grammar: 'tree-sitter-bash.wasm',
  candidates: ['function_definition'],
  symbol: (node) => named(node, 'function'),
  wrappers: new Set(),
  leading: new Set(),
};

/** A CSS rule is named by its selectors (or its at-rule's prelude), whitespace folded. */
function cssPrelude(node: Node): string {
  const block = node.namedChildren.find((child) => child?.type === 'block' || child?.type === 'keyframe_block_list');
  const end = block ? block.startIndex - node.startIndex : node.text.length;
  return node.text.slice(0, end).replace(/\s+/g, ' ').trim();
}

const css: TreeLanguage = {
  id: 'css',
  grammar: 'tree-sitter-css.wasm',
  candidates: ['rule_set', 'media_statement', 'keyframes_statement', 'supports_statement', 'at_rule'],
  symbol: (node) => ({ name: cssPrelude(node), kind: 'rule' }),
  wrappers: new Set(),
  leading: new Set(),
};

const typescript = script('typescript', 'tree-sitter-typescript.wasm');
const tsx = script('tsx', 'tree-sitter-tsx.wasm');
const javascript = script('javascript', 'tree-sitter-javascript.wasm');
const markdown: MarkdownLanguage = { id: 'markdown' };

/** Every language by the extensions that name it (lower case, with the dot). */
const BY_EXTENSION: ReadonlyMap<string, OutlineLanguage> = new Map<string, OutlineLanguage>([
  ...['.ts', '.mts', '.cts'].map((extension) => [extension, typescript] as const),
  ['.tsx', tsx],
  ...['.js', '.mjs', '.cjs', '.jsx'].map((extension) => [extension, javascript] as const),
  ...['.py', '.pyi', '.pyw'].map((extension) => [extension, python] as const),
  ['.go', go],
  ['.rs', rust],
  ['.java', java],
  ['.cs', csharp],
  ...['.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.h', '.c', '.ipp', '.tpp'].map(
    (extension) => [extension, cpp] as const,
  ),
  ...['.rb', '.rake', '.gemspec'].map((extension) => [extension, ruby] as const),
  ...['.php', '.phtml'].map((extension) => [extension, php] as const),
  ...['.sh', '.bash', '.zsh', '.ksh'].map((extension) => [extension, bash] as const),
  ['.css', css],
  ...['.md', '.markdown', '.mdx'].map((extension) => [extension, markdown] as const),
]);

/** The language of a file, by its name's extension; undefined for one no grammar is shipped for. */
export function languageOf(fileName: string): OutlineLanguage | undefined {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? undefined : BY_EXTENSION.get(base.slice(dot));
}

/** The languages and their extensions, as an unsupported language's refusal lists them. */
export function supportedLanguages(): string {
  const byLanguage = new Map<string, string[]>();
  for (const [extension, language] of BY_EXTENSION) byLanguage.set(language.id, [...(byLanguage.get(language.id) ?? []), extension]);
  return [...byLanguage].map(([id, extensions]) => `${id} (${extensions.join(' ')})`).join(', ');
}

/** The grammar files the engine may load, for the hosts that ship them (esbuild.mjs copies the same list). */
export const GRAMMAR_FILES: readonly string[] = [
  ...new Set([...BY_EXTENSION.values()].flatMap((language) => ('grammar' in language ? [language.grammar] : []))),
];
