/** An MCP server as a child over stdio, driven by the MCP SDK's client: the bench's reference, and Agent FS's own. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** The official MCP filesystem server's entry. */
export const OFFICIAL_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

/** The MCP filesystem server as a child over stdio, driven by the MCP SDK: its times include the JSON-RPC trip. */
export class McpServer {
  private constructor(
    readonly client: Client,
    readonly transport: StdioClientTransport,
  ) {}

  static start(allowed: readonly string[]): Promise<McpServer> {
    return McpServer.spawn([OFFICIAL_SERVER, ...allowed]);
  }

  /** Any stdio MCP server run by Node with `args`, behind the same client and transport (bench/mcp.ts: Agent FS's). */
  static async spawn(args: readonly string[]): Promise<McpServer> {
    // The client's default 10 MiB message cap is below a directory_tree of this workspace: raised, so the server is
    // measured doing the work rather than refused by its client.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...args],
      stderr: 'ignore',
      maxBufferSize: 1024 * 1024 * 1024,
    });
    const client = new Client({ name: 'agentfs-bench', version: '1.0.0' });
    await client.connect(transport);
    return new McpServer(client, transport);
  }

  /** Whether the server still answers (a reference that crashed on one workload is restarted for the next). */
  async answers(): Promise<boolean> {
    if (this.transport.pid === null) return false;
    try {
      await this.client.listTools();
      return true;
    } catch {
      return false;
    }
  }

  async call(name: string, args: Record<string, unknown>): Promise<string> {
    const result = (await this.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as {
      content?: { type: string; text?: string }[];
      isError?: boolean;
    };
    const text = (result.content ?? []).map((part) => part.text ?? '').join('');
    if (result.isError) throw new Error(`MCP ${name} failed: ${text.slice(0, 300)}`);
    return text;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
