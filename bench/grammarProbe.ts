/**
 * One grammar's first load, in a fresh process (the engine keeps what it loaded for the process's life, so only a
 * new process loads anything): `node grammarProbe.js FILE` prints the milliseconds from nothing loaded to FILE's
 * outline (the tree-sitter runtime, the grammar, one parse), then those of a second outline of the same file.
 */
import { readFileSync } from 'node:fs';
import { parserFor, withTree } from '../src/core/symbols/engine';
import { languageOf } from '../src/core/symbols/languages';
import { outlineOf } from '../src/core/symbols/outline';
import { nodeGrammarSource } from '../src/node/host/grammars';

async function main(): Promise<void> {
  const file = process.argv[2] ?? '';
  const language = languageOf(file);
  if (!language || !('grammar' in language)) throw new Error(`no grammar for ${file}`);
  const text = readFileSync(file, 'utf8');
  const outline = async (): Promise<number> => {
    const started = performance.now();
    const parser = await parserFor(nodeGrammarSource(), language);
    withTree(parser, text, (tree) => outlineOf(language, tree, text));
    return performance.now() - started;
  };
  const first = await outline();
  const second = await outline();
  process.stdout.write(`${JSON.stringify({ first, second })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
