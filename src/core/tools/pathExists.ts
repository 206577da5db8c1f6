import { assertMayRead } from '../policy/policy';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import type { FileStat } from '../ports/fs';
import { BOOLEAN, object, oneOf, STRING } from '../contract/results';
import { pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('Path to check.'),
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies InputSchema;

function pathTypeOf(stat: FileStat | undefined): 'file' | 'directory' | 'other' | 'missing' {
  if (!stat) return 'missing';
  return stat.kind === 'file' || stat.kind === 'directory' ? stat.kind : 'other';
}

export const pathExists = defineTool({
  name: 'path_exists',
  title: 'Path Exists',
  userDescription: 'Check whether a path exists in the workspace.',
  modelDescription: 'Whether a path exists, and what it is: path_type file, directory or missing (nothing is read).',
  icon: 'question',
  tags: ['read'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'path' },
  outputSchema: object({
    path: STRING,
    exists: BOOLEAN,
    path_type: oneOf('file', 'directory', 'other', 'missing'),
  }),
  errors: ['SENSITIVE_PATH_REFUSED'],
  prepare(_input, context, { path }) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Checking {0}', path.display) });
  },
  async run(_input, context, { path }) {
    // Even whether a secret exists is kept from the tools (agentFs.hiddenPaths).
    await assertMayRead(context, path);
    const stat = await context.workspace.fs.stat(path.absolute);
    return {
      path: path.display,
      exists: stat !== undefined,
      path_type: pathTypeOf(stat),
    };
  },
});
