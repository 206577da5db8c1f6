/**
 * read_outline against oracles nobody here wrote: Python's own `ast` for Python and the TypeScript compiler for
 * TypeScript, TSX and JavaScript (test/shared/symbolOracle.ts), over generated files shaped like real code
 * (test/shared/symbolCorpus.ts: decorators, overloads, nested classes, async, exports, comments above declarations,
 * CRLF, a BOM, no final newline, non-ASCII names). Every class, function and method the oracle sees must be in the
 * outline with the same name path and both lines, and the outline must have no other: 0 differences. read_file with
 * each symbol must then give exactly those lines of the file.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createNodeSession } from '../../src/node/host/session';
import type { Session } from '../../src/core/invoke';
import { pythonFile, scriptFile } from '../shared/symbolCorpus';
import {
  compareOutline,
  flattenOutline,
  type OracleSymbol,
  outlineOfFile,
  type OutlineEntry,
  pythonOracle,
  typescriptOracle,
} from '../shared/symbolOracle';
import { call, expectOk, makeTempDir, removeTree } from './helpers';

const FILES = 60;

interface Outlined {
  readonly symbols: readonly OutlineEntry[];
  readonly has_errors: boolean;
  readonly truncated: boolean;
}

async function outlineOf(session: Session, file: string): Promise<OracleSymbol[]> {
  const data = expectOk(await call(session, 'read_outline', { path: file, depth: 100 })) as unknown as Outlined;
  assert.equal(data.has_errors, false, `${file} parsed with errors`);
  assert.equal(data.truncated, false, `${file}'s outline was cut`);
  return flattenOutline(data.symbols);
}

/** The lines `start`..`end` of a decoded text as read_file hands them out (with their endings). */
function linesOf(text: string, start: number, end: number): string {
  const lines = text.replace(/^\uFEFF/, '').split(/(?<=\n)/);
  return lines.slice(start - 1, end).join('');
}

describe('read_outline against the languages’ own parsers', function () {
  this.timeout(300_000);
  let base: string;
  let session: Session;

  beforeEach(function () {
    base = makeTempDir('outline-oracle-');
    session = createNodeSession(base, {}, { locks: false });
  });

  afterEach(function () {
    removeTree(base);
  });

  it(`Python: ${FILES} generated modules agree with ast`, async function () {
    const texts = new Map<string, string>();
    for (let seed = 1; seed <= FILES; seed++) {
      const file = `module_${seed}.py`;
      texts.set(file, pythonFile(seed).text);
      writeFileSync(path.join(base, file), texts.get(file) ?? '');
    }
    const oracle = pythonOracle([...texts.keys()].map((file) => path.join(base, file)));
    const differences: string[] = [];
    let total = 0;
    for (const [file, text] of texts) {
      const expected = oracle.get(path.join(base, file));
      assert.ok(expected, `python3 could not parse ${file}:\n${text}`);
      const comparison = compareOutline(expected, await outlineOf(session, file));
      total += comparison.total;
      differences.push(...comparison.differences.map((difference) => `${file}: ${difference}`));
      await checkSymbolReads(session, file, text, expected);
    }
    assert.ok(total > FILES * 5, `only ${total} symbols were compared`);
    assert.deepEqual(differences, [], `${differences.length} differences from ast over ${total} symbols`);
  });

  for (const kind of ['ts', 'tsx', 'js'] as const) {
    it(`${kind}: ${FILES} generated files agree with the TypeScript compiler`, async function () {
      const differences: string[] = [];
      let total = 0;
      for (let seed = 1; seed <= FILES; seed++) {
        const file = `source_${seed}.${kind}`;
        const { text } = scriptFile(seed * 7 + kind.length, kind);
        writeFileSync(path.join(base, file), text);
        const expected = typescriptOracle(file, text.replace(/^\uFEFF/, ''));
        const comparison = compareOutline(expected, await outlineOf(session, file));
        total += comparison.total;
        differences.push(...comparison.differences.map((difference) => `${file}: ${difference}`));
        if (seed % 6 === 0) await checkSymbolReads(session, file, text, expected);
      }
      assert.ok(total > FILES * 5, `only ${total} symbols were compared`);
      assert.deepEqual(differences, [], `${differences.length} differences from the compiler over ${total} symbols`);
    });
  }
});

/** read_file with each symbol gives exactly its lines, as the text holds them. */
async function checkSymbolReads(session: Session, file: string, text: string, symbols: readonly OracleSymbol[]): Promise<void> {
  for (const symbol of symbols.slice(0, 12)) {
    const data = expectOk(await call(session, 'read_file', { file_name: file, symbol: symbol.namePath, max_bytes: 200_000 }));
    assert.equal(data.start_line, symbol.start, `${file} ${symbol.namePath}`);
    assert.equal(data.end_line, symbol.end, `${file} ${symbol.namePath}`);
    assert.equal(data.content, linesOf(text, symbol.start, symbol.end), `${file} ${symbol.namePath}`);
  }
}

/** Every `step`-th file below `directory` whose name `wanted` accepts, in path order, skipping `skip`. */
function filesBelow(directory: string, wanted: (name: string) => boolean, skip: RegExp): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(folder, entry.name);
      if (skip.test(full)) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && wanted(entry.name)) found.push(full);
    }
  };
  walk(directory);
  return found;
}

const every = <T>(items: readonly T[], step: number): T[] => items.filter((_item, index) => index % step === 0);

/**
 * Files of real projects, not generated here: Python's standard library on this machine, and the TypeScript and
 * JavaScript sources in node_modules (the typescript package's own lib, and other libraries' sources). The whole
 * corpus is measured by `npm run bench` (bench/symbols.ts, docs/benchmarks.md); here every tenth file, for time.
 */
describe('read_outline on real projects’ files', function () {
  this.timeout(300_000);

  it('agrees with Python’s ast on at least 99% of the standard library’s classes, functions and methods', async function () {
    const stdlib = execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8' }).trim();
    const files = every(
      filesBelow(stdlib, (name) => name.endsWith('.py'), /site-packages|__pycache__/),
      10,
    );
    const oracle = pythonOracle(files);
    let agreed = 0;
    let total = 0;
    for (const file of files) {
      const expected = oracle.get(file);
      if (!expected) continue;
      const comparison = compareOutline(expected, (await outlineOfFile(file)).symbols);
      agreed += comparison.agreed;
      total += comparison.total;
    }
    assert.ok(total > 5_000, `only ${total} symbols in ${files.length} files`);
    assert.ok(agreed / total >= 0.99, `${agreed} of ${total} agree`);
  });

  it('agrees with the TypeScript compiler on at least 99% of node_modules’ TypeScript and JavaScript', async function () {
    const root = path.join(__dirname, '..', '..', '..', 'node_modules');
    const scripts = filesBelow(
      root,
      (name) => /\.(?:ts|js|mjs|cjs)$/.test(name) && !name.endsWith('.min.js'),
      /[\\/](?:test|tests|\.bin|dist)[\\/]/,
    );
    const files = every(scripts, Math.max(1, Math.floor(scripts.length / 400)));
    let agreed = 0;
    let total = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
      if (text.length > 2_000_000) continue;
      const comparison = compareOutline(typescriptOracle(file, text), (await outlineOfFile(file)).symbols);
      agreed += comparison.agreed;
      total += comparison.total;
    }
    assert.ok(total > 5_000, `only ${total} symbols in ${files.length} files`);
    assert.ok(agreed / total >= 0.99, `${agreed} of ${total} agree`);
  });
});
