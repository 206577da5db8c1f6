import * as assert from 'node:assert/strict';
import { callTool, contributedTools, expectError, minimalInput, TOOL_PREFIX } from '../helpers';

/** VS Code hands invokeTool's input over unchecked; the extension itself must refuse what the schema forbids. */
describe('schema-invalid input through vscode.lm.invokeTool', () => {
  for (const tool of contributedTools()) {
    const operation = tool.name.slice(TOOL_PREFIX.length);
    it(`${operation}: unknown, missing and mistyped parameters answer INVALID_INPUT`, async () => {
      const valid = minimalInput(tool.inputSchema);
      const extra = expectError(await callTool(operation, { ...valid, bogus_parameter: 1 }), 'INVALID_INPUT');
      assert.match(extra.error.message, /bogus_parameter/);
      const [firstRequired] = tool.inputSchema.required ?? [];
      if (firstRequired !== undefined) {
        const missing = { ...valid };
        delete missing[firstRequired];
        const refused = expectError(await callTool(operation, missing), 'INVALID_INPUT');
        assert.match(refused.error.message, new RegExp(firstRequired));
        expectError(await callTool(operation, { ...valid, [firstRequired]: { not: 'a valid value' } }), 'INVALID_INPUT');
      }
    });
  }
});
