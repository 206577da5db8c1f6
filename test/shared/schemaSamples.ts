/**
 * Inputs built from a tool's input schema, for the tests that run over every tool (including tools added after
 * those tests were written): the unit tests read the schemas from the definitions, the integration specs from the
 * loaded extension's manifest. Imports nothing from vscode or mocha, so both can use it.
 */
import type { JsonSchema } from '../../src/core/contract/schema';

/**
 * A value the schema accepts, or undefined when this small builder cannot make one. A string parameter named like
 * a path gets `file` (what the test's workspace holds, or a name it does not); other strings are 'x' as long as
 * they must be; a `pattern` picks the first candidate it accepts.
 */
function sampleValue(schema: JsonSchema, name: string, file = 'a.txt'): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as unknown;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'string': {
      const filler = 'x'.repeat(typeof schema.minLength === 'number' ? Math.max(1, schema.minLength) : 1);
      const candidates = /path|file|name/.test(name) ? [file, filler] : [filler, file];
      if (typeof schema.pattern !== 'string') return candidates[0];
      const pattern = new RegExp(schema.pattern, 'u');
      return [...candidates, 'a1b2c3d4', '1', 'a'].find((candidate) => pattern.test(candidate));
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'array': {
      const items = schema.items as JsonSchema | undefined;
      const item = items ? sampleValue(items, name, file) : undefined;
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return item === undefined ? undefined : Array.from({ length: count }, () => item);
    }
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const required of schema.required ?? []) {
        const property = schema.properties?.[required];
        if (!property) return undefined;
        const sample = sampleValue(property, required, file);
        if (sample === undefined) return undefined;
        value[required] = sample;
      }
      return value;
    }
    default:
      return undefined;
  }
}

/** An input with only the required properties, each sampled; undefined when one cannot be. */
export function sampleInput(schema: JsonSchema, file?: string): Record<string, unknown> | undefined {
  const sample = sampleValue({ ...schema, default: undefined }, '', file);
  return typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? (sample as Record<string, unknown>) : undefined;
}
