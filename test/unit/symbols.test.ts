/**
 * The symbol tools over the Node adapter and real files: edit_symbol byte-exact in windows-1252 with CRLF, in UTF-16
 * with a BOM and in a file without a final newline (every byte outside the changed lines as it was, and undo giving
 * back the very bytes); the refusals a model can act on; read_outline's depth, members of JavaScript objects, every
 * shipped language and Markdown; find_references headless (approximate, whole words, paged) over each engine;
 * read_file's hint; the grammars loaded on first use, once per language, in a fresh process (grammarLoads.ts).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { flagEncodingHost } from '../../src/core/encoding/host';
import type { Session } from '../../src/core/invoke';
import { createNodeSession } from '../../src/node/host/session';
import { NodeContentIndex } from '../../src/node/indexes/contentIndex';
import { NodePathIndex } from '../../src/node/indexes/pathIndex';
import { call, expectError, expectOk, makeTempDir, removeTree } from './helpers';
import { ripgrepForTests } from './search/ripgrep';

interface Symbol {
  readonly name_path: string;
  readonly kind: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly children?: readonly Symbol[];
}

const flat = (symbols: readonly Symbol[]): Symbol[] => symbols.flatMap((symbol) => [symbol, ...flat(symbol.children ?? [])]);

async function outline(session: Session, file: string, depth = 10): Promise<Symbol[]> {
  return flat(expectOk(await call(session, 'read_outline', { path: file, depth })).symbols as Symbol[]);
}

/** The bytes before `prefix` and after `suffix` of `after` equal those of `before`: nothing outside the edit moved. */
function assertSameOutside(before: Buffer, after: Buffer, head: number, tail: number): void {
  assert.deepEqual(after.subarray(0, head), before.subarray(0, head), 'the bytes before the edit changed');
  assert.deepEqual(after.subarray(after.length - tail), before.subarray(before.length - tail), 'the bytes after the edit changed');
}

describe('edit_symbol: byte-exact in every encoding, and undone exactly', function () {
  let base: string;
  let state: string;
  beforeEach(function () {
    base = makeTempDir('symbols-');
    state = makeTempDir('symbols-state-');
  });
  afterEach(function () {
    removeTree(base);
    removeTree(state);
  });

  it('windows-1252 with CRLF: replaces a method, keeps every other byte, and undo restores the file', async function () {
    const session = createNodeSession(
      base,
      {},
      {
        stateDirectory: state,
        encodings: flagEncodingHost({ default: 'windows1252', guess: false, candidates: [] }, '--encoding'),
      },
    );
    const head = '# Caf\xe9 r\xe9sum\xe9\r\nclass Caf\xe9:\r\n    """D\xe9j\xe0 vu."""\r\n\r\n';
    const method = '    @property\r\n    def na\xefve(self):\r\n        return "\xe9t\xe9"\r\n';
    const tail = '\r\n    def other(self):\r\n        return "\xa3\xa5\xa7"\r\n';
    const before = Buffer.from(head + method + tail, 'latin1');
    fs.writeFileSync(path.join(base, 'cafe.py'), before);
    const names = (await outline(session, 'cafe.py')).map((symbol) => symbol.name_path);
    assert.deepEqual(names, ['Café', 'Café/naïve', 'Café/other']);

    const data = expectOk(
      await call(session, 'edit_symbol', {
        path: 'cafe.py',
        symbol: 'Café/naïve',
        action: 'replace',
        text: '    def naïve(self):\n        return "déjà"\n',
      }),
    );
    assert.equal(data.encoding, 'windows1252');
    assert.equal(data.newline, 'crlf');
    assert.equal(data.start_line, 5);
    assert.equal(data.end_line, 7);
    const after = fs.readFileSync(path.join(base, 'cafe.py'));
    assert.deepEqual(after, Buffer.from(`${head}    def na\xefve(self):\r\n        return "d\xe9j\xe0"\r\n${tail}`, 'latin1'));
    assertSameOutside(before, after, Buffer.byteLength(head, 'latin1'), Buffer.byteLength(tail, 'latin1'));

    expectOk(await call(session, 'undo_operation', { operation_id: data.operation_id }));
    assert.deepEqual(fs.readFileSync(path.join(base, 'cafe.py')), before);
  });

  it('UTF-16 with a BOM: inserts before and after a function, the BOM and every other code unit kept; undo restores it', async function () {
    const session = createNodeSession(base, {}, { stateDirectory: state });
    const text = '// Größe\r\nfunction größe(a) {\r\n  return a;\r\n}\r\n\r\nconst π = () => 3.14;\r\n';
    const before = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    fs.writeFileSync(path.join(base, 'size.js'), before);
    const first = expectOk(
      await call(session, 'edit_symbol', { path: 'size.js', symbol: 'größe', action: 'insert_before', text: '/** Ünïcode. */' }),
    );
    assert.equal(first.encoding, 'utf-16le');
    assert.equal(first.bom, true);
    const second = expectOk(
      await call(session, 'edit_symbol', { path: 'size.js', symbol: 'π', action: 'insert_after', text: 'export { π };\n' }),
    );
    const after = fs.readFileSync(path.join(base, 'size.js'));
    const expected =
      '// Größe\r\n/** Ünïcode. */\r\nfunction größe(a) {\r\n  return a;\r\n}\r\n\r\nconst π = () => 3.14;\r\nexport { π };\r\n';
    assert.deepEqual(after, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(expected, 'utf16le')]));

    expectOk(await call(session, 'undo_operation', { operation_id: second.operation_id }));
    expectOk(await call(session, 'undo_operation', { operation_id: first.operation_id }));
    assert.deepEqual(fs.readFileSync(path.join(base, 'size.js')), before);
  });

  it('a file without a final newline keeps having none, whichever line the edit reaches', async function () {
    const session = createNodeSession(base, {}, { stateDirectory: state });
    const before = 'package main\n\nfunc A() int {\n\treturn 1\n}\n\nfunc (s *Server) Start() {\n}';
    fs.writeFileSync(path.join(base, 'main.go'), before);
    assert.deepEqual(
      (await outline(session, 'main.go')).map((symbol) => [symbol.name_path, symbol.start_line, symbol.end_line]),
      [
        ['A', 3, 5],
        ['(*Server).Start', 7, 8],
      ],
    );
    const replaced = expectOk(
      await call(session, 'edit_symbol', {
        path: 'main.go',
        symbol: '(*Server).Start',
        action: 'replace',
        text: 'func (s *Server) Start() {\n\ts.run()\n}\n',
      }),
    );
    assert.equal(
      fs.readFileSync(path.join(base, 'main.go'), 'utf8'),
      'package main\n\nfunc A() int {\n\treturn 1\n}\n\nfunc (s *Server) Start() {\n\ts.run()\n}',
    );
    const appended = expectOk(
      await call(session, 'edit_symbol', { path: 'main.go', symbol: '(*Server).Start', action: 'insert_after', text: '\nfunc B() {}' }),
    );
    assert.equal(
      fs.readFileSync(path.join(base, 'main.go'), 'utf8'),
      'package main\n\nfunc A() int {\n\treturn 1\n}\n\nfunc (s *Server) Start() {\n\ts.run()\n}\n\nfunc B() {}',
    );
    expectOk(await call(session, 'undo_operation', { operation_id: appended.operation_id }));
    expectOk(await call(session, 'undo_operation', { operation_id: replaced.operation_id }));
    assert.equal(fs.readFileSync(path.join(base, 'main.go'), 'utf8'), before);
  });

  it('a dry run shows the diff and writes nothing; a stale expected_hash changes nothing', async function () {
    const session = createNodeSession(base, {}, { stateDirectory: state });
    const before = 'def f():\n    return 1\n';
    fs.writeFileSync(path.join(base, 'f.py'), before);
    const dry = expectOk(
      await call(session, 'edit_symbol', { path: 'f.py', symbol: 'f', action: 'replace', text: 'def f():\n    return 2', dry_run: true }),
    );
    assert.match(String(dry.diff), /-    return 1\n\+    return 2/);
    expectError(
      await call(session, 'edit_symbol', {
        path: 'f.py',
        symbol: 'f',
        action: 'replace',
        text: 'x = 1',
        expected_hash: `sha256:${'0'.repeat(64)}`,
      }),
      'CONTENT_CONFLICT',
    );
    assert.equal(fs.readFileSync(path.join(base, 'f.py'), 'utf8'), before);
  });
});

describe('the symbol tools: refusals a model can act on', function () {
  let base: string;
  let session: Session;
  beforeEach(function () {
    base = makeTempDir('symbols-');
    session = createNodeSession(base, {}, { locks: false, ripgrep: false });
    fs.writeFileSync(
      path.join(base, 'server.ts'),
      'export class Server {\n  listen(): void {}\n  listen2(): void {}\n  close() {}\n}\nfunction stop(a: string): void;\nfunction stop(a: unknown) {}\n',
    );
  });
  afterEach(function () {
    removeTree(base);
  });

  it('SYMBOL_NOT_FOUND names the nearest name paths; SYMBOL_AMBIGUOUS lists each candidate with its lines', async function () {
    const missing = expectError(await call(session, 'read_file', { file_name: 'server.ts', symbol: 'Server/lisen' }), 'SYMBOL_NOT_FOUND');
    assert.ok((missing.details?.nearest as string[]).includes('Server/listen'), missing.message);
    const before = fs.readFileSync(path.join(base, 'server.ts'));
    const ambiguous = expectError(
      await call(session, 'edit_symbol', { path: 'server.ts', symbol: 'stop', action: 'replace', text: '' }),
      'SYMBOL_AMBIGUOUS',
    );
    assert.deepEqual(
      (ambiguous.details?.candidates as { name_path: string; start_line: number }[]).map((each) => [each.name_path, each.start_line]),
      [
        ['stop[0]', 6],
        ['stop[1]', 7],
      ],
    );
    assert.match(ambiguous.message, /stop\[1\] \(function, lines 7-7\)/);
    assert.deepEqual(fs.readFileSync(path.join(base, 'server.ts')), before);
    // A path that names one symbol is found, whole or by its last names.
    assert.equal(expectOk(await call(session, 'read_file', { file_name: 'server.ts', symbol: 'listen' })).content, '  listen(): void {}\n');
    assert.equal(
      expectOk(await call(session, 'read_file', { file_name: 'server.ts', symbol: 'stop[1]' })).content,
      'function stop(a: unknown) {}\n',
    );
  });

  it('LANGUAGE_UNSUPPORTED names the languages there are; a binary file is BINARY_CONTENT_REFUSED', async function () {
    fs.writeFileSync(path.join(base, 'notes.txt'), 'plain\n');
    const error = expectError(await call(session, 'read_outline', { path: 'notes.txt' }), 'LANGUAGE_UNSUPPORTED');
    for (const language of ['typescript', 'python', 'go', 'rust', 'java', 'csharp', 'cpp', 'ruby', 'php', 'bash', 'css', 'markdown'])
      assert.ok(error.message.includes(language), `${language} missing from: ${error.message}`);
    fs.writeFileSync(path.join(base, 'blob.py'), Buffer.from([0x64, 0x65, 0x66, 0, 0, 1, 2, 0]));
    expectError(await call(session, 'read_outline', { path: 'blob.py' }), 'BINARY_CONTENT_REFUSED');
  });

  it('a file with syntax errors outlines what parsed and says has_errors', async function () {
    fs.writeFileSync(path.join(base, 'broken.py'), 'def good():\n    return 1\n\ndef bad(:\n    pass\n\nclass After:\n    pass\n');
    const data = expectOk(await call(session, 'read_outline', { path: 'broken.py' }));
    assert.equal(data.has_errors, true);
    const names = flat(data.symbols as Symbol[]).map((symbol) => symbol.name_path);
    assert.ok(names.includes('good') && names.includes('After'), names.join(', '));
  });
});

describe('read_outline', function () {
  let base: string;
  let session: Session;
  beforeEach(function () {
    base = makeTempDir('symbols-');
    session = createNodeSession(base, {}, { locks: false, ripgrep: false });
  });
  afterEach(function () {
    removeTree(base);
  });

  it('depth 0 gives the top level, 1 adds members, more goes deeper', async function () {
    fs.writeFileSync(path.join(base, 'a.py'), 'class A:\n    class B:\n        def c(self):\n            def d():\n                pass\n');
    const depthOf = async (depth: number): Promise<string[]> =>
      flat(expectOk(await call(session, 'read_outline', { path: 'a.py', depth })).symbols as Symbol[]).map((symbol) => symbol.name_path);
    assert.deepEqual(await depthOf(0), ['A']);
    assert.deepEqual(
      flat(expectOk(await call(session, 'read_outline', { path: 'a.py' })).symbols as Symbol[]).map((symbol) => symbol.name_path),
      ['A', 'A/B'],
    );
    assert.deepEqual(await depthOf(3), ['A', 'A/B', 'A/B/c', 'A/B/c/d']);
  });

  it('a reply stays within 32 KB: deep levels go first, then the top level is cut, and it says so', async function () {
    const classes = Array.from(
      { length: 300 },
      (_, index) => `class Class${index}:\n${Array.from({ length: 10 }, (__, m) => `    def method_${m}(self):\n        pass\n`).join('')}`,
    );
    fs.writeFileSync(path.join(base, 'big.py'), classes.join('\n'));
    const envelope = await call(session, 'read_outline', { path: 'big.py' });
    const data = expectOk(envelope);
    assert.ok(Buffer.byteLength(JSON.stringify(envelope)) <= 32 * 1024);
    assert.equal(data.total, 3300);
    assert.equal(data.depth, 0);
    assert.equal(data.truncated, true);
    assert.equal((data.symbols as Symbol[]).length, 300);
    const more = Array.from({ length: 2000 }, (_, index) => `def function_with_a_long_name_${index}():\n    pass\n`);
    fs.writeFileSync(path.join(base, 'huge.py'), more.join('\n'));
    const cut = expectOk(await call(session, 'read_outline', { path: 'huge.py' }));
    assert.equal(cut.truncated, true);
    assert.ok((cut.symbols as Symbol[]).length < 2000 && (cut.symbols as Symbol[]).length > 100);
  });

  it('a NUL inside a string literal (a bundled binary blob) ends no symbol early', async function () {
    // Past the first 64 KiB, where the binary test looks, as in a bundle that embeds WebAssembly as a string.
    const padding = `// ${'x'.repeat(70 * 1024)}\n`;
    const text = `${padding}async function Module(options = {}) {\n  function inner(a) {\n    return a;\n  }\n  const blob = "a\0b\0c";\n  return inner(blob);\n}\nfunction after() {}\n`;
    fs.writeFileSync(path.join(base, 'bundle.mjs'), text);
    const data = expectOk(await call(session, 'read_outline', { path: 'bundle.mjs' }));
    assert.equal(data.has_errors, false);
    assert.deepEqual(
      flat(data.symbols as Symbol[]).map((symbol) => [symbol.name_path, symbol.start_line, symbol.end_line]),
      [
        ['Module', 2, 8],
        ['Module/inner', 3, 5],
        ['after', 9, 9],
      ],
    );
    assert.equal(fs.readFileSync(path.join(base, 'bundle.mjs'), 'utf8'), text);
  });

  it('JavaScript members: app.listen = function, module.exports.x =, prototype methods, object methods', async function () {
    fs.writeFileSync(
      path.join(base, 'app.js'),
      'const app = express();\napp.listen = function (port) {\n  return port;\n};\nmodule.exports.handler = async (req) => req;\nServer.prototype.start = function () {};\nmodule.exports = {\n  route() {},\n};\n',
    );
    assert.deepEqual(
      (await outline(session, 'app.js')).map((symbol) => [symbol.name_path, symbol.kind, symbol.start_line, symbol.end_line]),
      [
        ['app.listen', 'function', 2, 4],
        ['handler', 'function', 5, 5],
        ['Server.prototype.start', 'function', 6, 6],
        ['route', 'method', 8, 8],
      ],
    );
  });

  it('every shipped language, with decorators, attributes and modifiers in a declaration’s lines', async function () {
    const files: Record<string, [string, (string | number)[][]]> = {
      'lib.rs': [
        '/// Docs.\n#[derive(Debug)]\npub struct Point { x: i32 }\n\nimpl Point {\n    pub fn new() -> Self { Point { x: 0 } }\n}\n\ntrait Shape { fn area(&self) -> f64; }\n',
        [
          ['Point', 2, 3],
          ['impl Point', 5, 7],
          ['impl Point/new', 6, 6],
          ['Shape', 9, 9],
          ['Shape/area', 9, 9],
        ],
      ],
      'App.java': [
        '// c\n@Entity\npublic class App {\n  @Override\n  public String toString() { return ""; }\n  App() {}\n}\n',
        [
          ['App', 2, 7],
          ['App/toString', 4, 5],
          ['App/App', 6, 6],
        ],
      ],
      'Svc.cs': [
        'namespace Demo {\n  [Serializable]\n  public class Svc {\n    public int Count { get; set; }\n    public void Run() {}\n  }\n}\n',
        [
          ['Demo', 1, 7],
          ['Demo/Svc', 2, 6],
          ['Demo/Svc/Count', 4, 4],
          ['Demo/Svc/Run', 5, 5],
        ],
      ],
      'w.cpp': [
        'namespace n {\ntemplate <typename T>\nclass Box {\n public:\n  T get() { return t; }\n};\n}\nint n::helper() { return 1; }\n',
        [
          ['n', 1, 7],
          ['n/Box', 2, 6],
          ['n/Box/get', 5, 5],
          ['n::helper', 8, 8],
        ],
      ],
      'm.rb': [
        'module M\n  class C\n    def run; end\n    def self.build; end\n  end\nend\n',
        [
          ['M', 1, 6],
          ['M/C', 2, 5],
          ['M/C/run', 3, 3],
          ['M/C/self.build', 4, 4],
        ],
      ],
      'i.php': [
        '<?php\n#[Attr]\nclass Repo {\n  public function find() {}\n}\nfunction helper() {}\n',
        [
          ['Repo', 2, 5],
          ['Repo/find', 4, 4],
          ['helper', 6, 6],
        ],
      ],
      'run.sh': [
        '#!/bin/sh\nsetup() {\n  echo hi\n}\nfunction main {\n  setup\n}\n',
        [
          ['setup', 2, 4],
          ['main', 5, 7],
        ],
      ],
      'site.css': [
        'a, b > c {\n  color: red;\n}\n@media (max-width: 10px) {\n  .x { top: 0 }\n}\n',
        [
          ['a, b > c', 1, 3],
          ['@media (max-width: 10px)', 4, 6],
          ['@media (max-width: 10px)/.x', 5, 5],
        ],
      ],
      'view.tsx': [
        '@observer\nexport class View extends React.Component {\n  render() {\n    return <div />;\n  }\n}\n',
        [
          ['View', 1, 6],
          ['View/render', 3, 5],
        ],
      ],
      'doc.md': [
        '# Guide\n\nIntro.\n\n## Install\n\n```sh\n# not a heading\n```\n\nSetup\n-----\n\ntext\n',
        [
          ['Guide', 1, 14],
          ['Guide/Install', 5, 9],
          ['Guide/Setup', 11, 14],
        ],
      ],
    };
    for (const [file, [text, expected]] of Object.entries(files)) {
      fs.writeFileSync(path.join(base, file), text);
      assert.deepEqual(
        (await outline(session, file)).map((symbol) => [symbol.name_path, symbol.start_line, symbol.end_line]),
        expected,
        file,
      );
    }
  });
});

/** The ways a headless find_references can search: the scan alone, ripgrep, and the content index. */
const ENGINES: readonly { readonly name: string; readonly session: (base: string) => Promise<{ session: Session; close: () => void }> }[] =
  [
    {
      name: 'the scan',
      session: (base) => Promise.resolve({ session: createNodeSession(base, {}, { locks: false, ripgrep: false }), close: () => {} }),
    },
    {
      name: 'ripgrep',
      session: (base) =>
        Promise.resolve({ session: createNodeSession(base, {}, { locks: false, ripgrep: ripgrepForTests() }), close: () => {} }),
    },
    {
      name: 'the content index',
      session: async (base) => {
        const index = new NodePathIndex();
        const contentIndex = new NodeContentIndex(index);
        const session = createNodeSession(base, {}, { locks: false, ripgrep: false, index, contentIndex });
        await index.whenReady(base);
        await contentIndex.whenReady();
        return {
          session,
          close: () => {
            contentIndex.close();
            index.close();
          },
        };
      },
    },
  ];

interface Reference {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

/** Every reference of `symbol` in `file`, the pages followed. */
async function allReferences(
  session: Session,
  file: string,
  symbol: string,
): Promise<{ pages: Record<string, unknown>[]; references: Reference[] }> {
  const pages: Record<string, unknown>[] = [];
  let offset: unknown = 0;
  do {
    const page = expectOk(await call(session, 'find_references', { path: file, symbol, offset }));
    pages.push(page);
    offset = page.next_offset;
  } while (pages.at(-1)?.truncated === true);
  return { pages, references: pages.flatMap((page) => page.references as Reference[]) };
}

/** The text from a reference's column on: it starts with the name found. */
const at = (reference: Reference): string =>
  Array.from(reference.text)
    .slice(reference.column - 1)
    .join('');

describe('find_references without a language service', function () {
  for (const engine of ENGINES) {
    it(`gives the lines holding the name as a whole word, marked approximate, paged with offset: ${engine.name}`, async function () {
      const base = makeTempDir('symbols-');
      fs.writeFileSync(path.join(base, 'lib.ts'), 'export function parse(text: string) {\n  return text;\n}\n');
      fs.mkdirSync(path.join(base, 'src'));
      const uses = Array.from({ length: 60 }, (_, index) => `const r${index} = parse('${index}'); // parser, parsed, reparse\n`).join('');
      fs.writeFileSync(path.join(base, 'src', 'use.ts'), `import { parse } from '../lib';\n${uses}`);
      // Words that hold the name but are other identifiers, in ASCII and beyond.
      fs.writeFileSync(path.join(base, 'src', 'words.ts'), '// a parser parsed it; reparse, parse_all, $parse, parseé, éparse\n');
      fs.writeFileSync(
        path.join(base, 'größe.py'),
        'def größe(a):\n    return a\n\ngrößer = 1\nklein_größe = 2\nprint(größe(2), größe_x)\n',
      );
      const { session, close } = await engine.session(base);
      try {
        const { pages, references } = await allReferences(session, 'lib.ts', 'parse');
        assert.equal(pages.length, 2);
        assert.equal(pages[0]?.approximate, true);
        assert.equal(pages[0]?.truncated, true);
        assert.equal(pages[1]?.truncated, false);
        assert.equal(pages[1]?.total, 62);
        assert.deepEqual(references[0], { path: 'lib.ts', line: 1, column: 17, text: 'export function parse(text: string) {' });
        assert.deepEqual(references[1], { path: 'src/use.ts', line: 1, column: 10, text: "import { parse } from '../lib';" });
        assert.deepEqual(
          references.slice(2).map((reference) => [reference.path, reference.line, reference.column]),
          Array.from({ length: 60 }, (_, index) => ['src/use.ts', index + 2, `const r${index} = `.length + 1]),
        );
        assert.deepEqual(
          references.filter((reference) => !at(reference).startsWith('parse')),
          [],
        );

        const wide = await allReferences(session, 'größe.py', 'größe');
        assert.deepEqual(
          wide.references.map((reference) => [reference.path, reference.line, at(reference).slice(0, 6)]),
          [
            ['größe.py', 1, 'größe('],
            ['größe.py', 6, 'größe('],
          ],
        );
      } finally {
        close();
        removeTree(base);
      }
    });
  }
});

describe('read_file of a source file over the read budget', function () {
  it('says that an outline lists its symbols', async function () {
    const base = makeTempDir('symbols-');
    try {
      const session = createNodeSession(base, {}, { locks: false });
      fs.writeFileSync(
        path.join(base, 'long.py'),
        Array.from({ length: 3000 }, (_, index) => `def f${index}():\n    return ${index}\n`).join(''),
      );
      const data = expectOk(await call(session, 'read_file', { file_name: 'long.py' }));
      assert.equal(data.truncated, true);
      assert.match(String(data.hint), /read_outline lists its symbols/);
      fs.writeFileSync(path.join(base, 'long.txt'), 'x\n'.repeat(30_000));
      assert.equal(expectOk(await call(session, 'read_file', { file_name: 'long.txt' })).hint, undefined);
    } finally {
      removeTree(base);
    }
  });
});

describe('the grammars load lazily, once per language per process', function () {
  it('none before the first outline, each on its first file, a failed load tried again by the next call', function () {
    const base = makeTempDir('symbols-');
    const state = makeTempDir('symbols-state-');
    try {
      fs.writeFileSync(path.join(base, 'a.go'), 'package a\n\nfunc Load() {}\n');
      fs.writeFileSync(path.join(base, 'b.py'), 'def f():\n    pass\n');
      fs.writeFileSync(path.join(base, 'notes.md'), '# Notes\n');
      const probe = spawnSync(process.execPath, [path.join(__dirname, 'grammarLoads.js'), base, state], { encoding: 'utf8' });
      assert.equal(probe.status, 0, probe.stderr);
      const steps = JSON.parse(probe.stdout) as { call: string; ok: boolean; reads: string[] }[];
      const RUNTIME = 'web-tree-sitter.wasm';
      const GO = 'tree-sitter-go.wasm';
      const PYTHON = 'tree-sitter-python.wasm';
      assert.deepEqual(
        steps.map((step) => [step.call.split(' ')[0], step.ok, step.reads]),
        [
          ['list_directory', true, []],
          ['read_file', true, []],
          // Markdown's outline needs no grammar.
          ['read_outline', true, []],
          ['read_outline', true, [RUNTIME, GO]],
          ['read_outline', true, [RUNTIME, GO]],
          ['read_file', true, [RUNTIME, GO]],
          ['find_references', true, [RUNTIME, GO]],
          ['edit_symbol', true, [RUNTIME, GO]],
          // The first read of Python's grammar fails: that call fails, the next loads it, the one after reads nothing.
          ['read_outline', false, [RUNTIME, GO, PYTHON]],
          ['read_outline', true, [RUNTIME, GO, PYTHON, PYTHON]],
          ['read_outline', true, [RUNTIME, GO, PYTHON, PYTHON]],
        ],
      );
      assert.equal(fs.readFileSync(path.join(base, 'a.go'), 'utf8'), 'package a\n\nfunc Load() {}\n\nfunc Save() {}\n');
    } finally {
      removeTree(base);
      removeTree(state);
    }
  });
});
