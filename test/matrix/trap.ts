/**
 * The proxy every client is pointed at (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY): it refuses whatever reaches it and
 * records it, and the matrix fails on any record. Only loopback is exempt (NO_PROXY), where the scripted model is.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyTrap {
  readonly url: string;
  /** Every request that reached the trap: `CONNECT host:port` or `METHOD url`. */
  readonly seen: string[];
  /** The proxy variables for a client's environment. */
  environment(): Record<string, string>;
  close(): Promise<void>;
}

export async function startTrap(): Promise<ProxyTrap> {
  const seen: string[] = [];
  const server = http.createServer((request, response) => {
    seen.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.writeHead(403, { 'content-type': 'text/plain' });
    response.end('The client matrix allows no request outside loopback.\n');
  });
  server.on('connect', (request: http.IncomingMessage, socket: import('node:stream').Duplex) => {
    seen.push(`CONNECT ${request.url ?? ''}`);
    // A client that gives up at once resets the connection; that is recorded above and must not end the test run.
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    environment: () => {
      const env: Record<string, string> = {};
      for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY']) {
        env[name] = url;
        env[name.toLowerCase()] = url;
      }
      env.NO_PROXY = env.no_proxy = '127.0.0.1,localhost,::1';
      return env;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
