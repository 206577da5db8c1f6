/**
 * Run in a fresh process by symbols.test.ts (`node grammarLoads.js DIR STATE`), so no grammar is loaded before it starts:
 * calls tools over DIR through a session whose GrammarSource records every file it is asked for, the first read of
 * the Python grammar failing, and prints one JSON line: after each call, its outcome and the reads so far.
 */
import { invokeOperation } from '../../src/core/invoke';
import type { GrammarSource } from '../../src/core/ports/grammars';
import { nodeGrammarSource } from '../../src/node/host/grammars';
import { createNodeSession } from '../../src/node/host/session';

const [directory, state] = process.argv.slice(2);
if (directory === undefined || state === undefined) throw new Error('usage: node grammarLoads.js DIR STATE');

const reads: string[] = [];
const shipped = nodeGrammarSource();
let pythonFailed = false;
const counting: GrammarSource = {
  read: async (file) => {
    reads.push(file);
    if (file === 'tree-sitter-python.wasm' && !pythonFailed) {
      pythonFailed = true;
      throw new Error('the first read of the Python grammar fails');
    }
    return shipped.read(file);
  },
};

const CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['list_directory', { path: '.' }],
  ['read_file', { file_name: 'a.go' }],
  ['read_outline', { path: 'notes.md' }],
  ['read_outline', { path: 'a.go' }],
  ['read_outline', { path: 'a.go' }],
  ['read_file', { file_name: 'a.go', symbol: 'Load' }],
  ['find_references', { path: 'a.go', symbol: 'Load' }],
  ['edit_symbol', { path: 'a.go', symbol: 'Load', action: 'insert_after', text: '\nfunc Save() {}' }],
  ['read_outline', { path: 'b.py' }],
  ['read_outline', { path: 'b.py' }],
  ['read_outline', { path: 'b.py' }],
];

async function main(): Promise<void> {
  const session = createNodeSession(directory ?? '', {}, { locks: false, ripgrep: false, grammars: counting, stateDirectory: state ?? '' });
  const steps: { call: string; ok: boolean; reads: string[] }[] = [];
  for (const [operation, input] of CALLS) {
    const envelope = await invokeOperation(operation, input, session);
    steps.push({ call: `${operation} ${JSON.stringify(input)}`, ok: envelope.ok, reads: [...reads] });
  }
  process.stdout.write(`${JSON.stringify(steps)}\n`);
}

void main();
