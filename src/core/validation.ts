/**
 * Input validation against the manifest's schemas. VS Code hands tool input to `invoke` unchecked, and another
 * extension can call any tool, so every input is validated here (DESIGN.md §6).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ToolError } from './errors';
import { type JsonSchema, manifestToolFor } from './manifest';

const ajv = new Ajv({ allErrors: false, useDefaults: true, strict: true });
const compiled = new Map<string, ValidateFunction>();

export function compileSchema(schema: JsonSchema): ValidateFunction {
  return ajv.compile(schema);
}

/**
 * Returns a copy of `input` with schema defaults filled in, or throws INVALID_INPUT naming the offending field.
 * The caller's object is never modified.
 */
export function validateInput(operation: string, input: unknown): Record<string, unknown> {
  let validate = compiled.get(operation);
  if (!validate) {
    const tool = manifestToolFor(operation);
    if (!tool) throw new ToolError('INVALID_INPUT', `Unknown operation "${operation}".`);
    validate = compileSchema(tool.inputSchema);
    compiled.set(operation, validate);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ToolError('INVALID_INPUT', `Input must be a JSON object of parameters, not ${Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input}.`);
  }
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  if (validate(copy)) return copy;
  const [error] = validate.errors ?? [];
  throw describeSchemaError(error, validate.schema as JsonSchema);
}

function describeSchemaError(error: ErrorObject | undefined, schema: JsonSchema): ToolError {
  if (!error) return new ToolError('INVALID_INPUT', 'Input does not match the tool schema.');
  const allowed = Object.keys(schema.properties ?? {}).join(', ');
  const field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      return new ToolError('INVALID_INPUT', `Missing required parameter "${missing}".`, { field: missing });
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      return new ToolError('INVALID_INPUT', `Unknown parameter "${extra}". This tool takes: ${allowed}.`, { field: extra });
    }
    default:
      return new ToolError('INVALID_INPUT', `Parameter "${field}" ${error.message ?? 'is invalid'}.`, { field });
  }
}
