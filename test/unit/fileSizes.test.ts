/**
 * Rooms with one job each, and steps a screen long: a source file (src/, bench/) over 300 lines says in its header
 * comment why it is one file, in a line of its own starting "Over 300 lines:"; a function in src/ over 80 lines (every
 * function, method and arrow with a body, nested ones too) says why it is one in the comment just above it, starting
 * "Over 80 lines:". So what grows past either is split or explained.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const REPO = path.join(__dirname, '..', '..', '..');
const MAX_LINES = 300;
const MAX_FUNCTION_LINES = 80;

/** Every function with a body in `file` longer than MAX_FUNCTION_LINES whose leading comment does not say why. */
function unexplainedFunctions(file: string): string[] {
  const text = fs.readFileSync(path.join(REPO, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      // The comment that goes with a function: its own, or that of the statement or property that holds it.
      const holder = ts.isVariableDeclaration(node.parent)
        ? node.parent.parent.parent
        : ts.isPropertyAssignment(node.parent)
          ? node.parent
          : node;
      const comment = (ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? [])
        .map((range) => text.slice(range.pos, range.end))
        .join('\n');
      if (lines > MAX_FUNCTION_LINES && !/Over 80 lines: \S/.test(comment)) found.push(`${file}:${first + 1} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sources(relative: string): string[] {
  return fs.readdirSync(path.join(REPO, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = `${relative}/${entry.name}`;
    if (entry.isDirectory()) return sources(child);
    return entry.name.endsWith('.ts') ? [child] : [];
  });
}

describe('source file sizes', function () {
  it(`a file over ${MAX_LINES} lines says why at its top`, function () {
    const files = [...sources('src'), ...sources('bench')];
    assert.ok(files.length > 100, `only ${files.length} source files found`);
    const unexplained: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(REPO, file), 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines <= MAX_LINES) continue;
      const header = /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
      if (!/^ \* Over 300 lines: \S/m.test(header)) unexplained.push(`${file} (${lines} lines)`);
    }
    assert.deepEqual(unexplained, [], 'split these files, or say in their header comment why each is one ("Over 300 lines: …")');
  });

  it(`a function in src/ over ${MAX_FUNCTION_LINES} lines says why just above it`, function () {
    const unexplained = sources('src').flatMap(unexplainedFunctions);
    assert.deepEqual(unexplained, [], 'split these into named steps, or say in the comment above each why it is one ("Over 80 lines: …")');
  });

  it('would find one (the measure itself works)', function () {
    const file = 'out/test/unit/long-function-probe.ts';
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_line, index) => `  total += ${index};`).join('\n');
    fs.mkdirSync(path.join(REPO, 'out', 'test', 'unit'), { recursive: true });
    fs.writeFileSync(path.join(REPO, file), `export function long(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`);
    try {
      assert.deepEqual(unexplainedFunctions(file), [`${file}:1 (${MAX_FUNCTION_LINES + 4} lines)`]);
    } finally {
      fs.rmSync(path.join(REPO, file));
    }
  });
});
