import { assertMayRead } from '../policy';
import { defineTool } from '../tool';

interface Input {
  path: string;
}

export const pathExists = defineTool<Input>({
  name: 'path_exists',
  effect: 'read',
  failureCode: 'READ_FAILED',
  parameters: ['path'],
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
