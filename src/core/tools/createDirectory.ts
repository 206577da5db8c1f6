import { BOOLEAN, described, object } from '../contract/results';
import { DIRECTORY_NAMES } from './fields';
import { ToolError } from '../errors';
import { namePair } from '../confinement';
import { ensureParentDirectory } from '../changes/writes';
import { assertMayWrite } from '../policy/policy';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    directory_name: pathParameter('Directory to create.'),
  },
  required: ['directory_name'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create Directory',
  userDescription: 'Create a directory (and its parents) in the workspace.',
  modelDescription: 'Create a directory and its missing parents; one that exists is fine (created false).',
  icon: 'new-folder',
  tags: ['write'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: true,
  additive: true,
  inputSchema,
  pathParameters: { directory_name: 'directory' },
  outputSchema: object({ ...DIRECTORY_NAMES, created: described('False when it already existed.', BOOLEAN) }),
  errors: ['DIRECTORY_NOT_DIRECTORY', 'SENSITIVE_PATH_REFUSED', 'FILE_DIRTY_IN_EDITOR'],
  prepare(_input, context, { directory_name: path }) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Creating directory {0}', path.display) });
  },
  async run(_input, context, { directory_name: path }) {
    await assertMayWrite(context, path, 'directory');
    const { fs } = context.workspace;
    const existing = await fs.stat(path.absolute);
    if (existing && existing.kind !== 'directory') {
      throw new ToolError('DIRECTORY_NOT_DIRECTORY', `Cannot create directory ${path.display}: a ${existing.kind} is in the way.`);
    }
    if (!existing) {
      await ensureParentDirectory(context, path, 'DIRECTORY_NOT_DIRECTORY');
      await fs.createDirectory(path.absolute);
    }
    const { name, relative_path } = namePair(path);
    return { directory_name: name, relative_path, created: !existing };
  },
});
