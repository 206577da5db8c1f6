/**
 * Malformed inputs, for every tool the code lists (new tools included): INVALID_INPUT naming the offending field,
 * never a throw, and nothing on disk changes.
 */
import * as assert from 'node:assert/strict';
import type { Envelope } from '../../src/core/envelope';
import { findTool, TOOL_DEFINITIONS } from '../../src/core/tools';
import { assertTree, call, expectError, expectOk, nodeSession, type Snapshot, tempWorkspace, type TempWorkspace } from './helpers';
import { PLUGIN_OPERATIONS, validInput, wrongTypeValues } from './schemaInputs';

const ONE_MEGABYTE = 'p'.repeat(1024 * 1024);

describe('malformed inputs → INVALID_INPUT, never a throw', function () {
  let ws: TempWorkspace;
  let pristine: Snapshot;
  before(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'alpha', 'dir/b.txt': 'beta' });
    pristine = ws.snap();
  });
  after(function () {
    ws.cleanup();
  });
  afterEach(function () {
    assertTree(ws.snap(), pristine, 'a refused input changed the disk');
  });

  /** Calls and returns the envelope; a throw fails the test with the input that caused it. */
  async function invoke(operation: string, input: unknown, session = ws.session): Promise<Envelope> {
    try {
      return await call(session, operation, input);
    } catch (error) {
      assert.fail(`${operation} threw for ${JSON.stringify(input)?.slice(0, 200)}: ${String(error)}`);
    }
  }

  function expectField(envelope: Envelope, field: string, context: string): void {
    const error = expectError(envelope, 'INVALID_INPUT');
    assert.equal(error.details?.field, field, `${context}: ${error.message}`);
    assert.ok(error.message.includes(field), `${context}: message does not name "${field}": ${error.message}`);
  }

  it('the plugin operations are all listed', function () {
    const names: readonly string[] = TOOL_DEFINITIONS.map((tool) => tool.name);
    for (const operation of PLUGIN_OPERATIONS) assert.ok(names.includes(operation), operation);
  });

  it('an unknown operation is INVALID_INPUT', async function () {
    const envelope = await invoke('format_disk', {});
    expectError(envelope, 'INVALID_INPUT');
    assert.equal(envelope.operation, 'format_disk');
  });

  for (const tool of TOOL_DEFINITIONS) {
    const operation = tool.name;
    describe(operation, function () {
      const manifest = findTool(operation);
      const schema = manifest?.inputSchema;
      const properties = Object.entries(schema?.properties ?? {});
      const required = schema?.required ?? [];

      it('has a manifest schema and a valid sample input', function () {
        assert.ok(schema, `no manifest entry for ${operation}`);
        if (PLUGIN_OPERATIONS.includes(operation)) assert.ok(validInput(operation, schema));
      });

      it('non-object inputs: null, undefined, array, string, number, boolean', async function () {
        for (const input of [null, undefined, [], [{}], 'a.txt', '{"file_name":"a.txt"}', 42, true]) {
          const envelope = await invoke(operation, input);
          expectError(envelope, 'INVALID_INPUT', operation);
        }
      });

      it('each required field missing, and {} when something is required', async function () {
        if (!schema) return assert.fail('no schema');
        const valid = validInput(operation, schema);
        if (!valid) return assert.fail(`no valid sample input for ${operation}: add one to PLUGIN_INPUTS (schemaInputs.ts)`);
        for (const field of required) {
          const input = { ...valid };
          delete input[field];
          expectField(await invoke(operation, input), field, `missing ${field}`);
        }
        if (required.length > 0) expectError(await invoke(operation, {}), 'INVALID_INPUT');
      });

      it('an extra field, including "__proto__" and "constructor"', async function () {
        if (!schema) return assert.fail('no schema');
        const valid = validInput(operation, schema);
        if (!valid) return assert.fail(`no valid sample input for ${operation}: add one to PLUGIN_INPUTS (schemaInputs.ts)`);
        expectField(await invoke(operation, { ...valid, bogus: 1 }), 'bogus', 'extra field');
        expectField(await invoke(operation, { ...valid, fileName: 'a.txt' }), 'fileName', 'camelCase near-miss');
        expectError(
          await invoke(operation, JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(valid).slice(1, -1) || '"x": 1'}}`)),
          'INVALID_INPUT',
        );
        assert.equal(({} as Record<string, unknown>).polluted, undefined, 'prototype polluted');
        expectError(await invoke(operation, { ...valid, constructor: 'x' }), 'INVALID_INPUT');
      });

      it('wrong types and null for every property', async function () {
        if (!schema) return assert.fail('no schema');
        const valid = validInput(operation, schema);
        if (!valid) return assert.fail(`no valid sample input for ${operation}: add one to PLUGIN_INPUTS (schemaInputs.ts)`);
        for (const [field, property] of properties) {
          for (const wrong of [...wrongTypeValues(property), null]) {
            expectField(await invoke(operation, { ...valid, [field]: wrong }), field, `${field} = ${JSON.stringify(wrong)}`);
          }
        }
      });

      it('1 MB strings in bounded string fields (path fields), empty strings where a minimum length is set', async function () {
        if (!schema) return assert.fail('no schema');
        const valid = validInput(operation, schema);
        if (!valid) return assert.fail(`no valid sample input for ${operation}: add one to PLUGIN_INPUTS (schemaInputs.ts)`);
        for (const [field, property] of properties) {
          if (property.type !== 'string') continue;
          if (typeof property.maxLength === 'number' && property.maxLength < ONE_MEGABYTE.length) {
            expectField(await invoke(operation, { ...valid, [field]: ONE_MEGABYTE }), field, `${field}: 1 MB`);
          }
          if (typeof property.minLength === 'number' && property.minLength > 0)
            expectField(await invoke(operation, { ...valid, [field]: '' }), field, `${field}: ''`);
        }
      });

      it('negative, zero, fractional and huge integers where the schema bounds them', async function () {
        if (!schema) return assert.fail('no schema');
        const valid = validInput(operation, schema);
        if (!valid) return assert.fail(`no valid sample input for ${operation}: add one to PLUGIN_INPUTS (schemaInputs.ts)`);
        for (const [field, property] of properties) {
          if (property.type !== 'integer') continue;
          expectField(await invoke(operation, { ...valid, [field]: 1.5 }), field, `${field}: 1.5`);
          expectField(await invoke(operation, { ...valid, [field]: '10' }), field, `${field}: "10"`);
          if (typeof property.minimum === 'number') {
            expectField(await invoke(operation, { ...valid, [field]: property.minimum - 1 }), field, `${field}: below minimum`);
            expectField(await invoke(operation, { ...valid, [field]: -1e9 }), field, `${field}: -1e9`);
          }
        }
      });

      it("does not modify the caller's input object (defaults are filled in on a copy)", async function () {
        if (!schema) return assert.fail('no schema');
        const valid = validInput(operation, schema);
        if (!valid) return assert.fail(`no valid sample input for ${operation}: add one to PLUGIN_INPUTS (schemaInputs.ts)`);
        // Read-only, so that a valid input passes validation (defaults filled in) and changes nothing.
        const input = { ...valid };
        const copy = JSON.parse(JSON.stringify(input)) as unknown;
        await invoke(operation, input, nodeSession(ws.base, { readOnly: true }));
        assert.deepEqual(input, copy);
      });
    });
  }

  it('a valid plugin-operation input still works after all of that (the validator keeps no state)', async function () {
    expectOk(await invoke('read_file', { file_name: 'a.txt' }));
    expectOk(await invoke('list_files', { max_results: 1 }));
  });

  it('specific cases: max_results 0, -5, 2.5, "20"; recursive "true"; overwrite 1', async function () {
    for (const value of [0, -5, 2.5, '20', null]) {
      expectField(await invoke('list_files', { max_results: value }), 'max_results', `list_files max_results ${String(value)}`);
      expectField(
        await invoke('find_file', { file_name: 'a', max_results: value }),
        'max_results',
        `find_file max_results ${String(value)}`,
      );
    }
    expectField(await invoke('list_files', { recursive: 'true' }), 'recursive', 'recursive "true"');
    expectField(await invoke('delete_directory', { directory_path: 'dir', recursive: 1 }), 'recursive', 'recursive 1');
    expectField(await invoke('copy_file', { source_path: 'a.txt', destination_path: 'b.txt', overwrite: 1 }), 'overwrite', 'overwrite 1');
    expectField(await invoke('write_file', { file_name: 'a.txt', content: { text: 'x' } }), 'content', 'content object');
    expectField(await invoke('write_file', { file_name: ['a.txt'], content: 'x' }), 'file_name', 'file_name array');
    expectField(await invoke('read_file', { file_name: '' }), 'file_name', 'empty file_name');
    expectField(await invoke('read_file', { path: 'a.txt' }), 'file_name', 'path instead of file_name');
  });
});
