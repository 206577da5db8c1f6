/**
 * The module graph of src/ has no circle, counting type-only imports and re-exports too: each module can be read,
 * tested and loaded knowing only what it imports. The imports are read with TypeScript's own pre-processor, the way
 * the compiler finds them, and every strongly connected component of more than one module (or a module that imports
 * itself) is reported as a circle.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const SOURCE = path.join(__dirname, '..', '..', '..', 'src');

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The project's own modules a file imports (bare specifiers are packages, not part of the graph). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => {
      const target = path.resolve(path.dirname(file), fileName);
      return [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => fs.existsSync(candidate));
    })
    .filter((target): target is string => target !== undefined);
}

/** Tarjan's algorithm: the strongly connected components that are circles. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('module graph of src/', function () {
  const graph = new Map(sourceFiles(SOURCE).map((file) => [file, importsOf(file)]));

  it('reads the imports, type-only ones included', function () {
    const tool = path.join(SOURCE, 'core', 'tool.ts');
    assert.ok(
      (graph.get(tool) ?? []).includes(path.join(SOURCE, 'core', 'context.ts')),
      'tool.ts imports the type ToolContext from context.ts',
    );
    assert.ok(graph.size > 50, `only ${graph.size} modules found`);
  });

  it('has no import circle', function () {
    const found = circles(graph).map((component) => component.map((file) => path.relative(SOURCE, file)).sort());
    assert.deepEqual(found, [], `import circles: ${found.map((component) => component.join(' → ')).join('; ')}`);
  });

  it('has no circle between rooms either: the folders of src/core and src/node and the files at their tops import one another one way', function () {
    // A room is a folder of src/core or src/node, a file at the top of either, or a layer outside them (vscode, extension).
    const roomOf = (file: string): string => {
      const [layer, second] = path.relative(SOURCE, file).split(path.sep);
      return layer === 'core' || layer === 'node' ? `${layer}/${second ?? ''}` : (layer ?? '');
    };
    const rooms = new Map<string, Set<string>>();
    for (const [file, imports] of graph) {
      const from = roomOf(file);
      const edges = rooms.get(from) ?? new Set<string>();
      for (const target of imports) if (roomOf(target) !== from) edges.add(roomOf(target));
      rooms.set(from, edges);
    }
    assert.ok(rooms.size > 20, `only ${rooms.size} rooms found`);
    const found = circles(new Map([...rooms].map(([room, edges]) => [room, [...edges]]))).map((component) => component.sort());
    assert.deepEqual(found, [], `rooms that import each other: ${found.map((component) => component.join(' ↔ ')).join('; ')}`);
  });

  it('would report one (the check itself works)', function () {
    const a = path.join(SOURCE, 'a.ts');
    const b = path.join(SOURCE, 'b.ts');
    assert.deepEqual(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ).map((component) => component.sort()),
      [[a, b].sort()],
    );
  });
});
