/**
 * The MCP server (dist/mcp.js, bin agent-fs-mcp; started by src/node/bin/agent-fs-mcp.ts), over stdio or Streamable
 * HTTP. Interface (client configurations depend on it):
 *
 *   node dist/mcp.js [--root DIR]... [--read-only] [--max-read-bytes N] [--state DIR | --no-history] [--no-index] [--no-content-index]
 *                    [--durability full|fast] [--confirm elicit|never|require]
 *                    [--http [HOST:]PORT [--token-file FILE] [--allow-remote]]
 *
 * Over stdio, stdout carries the protocol and nothing else; every log line goes to stderr. A line that is not JSON,
 * or not a JSON-RPC message, is answered with a JSON-RPC error (id null) and the server goes on serving.
 */
import * as nodePath from 'node:path';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { EXTENSION_VERSION } from '../../core/catalog/manifest';
import { describeError } from '../../core/errors';
import { CheckedLines } from './lines';
import { httpToken, type TokenSource } from './httpToken';
import { type HttpAddress, needsAllowRemote } from './httpAddress';
import { createMcpService, type McpService } from './server';
import { parseServerFlags, USAGE } from './flags';
import { toPosixPath } from '../fs/nativePaths';
import { NodePathIndex } from '../indexes/pathIndex';
import { NodeContentIndex } from '../indexes/contentIndex';
import { Foreground } from '../host/foreground';
import { flagEncodings, flagHistoryLimits, flagPolicy, rootsOf, stateDirectoryOf } from '../host/options';

/**
 * One line for stdin: the largest message accepted. A write_file of a large file arrives as one line; beyond this
 * the SDK's transport gives up on the stream, so it is set far above any input the tools accept.
 */
const MAX_MESSAGE_BYTES = 512 * 1024 * 1024;

function log(line: string): void {
  process.stderr.write(`agent-fs-mcp: ${line}\n`);
}

/**
 * SIGINT and SIGTERM end the server as the client closing it does: the connections close, which cancels the calls in
 * flight; each rolls back at its next step (or finishes, past the last one); then the process exits, and leaving
 * releases its locks. Without this a signal would end the process mid-call and leave its locks to go stale.
 */
function stopOnSignals(service: McpService, close: () => Promise<void>, done: () => void): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping; calls in flight are cancelled`);
    void close()
      .catch(() => undefined)
      .then(() => service.settled())
      .then(() => {
        done();
        process.exit(0);
      });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** Serves over Streamable HTTP until a signal stops it. */
function listenOnHttp(
  service: McpService,
  address: HttpAddress,
  token: TokenSource,
  allowRemote: boolean,
  serving: string,
  done: () => void,
): void {
  // Loaded here, not with the server: a stdio server never needs the HTTP stack, which takes a while to load.
  import('./http')
    .then(({ serveHttp }) => serveHttp(service, { address, token: token.token, allowRemote, log }))
    .then(
      (served) => {
        log(`${serving}; listening on ${served.url}; token in ${token.from}`);
        stopOnSignals(service, () => served.close(), done);
      },
      (error: unknown) => {
        log(`cannot listen on ${address.host}:${address.port}: ${error instanceof Error ? error.message : String(error)}`);
        done();
        process.exitCode = 1;
      },
    );
}

/** Serves over stdio until the client closes stdin. */
function serveOnStdio(service: McpService, serving: string, done: () => void): void {
  const lines = process.stdin.pipe(new CheckedLines((answer) => process.stdout.write(answer)));
  const transport = new StdioServerTransport(lines, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES });
  // The connection's first message picks its revision: 2026-07-28 for a client that discovers, the 2025 revisions
  // for one that opens with initialize. One server is built for it either way.
  const handle = serveStdio(() => service.server({ roots: true }), {
    transport,
    onerror: (error) => {
      // JSON that is not a JSON-RPC message is dropped by the transport; the protocol wants an answer, with id null
      // as the id is unknown. (A line that is not JSON at all was answered by CheckedLines.)
      if (error.name !== 'ZodError') {
        log(`protocol: ${error.message.split('\n')[0] ?? ''}`);
        return;
      }
      const invalid = {
        jsonrpc: '2.0',
        id: null,
        error: { code: ProtocolErrorCode.InvalidRequest, message: 'Invalid request: not a JSON-RPC 2.0 message' },
      };
      process.stdout.write(`${JSON.stringify(invalid)}\n`);
    },
  });
  log(serving);
  stopOnSignals(service, () => handle.close(), done);
  // The client closing stdin ends the session.
  process.stdin.on('end', () => {
    done();
    void handle.close();
  });
}

function closeIndexes(index: NodePathIndex | undefined, contentIndex: NodeContentIndex | undefined): void {
  contentIndex?.close();
  index?.close();
}

/**
 * One path index for every set of roots the client may switch between (watches die with the process), and the content
 * index over it. With a state folder the path index is saved there, and a new server starts from it at once: the
 * saved file is decoded in slices (savedIndex.ts), so the client's first requests are answered meanwhile, and a call
 * that comes before it is done waits for it. Without one, each root is indexed from its first call on.
 */
function startIndexes(
  options: { readonly index: boolean; readonly contentIndex: boolean },
  directories: readonly string[],
  stateDirectory: string | undefined,
  foreground: Foreground,
): { index: NodePathIndex | undefined; contentIndex: NodeContentIndex | undefined } {
  const index = options.index
    ? new NodePathIndex({ foreground, ...(stateDirectory === undefined ? {} : { saveTo: nodePath.join(stateDirectory, 'path-index') }) })
    : undefined;
  if (index && stateDirectory !== undefined) for (const directory of directories) index.preload(toPosixPath(directory));
  return { index, contentIndex: index && options.contentIndex ? new NodeContentIndex(index, { foreground }) : undefined };
}

/**
 * The service's warm-up (McpService.warmUp) once the index of every configured directory is quiet: loaded or built,
 * and proven. Not where the index is off for one (another platform, a network file system, too many paths): its walks
 * would read the disk and keep nothing. A warm-up that fails only leaves the first call as it was.
 */
async function warmUpWhenQuiet(
  index: NodePathIndex,
  directories: readonly string[],
  service: McpService,
  stopped: () => boolean,
): Promise<void> {
  try {
    const roots = directories.map(toPosixPath);
    await Promise.all(roots.map((root) => index.whenQuiet(root)));
    if (!stopped() && roots.every((root) => index.isReady(root))) await service.warmUp(stopped);
  } catch (error) {
    log(`warm-up: ${describeError(error)}`);
  }
}

function main(argv: readonly string[]): number | undefined {
  const parsed = parseServerFlags(argv);
  if (typeof parsed === 'string') {
    process.stderr.write(`agent-fs-mcp: ${parsed}\n${USAGE}\n`);
    return 2;
  }
  const { options, confirm, http, tokenFile, allowRemote } = parsed;
  if (options.version) {
    process.stdout.write(`agent-fs-mcp ${EXTENSION_VERSION}\n`);
    return 0;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (http === undefined && (tokenFile !== undefined || allowRemote)) {
    process.stderr.write(`agent-fs-mcp: --token-file and --allow-remote go with --http\n${USAGE}\n`);
    return 2;
  }
  if (http !== undefined && needsAllowRemote(http.host) && !allowRemote) {
    process.stderr.write(
      `agent-fs-mcp: --http ${http.host} reaches other machines; add --allow-remote if that is what you want (anyone there with the token gets every tool)\n`,
    );
    return 2;
  }
  const directories = rootsOf(options);
  const state = stateDirectoryOf(options, directories);
  if (typeof state === 'string') {
    log(state);
    return 2;
  }
  const token = http === undefined ? undefined : httpToken(tokenFile, state.directory);
  if (typeof token === 'string') {
    log(token);
    return 2;
  }

  // The service counts its calls here, and the indexes' background work waits while any runs.
  const foreground = new Foreground();
  const { index, contentIndex } = startIndexes(options, directories, state.directory, foreground);
  const service = createMcpService({
    roots: {
      directories,
      explicit: options.roots.length > 0,
      ...(state.directory === undefined ? {} : { stateDirectory: state.directory, stateChosen: options.state !== undefined }),
    },
    policy: flagPolicy(options, 'MCP server'),
    encodings: flagEncodings(options, 'MCP server'),
    historyLimits: flagHistoryLimits(options),
    confirm,
    log,
    foreground,
    ...(index ? { index } : {}),
    ...(contentIndex ? { contentIndex } : {}),
  });
  const serving = `${EXTENSION_VERSION} serving ${directories.join(', ')}${options.readOnly ? ' (read-only)' : ''}; history ${state.directory ?? 'off'}; durability ${options.durability}; confirm ${confirm}; path index ${index ? (index.report().reason ?? 'on') : 'off (--no-index)'}; content index ${contentIndex ? (contentIndex.report().reason ?? 'on') : 'off'}`;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    closeIndexes(index, contentIndex);
  };
  if (index && state.directory !== undefined) void warmUpWhenQuiet(index, directories, service, () => stopped);
  if (http !== undefined && token !== undefined) listenOnHttp(service, http, token, allowRemote, serving, stop);
  else serveOnStdio(service, serving, stop);
  return undefined;
}

/**
 * Runs the server as `agent-fs-mcp` with `argv` (the arguments after the script). A usage error sets the exit code;
 * otherwise the process lives until the client closes stdin or a signal stops it.
 */
export function runMcpServer(argv: readonly string[]): void {
  const code = main(argv);
  if (code !== undefined) process.exitCode = code;
}
