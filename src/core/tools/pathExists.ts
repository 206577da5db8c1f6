import { assertMayRead } from '../policy';
import { defineTool, type InputSchema } from '../tool';

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Path to check, relative to the base directory.',
    },
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const pathExists = defineTool({
  name: 'path_exists',
  title: 'Path Exists',
  userDescription: 'Check whether a path exists in the workspace.',
  modelDescription: 'Check whether a path inside the base directory exists and whether it is a file or a directory. A missing path is not an error. Returns data {path, exists, path_type} where path_type is "file", "directory" or "missing". Errors: PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE (the path leaves the base directory).',
  icon: 'question',
  tags: ['read'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'path' },
  async prepare(input, context) {
    const path = await context.paths.resolve(input.path, 'path');
    return { invocationMessage: `Checking ${path.display}` };
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.path, 'path');
    // Even whether a secret exists is kept from the tools (agentFs.hiddenPaths).
    await assertMayRead(context, path);
    const stat = await context.workspace.fs.stat(path.absolute);
    const pathType = stat?.kind === 'file' ? 'file' : stat?.kind === 'directory' ? 'directory' : stat ? 'other' : 'missing';
    return { path: path.display, exists: stat !== undefined, path_type: pathType };
  },
});
