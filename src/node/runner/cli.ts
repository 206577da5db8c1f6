/**
 * The headless runner: the same core over node:fs. Interface (scripts depend on it, keep it stable):
 *
 *   agent-fs [--root DIR]... [--read-only] [--max-read-bytes N] [--state DIR | --no-history] [--durability full|fast]
 *            <operation> ['<json input>' | -]
 *   agent-fs --list | --help | --version | <operation> --help
 *
 * (`agent-fs` is the package's bin for dist/cli.js, which src/node/bin/agent-fs.ts starts.)
 *
 * Prints one envelope as JSON on stdout (read_file of an image adds the image's bytes to its data, as `base64`).
 * Exit code 0 when ok is true, 1 when false, 2 for usage errors
 * (unknown operation, unparsable JSON; an envelope with INVALID_INPUT is still printed when an operation was named).
 */
import { failure, type ImageAttachment, type SuccessEnvelope } from '../../core/envelope';
import { invokeForReply } from '../../core/invoke';
import { EXTENSION_VERSION, type JsonSchema } from '../../core/catalog/manifest';
import { findTool, TOOL_DEFINITIONS } from '../../core/tools';
import {
  flagEncodings,
  flagHistoryLimits,
  flagPolicy,
  type HostOptions,
  parseHostOptions,
  rootsOf,
  stateDirectoryOf,
} from '../host/options';
import { createNodeSession } from '../host/session';
import { SharedPolicyFile } from '../host/sharedPolicy';
import { RUNNER_NAMING } from '../../core/naming';
import { clientText, newSessionId, type Origin, SESSION_PATTERN } from '../../core/history/origin';

const PROGRAM = 'agent-fs';

/** Tools as the runner names them, joined for a sentence ("a, b and c"). */
function names(...operations: string[]): string {
  const named = operations.map(RUNNER_NAMING.toolName);
  return named.length < 2 ? named.join('') : `${named.slice(0, -1).join(', ')} and ${named.at(-1) ?? ''}`;
}

const USAGE = `Usage: ${PROGRAM} [options] <operation> ['<json input>' | -]
       ${PROGRAM} <operation> --help     the operation's parameters
       ${PROGRAM} --list                 every operation with its JSON schema, as JSON
Runs one Agent FS operation over the directory DIR (default: the current directory) and prints its JSON envelope.
'-' reads the JSON input from standard input. Exit code 0 when ok is true, 1 when false, 2 for usage errors.

The runner asks no confirmation: a delete or an overwrite runs when called. Every change is recorded, and the
operations ${names('history_list', 'undo_last', 'undo_operation')} put it back; --read-only makes the runner change nothing.

Options:
  --root DIR             the base directory no path may leave (default: the current directory); repeat it
                         for several (a multi-root workspace: a relative path may start with a root's name)
  --read-only            refuse every operation that changes files (READ_ONLY_MODE)
  --max-read-bytes N     the most file bytes one read returns (default 262144)
  --state DIR            keep the history in DIR (default: a folder per root under
                         $XDG_STATE_HOME/agent-fs or ~/.local/state/agent-fs)
  --no-history           record nothing (and nothing can be undone)
  --session NAME         record the change in the history session NAME (shown as runner:NAME), so calls with the
                         same NAME are listed and undone together (${names('undo_last')} with session); default: its own
  --label TEXT           a label for the change, which the agent filter of ${names('history_list')} finds (never authority)
  --history-max-bytes N  the most bytes of replaced content the history keeps (default 52428800); a change that
                         replaces more is made but cannot be undone
  --history-max-age-days N  sessions whose last change is older than N days go (default 30)
  --durability MODE      full (default): the change is on the disk, synced, before the answer, in the workspace and
                         in the history; fast: nothing is synced (still atomic), for throwaway trees and tests
  --encoding NAME        files without a BOM are read in NAME unless a guess says otherwise, new files are written
                         in it (default utf-8; VS Code's names: windows1252, shiftjis, gbk, …)
  --no-guess-encoding    do not guess the encoding of files without a BOM
  --no-index, --no-content-index  accepted as the MCP server takes them; the runner, one process per call, walks
                         and reads every call
  --no-ignore-files      show what ignore files hide: read no .gitignore, .git/info/exclude or global excludes
  --no-ignore-global     read no global excludes file (core.excludesFile, ~/.config/git/ignore)
  --no-ignore-parent     read no .gitignore above a root (they count up to the repository's top)
  --version              print the version
  --help                 this text`;

interface Arguments extends HostOptions {
  list: boolean;
  positional: string[];
  /** --session: the history session this call's change joins; undefined: one of its own. */
  session: string | undefined;
  /** --label: the caller's label for its changes (a filter in history_list, never authority). */
  label: string | undefined;
}

function parseArguments(argv: readonly string[]): Arguments | string {
  let list = false;
  let session: string | undefined;
  let label: string | undefined;
  const positional: string[] = [];
  const options = parseHostOptions(argv, (argument, flag, value, inline) => {
    if (flag === '--list') {
      if (inline !== undefined) return `${flag} takes no value`;
      list = true;
    } else if (flag === '--session') {
      session = value();
      if (session === undefined || !SESSION_PATTERN.test(session))
        return '--session needs a name of letters, digits, ".", "_", ":" and "-" (at most 80)';
    } else if (flag === '--label') {
      label = clientText(value());
      if (label === undefined) return '--label needs a text';
    } else if (flag.startsWith('-') && flag !== '-') return `unknown option ${flag}`;
    else positional.push(argument);
    return undefined;
  });
  return typeof options === 'string' ? options : { ...options, list, positional, session, label };
}

/** Who the runner records a change as made by: the runner, in the --session named or one of this process's own. */
function runnerOrigin(args: Arguments): Origin {
  return {
    host: 'runner',
    agent: PROGRAM,
    agent_version: EXTENSION_VERSION,
    session: args.session === undefined ? newSessionId('runner') : `runner:${args.session}`,
    ...(args.label === undefined ? {} : { label: args.label }),
  };
}

/** First sentence of a description, so the operations list stays one line each. */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

function operationsHelp(): string {
  const width = Math.max(...TOOL_DEFINITIONS.map((tool) => tool.name.length));
  const lines = TOOL_DEFINITIONS.map((tool) => `  ${tool.name.padEnd(width)}  ${firstSentence(tool.userDescription)}`);
  return `${USAGE}\n\nOperations (${PROGRAM} <operation> --help for its parameters):\n${lines.join('\n')}`;
}

function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((each) => JSON.stringify(each)).join(' | ');
  if (schema.type === 'array' && schema.items !== undefined && typeof schema.items === 'object')
    return `array of ${typeOf(schema.items as JsonSchema)}`;
  return schema.type ?? 'any';
}

/** One operation's parameters, from the same JSON schema the editor validates against. */
function operationHelp(operation: string): string | undefined {
  const tool = findTool(operation);
  if (tool === undefined) return undefined;
  const properties = Object.entries(tool.inputSchema.properties ?? {});
  const required = new Set(tool.inputSchema.required ?? []);
  const width = Math.max(0, ...properties.map(([name]) => name.length));
  const lines = properties.map(([name, schema]) => {
    const facts = [
      typeOf(schema),
      required.has(name) ? 'required' : 'optional',
      ...(schema.default !== undefined ? [`default ${JSON.stringify(schema.default)}`] : []),
    ];
    return `  ${name.padEnd(width)}  ${facts.join(', ')}\n  ${' '.repeat(width)}  ${schema.description ?? ''}`;
  });
  const example = Object.fromEntries(
    properties
      .filter(([name]) => required.has(name))
      .map(([name, schema]) => [name, schema.type === 'string' ? '…' : schema.type === 'boolean' ? true : 1]),
  );
  return [
    `${PROGRAM} ${operation} '<json input>'`,
    tool.userDescription,
    '',
    properties.length === 0 ? 'Parameters: none; pass {} or nothing.' : `Parameters (one JSON object):\n${lines.join('\n')}`,
    '',
    `Example: ${PROGRAM} --root . ${operation} '${JSON.stringify(example)}'`,
  ].join('\n');
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A script has no other channel: the image's bytes go into the envelope's data, as `base64` beside `mime_type`. */
function withBase64(envelope: SuccessEnvelope, image: ImageAttachment): SuccessEnvelope {
  return { ...envelope, data: { ...(envelope.data as Record<string, unknown>), base64: Buffer.from(image.bytes).toString('base64') } };
}

function print(value: unknown): void {
  // Large replies must reach a pipe whole: write once and let the process end by itself (no process.exit()).
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArguments(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${PROGRAM}: ${args}\n${USAGE}\n`);
    return 2;
  }
  if (args.version) {
    process.stdout.write(`${PROGRAM} ${EXTENSION_VERSION}\n`);
    return 0;
  }
  const [operation, rawInput = '{}', ...extra] = args.positional;
  if (args.help) {
    if (operation === undefined) {
      process.stdout.write(`${operationsHelp()}\n`);
      return 0;
    }
    const help = operationHelp(operation);
    if (help === undefined) {
      process.stderr.write(`${PROGRAM}: unknown operation "${operation}". ${PROGRAM} --help lists them.\n`);
      return 2;
    }
    process.stdout.write(`${help}\n`);
    return 0;
  }
  if (args.list) {
    print(TOOL_DEFINITIONS.map((tool) => ({ operation: tool.name, description: tool.userDescription, input_schema: tool.inputSchema })));
    return 0;
  }
  if (operation === undefined || extra.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (!findTool(operation)) {
    print(failure(operation, 'INVALID_INPUT', `Unknown operation "${operation}". Run ${PROGRAM} --help to see the operations.`));
    return 2;
  }
  let input: unknown;
  try {
    input = JSON.parse(rawInput === '-' ? await readStandardInput() : rawInput);
  } catch (error) {
    print(failure(operation, 'INVALID_INPUT', `The input is not valid JSON: ${error instanceof Error ? error.message : String(error)}`));
    return 2;
  }
  const roots = rootsOf(args);
  const state = stateDirectoryOf(args, roots);
  if (typeof state === 'string') {
    process.stderr.write(`${PROGRAM}: ${state}\n`);
    return 2;
  }
  const { envelope, image } = await invokeForReply(
    operation,
    input,
    createNodeSession(roots, flagPolicy(args, 'runner'), {
      stateDirectory: state.directory,
      // What the history repaired (a torn end cut after a crash): worth a line beside the envelope.
      log: (line) => process.stderr.write(`${PROGRAM}: ${line}\n`),
      naming: RUNNER_NAMING,
      encodings: flagEncodings(args, 'runner'),
      historyLimits: flagHistoryLimits(args),
      ...(state.directory === undefined ? {} : { sharedPolicy: new SharedPolicyFile(state.directory, 'runner') }),
    }),
    undefined,
    undefined,
    runnerOrigin(args),
  );
  print(image && envelope.ok ? withBase64(envelope, image) : envelope);
  return envelope.ok ? 0 : 1;
}

/**
 * Runs one call as `agent-fs` with `argv` (the arguments after the script) and sets the exit code; an error no
 * envelope covers is printed with its stack and exits 2.
 */
export function runRunner(argv: readonly string[]): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${PROGRAM}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
