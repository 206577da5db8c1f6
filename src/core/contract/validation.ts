/**
 * Input validation against the tools' schemas. VS Code hands tool input to `invoke` unchecked, and another
 * extension can call any tool, so every input is validated here.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ToolError } from '../errors';
import type { JsonSchema } from './schema';
import { PRECOMPILED } from './precompiled';

/** The options esbuild.mjs compiles the bundles' validators with too (precompiled.ts): keep the two the same. */
const ajv = new Ajv({ allErrors: false, useDefaults: true, strict: true });

function compileSchema<Data = unknown>(schema: JsonSchema, name = 'schema'): ValidateFunction<Data> {
  try {
    return ajv.compile<Data>(schema);
  } catch (error) {
    throw new Error(`The input schema of ${name} does not compile: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A validator for one tool's input schema: the one compiled with the bundle (precompiled.ts), else compiled on first use. It returns a copy of the input with schema
 * defaults filled in, typed as the schema says (ajv's type guard), or throws INVALID_INPUT naming the offending
 * field. The caller's object is never modified.
 */
export function inputValidator<Input>(operation: string, schema: JsonSchema): (input: unknown) => Input {
  let validate: ValidateFunction<Input> | undefined;
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new ToolError(
        'INVALID_INPUT',
        `Input must be a JSON object of parameters, not ${Array.isArray(input) ? 'an array' : input === null ? 'null' : typeof input}.`,
      );
    }
    validate ??= (PRECOMPILED[operation] as ValidateFunction<Input> | undefined) ?? compileSchema<Input>(schema, operation);
    const copy: unknown = { ...input };
    if (validate(copy)) return copy;
    const [error] = validate.errors ?? [];
    throw describeSchemaError(error, schema);
  };
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
