/**
 * Inputs for the tests that run over every tool: known-good ones for the plugin operations, a minimal valid input built from any
 * tool's schema (test/shared/schemaSamples.ts), and wrong values for each property.
 */
import type { JsonSchema } from '../../src/core/catalog/manifest';
import { sampleInput } from '../shared/schemaSamples';

/** Known-good inputs for the twelve plugin operations (docs/design.md, "Compatibility"); other tools get one built from their schema. */
const PLUGIN_INPUTS: Readonly<Record<string, Record<string, unknown>>> = {
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

export const PLUGIN_OPERATIONS: readonly string[] = Object.keys(PLUGIN_INPUTS);

/** A minimal valid input for an operation: the plugin operation's known-good one, or its required properties sampled. */
export function validInput(operation: string, schema: JsonSchema): Record<string, unknown> | undefined {
  const known = PLUGIN_INPUTS[operation];
  return known ? { ...known } : sampleInput(schema);
}

/** Values of the wrong JSON type for a property schema. */
export function wrongTypeValues(schema: JsonSchema): unknown[] {
  const all: Record<string, unknown> = {
    string: 'text',
    integer: 42,
    number: 4.5,
    boolean: true,
    array: ['x'],
    object: { x: 1 },
    null: null,
  };
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return [];
  return Object.entries(all)
    .filter(([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')))
    .map(([, value]) => value);
}
