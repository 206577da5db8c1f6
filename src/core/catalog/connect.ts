/**
 * The configurations other agents need to start the Agent FS MCP server (dist/mcp.js) on the editor's base
 * directory with the editor's history store, one per client, as "Agent FS: Connect Another Agent…" offers them.
 * Every snippet starts the same command line, so a test can start the server from any of them.
 */

/** How a client starts the server: an executable and its arguments. */
export interface ServerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

export interface ConnectSnippet {
  readonly id:
    'claude-desktop' | 'lm-studio' | 'cursor' | 'vscode' | 'claude-code' | 'http-server' | 'vscode-http' | 'claude-code-http' | 'http';
  readonly label: string;
  /** Where the person puts it. */
  readonly where: string;
  readonly language: 'json' | 'shellscript';
  readonly text: string;
}

/** The name the server is registered under in every client. */
export const SERVER_NAME = 'agent-fs';

/**
 * `node <server> --root <dir>... --state <history>`. Node (20 or later) from PATH: the editor's own runtime is not
 * a `node` another program can start (in desktop VS Code it is Electron).
 */
export function serverCommand(serverScript: string, baseDirectories: readonly string[], historyDirectory: string): ServerCommand {
  return {
    command: 'node',
    args: [serverScript, ...baseDirectories.flatMap((directory) => ['--root', directory]), '--state', historyDirectory],
  };
}

/** The server over HTTP as clients reach it: its port on this machine and the state folder's token. */
export interface HttpConnect {
  readonly port: number;
  readonly token: string;
}

/**
 * The port the snippets start the HTTP server on: one of 20000-29999 chosen by the state folder, so windows on
 * different folders do not ask for the same port and one folder always gets the same URL.
 */
export function httpPort(stateDirectory: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < stateDirectory.length; index++) hash = Math.imul(hash ^ stateDirectory.charCodeAt(index), 0x01000193) >>> 0;
  return 20000 + (hash % 10000);
}

/** One word for a shell: POSIX single quotes, or cmd/PowerShell double quotes on Windows. */
export function shellWord(word: string, platform: string): string {
  if (/^[\w@%+=:,./\\-]+$/.test(word)) return word;
  return platform === 'win32' ? `"${word.replace(/"/g, '""')}"` : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function connectSnippets(server: ServerCommand, platform: string, http?: HttpConnect): readonly ConnectSnippet[] {
  const entry = { command: server.command, args: [...server.args] };
  const mcpServers = `${JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2)}\n`;
  const macOrOther = (mac: string, windows: string, linux: string): string =>
    platform === 'darwin' ? mac : platform === 'win32' ? windows : linux;
  const stdio: ConnectSnippet[] = [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      where: `claude_desktop_config.json (Settings → Developer → Edit Config; ${macOrOther('~/Library/Application Support/Claude/', '%APPDATA%\\Claude\\', '~/.config/Claude/')}): add the entry to "mcpServers", then restart Claude`,
      language: 'json',
      text: mcpServers,
    },
    {
      id: 'lm-studio',
      label: 'LM Studio',
      where: 'mcp.json (Program tab → Install → Edit mcp.json): add the entry to "mcpServers"',
      language: 'json',
      text: mcpServers,
    },
    {
      id: 'cursor',
      label: 'Cursor',
      where: '~/.cursor/mcp.json (every project) or .cursor/mcp.json in the project: add the entry to "mcpServers"',
      language: 'json',
      text: mcpServers,
    },
    {
      id: 'vscode',
      label: 'VS Code (.vscode/mcp.json)',
      where: '.vscode/mcp.json of another workspace or VS Code profile: add the entry to "servers" (this window already has the tools)',
      language: 'json',
      text: `${JSON.stringify({ servers: { [SERVER_NAME]: { type: 'stdio', ...entry } } }, null, 2)}\n`,
    },
    {
      id: 'claude-code',
      label: 'Claude Code (claude mcp add)',
      where: 'a terminal: run the line once (add --scope user to have it in every project)',
      language: 'shellscript',
      text: `claude mcp add ${SERVER_NAME} -- ${[server.command, ...server.args].map((word) => shellWord(word, platform)).join(' ')}\n`,
    },
  ];
  return http ? [...stdio, ...httpSnippets(server, platform, http)] : stdio;
}

/**
 * The same server over HTTP, for clients that take a URL (an agent in a container, or one that starts no
 * programs): the line that starts it, then each client's entry with the URL and the token's header.
 */
function httpSnippets(server: ServerCommand, platform: string, http: HttpConnect): ConnectSnippet[] {
  const url = `http://127.0.0.1:${http.port}/mcp`;
  const headers = { Authorization: `Bearer ${http.token}` };
  const entry = { type: 'http', url, headers };
  const line = [server.command, ...server.args, '--http', `127.0.0.1:${http.port}`];
  return [
    {
      id: 'http-server',
      label: 'HTTP server (start it first)',
      where: 'a terminal on this machine: keep it running while agents use it (it serves 127.0.0.1 only)',
      language: 'shellscript',
      text: `${line.map((word) => shellWord(word, platform)).join(' ')}\n`,
    },
    {
      id: 'vscode-http',
      label: 'VS Code over HTTP (.vscode/mcp.json)',
      where: '.vscode/mcp.json of another workspace or VS Code profile: add the entry to "servers"',
      language: 'json',
      text: `${JSON.stringify({ servers: { [SERVER_NAME]: entry } }, null, 2)}\n`,
    },
    {
      id: 'claude-code-http',
      label: 'Claude Code over HTTP (claude mcp add)',
      where: 'a terminal: run the line once (add --scope user to have it in every project)',
      language: 'shellscript',
      text: `claude mcp add --transport http ${SERVER_NAME} ${url} --header ${shellWord(`Authorization: Bearer ${http.token}`, platform)}\n`,
    },
    {
      id: 'http',
      label: 'Other clients over HTTP (Cursor, Gemini CLI, ...)',
      where: 'the client\'s MCP settings: add the entry to "mcpServers" (Gemini CLI names the url "httpUrl")',
      language: 'json',
      text: `${JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2)}\n`,
    },
  ];
}
