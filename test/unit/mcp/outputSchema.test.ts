/**
 * Each tool's outputSchema over MCP: tools/list publishes the envelope's schema as this server answers it (its
 * structuredContent is the envelope), the SDK's client validates every result against it (serve() lists the tools
 * first, so every call of the MCP suites is checked by the client too), and a result that drifts from it is refused.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { envelopeSchema } from '../../../src/core/contract/results';
import { findTool, TOOL_DEFINITIONS } from '../../../src/core/tools';
import { expectError, expectOk, removeTree } from '../helpers';
import { buildOnce, serve, tempLayout } from './serve';

describe('MCP server: outputSchema', function () {
  let tmp = '';
  let base = '';

  before(buildOnce);
  beforeEach(function () {
    ({ tmp, base } = tempLayout('agentfs-mcp-output-'));
    fs.writeFileSync(path.join(base, 'a.txt'), 'alpha\n');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it("tools/list gives every tool the envelope's schema as this server answers it: no field only the editor or the runner adds", async function () {
    const served = await serve(['--root', base, '--no-history']);
    try {
      const { tools } = await served.client.listTools();
      assert.equal(tools.length, TOOL_DEFINITIONS.length);
      for (const listed of tools) {
        const tool = findTool(listed.name);
        assert.ok(tool, listed.name);
        assert.deepEqual(listed.outputSchema, JSON.parse(JSON.stringify(envelopeSchema(tool, 'mcp'))), listed.name);
        assert.equal(listed.outputSchema?.type, 'object', `${listed.name}: MCP wants an object schema`);
        assert.doesNotMatch(JSON.stringify(listed.outputSchema), /"problems"|"base64"/, listed.name);
      }
    } finally {
      await served.close();
    }
  });

  it("the SDK's validator passes real results, a refusal's included, and refuses a stray field, a missing one, an undeclared code", async function () {
    const served = await serve(['--root', base, '--no-history']);
    try {
      const { tools } = await served.client.listTools();
      const validator = new AjvJsonSchemaValidator();
      const check = (name: string, structured: unknown): boolean => {
        const listed = tools.find((tool) => tool.name === name);
        assert.ok(listed?.outputSchema, name);
        return validator.getValidator(listed.outputSchema)(structured).valid;
      };
      const read = await served.call('read_file', { file_name: 'a.txt' });
      const refused = await served.call('read_file', { file_name: 'missing.txt' });
      const written = await served.call('write_file', { file_name: 'b.txt', content: 'beta\n' });
      expectOk(read.envelope);
      expectError(refused.envelope, 'FILE_NOT_FOUND');
      assert.equal(refused.result.isError, true);
      for (const [name, { result }] of [
        ['read_file', read],
        ['read_file', refused],
        ['write_file', written],
      ] as const)
        assert.ok(check(name, result.structuredContent), name);
      const data = expectOk(read.envelope);
      assert.ok(!check('read_file', { ...read.envelope, data: { ...data, stray: 1 } }));
      assert.ok(!check('read_file', { ...read.envelope, data: { ...data, content: undefined } }));
      assert.ok(
        !check('read_file', { ...read.envelope, data: { ...data, base64: 'YWxwaGE=' } }),
        "the runner's base64 is not this server's",
      );
      assert.ok(
        !check('write_file', { ...written.envelope, data: { ...expectOk(written.envelope), problems: { new: [], more: 0, resolved: 0 } } }),
      );
      assert.ok(!check('read_file', { ...refused.envelope, error: { code: 'NO_MATCH', message: 'edit_file answers this' } }));
      assert.ok(!check('read_file', { ...refused.envelope, operation: 'write_file' }));
    } finally {
      await served.close();
    }
  });

  it("the SDK's client refuses a tools/call result whose structuredContent drifts from the listed outputSchema, and takes a refusal that matches it", async function () {
    // A real result from this server, served again by a relay that changes one field, to show the client checks.
    const served = await serve(['--root', base, '--no-history']);
    let relayed: Client | undefined;
    try {
      const { tools } = await served.client.listTools();
      const real = await served.call('read_file', { file_name: 'a.txt' });
      const refusal = await served.call('read_file', { file_name: 'missing.txt' });
      const relay = new Server({ name: 'relay', version: '1.0.0' }, { capabilities: { tools: {} } });
      relay.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools as McpTool[] }));
      relay.setRequestHandler(CallToolRequestSchema, (request) => {
        if (request.params.name === 'list_files' || request.params.arguments?.file_name === 'missing.txt') return refusal.result;
        const structured = { ...real.envelope, data: { ...expectOk(real.envelope), stray: true } };
        return { ...real.result, structuredContent: structured };
      });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await relay.connect(serverSide);
      relayed = new Client({ name: 'agentfs-test', version: '1.0.0' });
      await relayed.connect(clientSide);
      await relayed.listTools();
      await assert.rejects(
        relayed.callTool({ name: 'read_file', arguments: { file_name: 'a.txt' } }),
        (error: unknown) => error instanceof McpError && /does not match the tool's output schema/.test(error.message),
      );
      // read_file's refusal under read_file's name validates; the same refusal under list_files' name does not.
      const taken = await relayed.callTool({ name: 'read_file', arguments: { file_name: 'missing.txt' } });
      assert.equal(taken.isError, true);
      assert.deepEqual(taken.structuredContent, refusal.envelope);
      await assert.rejects(
        relayed.callTool({ name: 'list_files', arguments: {} }),
        (error: unknown) => error instanceof McpError && /output schema/.test(error.message),
      );
    } finally {
      await relayed?.close();
      await served.close();
    }
  });
});
