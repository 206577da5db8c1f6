/**
 * Inputs built from a tool's manifest schema, for the tests that run over every tool (including tools added after
 * these tests were written): a minimal valid input, and wrong values for each property.
 */
import type { JsonSchema } from '../../src/core/manifest';

/** Known-good inputs for the seed-000 operations; other tools get one built from their schema. */
export const SEED_INPUTS: Readonly<Record<string, Record<string, unknown>>> = {
  read_file: { file_name: 'a.txt' },
  write_file: { file_name: 'a.txt', content: 'new' },
  delete_file: { file_name: 'a.txt' },
  copy_file: { source_path: 'a.txt', destination_path: 'b.txt' },
  move_file: { source_path: 'a.txt', destination_path: 'b.txt' },
  create_directory: { directory_name: 'd' },
  delete_directory: { directory_path: 'dir' },
  copy_directory: { source_path: 'dir', destination_path: 'dir2' },
  move_directory: { source_path: 'dir', destination_path: 'dir2' },
  list_files: {},
  path_exists: { path: 'a.txt' },
  find_file: { file_name: 'a.txt' },
};

export const SEED_OPERATIONS: readonly string[] = Object.keys(SEED_INPUTS);

/** A value the schema accepts, or undefined when this simple builder cannot make one. */
export function sampleValue(schema: JsonSchema, name: string): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as unknown;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'string':
      return /path|file|name/.test(name) ? 'a.txt' : 'x'.repeat(typeof schema.minLength === 'number' ? Math.max(1, schema.minLength) : 1);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'array': {
      const items = schema.items as JsonSchema | undefined;
      const item = items ? sampleValue(items, name) : undefined;
      const count = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return item === undefined ? undefined : Array.from({ length: count }, () => item);
    }
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const required of schema.required ?? []) {
        const property = schema.properties?.[required];
        if (!property) return undefined;
        const sample = sampleValue(property, required);
        if (sample === undefined) return undefined;
        value[required] = sample;
      }
      return value;
    }
    default:
      return undefined;
  }
}

/** A minimal valid input for an operation: the seed's known-good one, or its required properties sampled. */
export function validInput(operation: string, schema: JsonSchema): Record<string, unknown> | undefined {
  const known = SEED_INPUTS[operation];
  if (known) return { ...known };
  const sample = sampleValue({ ...schema, default: undefined }, operation);
  return typeof sample === 'object' && sample !== null && !Array.isArray(sample) ? (sample as Record<string, unknown>) : undefined;
}

/** Values of the wrong JSON type for a property schema. */
export function wrongTypeValues(schema: JsonSchema): unknown[] {
  const all: Record<string, unknown> = { string: 'text', integer: 42, number: 4.5, boolean: true, array: ['x'], object: { x: 1 }, null: null };
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return [];
  return Object.entries(all)
    .filter(([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')))
    .map(([, value]) => value);
}
