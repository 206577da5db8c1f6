/**
 * The headless runner: the same core over node:fs. Interface (scripts depend on it, keep it stable):
 *
 *   node dist/cli.js [--root DIR] [--read-only] [--state DIR | --no-history] <operation> ['<json input>' | -]
 *   node dist/cli.js --list
 *
 * Prints one envelope as JSON on stdout. Exit code 0 when ok is true, 1 when false, 2 for usage errors
 * (unknown operation, unparsable JSON; an envelope with INVALID_INPUT is still printed when an operation was named).
 */
import { failure, type Envelope } from '../core/envelope';
import { invokeOperation } from '../core/invoke';
import { MANIFEST_TOOLS, operationOf } from '../core/manifest';
import { findTool } from '../core/tools';
import { isWithin } from '../core/paths';
import { createNodeSession, toPosixPath } from './session';
import { defaultHistoryDirectory } from './stateDirectory';

const USAGE = `Usage: agentfs [--root DIR] [--read-only] [--state DIR | --no-history] <operation> ['<json input>' | -]
       agentfs --list
Runs one Agent FS operation over the directory DIR (default: the current directory) and prints its JSON envelope.
'-' reads the JSON input from standard input.
Changes are recorded for history_list / undo_operation in --state DIR (default: a folder per root under
$XDG_STATE_HOME/agent-fs or ~/.local/state/agent-fs); --no-history records nothing.`;

interface Arguments {
  root: string;
  readOnly: boolean;
  /** undefined: the per-user default; null: --no-history. */
  state: string | null | undefined;
  list: boolean;
  help: boolean;
  positional: string[];
}

function parseArguments(argv: readonly string[]): Arguments | string {
  const parsed: Arguments = { root: process.cwd(), readOnly: false, state: undefined, list: false, help: false, positional: [] };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    if (argument === '--root') {
      const value = argv[++index];
      if (value === undefined) return '--root needs a directory';
      parsed.root = value;
    } else if (argument.startsWith('--root=')) parsed.root = argument.slice('--root='.length);
    else if (argument === '--read-only') parsed.readOnly = true;
    else if (argument === '--state') {
      const value = argv[++index];
      if (value === undefined) return '--state needs a directory';
      parsed.state = value;
    } else if (argument.startsWith('--state=')) parsed.state = argument.slice('--state='.length);
    else if (argument === '--no-history') parsed.state = null;
    else if (argument === '--list') parsed.list = true;
    else if (argument === '--help' || argument === '-h') parsed.help = true;
    else if (argument.startsWith('--')) return `unknown option ${argument}`;
    else parsed.positional.push(argument);
  }
  return parsed;
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function print(value: unknown): void {
  // Large replies must reach a pipe whole: write once and let the process end by itself (no process.exit()).
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArguments(argv);
  if (typeof args === 'string' || args.help) {
    process.stderr.write(`${typeof args === 'string' ? `agentfs: ${args}\n` : ''}${USAGE}\n`);
    return typeof args === 'string' ? 2 : 0;
  }
  if (args.list) {
    print(MANIFEST_TOOLS.map((tool) => ({ operation: operationOf(tool.name), description: tool.userDescription, input_schema: tool.inputSchema })));
    return 0;
  }
  const [operation, rawInput = '{}', ...extra] = args.positional;
  if (operation === undefined || extra.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (!findTool(operation)) {
    print(failure(operation, 'INVALID_INPUT', `Unknown operation "${operation}". Run with --list to see the operations.`));
    return 2;
  }
  let input: unknown;
  try {
    input = JSON.parse(rawInput === '-' ? await readStandardInput() : rawInput);
  } catch (error) {
    print(failure(operation, 'INVALID_INPUT', `The input is not valid JSON: ${error instanceof Error ? error.message : String(error)}`));
    return 2;
  }
  const stateDirectory = args.state === null ? undefined : (args.state ?? defaultHistoryDirectory(args.root));
  if (stateDirectory !== undefined && isWithin(toPosixPath(args.root), toPosixPath(stateDirectory))) {
    // History inside the root would be listed, searched and changed by the very tools it records.
    process.stderr.write(`agentfs: --state ${stateDirectory} is inside the root ${args.root}; keep the history outside it.\n`);
    return 2;
  }
  const envelope: Envelope = await invokeOperation(operation, input, createNodeSession(args.root, { readOnly: args.readOnly }, { stateDirectory }));
  print(envelope);
  return envelope.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`agentfs: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
