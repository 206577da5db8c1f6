/**
 * The JSON Schema subset tool inputs are written in, and the TypeScript types derived from a schema: a definition's
 * `inputSchema` is a `const` literal, and `InputOf` turns it into the type its `prepare` and `run` receive.
 */

/** A JSON Schema object, as validation and the manifest read it. */
export interface JsonSchema {
  readonly type?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly default?: unknown;
  readonly [keyword: string]: unknown;
}

/** The JSON Schema keywords a tool parameter uses; ajv (strict) rejects any keyword it does not know. */
export interface ParameterSchema {
  readonly type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  readonly description?: string;
  readonly enum?: readonly (string | number | boolean)[];
  readonly items?: ParameterSchema;
  readonly default?: unknown;
  readonly [keyword: string]: unknown;
}

/**
 * A tool's input schema: a JSON Schema object written as a `const` literal, so that `InputOf` derives the input type
 * from it and a run() that reads a parameter the schema lacks, or with another type, fails the type check.
 */
export interface InputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, ParameterSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
  readonly [keyword: string]: unknown;
}

/** The TypeScript type of one parameter's value. */
type ValueOf<Parameter> = Parameter extends { readonly enum: readonly (infer Value)[] }
  ? Value
  : Parameter extends { readonly type: 'string' }
    ? string
    : Parameter extends { readonly type: 'integer' | 'number' }
      ? number
      : Parameter extends { readonly type: 'boolean' }
        ? boolean
        : Parameter extends { readonly type: 'array'; readonly items: infer Item }
          ? ValueOf<Item>[]
          : Parameter extends { readonly type: 'object'; readonly properties: infer Properties }
            ? ObjectOf<Properties, Parameter extends { readonly required: readonly (infer Name)[] } ? Name : never>
            : unknown;

/** An object parameter's value (the items of edit_file's `edits`): its required properties present, the rest optional. */
type ObjectOf<Properties, Required> = Flatten<
  { [Name in keyof Properties & Required]: ValueOf<Properties[Name]> } & {
    [Name in Exclude<keyof Properties, Required>]?: ValueOf<Properties[Name]>;
  }
>;

/**
 * The parameters always present once validated: the required ones, and those with a `default` (validation fills
 * defaults in, ajv's `useDefaults`).
 */
export type PresentOf<Schema extends InputSchema> =
  | (Schema['required'] extends readonly (infer Name)[] ? Name : never)
  | {
      [Name in keyof Schema['properties']]: Schema['properties'][Name] extends { readonly default: unknown } ? Name : never;
    }[keyof Schema['properties']];

export type Flatten<T> = { [Key in keyof T]: T[Key] };

/** The input `prepare` and `run` receive: validated against the schema, defaults filled in. */
export type InputOf<Schema extends InputSchema> = Flatten<
  { [Name in keyof Schema['properties'] & PresentOf<Schema>]: ValueOf<Schema['properties'][Name]> } & {
    [Name in Exclude<keyof Schema['properties'], PresentOf<Schema>>]?: ValueOf<Schema['properties'][Name]>;
  }
>;
