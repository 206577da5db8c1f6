/**
 * The MCP server over Streamable HTTP (`agent-fs-mcp --http [HOST:]PORT`), one endpoint at /mcp for both revisions:
 * 2026-07-28 per request, stateless, as that revision defines it; the 2025 revisions with a session per client that
 * initializes, since they ask the person their questions as requests from server to client, which need the session's
 * stream. Every server is built by the same service the stdio entry uses (mcpServer.ts).
 *
 * Who may call (checked on the headers, before a byte of the body is read or any tool runs):
 *  - `Host` must name this machine as the client reached it: a loopback name, or with --allow-remote the address it
 *    listens on or one of this machine's names. Anything else is a DNS rebinding attempt: 403.
 *  - `Origin`, when a browser sends one, must be a loopback origin (or one of those names with --allow-remote): 403.
 *  - `Authorization: Bearer <token>` with this server's token, compared in constant time: else 401.
 *  - A body above the bound is 413.
 * A refused request changes nothing and reaches no tool.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { HttpAddress } from './httpAddress';
import type { McpService } from './server';

/** The largest request body served: above any input the tools take in one call but a whole file's content. */
const HTTP_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** 2025 sessions kept at once; the one used least recently goes first (its client must initialize again). */
const MAX_SESSIONS = 64;
export interface HttpServeOptions {
  readonly address: HttpAddress;
  readonly token: string;
  /** Whether names other than loopback ones may reach the server (--allow-remote). */
  readonly allowRemote: boolean;
  readonly maxBodyBytes?: number;
  readonly log: (line: string) => void;
}

export interface HttpServing {
  readonly url: string;
  close(): Promise<void>;
}

/** The host names a request may use to reach this server. */
function allowedHostnames(options: HttpServeOptions): string[] {
  const names = new Set(localhostAllowedHostnames());
  if (!options.allowRemote) return [...names];
  const { host } = options.address;
  const wildcard = host === '0.0.0.0' || host === '::';
  if (!wildcard) names.add(host.includes(':') ? `[${host}]` : host);
  else {
    names.add(os.hostname());
    for (const addresses of Object.values(os.networkInterfaces()))
      for (const each of addresses ?? []) names.add(each.family === 'IPv6' ? `[${each.address}]` : each.address);
  }
  return [...names];
}

/** Why a request may not be served, decided on its headers alone; undefined when it may. */
interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

/** The guard every request passes before its body is read: path, Host, Origin, token, declared size. */
function refusalOf(request: IncomingMessage, hostnames: string[], token: Buffer, maxBodyBytes: number): Refusal | undefined {
  const path = (request.url ?? '').split('?')[0];
  if (path !== '/mcp') return { status: 404, message: 'Not found: the MCP endpoint is /mcp.' };
  const host = validateHostHeader(request.headers.host, hostnames);
  if (!host.ok) return { status: 403, message: `Forbidden: ${host.message}` };
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const checked = validateOriginHeader(origin, hostnames);
    if (!checked.ok) return { status: 403, message: `Forbidden: ${checked.message}` };
  }
  const authorization = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
  if (!authorization?.[1] || !timingSafeEqual(digest(authorization[1].trim()), token)) {
    return {
      status: 401,
      message: "Unauthorized: send Authorization: Bearer <token> with this server's token.",
      headers: { 'www-authenticate': 'Bearer realm="agent-fs"' },
    };
  }
  if (Number(request.headers['content-length'] ?? 0) > maxBodyBytes)
    return { status: 413, message: `Payload too large: at most ${maxBodyBytes} bytes a request.` };
  return undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The 2025 side of the endpoint: a session per client that initializes, kept until it ends or is pushed out. */
class LegacySessions {
  private readonly sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  private readonly stateless: (request: Request) => Promise<Response>;

  constructor(
    private readonly build: () => ReturnType<McpService['server']>,
    private readonly maxBodyBytes: number,
    onerror: (error: Error) => void,
  ) {
    this.stateless = legacyStatelessFallback(build, onerror, { maxRequestBodySize: maxBodyBytes });
  }

  /** A request that names a session: served by it, or 404 so the client initializes again. */
  resume(id: string, request: Request): Promise<Response> {
    const transport = this.sessions.get(id);
    if (!transport)
      return Promise.resolve(
        Response.json(
          { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found: initialize again.' } },
          { status: 404 },
        ),
      );
    // Most recently used last, so the oldest is the first key.
    this.sessions.delete(id);
    this.sessions.set(id, transport);
    return transport.handleRequest(request);
  }

  /** A 2025 POST without a session: initialize opens one; anything else is served statelessly (nobody to ask). */
  async serve(request: Request): Promise<Response> {
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => undefined);
    const opens = Array.isArray(body) ? body.some((message) => isInitializeRequest(message)) : isInitializeRequest(body);
    return opens ? this.open(request) : this.stateless(request);
  }

  async close(): Promise<void> {
    for (const transport of this.sessions.values()) await transport.close().catch(() => undefined);
    this.sessions.clear();
  }

  private async open(request: Request): Promise<Response> {
    if (this.sessions.size >= MAX_SESSIONS) {
      const [oldest] = this.sessions.keys();
      if (oldest !== undefined) {
        void this.sessions.get(oldest)?.close();
        this.sessions.delete(oldest);
      }
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: this.maxBodyBytes,
      onsessioninitialized: (id) => void this.sessions.set(id, transport),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await this.build().connect(transport);
    return transport.handleRequest(request);
  }
}

/** Starts serving; resolves once the port is bound. */
export async function serveHttp(service: McpService, options: HttpServeOptions): Promise<HttpServing> {
  const maxBodyBytes = options.maxBodyBytes ?? HTTP_MAX_BODY_BYTES;
  const token = digest(options.token);
  const hostnames = allowedHostnames(options);
  const onerror = (error: Error): void => options.log(`http: ${error.message.split('\n')[0] ?? ''}`);
  const build = (): ReturnType<McpService['server']> => service.server({ roots: false });
  const modern = createMcpHandler(build, { legacy: 'reject', maxRequestBodySize: maxBodyBytes, onerror });
  const legacy = new LegacySessions(build, maxBodyBytes, onerror);
  const route = async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) return legacy.resume(id, request);
    if (request.method === 'POST' && (await isLegacyRequest(request, undefined, { maxRequestBodySize: maxBodyBytes })))
      return legacy.serve(request);
    return modern.fetch(request);
  };
  const node = toNodeHandler({ fetch: route }, { maxRequestBodySize: maxBodyBytes, onerror });
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const refusal = refusalOf(request, hostnames, token, maxBodyBytes);
    if (!refusal) return void node(request, response);
    response.writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: refusal.message } }));
  });
  // Slow clients may not hold connections open forever before sending their headers.
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.address.port, options.address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const shown = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${shown}:${bound.port}/mcp`,
    async close() {
      await legacy.close();
      await modern.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
