/**
 * A tool's input type is derived from its schema (src/core/tool.ts), so that a definition whose code disagrees with
 * its schema does not compile. The `@ts-expect-error` lines below are the proof: should the derivation stop catching
 * one of these mistakes, the directive itself becomes an error and the type check fails.
 */
import { ENGLISH } from '../../src/core/ports/l10n';
import { PLAIN_ENCODING_HOST } from '../../src/core/encoding/host';
import * as assert from 'node:assert/strict';
import { ToolError } from '../../src/core/errors';
import { RUNNER_NAMING, toolRef } from '../../src/core/naming';
import { PathResolver } from '../../src/core/confinement';
import type { ToolContext } from '../../src/core/context';
import type { InputOf, InputSchema } from '../../src/core/contract/schema';
import { arrayOf, INTEGER, nullable, object, oneOf, optional, type ResultOf, STRING } from '../../src/core/contract/results';
import { defineTool } from '../../src/core/tool';
import { tempWorkspace } from './helpers';

const inputSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, description: 'A path.' },
    count: { type: 'integer', minimum: 1, default: 3, description: 'How many.' },
    mode: { type: 'string', enum: ['fast', 'careful'], description: 'How.' },
    names: { type: 'array', items: { type: 'string' }, description: 'Names.' },
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

// Required and defaulted parameters are present; the others are optional.
const present: Input = { path: 'a', count: 1 };
// @ts-expect-error `count` has a default, so validation always fills it in: the type says it is there.
const withoutDefault: Input = { path: 'a' };
// @ts-expect-error an enum parameter takes only its values.
const wrongEnum: Input = { path: 'a', count: 1, mode: 'slow' };
// @ts-expect-error an integer parameter is a number.
const wrongType: Input = { path: 'a', count: '1' };

defineTool({
  name: 'path_exists',
  title: 'Misnamed',
  userDescription: 'A test tool.',
  modelDescription: 'A tool whose path parameter is not in its schema.',
  icon: 'beaker',
  tags: [],
  effect: 'read',
  idempotent: true,
  failureCode: 'READ_FAILED',
  inputSchema,
  // @ts-expect-error a path parameter must be a parameter of the schema.
  pathParameters: { file_name: 'file' },
  outputSchema: object({}),
  errors: [],
  prepare: () => Promise.resolve({ invocationMessage: '' }),
  run: () => Promise.resolve({}),
});

// Tool names are a type (TOOL_NAMES, naming.ts): a misspelt one compiles neither as a definition's name nor in text.
defineTool({
  // @ts-expect-error 'read_fiel' is not a tool's name.
  name: 'read_fiel',
  title: 'Misspelt',
  userDescription: 'A test tool.',
  modelDescription: 'A tool whose name no list holds.',
  icon: 'beaker',
  tags: [],
  effect: 'read',
  idempotent: true,
  failureCode: 'READ_FAILED',
  inputSchema,
  pathParameters: {},
  outputSchema: object({}),
  errors: [],
  prepare: () => Promise.resolve({ invocationMessage: '' }),
  run: () => Promise.resolve({}),
});
// @ts-expect-error 'list_file' is not a tool's name.
const misspelt = toolRef('list_file');

/** The result the probe below declares: the shape its run() must return. */
const outputSchema = object({
  path: STRING,
  absolute: STRING,
  total: INTEGER,
  mode: nullable(oneOf('fast', 'careful')),
  entries: arrayOf(object({ name: STRING, size: optional(INTEGER) })),
});

// The result type comes from the output schema the same way: required fields present, optional ones optional.
const result: ResultOf<typeof outputSchema> = { path: 'a', absolute: '/a', total: 1, mode: null, entries: [{ name: 'n' }] };
// @ts-expect-error a nullable enum field takes its values and null only.
const wrongMode: ResultOf<typeof outputSchema> = { path: 'a', absolute: '/a', total: 1, mode: 'slow', entries: [] };

/**
 * A run() that returns a field its schema lacks does not compile either. TypeScript checks no excess property of an
 * object a function returns (it infers the function's type first, then compares), so defineTool infers what run()
 * returns and intersects the definition with NoStrayFields (tool.ts): for a stray field, at any depth, that adds a
 * required property named "result fields the outputSchema lacks" whose type names the field ("stray",
 * "entries.color"), which the definition lacks — the error the directive below expects.
 */
// @ts-expect-error run() returns `stray`, which the output schema does not have.
defineTool({
  name: 'file_info',
  title: 'Stray',
  userDescription: 'A test tool.',
  modelDescription: 'A tool whose result has a field its output schema lacks.',
  icon: 'beaker',
  tags: [],
  effect: 'read',
  idempotent: true,
  failureCode: 'READ_FAILED',
  inputSchema,
  pathParameters: {},
  outputSchema,
  errors: [],
  prepare: () => Promise.resolve({ invocationMessage: '' }),
  run: () => Promise.resolve({ path: 'a', absolute: '/a', total: 1, mode: null, entries: [], stray: true }),
});

// @ts-expect-error run() returns `entries.color`: nested objects are closed too.
defineTool({
  name: 'file_info',
  title: 'Nested Stray',
  userDescription: 'A test tool.',
  modelDescription: 'A tool whose result has a nested field its output schema lacks.',
  icon: 'beaker',
  tags: [],
  effect: 'read',
  idempotent: true,
  failureCode: 'READ_FAILED',
  inputSchema,
  pathParameters: {},
  outputSchema,
  errors: [],
  prepare: () => Promise.resolve({ invocationMessage: '' }),
  run: () => Promise.resolve({ path: 'a', absolute: '/a', total: 1, mode: null, entries: [{ name: 'n', color: 'red' }] }),
});

const probe = defineTool({
  name: 'workspace_info',
  title: 'Probe',
  userDescription: 'A test tool.',
  modelDescription: 'A tool that exists only in this test, to show what its definition may and may not say.',
  icon: 'beaker',
  tags: [],
  effect: 'read',
  idempotent: true,
  failureCode: 'READ_FAILED',
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema,
  errors: [],
  prepare(input, _context, paths) {
    // @ts-expect-error a parameter the schema does not have.
    void input.file_name;
    // @ts-expect-error `mode` is optional: it may be undefined.
    const mode: string = input.mode;
    void mode;
    // @ts-expect-error only the path parameters are resolved: `names` is not one.
    void paths.names;
    // The path parameter arrives resolved and confined (required in the schema, so always there).
    return Promise.resolve({ invocationMessage: `Probing ${paths.path.display}` });
  },
  run(input, _context, { path }) {
    const total: number = input.count + (input.names?.length ?? 0);
    return Promise.resolve({ path: path.display, absolute: path.absolute, total, mode: input.mode ?? null, entries: [] });
  },
});

describe('tool definitions: the input type comes from the schema', function () {
  it('accept() validates against that schema, fills defaults in; bind() resolves the paths; run() sees both typed', async function () {
    void [present, withoutDefault, wrongEnum, wrongType, result, wrongMode, misspelt];
    const ws = tempWorkspace();
    try {
      const workspace = await ws.session.workspace();
      const context: ToolContext = {
        workspace,
        paths: new PathResolver(workspace),
        policy: ws.session.policy(),
        naming: RUNNER_NAMING,
        l10n: ENGLISH,
        encodings: PLAIN_ENCODING_HOST,
        isCancelled: () => false,
      };
      const accepted = probe.accept({ path: './x', names: ['a', 'b'] });
      assert.deepEqual(accepted.input, { path: './x', names: ['a', 'b'], count: 3 });
      const call = await accepted.bind(context);
      assert.equal(call.affects(context), undefined);
      assert.deepEqual(await call.prepare(context), { invocationMessage: 'Probing x' });
      assert.deepEqual(await call.run(context), {
        path: 'x',
        absolute: `${workspace.roots[0]?.path ?? ''}/x`,
        total: 5,
        mode: null,
        entries: [],
      });
      // bind() confines the path before the tool sees it: outside the base, the tool never runs.
      await assert.rejects(
        probe.accept({ path: '../x' }).bind(context),
        (error: unknown) => error instanceof ToolError && error.code === 'FILE_PATH_OUTSIDE_BASE',
      );
    } finally {
      ws.cleanup();
    }
  });

  it("accept() refuses what the schema refuses, naming the field, and leaves the caller's object alone", function () {
    const given = { path: 'x', count: 0 };
    assert.throws(
      () => probe.accept(given),
      (error: unknown) => error instanceof ToolError && error.code === 'INVALID_INPUT' && error.details?.field === 'count',
    );
    assert.throws(
      () => probe.accept({ path: 'x', mode: 'slow' }),
      (error: unknown) => error instanceof ToolError && error.details?.field === 'mode',
    );
    assert.throws(
      () => probe.accept({}),
      (error: unknown) => error instanceof ToolError && error.details?.field === 'path',
    );
    assert.deepEqual(given, { path: 'x', count: 0 });
  });
});
