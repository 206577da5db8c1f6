import { ToolError } from '../errors';
import { defineTool, type InputSchema } from '../tool';
import { walkVisible } from '../listing';

const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'Directory to list, relative to the base directory. Default: the base directory itself.',
    },
    recursive: { type: 'boolean', default: true, description: 'Include files in subdirectories. Default true.' },
    max_results: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description: 'Most paths to return (default 1000, at most 5000; more is refused with LIMIT_EXCEEDED).',
    },
    include_ignored: {
      type: 'boolean',
      default: false,
      description: 'Also list what is normally skipped: .git, paths matched by .gitignore files, VS Code\'s files.exclude and the setting agentFs.exclude. Default false; the result\'s ignored_count says how much was skipped. Paths in agentFs.hiddenPaths stay hidden either way.',
    },
  },
  required: [],
  additionalProperties: false,
} as const satisfies InputSchema;

/** Above this a single reply would flood a model's context; ask for a narrower path instead. */
export const LIST_FILES_CAP = 5000;

export const listFiles = defineTool({
  name: 'list_files',
  title: 'List Files',
  userDescription: 'List the files in a workspace directory.',
  modelDescription: 'List the files (not directories) under a directory of the base directory, as sorted paths relative to the base directory; recursive by default. Use it to see what exists; use agentfs_find_file to look for a file by name. Output is bounded by max_results: a cut list says truncated true and gives total; narrow the path or raise max_results (at most 5000) to see more. Symbolic links to directories are not descended. Skips .git, paths matched by .gitignore files, VS Code\'s files.exclude and agentFs.exclude unless include_ignored is true. Returns data {count, recursive, files, truncated, total, ignored_count}. Errors: DIRECTORY_NOT_FOUND, DIRECTORY_NOT_DIRECTORY, DIRECTORY_PATH_OUTSIDE_BASE or SYMLINK_OUTSIDE_BASE, LIMIT_EXCEEDED, LIST_FAILED.',
  icon: 'list-flat',
  tags: ['read', 'search'],
  effect: 'read',
  failureCode: 'LIST_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { path: 'directory' },
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
