/**
 * Every envelope a test receives — from the core, the editor, the MCP server or the runner — is checked against the
 * tool's published schema (envelopeSchema, src/core/results.ts): `data` exactly as the tool's outputSchema says (no
 * field it lacks, none missing, each of its type), an error code the tool declares it can answer. The suites call
 * `checkEnvelope` wherever an envelope reaches them, so a result that drifts from its schema fails the test that
 * produced it. No mocha here (test/shared): a violation throws an Error naming the tool and the path in the result.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { envelopeSchema } from '../../src/core/contract/results';
import { findTool } from '../../src/core/tools';

// Strict like the inputs' validator; union types are how a nullable field is written.
const ajv = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true });
const validators = new Map<string, ValidateFunction>();

function validatorOf(operation: string): ValidateFunction | undefined {
  const tool = findTool(operation);
  if (!tool) return undefined;
  let validate = validators.get(operation);
  if (!validate) {
    validate = ajv.compile(envelopeSchema(tool));
    validators.set(operation, validate);
  }
  return validate;
}

/** Throws unless `envelope` is what its tool's schema allows. An unknown operation's envelope is left alone. */
export function checkEnvelope(envelope: unknown): void {
  if (typeof envelope !== 'object' || envelope === null) throw new Error(`An envelope is an object, not ${JSON.stringify(envelope)}`);
  const operation = (envelope as { operation?: unknown }).operation;
  if (typeof operation !== 'string') throw new Error(`An envelope names its operation: ${JSON.stringify(envelope).slice(0, 300)}`);
  const validate = validatorOf(operation);
  if (!validate || validate(envelope)) return;
  const ok = (envelope as { ok?: unknown }).ok === true;
  // anyOf reports both branches; only the branch of the envelope's own `ok` says what is wrong.
  const branch = ok ? '/anyOf/0' : '/anyOf/1';
  const problems = (validate.errors ?? [])
    .filter((error) => error.schemaPath.startsWith(`#${branch}`) || !error.schemaPath.startsWith('#/anyOf'))
    .map(
      (error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`,
    );
  throw new Error(
    `${operation}: the ${ok ? 'result' : 'error'} does not match the tool's schema:\n  ${problems.join('\n  ')}\n${JSON.stringify(envelope).slice(0, 2000)}`,
  );
}
