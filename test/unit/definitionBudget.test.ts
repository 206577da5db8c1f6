/**
 * Every agent request carries every enabled tool's definition, so their size is a budget: 20,000 bytes for the whole
 * tool set as an MCP server lists it (bare names, confirmations said) and 1,000 for any one tool as the editor
 * registers it (`agentfs_` names, the longer), each the name, model description and input schema as JSON. A tool
 * that outgrows it must say less: what it is for, when to prefer a sibling, and the limits that change what a model asks for; error
 * messages, not descriptions, teach the error codes.
 */
import * as assert from 'node:assert/strict';
import { definitionBytes } from '../../src/core/catalog/manifest';
import { mcpNaming } from '../../src/core/naming';
import { languageModelTools, TOOL_DEFINITIONS } from '../../src/core/tools';

const TOTAL_BUDGET = 20_000;
const TOOL_BUDGET = 1_000;

describe('definition budget', function () {
  it(`all tools together, over MCP: at most ${TOTAL_BUDGET} bytes`, function () {
    const total = TOOL_DEFINITIONS.reduce((sum, tool) => sum + definitionBytes(tool, mcpNaming(true)), 0);
    assert.ok(total <= TOTAL_BUDGET, `the ${TOOL_DEFINITIONS.length} definitions take ${total} bytes`);
  });

  for (const tool of TOOL_DEFINITIONS) {
    it(`${tool.name}: at most ${TOOL_BUDGET} bytes`, function () {
      const bytes = definitionBytes(tool);
      assert.ok(bytes <= TOOL_BUDGET, `${tool.name}'s definition takes ${bytes} bytes`);
    });
  }

  it('measures what a client is sent: the registered name, the description and the schema as JSON', function () {
    const readFile = TOOL_DEFINITIONS.find((tool) => tool.name === 'read_file');
    assert.ok(readFile);
    const entry = languageModelTools().find((tool) => tool.name === 'agentfs_read_file');
    assert.ok(entry);
    const sent = JSON.stringify({ name: entry.name, description: entry.modelDescription, inputSchema: entry.inputSchema });
    assert.equal(definitionBytes(readFile), Buffer.byteLength(sent));
  });
});
