/**
 * The shape of a tool's result, declared in its definition in the same JSON Schema subset as its input, and the
 * TypeScript type derived from it (`ResultOf`), which is what the tool's `run` must return: a field the schema lacks,
 * or one of another type, fails the type check, and every test validates every result against the schema
 * (test/shared/results.ts), so what a result holds is written once and checked twice.
 *
 * Objects are closed (`additionalProperties: false`) and every field is present unless wrapped in `optional`; a
 * field that may be null says so with `nullable`. The helpers below build plain JSON Schema: what MCP publishes as
 * `outputSchema` and what the README's tables are generated from.
 *
 * Over 300 lines: the schema builders and the types derived from them must agree; apart, a change to one could not be
 * read against the other.
 */
import type { WithImage } from '../envelope';
import type { ErrorCode } from '../errors';
import type { Flatten } from './schema';

/** Marks a field that may be left out; a symbol, so JSON (and ajv, which reads string keys) never sees it. */
export const OPTIONAL: unique symbol = Symbol('optional');

/** Marks a field that only some hosts add to a result (the editor's `problems`, the runner's `base64`). */
export const HOSTS: unique symbol = Symbol('hosts');

/** Where a call runs: the editor's tools, the runner (`dist/cli.js`), the MCP server. */
export type ResultHost = 'editor' | 'runner' | 'mcp';

/** The JSON Schema keywords a result field uses. */
export interface FieldSchema {
  readonly type?: FieldType | readonly FieldType[];
  readonly description?: string;
  readonly enum?: readonly (string | number | boolean | null)[];
  readonly items?: FieldSchema;
  readonly properties?: Readonly<Record<string, FieldSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly anyOf?: readonly FieldSchema[];
  readonly [OPTIONAL]?: true;
  readonly [HOSTS]?: readonly ResultHost[];
}

type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/** A closed object, as `object()` builds it. */
export interface ObjectSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, FieldSchema>>;
  readonly required: readonly string[];
  readonly additionalProperties: false;
  readonly description?: string;
}

/** A result: one closed object, or one of several (`variants`). */
export type ResultSchema =
  ObjectSchema | { readonly type: 'object'; readonly anyOf: readonly ObjectSchema[]; readonly description?: string };

export const STRING = { type: 'string' } as const;
export const INTEGER = { type: 'integer' } as const;
export const NUMBER = { type: 'number' } as const;
export const BOOLEAN = { type: 'boolean' } as const;

type RequiredKeys<Properties> = {
  [Name in keyof Properties]: Properties[Name] extends { readonly [OPTIONAL]: true } ? never : Name;
}[keyof Properties] &
  string;

/** A closed object of `properties`, every one required unless `optional`. */
export function object<const Properties extends Readonly<Record<string, FieldSchema>>>(
  properties: Properties,
  description?: string,
): {
  readonly type: 'object';
  readonly properties: Properties;
  readonly required: readonly RequiredKeys<Properties>[];
  readonly additionalProperties: false;
  readonly description?: string;
} {
  const required = Object.entries(properties)
    .filter(([, field]) => field[OPTIONAL] !== true)
    .map(([name]) => name as RequiredKeys<Properties>);
  return { type: 'object', properties, required, additionalProperties: false, ...(description === undefined ? {} : { description }) };
}

/** An object whose fields are not fixed (an input summary, a record's details). */
export const OPEN_OBJECT = { type: 'object' } as const;

export function arrayOf<const Item extends FieldSchema>(items: Item): { readonly type: 'array'; readonly items: Item } {
  return { type: 'array', items };
}

export function oneOf<const Value extends string>(
  ...values: readonly Value[]
): { readonly type: 'string'; readonly enum: readonly Value[] } {
  return { type: 'string', enum: values };
}

/** A value of one of several shapes (a read_many_files entry, read or refused). */
export function anyOf<const Shapes extends readonly FieldSchema[]>(...shapes: Shapes): { readonly anyOf: Shapes } {
  return { anyOf: shapes };
}

/** A result of one of several shapes (read_file's text and image results). */
export function variants<const Shapes extends readonly ObjectSchema[]>(
  ...shapes: Shapes
): { readonly type: 'object'; readonly anyOf: Shapes } {
  return { type: 'object', anyOf: shapes };
}

/** Exactly this value. */
export function literal<const Value extends string | number | boolean>(value: Value): { readonly enum: readonly [Value] } {
  return { enum: [value] };
}

export function optional<const Field extends FieldSchema>(field: Field): Field & { readonly [OPTIONAL]: true } {
  return { ...field, [OPTIONAL]: true };
}

/** A field only `hosts` add to a result, after the call (so optional): other hosts' schemas leave it out. */
export function onlyIn<const Field extends FieldSchema>(
  hosts: readonly ResultHost[],
  field: Field,
): Field & { readonly [OPTIONAL]: true; readonly [HOSTS]: readonly ResultHost[] } {
  return { ...field, [OPTIONAL]: true, [HOSTS]: hosts };
}

export function described<const Field extends FieldSchema>(description: string, field: Field): Field & { readonly description: string } {
  return { ...field, description };
}

/** The field, or null. */
export function nullable<const Field extends FieldSchema & { readonly type: FieldType }>(field: Field): Nullable<Field> {
  const withNull: FieldSchema = {
    ...field,
    type: [field.type, 'null'],
    ...(field.enum === undefined ? {} : { enum: [...field.enum, null] }),
  };
  // The object built is the schema Nullable<Field> spells out: the same keywords, with null added to type and enum.
  return withNull as Nullable<Field>;
}

type Nullable<Field extends { readonly type: FieldType }> = Omit<Field, 'type' | 'enum'> & {
  readonly type: readonly [Field['type'], 'null'];
} & NullableEnum<Field>;

type NullableEnum<Field> = Field extends { readonly enum: readonly (infer Value)[] }
  ? { readonly enum: readonly (Value | null)[] }
  : unknown;

/** The TypeScript type of a value the field describes. */
export type ResultOf<Field> = Field extends { readonly anyOf: readonly (infer Shape)[] }
  ? ResultOf<Shape>
  : Field extends { readonly enum: readonly (infer Value)[] }
    ? Value
    : Field extends { readonly type: infer Type }
      ? TypeOf<Type, Field>
      : unknown;

type TypeOf<Type, Field> = Type extends readonly (infer Each)[]
  ? TypeOf<Each, Field>
  : Type extends 'string'
    ? string
    : Type extends 'integer' | 'number'
      ? number
      : Type extends 'boolean'
        ? boolean
        : Type extends 'null'
          ? null
          : Type extends 'array'
            ? Field extends { readonly items: infer Item }
              ? readonly ResultOf<Item>[]
              : readonly unknown[]
            : Type extends 'object'
              ? ObjectOf<Field>
              : unknown;

type ObjectOf<Field> = Field extends { readonly properties: infer Properties }
  ? Field extends { readonly required: readonly (infer Required)[] }
    ? Flatten<
        { readonly [Name in keyof Properties & Required]: ResultOf<Properties[Name]> } & {
          readonly [Name in Exclude<keyof Properties, Required>]?: ResultOf<Properties[Name]>;
        }
      >
    : { readonly [Name in keyof Properties]?: ResultOf<Properties[Name]> }
  : Readonly<Record<string, unknown>>;

/**
 * The fields of `Returned` (a type a tool's `run` returns) that the result type `Shape` has no place for, as dotted
 * paths ("matches.score"). A returned object is checked against each shape a union allows, and passes if it fits
 * one. TypeScript checks no excess property of an object a function returns (its type is inferred first, then
 * compared), so defineTool asks this of the inferred return type instead: a stray field is a type error that names
 * it (tool.ts, NoStrayFields).
 */
export type StrayFields<Returned, Shape> = Returned extends WithImage<infer Data> ? StrayIn<Data, Shape> : StrayIn<Returned, Shape>;

type StrayIn<Value, Shape> = Value extends unknown
  ? true extends (Shape extends unknown ? ([Stray<Value, Shape>] extends [never] ? true : false) : never)
    ? never
    : Stray<Value, Shape>
  : never;

type Stray<Value, Shape> = Value extends readonly (infer Item)[]
  ? Shape extends readonly (infer ShapeItem)[]
    ? StrayIn<Item, ShapeItem>
    : never
  : Value extends object
    ? {
        [Name in keyof Value]-?: Name extends keyof Shape
          ? Nested<Name & string, StrayIn<Value[Name], NonNullable<Shape[Name]>>>
          : Name & string;
      }[keyof Value]
    : never;

type Nested<Name extends string, Inner> = [Inner] extends [never] ? never : `${Name}.${Inner & string}`;

/**
 * What the pipeline adds to the result of every tool that changes files (history/record.ts): whether and how the call
 * was recorded, and why not when recording failed.
 */
export const RECORDED_FIELDS = {
  operation_id: described(
    'The id of the recorded change, which the history and undo tools take; null when nothing was recorded.',
    nullable(STRING),
  ),
  undo_available: BOOLEAN,
  history_warning: optional(described('Why the change was not recorded, when recording failed.', STRING)),
} as const;

/** One problem (an error or warning of a language service) in a file the call changed. */
const PROBLEM = object({
  path: STRING,
  line: described('1-based.', INTEGER),
  severity: oneOf('error', 'warning'),
  message: STRING,
  source: nullable(STRING),
});

/**
 * What the editor adds to the result of a call that changed text files (src/vscode/problems.ts): the errors and
 * warnings the change introduced in them, and how many it resolved.
 */
export const HOST_FIELDS = {
  problems: onlyIn(
    ['editor'],
    described(
      'Editor only: problems the change introduced in the files it changed (at most 10 listed, `more` counted) and how many it resolved; `unchecked`: changed files no service had reported on when it was made (clean, or not checked yet).',
      object({ new: arrayOf(PROBLEM), more: INTEGER, resolved: INTEGER, unchecked: optional(arrayOf(STRING)) }),
    ),
  ),
} as const;

/** `schema` as `host` answers it: without the fields only other hosts add. */
export function schemaForHost(schema: ResultSchema, host: ResultHost): ResultSchema {
  const inHost = (shape: ObjectSchema): ObjectSchema => {
    const kept = Object.entries(shape.properties).filter(([, field]) => field[HOSTS] === undefined || field[HOSTS].includes(host));
    if (kept.length === Object.keys(shape.properties).length) return shape;
    const properties = Object.fromEntries(kept);
    return { ...shape, properties, required: shape.required.filter((name) => name in properties) };
  };
  return 'anyOf' in schema ? { ...schema, anyOf: schema.anyOf.map(inHost) } : inHost(schema);
}

/**
 * The codes the pipeline itself can answer for a tool, before or around its own checks (invoke.ts, tool.ts): the
 * schema, the workspace, the shared policy, trust and read-only mode, the caps, the path parameters, an I/O failure.
 */
export function pipelineCodes(tool: {
  readonly effect: 'read' | 'write';
  readonly failureCode: ErrorCode;
  readonly pathCodes: readonly ErrorCode[];
  readonly capped: boolean;
}): ErrorCode[] {
  return [
    'INVALID_INPUT',
    'DIR_NOT_SET',
    'DIR_NOT_AVAILABLE',
    'POLICY_UNAVAILABLE',
    tool.failureCode,
    ...(tool.capped ? (['LIMIT_EXCEEDED'] as const) : []),
    ...tool.pathCodes,
    ...(tool.effect === 'write'
      ? ([
          'WORKSPACE_UNTRUSTED',
          'READ_ONLY_MODE',
          'CONFIRMATION_DECLINED',
          'CROSS_DEVICE_MOVE_UNSUPPORTED',
          'HISTORY_WRITE_FAILED',
        ] as const)
      : []),
  ];
}

/**
 * The whole envelope a call of the tool answers with, as JSON Schema: `data` as its outputSchema says on success
 * (as `host` answers it; every host's fields when none is named), a code from its `errors` on failure. What the MCP
 * server publishes as a tool's `outputSchema` (its structuredContent is the envelope), and what the tests validate
 * every envelope against.
 */
export function envelopeSchema(
  tool: { readonly name: string; readonly outputSchema: ResultSchema; readonly errors: readonly ErrorCode[] },
  host?: ResultHost,
) {
  const data = host === undefined ? tool.outputSchema : schemaForHost(tool.outputSchema, host);
  return variants(
    object({ ok: literal(true), operation: literal(tool.name), data }),
    object({
      ok: literal(false),
      operation: literal(tool.name),
      error: object({ code: oneOf(...tool.errors), message: STRING, details: optional(OPEN_OBJECT) }),
    }),
  );
}
