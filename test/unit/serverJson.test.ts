/**
 * server.json, the entry for the MCP Registry, checked offline. The registry publishes the schema of server.json from
 * its website and repository only, in no package this project installs, so the rules of its 2025-12-11 revision that
 * this entry touches are restated below as a JSON schema (stricter in one way: a field the registry does not define is
 * an error here, where the registry would drop it unread). The npm package test starts the server as each entry says.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { REPO } from './mcp/serve';

const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** What every input (an argument, a header, an environment variable) may say. */
const INPUT = {
  description: { type: 'string' },
  isRequired: { type: 'boolean' },
  format: { enum: ['string', 'number', 'boolean', 'filepath'] },
  value: { type: 'string' },
  isSecret: { type: 'boolean' },
  default: { type: 'string' },
  placeholder: { type: 'string' },
  choices: { type: 'array', items: { type: 'string' } },
  variables: { type: 'object' },
};

const KEY_VALUE = { type: 'object', required: ['name'], properties: { ...INPUT, name: { type: 'string' } }, additionalProperties: false };

const ARGUMENT = {
  oneOf: [
    {
      type: 'object',
      required: ['type'],
      anyOf: [{ required: ['valueHint'] }, { required: ['value'] }],
      properties: { ...INPUT, type: { const: 'positional' }, valueHint: { type: 'string' }, isRepeated: { type: 'boolean' } },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['type', 'name'],
      properties: { ...INPUT, type: { const: 'named' }, name: { type: 'string', pattern: '^-' }, isRepeated: { type: 'boolean' } },
      additionalProperties: false,
    },
  ],
};

const URL_TEMPLATE = { type: 'string', pattern: '^https?://\\S+$' };

const TRANSPORT = {
  oneOf: [
    { type: 'object', required: ['type'], properties: { type: { const: 'stdio' } }, additionalProperties: false },
    ...['streamable-http', 'sse'].map((type) => ({
      type: 'object',
      required: ['type', 'url'],
      properties: { type: { const: type }, url: URL_TEMPLATE, headers: { type: 'array', items: KEY_VALUE } },
      additionalProperties: false,
    })),
  ],
};

/** A version is one version: the registry refuses ranges and `latest`. */
const EXACT_VERSION = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  not: { anyOf: [{ const: 'latest' }, { pattern: '^[\\^~<>=]|\\.[x*]' }] },
};

const PACKAGE = {
  type: 'object',
  required: ['registryType', 'identifier', 'transport'],
  properties: {
    registryType: { enum: ['npm', 'pypi', 'nuget', 'oci', 'mcpb'] },
    registryBaseUrl: { type: 'string', pattern: '^https://' },
    identifier: { type: 'string', minLength: 1 },
    version: EXACT_VERSION,
    fileSha256: { type: 'string', pattern: '^[a-f0-9]{64}$' },
    runtimeHint: { type: 'string' },
    transport: TRANSPORT,
    runtimeArguments: { type: 'array', items: ARGUMENT },
    packageArguments: { type: 'array', items: ARGUMENT },
    environmentVariables: { type: 'array', items: KEY_VALUE },
  },
  additionalProperties: false,
};

const SERVER = {
  type: 'object',
  required: ['name', 'description', 'version'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    version: EXACT_VERSION,
    websiteUrl: { type: 'string', pattern: '^https?://' },
    packages: { type: 'array', items: PACKAGE },
  },
  additionalProperties: false,
};

interface Input {
  readonly name?: string;
  readonly value?: string;
  readonly valueHint?: string;
}

interface Entry {
  readonly registryType: string;
  readonly registryBaseUrl?: string;
  readonly identifier: string;
  readonly version?: string;
  readonly transport: { readonly type: string; readonly url?: string; readonly headers?: readonly Input[] };
  readonly packageArguments?: readonly (Input & { readonly type: string })[];
  readonly environmentVariables?: readonly Input[];
}

describe('server.json: the MCP Registry entry', function () {
  const server = JSON.parse(fs.readFileSync(path.join(REPO, 'server.json'), 'utf8')) as {
    $schema: string;
    name: string;
    version: string;
    packages: Entry[];
  };
  const extension = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };

  it('meets the registry rules of the schema revision it names', function () {
    assert.equal(server.$schema, SCHEMA_URL);
    const validate = new Ajv({ strict: true, strictRequired: false, allErrors: true }).compile(SERVER);
    assert.ok(validate(server), JSON.stringify(validate.errors, null, 2));
  });

  it('is at the version of the release, and names the npm package agent-fs-mcp at it, on the one registry allowed', function () {
    assert.equal(server.version, extension.version);
    assert.ok(server.packages.length > 0);
    for (const entry of server.packages) {
      assert.deepEqual(
        [entry.registryType, entry.registryBaseUrl, entry.identifier, entry.version],
        ['npm', 'https://registry.npmjs.org', 'agent-fs-mcp', extension.version],
      );
    }
    assert.deepEqual(
      server.packages.map((entry) => entry.transport.type),
      ['stdio', 'streamable-http'],
    );
  });

  it("fills every {variable} of a transport's URL and headers from its own arguments or environment", function () {
    for (const entry of server.packages) {
      const known = new Set([
        ...(entry.packageArguments ?? []).flatMap((argument) => [argument.valueHint, argument.name?.replace(/^-+/, '')]),
        ...(entry.environmentVariables ?? []).map((variable) => variable.name),
      ]);
      const templates = [entry.transport.url ?? '', ...(entry.transport.headers ?? []).map((header) => header.value ?? '')];
      for (const template of templates)
        for (const [, name] of template.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) assert.ok(known.has(name), `{${name}} in ${template}`);
    }
  });
});
