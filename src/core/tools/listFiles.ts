import { ToolError } from '../errors';
import { defineTool } from '../tool';
import { walkVisible } from '../listing';

interface Input {
  path: string;
  recursive: boolean;
  max_results: number;
  include_ignored: boolean;
}

/** Above this a single reply would flood a model's context; ask for a narrower path instead. */
export const LIST_FILES_CAP = 5000;

export const listFiles = defineTool<Input>({
  name: 'list_files',
  effect: 'read',
  failureCode: 'LIST_FAILED',
  parameters: ['path', 'recursive', 'max_results', 'include_ignored'],
  async prepare(input, context) {
    const path = await context.paths.resolve(input.path ?? '.', 'directory');
    return { invocationMessage: `Listing files in ${path.display}` };
  },
  async run(input, context) {
    if (input.max_results > LIST_FILES_CAP) {
      throw new ToolError('LIMIT_EXCEEDED', `max_results ${input.max_results} is above the cap of ${LIST_FILES_CAP}. Ask for at most ${LIST_FILES_CAP}, or list a narrower path.`);
    }
    const directory = await context.paths.resolve(input.path ?? '.', 'directory');
    const { fs } = context.workspace;
    const stat = await fs.stat(directory.absolute);
    if (!stat) throw new ToolError('DIRECTORY_NOT_FOUND', `Directory does not exist: ${directory.display}.`);
    if (stat.kind !== 'directory') throw new ToolError('DIRECTORY_NOT_DIRECTORY', `Not a directory: ${directory.display} is a ${stat.kind}.`);

    const found: string[] = [];
    const links: string[] = [];
    const rules = await walkVisible(
      context,
      directory,
      { includeIgnored: input.include_ignored, search: false, includeDotFiles: true, maxDepth: input.recursive ? undefined : 1 },
      (entry) => {
        if (entry.kind !== 'file') return;
        if (entry.isSymlink) links.push(entry.absolute);
        else found.push(entry.absolute);
      },
    );
    // A link to a file is listed only when its target is inside the base; a link never widens what is seen.
    for (const link of links) {
      if (await context.paths.allows(directory.root, link)) found.push(link);
    }
    const files = found.map((absolute) => context.paths.display(directory.root, absolute)).sort(compareCodePoints);
    const truncated = files.length > input.max_results;
    const shown = truncated ? files.slice(0, input.max_results) : files;
    return { count: shown.length, recursive: input.recursive, files: shown, truncated, total: files.length, ignored_count: rules.ignoredCount };
  },
});

export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
