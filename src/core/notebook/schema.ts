/**
 * Whether a notebook is valid nbformat 4, by the format's own JSON schema (nbformat.v4.5.schema.json, vendored as
 * published). Minor versions before 5 differ from 4.5 only in having no cell ids and a lower nbformat_minor, so they
 * are checked against the same schema with those two rules as they were; everything 4.1-4.4 added is optional
 * metadata that older notebooks simply lack.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ToolError } from '../errors';
import { toolRef } from '../naming';
import schema45 from './nbformat.v4.5.schema.json';

type Schema = Record<string, unknown>;

/** The schema as the Python validator reads it; `$schema` (draft-04) goes, as nothing in it differs from draft-07's. */
function forMinor(minor: number): Schema {
  const copy = JSON.parse(JSON.stringify(schema45)) as Schema & { $schema?: string };
  delete copy.$schema;
  if (minor >= 5) return copy;
  dropCellIds(copy);
  (copy.properties as { nbformat_minor: { minimum: number } }).nbformat_minor.minimum = 0;
  return copy;
}

/** Takes "id" out of every `required` list: before 4.5 a cell has no id. */
function dropCellIds(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const object = node as Record<string, unknown>;
  const required = object.required;
  if (Array.isArray(required)) object.required = required.filter((name) => name !== 'id');
  for (const child of Object.values(object)) dropCellIds(child);
}

const validators = new Map<boolean, ValidateFunction>();

function validatorFor(minor: number): ValidateFunction {
  const current = minor >= 5;
  let validate = validators.get(current);
  if (!validate) {
    // Not strict: the published schema has keywords of its own (e.g. "item") that the Python validator ignores too.
    validate = new Ajv({ strict: false, allErrors: false, validateFormats: false }).compile(forMinor(minor));
    validators.set(current, validate);
  }
  return validate;
}

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'it does not match the nbformat 4 schema';
  const where = error.instancePath === '' ? 'the notebook' : error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return `${where} ${error.message ?? 'is invalid'}${error.keyword === 'additionalProperties' ? ` ("${String(error.params.additionalProperty)}")` : ''}`;
}

/** Refuses (NOTEBOOK_INVALID) a notebook that nbformat 4's schema rejects; `when` says whose notebook it is. */
export function assertValidNotebook(value: unknown, display: string, when: 'before' | 'after'): void {
  const minor = (value as { nbformat_minor?: unknown }).nbformat_minor;
  const validate = validatorFor(typeof minor === 'number' ? minor : 0);
  if (validate(value)) return;
  const why = describe(validate.errors?.[0]);
  throw new ToolError(
    'NOTEBOOK_INVALID',
    when === 'before'
      ? `${display} is not valid nbformat 4 (${why}), so it is not changed cell by cell. Fix it with the text tools (${toolRef('read_file')} with raw: true shows its JSON) and retry.`
      : `The edits would leave ${display} invalid nbformat 4 (${why}). Nothing was changed.`,
    { path: display, reason: why },
  );
}
