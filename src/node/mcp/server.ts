/**
 * The Agent FS tools as a Model Context Protocol server, over the same core and call pipeline as the editor and the
 * runner. This file only translates: MCP requests in, envelopes out; roots into a session, confirmations into
 * questions to the person, `notifications/cancelled` into the core's cancellation, the core's progress into
 * `notifications/progress`.
 *
 * Two protocol revisions, one set of handlers: a connection that opens with `server/discover` speaks 2026-07-28 (who
 * calls is said by each request; questions and roots go back as the call's `input_required` result, and the client
 * calls again with the answers), one that opens with `initialize` speaks the 2025 revisions (who calls is said once;
 * questions and roots are requests from server to client while the call waits). The serving entry (mcp.ts, mcpHttp.ts)
 * picks the revision; each handler asks the request which one it is in.
 *
 * Invariants:
 *  - Every tools/call result carries the envelope twice, as structuredContent and as the JSON text of its first
 *    content item, and isError is true exactly when the envelope's ok is false. Each tool's outputSchema is the
 *    envelope's schema, so structuredContent (a refusal's too) always validates against it. read_file of an image adds one
 *    image item after it, the file's bytes as they are. Input the tool's schema refuses is an
 *    INVALID_INPUT envelope (the same the runner prints); only an unknown tool name is a JSON-RPC error.
 *  - A call that needs the person's confirmation (the same rule and text as the editor's) runs only after they
 *    accept it, or, with --confirm elicit, when the client cannot ask and its own approval stands in. On 2026-07-28 an
 *    answer counts only with the sealed state this process minted for that very call (tool and arguments). How
 *    the question is asked, in either revision, is mcpConfirm.ts.
 *  - With --state, one history store is shared by every call, whatever roots the client gives; without it, each set
 *    of roots keeps its history in its own default folder outside them, the one the runner on those folders uses.
 *
 * Over 300 lines: the one translation between MCP and the pipeline, in two revisions; roots, the caller and progress
 * each need the request.
 */
import { randomBytes } from 'node:crypto';
import {
  type CallToolRequest,
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  createRequestStateCodec,
  type Implementation,
  type RequestStateCodec,
  inputRequired,
  type InputRequiredResult,
  inputResponse,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  type StandardSchemaV1,
  type Tool as McpTool,
} from '@modelcontextprotocol/server';
import type { EncodingHost } from '../../core/encoding/host';
import type { Envelope, ImageAttachment } from '../../core/envelope';
import { CancelledError } from '../../core/errors';
import { invokeForReply, invokeOperation, prepareOperation, type Session } from '../../core/invoke';
import { EXTENSION_VERSION } from '../../core/catalog/manifest';
import { clientText, newSessionId, type Origin } from '../../core/history/origin';
import { type HostNaming, mcpNaming, renderText } from '../../core/naming';
import { envelopeSchema } from '../../core/contract/results';
import type { Policy } from '../../core/settings';
import type { PathIndex } from '../../core/ports/pathIndex';
import type { ContentIndex } from '../../core/ports/contentIndex';
import { Foreground } from '../host/foreground';
import type { Progress } from '../../core/signals';
import type { Tool } from '../../core/tool';
import { TOOL_DEFINITIONS } from '../../core/tools';
import { type ClientRoot, type ConfiguredRoots, RootsState, SessionPool, type SessionStore } from './roots';
import { createNodeSession } from '../host/session';
import { SharedPolicyFile } from '../host/sharedPolicy';
import { askInBand, askWhileWaiting, callKey, CONFIRMATION_TIMEOUT_MS, type ConfirmState } from './confirm';

/** How destructive calls are confirmed: ask where the client can (default), never ask, or refuse where it cannot. */
export type ConfirmMode = 'elicit' | 'never' | 'require';
export const CONFIRM_MODES: readonly ConfirmMode[] = ['elicit', 'never', 'require'];

export interface McpServerOptions {
  readonly roots: ConfiguredRoots;
  /** The flags' policy (read-only, read cap, the wording refusals name); confirmation follows `confirm`. */
  readonly policy: Partial<Policy>;
  readonly confirm: ConfirmMode;
  /** Writes one line to the log (stderr); never to stdout, which carries the protocol. */
  readonly log: (line: string) => void;
  /** The ripgrep executable, or false for the pure scan; default: `rg` on PATH. */
  readonly ripgrep?: string | false;
  /** How text is decoded and encoded (the --encoding flags); default: the runner's. */
  readonly encodings?: EncodingHost;
  /** The history's limits (--history-max-bytes); default: the store's. */
  readonly historyLimits?: { readonly maxBytes?: number };
  /** The path index every session of this server shares (pathIndex.ts); absent (--no-index): every listing walks. */
  readonly index?: PathIndex;
  /** The content index every session shares (contentIndex.ts); absent: search_content reads every file. */
  readonly contentIndex?: ContentIndex;
  /** The calls in flight, shared with the indexes' background work (foreground.ts); default: the service's own. */
  readonly foreground?: Foreground;
}

/** How this server names tools and what it promises: it asks the person unless started with --confirm never. */
export function serverNaming(confirm: ConfirmMode): HostNaming {
  return mcpNaming(confirm !== 'never');
}

/**
 * A tool as MCP lists it, from its one definition: annotations true to its effect, text as this server says it, and
 * as `outputSchema` the schema of what its results carry as structuredContent: the whole envelope, success or
 * refusal (an isError result's structuredContent validates against it too).
 */
export function mcpTool(tool: Tool, naming: HostNaming): McpTool {
  return {
    name: naming.toolName(tool.name),
    title: tool.title,
    description: renderText(tool.modelDescription, naming),
    inputSchema: tool.inputSchema as McpTool['inputSchema'],
    outputSchema: envelopeSchema(tool, 'mcp'),
    annotations: {
      title: tool.title,
      readOnlyHint: tool.effect === 'read',
      destructiveHint: tool.effect !== 'read' && tool.additive !== true,
      idempotentHint: tool.idempotent,
      openWorldHint: false,
    },
  };
}

/** The result of one tools/call: the envelope as structured content and as the JSON text of its first item. */
function toolResult(envelope: Envelope, image?: ImageAttachment): CallToolResult {
  return {
    content: [
      { type: 'text', text: JSON.stringify(envelope) },
      ...(image ? [{ type: 'image' as const, data: Buffer.from(image.bytes).toString('base64'), mimeType: image.mimeType }] : []),
    ],
    structuredContent: envelope,
    isError: !envelope.ok,
  };
}

/**
 * Parameters an MCP client adds to every tool's schema on its own and tells the model to set, with the client that
 * does. They carry nothing for the tool, so they are dropped (by name, and only with the type the client gives them)
 * before the input is validated; any other parameter a schema lacks is still INVALID_INPUT.
 */
export const CLIENT_ADDED_PARAMETERS: Readonly<Record<string, { readonly client: string; readonly type: 'boolean' }>> = {
  // Gemini CLI: "set wait_for_previous to true on a call that depends on the one before".
  wait_for_previous: { client: 'Gemini CLI', type: 'boolean' },
};

/** The input without the parameters a client added (unless the tool itself has a parameter of that name). */
function withoutClientParameters(tool: Tool, input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const own = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
  let kept: Record<string, unknown> | undefined;
  for (const [name, rule] of Object.entries(CLIENT_ADDED_PARAMETERS)) {
    const value = (input as Record<string, unknown>)[name];
    if (name in own || !(name in input) || typeof value !== rule.type) continue;
    kept ??= { ...(input as Record<string, unknown>) };
    delete kept[name];
  }
  return kept ?? input;
}

/** How long a client has to answer roots/list; after that its roots count as not offered. */
const ROOTS_TIMEOUT_MS = 10 * 1000;
/** Progress notifications of one phase are sent at most this often; a phase's first is sent at once. */
const PROGRESS_INTERVAL_MS = 100;
/**
 * A call sends no progress before it has run this long: most calls end in milliseconds, and progress for a call that
 * is already ending arrives after its result at some clients (Claude Code then logs an unknown progress token).
 */
const PROGRESS_QUIET_MS = 1000;

/**
 * A result schema that takes whatever the client answers: roots/list is read leniently (rootsIn), as the SDK's own
 * schema rejects the whole list for one root that is not a file: URI, and that root is to be ignored, not the list.
 */
const ANY_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'agent-fs',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'the result is not an object' }] },
  },
};

/** The entries of a roots/list result that name a URI; anything else there is not a root. */
function rootsIn(result: Record<string, unknown>): ClientRoot[] {
  const { roots } = result;
  if (!Array.isArray(roots)) throw new Error('the result has no roots list');
  return roots.flatMap((root: unknown) => {
    if (typeof root !== 'object' || root === null || typeof (root as { uri?: unknown }).uri !== 'string') return [];
    const { uri, name } = root as { uri: string; name?: unknown };
    return [typeof name === 'string' ? { uri, name } : { uri }];
  });
}

/** Turns the core's per-phase progress into MCP's one rising number, throttled, with the phase in the message. */
function progressReporter(ctx: ServerContext, operation: string): ((progress: Progress) => void) | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  const startedAt = Date.now();
  const doneByUnit = new Map<string, number>();
  let total = 0;
  let sentTotal = 0;
  let lastUnit = '';
  let lastSent = 0;
  return (progress) => {
    // Steps add up across phases (a walk's directories, then the files it copies) and across passes (a second walk
    // starts again from 1), so the sum only grows; a notification goes out only when it has, as the protocol wants
    // each one higher than the last.
    const last = doneByUnit.get(progress.unit) ?? 0;
    total += progress.done >= last ? progress.done - last : progress.done;
    doneByUnit.set(progress.unit, progress.done);
    const now = Date.now();
    if (now - startedAt < PROGRESS_QUIET_MS) return;
    if (total <= sentTotal || (progress.unit === lastUnit && now - lastSent < PROGRESS_INTERVAL_MS)) return;
    sentTotal = total;
    lastUnit = progress.unit;
    lastSent = now;
    const message = `${operation}: ${progress.done}${progress.total === undefined ? '' : ` of ${progress.total}`} ${progress.unit}`;
    ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken: token, progress: total, message } })
      .catch(() => undefined);
  };
}

/**
 * Who is calling, as this request tells it. The 2025 revisions say it once, at initialize; 2026-07-28 says it with
 * every request, in the request's envelope, and has no initialize.
 */
interface Caller {
  readonly revision: string;
  readonly modern: boolean;
  readonly client: Implementation | undefined;
  readonly capabilities: ClientCapabilities | undefined;
}

function callerOf(server: Server, ctx: ServerContext): Caller {
  // The envelope's keys are the protocol's reserved _meta names; its values come from the client unchecked.
  const envelope: Readonly<Record<string, unknown>> = ctx.mcpReq.envelope ?? {};
  const revision = envelope[PROTOCOL_VERSION_META_KEY];
  if (typeof revision === 'string') {
    const client = envelope[CLIENT_INFO_META_KEY];
    const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY];
    return {
      revision,
      modern: true,
      client: typeof client === 'object' && client !== null ? (client as Implementation) : undefined,
      capabilities: typeof capabilities === 'object' && capabilities !== null ? capabilities : undefined,
    };
  }
  return {
    revision: server.getNegotiatedProtocolVersion() ?? 'unknown',
    modern: false,
    client: server.getClientVersion(),
    capabilities: server.getClientCapabilities(),
  };
}

function describeCaller(caller: Caller): string {
  const { client, capabilities } = caller;
  return `client ${client?.name ?? 'unnamed'} ${client?.version ?? ''} (${caller.revision}): ${capabilities?.elicitation?.form !== undefined ? 'can ask (elicitation)' : 'cannot ask'}, ${capabilities?.roots ? 'offers roots' : 'offers no roots'}`;
}

/** The `_meta` key of a tools/call under which a caller may label its changes (a filter, never authority). */
const LABEL_META_KEY = 'agent-fs/label';

/** Who a call's changes are recorded as made by (history/origin.ts): the client as it names itself. */
function originOf(caller: Caller, session: string, meta: Readonly<Record<string, unknown>> | undefined): Origin {
  const version = clientText(caller.client?.version);
  const label = clientText(meta?.[LABEL_META_KEY]);
  return {
    host: 'mcp',
    agent: clientText(caller.client?.name) ?? 'unnamed client',
    ...(version === undefined ? {} : { agent_version: version }),
    session,
    ...(label === undefined ? {} : { label }),
  };
}

/** The key of the client's roots among a call's input requests. */
const ROOTS_INPUT = 'roots';

/** The tools for every connection of one server process. */
export interface McpService {
  /**
   * A server for one connection or request. With `roots`, it asks that client for its roots (a local client over
   * stdio); without, it serves the configured directories (over HTTP, where a client's roots name its own disk).
   */
  server(options: { readonly roots: boolean }): Server;
  /** Resolves once no tools/call is running: what a stop waits for after the connections are closed. */
  settled(): Promise<void>;
  /**
   * Runs on the configured directories what a client's first calls run (WARM_UP_CALLS), so that what the walks derive
   * from each listing, and the code they run, are ready when the first call comes: a server is started per agent
   * session, and its client's model thinks for a while before calling. Background work (foreground.ts), and only in a
   * pause (WARM_UP_QUIET_MS without a call): a call that begins cancels it, and it runs again in the next pause; it
   * ends once `stopped` says so. Reads only: nothing is changed or recorded.
   */
  warmUp(stopped: () => boolean): Promise<void>;
}

/** How long no call must have run before the warm-up starts, or starts again: a pause, not a gap in a burst. */
const WARM_UP_QUIET_MS = 250;

/** What warmUp runs: a glob and a fuzzy name search over the whole tree, that find nothing. */
const WARM_UP_CALLS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['search_files', { pattern: '**/*.agent-fs-warm-up' }],
  ['find_file', { file_name: 'agent fs warm up' }],
];

/**
 * The sessions every connection shares, each built as the runner builds its session: the first on the configured
 * directories, whose history store every later session with --state shares, and whose shared policy file (the
 * editor's, when it shares that state folder) every session on that folder follows.
 */
function sessionPool(options: McpServerOptions): SessionPool {
  const policy: Partial<Policy> = { ...options.policy, confirmDestructive: options.confirm !== 'never' };
  const { stateDirectory } = options.roots;
  const configuredPolicy = stateDirectory === undefined ? undefined : new SharedPolicyFile(stateDirectory, 'MCP server');
  const sessionFor = (directories: readonly string[], store: SessionStore): Session => {
    const shared =
      store.stateDirectory === undefined
        ? undefined
        : store.stateDirectory === stateDirectory
          ? configuredPolicy
          : new SharedPolicyFile(store.stateDirectory, 'MCP server');
    return createNodeSession(directories, policy, {
      ...store,
      ...(shared ? { sharedPolicy: shared } : {}),
      ripgrep: options.ripgrep,
      hostKind: 'mcp',
      naming: serverNaming(options.confirm),
      ...(options.encodings ? { encodings: options.encodings } : {}),
      ...(options.historyLimits ? { historyLimits: options.historyLimits } : {}),
      ...(options.index ? { index: options.index } : {}),
      ...(options.contentIndex ? { contentIndex: options.contentIndex } : {}),
      log: options.log,
    });
  };
  return new SessionPool({ sessionFor, log: options.log }, options.roots);
}

/** What every server of one service shares: the tools, the sessions, the key that seals confirmations, the log. */
interface Shared {
  readonly options: McpServerOptions;
  /** Looked up by the name a client sends, which may be any string. */
  readonly tools: ReadonlyMap<string, Tool>;
  readonly listed: readonly McpTool[];
  readonly pool: SessionPool;
  readonly states: RequestStateCodec<ConfirmState>;
  /** Logs who calls, once per client, revision and capabilities. */
  readonly logCaller: (caller: Caller) => void;
  /** Runs one call, counted among those in flight. */
  readonly track: <T>(work: () => Promise<T>) => Promise<T>;
  /** The session of a client calling without a connection (stateless HTTP): one per client name and version. */
  readonly clientSession: (client: Implementation | undefined) => string;
}

export function createMcpService(options: McpServerOptions): McpService {
  const seen = new Set<string>();
  const clientSessions = new Map<string, string>();
  // Calls in flight, so a stop can wait for a cancelled call to roll back before the process exits, and the indexes'
  // background work waits for them.
  const foreground = options.foreground ?? new Foreground();
  const shared: Shared = {
    options,
    tools: new Map<string, Tool>(TOOL_DEFINITIONS.map((tool) => [tool.name, tool])),
    // Read-only hides what it refuses, as the editor's when clauses do; a hidden tool called anyway is still refused.
    listed: TOOL_DEFINITIONS.filter((tool) => options.policy.readOnly !== true || tool.effect === 'read').map((tool) =>
      mcpTool(tool, serverNaming(options.confirm)),
    ),
    pool: sessionPool(options),
    // One process answers every round of a confirmation, so a key of its own seals the state it hands out.
    states: createRequestStateCodec<ConfirmState>({ key: randomBytes(32), ttlSeconds: CONFIRMATION_TIMEOUT_MS / 1000 }),
    logCaller: (caller) => {
      const line = describeCaller(caller);
      if (seen.has(line)) return;
      seen.add(line);
      options.log(line);
    },
    clientSession: (client) => {
      const key = `${client?.name ?? ''}\n${client?.version ?? ''}`;
      let session = clientSessions.get(key);
      if (session === undefined) clientSessions.set(key, (session = newSessionId('mcp')));
      return session;
    },
    track: (work) => foreground.run(work),
  };
  return {
    server: ({ roots }) => buildServer(shared, roots),
    settled: () => foreground.settled(),
    warmUp: async (stopped) => {
      for (const [operation, input] of WARM_UP_CALLS) {
        // Cancelled by a call that begins, and run again in the next pause: a first read_file leaves the walks cold.
        for (let done = false; !done;) {
          await foreground.quietFor(WARM_UP_QUIET_MS);
          if (stopped()) return;
          try {
            await invokeOperation(operation, input, shared.pool.base, () => foreground.busy || stopped());
            done = true;
          } catch (error) {
            if (!(error instanceof CancelledError)) throw error;
          }
        }
      }
    },
  };
}

/** One server: for a stdio connection or a 2025 HTTP session (asking for the client's roots), or one HTTP request. */
function buildServer(shared: Shared, withRoots: boolean): Server {
  const { options, pool, states } = shared;
  const server = new Server(
    { name: 'agent-fs', title: 'Agent FS', version: EXTENSION_VERSION },
    { capabilities: { tools: { listChanged: false } }, requestState: { verify: (state, ctx) => states.verify(state, ctx) } },
  );
  const roots = withRoots
    ? new RootsState(
        pool,
        async () =>
          server.getClientCapabilities()?.roots
            ? rootsIn(await server.request({ method: 'roots/list' }, ANY_RESULT, { timeout: ROOTS_TIMEOUT_MS }))
            : undefined,
        options.log,
      )
    : undefined;
  server.oninitialized = () => {
    shared.logCaller({
      revision: server.getNegotiatedProtocolVersion() ?? 'unknown',
      modern: false,
      client: server.getClientVersion(),
      capabilities: server.getClientCapabilities(),
    });
    // Ask for the client's roots at once, so the first call need not wait for them.
    if (roots && server.getClientCapabilities()?.roots) void roots.session();
  };
  if (roots) {
    server.setNotificationHandler('notifications/roots/list_changed', () => {
      roots.invalidate();
    });
  }
  server.setRequestHandler('tools/list', () => {
    return { tools: [...shared.listed] };
  });
  // One session per connection (stdio) or 2025 HTTP session, which is what this server serves.
  const connection = newSessionId('mcp');
  const sessionOf = (ctx: ServerContext, caller: Caller): string =>
    withRoots || ctx.sessionId !== undefined ? connection : shared.clientSession(caller.client);
  server.setRequestHandler('tools/call', (request, ctx) => shared.track(() => callTool(shared, server, roots, request, ctx, sessionOf)));
  return server;
}

/**
 * 2026-07-28 has no requests from server to client: a connection's roots come back inside its first call, asked for
 * once. Returns the question while they are not known yet, undefined once they are (or the client has none).
 */
function rootsInBand(roots: RootsState | undefined, caller: Caller, ctx: ServerContext): InputRequiredResult | undefined {
  if (!roots || !caller.modern || roots.known || !caller.capabilities?.roots) return undefined;
  const answer = inputResponse(ctx.mcpReq.inputResponses, ROOTS_INPUT);
  if (answer.kind === 'roots') roots.offer(rootsIn({ roots: answer.roots }));
  else if (ctx.mcpReq.inputResponses === undefined) return inputRequired({ inputRequests: { [ROOTS_INPUT]: inputRequired.listRoots() } });
  else roots.offer(undefined);
  return undefined;
}

/** One tools/call: roots and the person's confirmation where needed, then the call through the core's pipeline. */
async function callTool(
  shared: Shared,
  server: Server,
  roots: RootsState | undefined,
  request: CallToolRequest,
  ctx: ServerContext,
  sessionOf: (ctx: ServerContext, caller: Caller) => string,
): Promise<CallToolResult | InputRequiredResult> {
  const { options } = shared;
  const { name } = request.params;
  const tool = shared.tools.get(name);
  if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}. tools/list names the tools this server has.`);
  const caller = callerOf(server, ctx);
  // Once per client (logCaller keeps the lines it wrote): a 2025 client is named when it says it is initialized, and
  // here too, for one that never says so.
  shared.logCaller(caller);
  const input = withoutClientParameters(tool, request.params.arguments ?? {});
  const startedAt = performance.now();
  const elapsed = (): string => `${Math.round(performance.now() - startedAt)} ms`;
  // Said when the cancellation is read, apart from when the call stops (its next step): a call that is slow to stop
  // shows as the gap between the two lines.
  ctx.mcpReq.signal.addEventListener('abort', () => options.log(`${name}: the client cancelled it after ${elapsed()}`), { once: true });
  try {
    const askForRoots = rootsInBand(roots, caller, ctx);
    if (askForRoots) return askForRoots;
    const session = roots ? await roots.session() : shared.pool.base;
    // The confirmation is worked out (a stat, maybe a diff) only where it can change what happens: with elicit
    // and a client that cannot ask, the call runs either way.
    const canAsk = caller.capabilities?.elicitation?.form !== undefined;
    if (tool.effect !== 'read' && (options.confirm === 'require' || (options.confirm === 'elicit' && canAsk))) {
      const preparation = await prepareOperation(name, input, session);
      const asked = caller.modern
        ? await askInBand(name, callKey(name, input), preparation, canAsk, caller.client?.name, ctx, (state) => shared.states.mint(state))
        : await askWhileWaiting(canAsk, name, preparation, caller.client?.name, ctx);
      if (asked !== undefined && 'resultType' in asked) return asked;
      if (asked) {
        options.log(`${name} ${asked.error.code} in ${elapsed()}`);
        return toolResult(asked);
      }
    }
    const origin = originOf(caller, sessionOf(ctx, caller), request.params._meta);
    const reply = await invokeForReply(name, input, session, () => ctx.mcpReq.signal.aborted, progressReporter(ctx, name), origin);
    const { envelope, image } = reply;
    options.log(`${name} ${envelope.ok ? 'ok' : envelope.error.code} in ${elapsed()}`);
    return toolResult(envelope, image);
  } catch (error) {
    if (error instanceof CancelledError || ctx.mcpReq.signal.aborted) {
      // The SDK sends nothing for a cancelled request, as the protocol asks; the log says how far it got.
      options.log(`${name} cancelled after ${elapsed()}`);
      throw error instanceof Error ? error : new Error(String(error));
    }
    options.log(
      `${name} failed unexpectedly after ${elapsed()}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    throw error;
  }
}
