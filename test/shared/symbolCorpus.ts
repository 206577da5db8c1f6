/**
 * Generated source files shaped like real code, for the outline's oracle tests (test/unit/symbolOracle.test.ts):
 * Python with decorators (one line and several), nested classes, async functions, properties with setters (a name
 * declared twice), functions under `if` and `try`, docstrings and strings that hold `def`; TypeScript, TSX and
 * JavaScript with decorated classes and members, overloads, abstract classes, interfaces, enums, namespaces,
 * arrow functions and class expressions in `const`, `module.exports.x = function`, `app.listen = function`,
 * getters and setters, private names; comments and doc comments above declarations, non-ASCII names, and files
 * written with CRLF, with a BOM, or without a final newline. A seed gives the same files every time.
 */

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

function pick<T>(rng: Random, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

const WORDS = [
  'load',
  'save',
  'parse',
  'render',
  'handle',
  'build',
  'fetch',
  'update',
  'größe',
  'café',
  'résumé',
  'total',
  'next',
  'value',
];
const TYPES = ['Server', 'Client', 'Parser', 'Größe', 'Cache', 'Router', 'Model', 'Über', 'Queue'];

function nameFrom(rng: Random, words: readonly string[]): string {
  return pick(rng, words) + (rng() < 0.5 ? '' : pick(rng, ['_a', 'X', '2', 'Item', '']));
}

/** A file's final form: its line endings, a BOM, a final newline or not. */
interface Shape {
  readonly crlf: boolean;
  readonly bom: boolean;
  readonly finalNewline: boolean;
}

function shapeOf(rng: Random): Shape {
  return { crlf: rng() < 0.3, bom: rng() < 0.2, finalNewline: rng() < 0.8 };
}

function finish(lines: readonly string[], shape: Shape): string {
  const text = lines.join(shape.crlf ? '\r\n' : '\n') + (shape.finalNewline ? (shape.crlf ? '\r\n' : '\n') : '');
  return (shape.bom ? '\uFEFF' : '') + text;
}

// ----- Python

function pyComment(rng: Random, indent: string, out: string[]): void {
  const roll = rng();
  if (roll < 0.2) out.push(`${indent}# ${pick(rng, WORDS)} the ${pick(rng, WORDS)}`);
  else if (roll < 0.3) out.push(`${indent}# TODO: def not_a_function():`, `${indent}#   still a comment`);
}

function pyDecorators(rng: Random, indent: string, out: string[]): void {
  const roll = rng();
  if (roll < 0.25) out.push(`${indent}@${pick(rng, ['staticmethod', 'classmethod', 'cache', 'functools.wraps(f)'])}`);
  else if (roll < 0.35)
    out.push(`${indent}@route(`, `${indent}    "/x",`, `${indent}    methods=["GET"],`, `${indent})`, `${indent}@login_required`);
}

function pyBody(rng: Random, indent: string, out: string[], depth: number): void {
  const statements = 1 + Math.floor(rng() * 4);
  for (let index = 0; index < statements; index++) {
    const roll = rng();
    if (roll < 0.15) out.push(`${indent}"""A docstring with def fake(): inside."""`);
    else if (roll < 0.3) out.push(`${indent}for item in range(3):`, `${indent}    total = item * 2`);
    else if (roll < 0.4 && depth < 3) pyFunction(rng, indent, out, depth + 1, false);
    else if (roll < 0.5) out.push(`${indent}value = (`, `${indent}    1 +`, `${indent}    2`, `${indent})`);
    else out.push(`${indent}return ${pick(rng, ['None', '1', 'self', '"def x(): pass"'])}`);
  }
}

function pyFunction(rng: Random, indent: string, out: string[], depth: number, method: boolean): void {
  pyComment(rng, indent, out);
  pyDecorators(rng, indent, out);
  const name = nameFrom(rng, WORDS);
  const async = rng() < 0.25 ? 'async ' : '';
  const self = method ? 'self, ' : '';
  if (rng() < 0.2)
    out.push(`${indent}${async}def ${name}(`, `${indent}    ${self}a: int,`, `${indent}    b: str = "x",`, `${indent}) -> None:`);
  else out.push(`${indent}${async}def ${name}(${self}a, b=None):`);
  pyBody(rng, `${indent}    `, out, depth);
}

function pyClass(rng: Random, indent: string, out: string[], depth: number): void {
  pyComment(rng, indent, out);
  if (rng() < 0.3) out.push(`${indent}@dataclass${rng() < 0.5 ? '(frozen=True)' : ''}`);
  out.push(`${indent}class ${nameFrom(rng, TYPES)}(${rng() < 0.5 ? 'Base' : ''}):`);
  if (rng() < 0.4) out.push(`${indent}    """Docs for class X:`, `${indent}    def not_here(): pass`, `${indent}    """`);
  const members = 1 + Math.floor(rng() * 5);
  for (let index = 0; index < members; index++) {
    const roll = rng();
    if (roll < 0.15 && depth < 2) pyClass(rng, `${indent}    `, out, depth + 1);
    else if (roll < 0.3) {
      const name = nameFrom(rng, WORDS);
      out.push(`${indent}    @property`, `${indent}    def ${name}(self):`, `${indent}        return self._${name}`, '');
      out.push(`${indent}    @${name}.setter`, `${indent}    def ${name}(self, value):`, `${indent}        self._${name} = value`);
    } else if (roll < 0.4) out.push(`${indent}    size: int = 0`);
    else pyFunction(rng, `${indent}    `, out, depth + 1, true);
    if (rng() < 0.5) out.push('');
  }
}

export function pythonFile(seed: number): { text: string; shape: Shape } {
  const rng = random(seed);
  const out: string[] = ['"""Module docstring: class NotAClass: pass."""', 'import functools', ''];
  const items = 3 + Math.floor(rng() * 8);
  for (let index = 0; index < items; index++) {
    const roll = rng();
    if (roll < 0.35) pyClass(rng, '', out, 0);
    else if (roll < 0.7) pyFunction(rng, '', out, 0, false);
    else if (roll < 0.8) {
      out.push('if TYPE_CHECKING:');
      pyFunction(rng, '    ', out, 1, false);
      out.push('else:', '    pass');
    } else if (roll < 0.9) {
      out.push('try:');
      pyFunction(rng, '    ', out, 1, false);
      out.push('except ImportError:');
      pyFunction(rng, '    ', out, 1, false);
    } else out.push(`${nameFrom(rng, WORDS)} = lambda x: x + 1`);
    out.push('', '');
  }
  while (out[out.length - 1] === '') out.pop();
  const shape = shapeOf(rng);
  return { text: finish(out, shape), shape };
}

// ----- TypeScript, TSX and JavaScript

function tsComment(rng: Random, indent: string, out: string[]): void {
  const roll = rng();
  if (roll < 0.2) out.push(`${indent}/**`, `${indent} * Does ${pick(rng, WORDS)}; see function other() {}.`, `${indent} */`);
  else if (roll < 0.35) out.push(`${indent}// ${pick(rng, WORDS)}: class Fake {}`);
}

function tsBody(rng: Random, indent: string, out: string[], depth: number, typed: boolean): void {
  const statements = 1 + Math.floor(rng() * 3);
  for (let index = 0; index < statements; index++) {
    const roll = rng();
    if (roll < 0.15 && depth < 3) tsFunction(rng, indent, out, depth + 1, typed, false);
    else if (roll < 0.25 && depth < 3)
      out.push(`${indent}const ${nameFrom(rng, WORDS)} = (x${typed ? ': number' : ''}) => {`, `${indent}  return x;`, `${indent}};`);
    else if (roll < 0.35) out.push(`${indent}const text = \`function inTemplate() { return 1; }\`;`);
    else if (roll < 0.45) out.push(`${indent}items.forEach((item) => {`, `${indent}  total += item;`, `${indent}});`);
    else out.push(`${indent}return ${pick(rng, ['undefined', '1', 'this', '"class X {}"'])};`);
  }
}

function tsFunction(rng: Random, indent: string, out: string[], depth: number, typed: boolean, top: boolean): void {
  tsComment(rng, indent, out);
  const name = nameFrom(rng, WORDS);
  const exported = top && rng() < 0.4 ? 'export ' : '';
  const async = rng() < 0.25 ? 'async ' : '';
  const roll = rng();
  if (roll < 0.25) {
    out.push(`${indent}${exported}const ${name} = ${async}(a${typed ? ': string' : ''}) => {`);
    tsBody(rng, `${indent}  `, out, depth, typed);
    out.push(`${indent}};`);
    return;
  }
  if (roll < 0.3) {
    out.push(`${indent}${exported}let ${name} = ${async}function (a) {`);
    tsBody(rng, `${indent}  `, out, depth, typed);
    out.push(`${indent}}`);
    return;
  }
  if (typed && roll < 0.45)
    out.push(`${indent}${exported}function ${name}(a: string): string;`, `${indent}${exported}function ${name}(a: number): number;`);
  const star = !async && rng() < 0.1 ? '*' : '';
  out.push(`${indent}${exported}${async}function${star} ${name}(a${typed ? ': any' : ''}, b${typed ? '?: unknown' : ''}) {`);
  tsBody(rng, `${indent}  `, out, depth, typed);
  out.push(`${indent}}`);
}

function tsClass(rng: Random, indent: string, out: string[], typed: boolean, top: boolean): void {
  tsComment(rng, indent, out);
  const decorated = typed && rng() < 0.4;
  if (decorated) out.push(`${indent}@Component({`, `${indent}  selector: 'app-x',`, `${indent}})`);
  const exported = top && rng() < 0.5 ? (rng() < 0.2 ? 'export default ' : 'export ') : '';
  const abstract = typed && rng() < 0.15 ? 'abstract ' : '';
  const name = nameFrom(rng, TYPES);
  if (!typed && rng() < 0.15) out.push(`${indent}const ${name} = class {`);
  else out.push(`${indent}${exported}${abstract}class ${name}${rng() < 0.3 ? ' extends Base' : ''} {`);
  const members = 1 + Math.floor(rng() * 6);
  const inner = `${indent}  `;
  for (let index = 0; index < members; index++) {
    tsComment(rng, inner, out);
    const roll = rng();
    const method = nameFrom(rng, WORDS);
    if (typed && roll < 0.15) out.push(`${inner}@Input() ${method}${typed ? ': string' : ''} = '';`);
    else if (roll < 0.25) out.push(`${inner}${method} = (e${typed ? ': Event' : ''}) => {`, `${inner}  this.handle(e);`, `${inner}};`);
    else if (roll < 0.35) out.push(`${inner}get ${method}() {`, `${inner}  return 1;`, `${inner}}`, `${inner}set ${method}(value) {}`);
    else if (roll < 0.42)
      out.push(
        `${inner}constructor(${typed ? 'private readonly x: number' : 'x'}) {`,
        `${inner}  ${rng() < 0.5 ? 'super();' : 'this.x = x;'}`,
        `${inner}}`,
      );
    else if (typed && roll < 0.5) out.push(`${inner}${method}(a: string): void;`, `${inner}${method}(a: any) {}`);
    else if (abstract && roll < 0.58) out.push(`${inner}protected abstract ${method}(): void;`);
    else if (roll < 0.64) out.push(`${inner}#${method}() {}`);
    else if (roll < 0.7) out.push(`${inner}static {`, `${inner}  init();`, `${inner}}`);
    else {
      if (typed && rng() < 0.3) out.push(`${inner}@HostListener('click', ['$event'])`, `${inner}// between the decorator and the method`);
      const modifiers = typed
        ? pick(rng, ['', 'public ', 'private static ', 'protected async ', 'override '])
        : pick(rng, ['', 'static ', 'async ']);
      out.push(`${inner}${modifiers}${method}(a${typed ? ': number' : ''}) {`);
      tsBody(rng, `${inner}  `, out, 1, typed);
      out.push(`${inner}}`);
    }
  }
  out.push(`${indent}}${!typed && out[out.length - 1]?.includes('= class') ? ';' : ''}`);
}

function tsTypes(rng: Random, out: string[]): void {
  tsComment(rng, '', out);
  const name = nameFrom(rng, TYPES);
  const roll = rng();
  if (roll < 0.3) out.push(`export interface I${name} {`, `  ${pick(rng, WORDS)}(a: string): void;`, `  value: number;`, `}`);
  else if (roll < 0.5) out.push(`enum E${name} {`, `  A = 1,`, `  B,`, `}`);
  else if (roll < 0.7) out.push(`export type T${name} = {`, `  kind: 'a';`, `} | string;`);
  else {
    out.push(`namespace N${name} {`);
    tsFunction(rng, '  ', out, 1, true, false);
    out.push('}');
  }
}

function jsMembers(rng: Random, out: string[]): void {
  const roll = rng();
  const name = nameFrom(rng, WORDS);
  if (roll < 0.3) out.push(`module.exports.${name} = function (req, res) {`, `  res.end();`, `};`);
  else if (roll < 0.5) out.push(`exports.${name} = async (a) => a;`);
  else if (roll < 0.7) out.push(`app.${name} = function ${name}() {`, `  return this;`, `};`);
  else if (roll < 0.85) out.push(`${pick(rng, TYPES)}.prototype.${name} = function () {`, `  return 1;`, `};`);
  else out.push(`module.exports = {`, `  ${name}() {`, `    return 1;`, `  },`, `};`);
}

export function scriptFile(seed: number, kind: 'ts' | 'tsx' | 'js'): { text: string; shape: Shape } {
  const rng = random(seed);
  const typed = kind !== 'js';
  const out: string[] = [typed ? "import { Component } from './component';" : "'use strict';", ''];
  const items = 3 + Math.floor(rng() * 8);
  for (let index = 0; index < items; index++) {
    const roll = rng();
    if (roll < 0.35) tsClass(rng, '', out, typed, true);
    else if (roll < 0.7) tsFunction(rng, '', out, 0, typed, true);
    else if (typed && roll < 0.85) tsTypes(rng, out);
    else if (!typed) jsMembers(rng, out);
    else if (kind === 'tsx')
      out.push(
        `export const View${index} = () => (`,
        `  <div onClick={() => go()}>`,
        `    {items.map((item) => <span>{item}</span>)}`,
        `  </div>`,
        `);`,
      );
    else out.push(`let counter${index} = 0;`);
    out.push('');
  }
  while (out[out.length - 1] === '') out.pop();
  const shape = shapeOf(rng);
  return { text: finish(out, shape), shape };
}
