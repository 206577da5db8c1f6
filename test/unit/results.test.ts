/**
 * The result schemas (src/core/results.ts) and the check every suite runs on every envelope (test/shared/results.ts):
 * a real result passes; a stray field, a missing one, a wrong type or an undeclared error code does not.
 */
import * as assert from 'node:assert/strict';
import { envelopeSchema, RECORDED_FIELDS, schemaForHost } from '../../src/core/contract/results';
import { findTool, TOOL_DEFINITIONS } from '../../src/core/tools';
import { checkEnvelope } from '../shared/results';
import { call, expectOk, tempWorkspace } from './helpers';

describe('result schemas', function () {
  it('every tool publishes a closed object schema and the codes it answers; a tool that changes files adds the recorded fields', function () {
    for (const tool of TOOL_DEFINITIONS) {
      const schema = tool.outputSchema;
      assert.equal(schema.type, 'object', tool.name);
      const shapes = 'anyOf' in schema ? schema.anyOf : [schema];
      for (const shape of shapes) assert.equal(shape.additionalProperties, false, `${tool.name}: closed`);
      assert.ok(tool.errors.includes('INVALID_INPUT') && tool.errors.includes(tool.failureCode), tool.name);
      assert.equal(new Set(tool.errors).size, tool.errors.length, `${tool.name}: each code once`);
      if (tool.effect === 'write') {
        assert.ok('properties' in schema, tool.name);
        for (const field of Object.keys(RECORDED_FIELDS)) assert.ok(field in schema.properties, `${tool.name}: ${field}`);
        assert.ok(schema.required.includes('operation_id') && !schema.required.includes('history_warning'), tool.name);
        assert.ok(tool.errors.includes('READ_ONLY_MODE') && tool.errors.includes('WORKSPACE_UNTRUSTED'), tool.name);
      }
      // Published as JSON: the optional-field marker is a symbol, which JSON leaves out, and nothing else is lost.
      const published = JSON.stringify(envelopeSchema(tool));
      assert.equal(JSON.stringify(JSON.parse(published)), published, tool.name);
    }
  });

  it('checkEnvelope passes a real result and refuses a stray field, a missing field, a wrong type, an undeclared code', async function () {
    const ws = tempWorkspace();
    try {
      ws.write({ 'a.txt': 'alpha\n' });
      const envelope = await call(ws.session, 'path_exists', { path: 'a.txt' });
      const data = expectOk(envelope);
      const withData = (changed: Record<string, unknown>): unknown => ({ ...envelope, data: changed });
      checkEnvelope(envelope);
      assert.throws(() => checkEnvelope(withData({ ...data, stray: 1 })), /must NOT have additional properties.*stray/s);
      const withoutExists = Object.fromEntries(Object.entries(data).filter(([field]) => field !== 'exists'));
      assert.throws(() => checkEnvelope(withData(withoutExists)), /required property 'exists'/);
      assert.throws(
        () => checkEnvelope(withData({ ...data, path_type: 'socket' })),
        /path_type must be equal to one of the allowed values/,
      );
      const refusal = {
        ok: false,
        operation: 'path_exists',
        error: { code: 'NO_MATCH', message: 'edit_file answers this, not path_exists.' },
      };
      assert.throws(() => checkEnvelope(refusal), /error\/code must be equal to one of the allowed values/);
      checkEnvelope({ ...refusal, error: { code: 'PATH_OUTSIDE_BASE', message: 'A code path_exists declares.' } });
      // A tool that changes files carries the recorded fields, which its schema requires.
      const written = await call(ws.session, 'write_file', { file_name: 'b.txt', content: 'beta\n' });
      const unrecorded = Object.fromEntries(Object.entries(expectOk(written)).filter(([field]) => field !== 'operation_id'));
      assert.throws(() => checkEnvelope({ ...written, data: unrecorded }), /required property 'operation_id'/);
      assert.ok(findTool('write_file')?.errors.includes('CONTENT_CONFLICT'));
    } finally {
      ws.cleanup();
    }
  });

  it("a host's schema has the fields that host adds and none that only another host adds", function () {
    const fieldsOf = (operation: string, host: 'editor' | 'runner' | 'mcp'): string[][] => {
      const tool = findTool(operation);
      assert.ok(tool);
      const schema = schemaForHost(tool.outputSchema, host);
      return ('anyOf' in schema ? schema.anyOf : [schema]).map((shape) => Object.keys(shape.properties));
    };
    for (const tool of TOOL_DEFINITIONS.filter((each) => each.effect === 'write')) {
      assert.ok(fieldsOf(tool.name, 'editor')[0]?.includes('problems'), tool.name);
      assert.ok(!fieldsOf(tool.name, 'mcp')[0]?.includes('problems'), tool.name);
      assert.ok(!fieldsOf(tool.name, 'runner')[0]?.includes('problems'), tool.name);
    }
    for (const tool of TOOL_DEFINITIONS.filter((each) => each.effect === 'read'))
      assert.ok(!fieldsOf(tool.name, 'editor').flat().includes('problems'), tool.name);
    assert.deepEqual(
      (['runner', 'mcp', 'editor'] as const).map((host) => fieldsOf('read_file', host)[1]?.includes('base64')),
      [true, false, false],
    );
  });

  it("checkEnvelope passes the editor's problems after an edit and refuses one of another shape", async function () {
    const ws = tempWorkspace();
    try {
      ws.write({ 'a.ts': 'let a = 1;\n' });
      const envelope = await call(ws.session, 'edit_file', { path: 'a.ts', old_string: '1', new_string: "'one'" });
      const data = expectOk(envelope);
      const problem = { path: 'a.ts', line: 1, severity: 'error', message: "Type 'string' is not assignable.", source: 'ts' };
      const withProblems = (problems: unknown): unknown => ({ ...envelope, data: { ...data, problems } });
      checkEnvelope(withProblems({ new: [problem], more: 0, resolved: 2 }));
      assert.throws(() => checkEnvelope(withProblems({ new: [{ ...problem, severity: 'info' }], more: 0, resolved: 0 })), /severity/);
      assert.throws(() => checkEnvelope(withProblems({ new: [], more: 0 })), /required property 'resolved'/);
      assert.throws(() => checkEnvelope(withProblems({ new: [{ ...problem, column: 3 }], more: 0, resolved: 0 })), /column/);
    } finally {
      ws.cleanup();
    }
  });
});
