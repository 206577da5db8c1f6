/**
 * The address `agent-fs-mcp --http` serves on, read from its flag. Apart from mcpHttp.ts, which loads the HTTP stack
 * (and, through it, Node's fetch classes) only when the server serves HTTP: a stdio server starts without it.
 */
export interface HttpAddress {
  readonly host: string;
  readonly port: number;
}

/** `[HOST:]PORT` (an IPv6 host in brackets), or a message saying what is wrong with it. */
export function parseHttpAddress(value: string): HttpAddress | string {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || !Number.isInteger(port) || port > 65535) return `--http needs [HOST:]PORT (a port from 0 to 65535), not ${value}`;
  const host = (match[1] ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether serving this host needs --allow-remote: anything but a loopback address reaches other machines. */
export function needsAllowRemote(host: string): boolean {
  return !isLoopback(host);
}
