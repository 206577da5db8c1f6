import { BOOLEAN, object } from '../contract/results';
import { DIRECTORY_NAMES } from './fields';
import { toolRef, onlyWhere } from '../naming';
import { describeTree, codePath, summariseTree, trashSentence, undoSentence } from '../changes/consequences';
import { ToolError } from '../errors';
import type { FileStat } from '../ports/fs';
import { assertMayWrite, assertTreeMayChange } from '../policy/policy';
import { type ConfinedPath, namePair } from '../confinement';
import type { ToolContext } from '../context';
import type { InputOf, InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    directory_path: pathParameter('Directory to delete.'),
    recursive: { type: 'boolean', default: false, description: 'Also delete everything inside.' },
  },
  required: ['directory_path'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

interface Target {
  path: ConfinedPath;
  stat: FileStat;
  /** Entries directly inside; 0 for a symbolic link, which is removed as a link. */
  childCount: number;
}

async function checkTarget(input: Input, path: ConfinedPath, context: ToolContext): Promise<Target> {
  if (path.absolute === path.root.path) {
    throw new ToolError('INVALID_INPUT', `Refusing to delete the base directory itself (${path.root.path}). Name a directory inside it.`);
  }
  const { fs } = context.workspace;
  const stat = await fs.stat(path.absolute);
  if (!stat) throw new ToolError('DIRECTORY_NOT_FOUND', `Directory does not exist: ${path.display}.`);
  if (stat.kind !== 'directory') {
    throw new ToolError(
      'DIRECTORY_NOT_DIRECTORY',
      `Not a directory: ${path.display} is a ${stat.kind}. Use ${toolRef('delete_file')} for files.`,
    );
  }
  const childCount = stat.isSymlink ? 0 : (await fs.readDirectory(path.absolute)).length;
  if (childCount > 0 && !input.recursive) {
    throw new ToolError(
      'DIRECTORY_NOT_EMPTY',
      `Directory is not empty: ${path.display} holds ${childCount} entries. Pass recursive: true to delete it with everything inside.`,
    );
  }
  await assertMayWrite(context, path, stat.isSymlink ? 'other' : 'directory');
  // A tree holding a protected or hidden path, or a file with unsaved edits, is refused whole rather than half-deleted.
  if (childCount > 0) await assertTreeMayChange(context, path, 'write');
  return { path, stat, childCount };
}

export const deleteDirectory = defineTool({
  name: 'delete_directory',
  title: 'Delete Directory',
  userDescription: 'Delete a directory in the workspace.',
  modelDescription: `Delete a directory${onlyWhere('trash', ' to the trash where possible')}${onlyWhere('confirms', ', once the user confirms')}. A non-empty one needs recursive. Links inside are removed, never followed.`,
  icon: 'trash',
  tags: ['delete'],
  effect: 'write',
  failureCode: 'DELETE_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { directory_path: 'directory' },
  outputSchema: object({ ...DIRECTORY_NAMES, deleted: BOOLEAN, recursive: BOOLEAN }),
  errors: ['DIRECTORY_NOT_FOUND', 'DIRECTORY_NOT_DIRECTORY', 'DIRECTORY_NOT_EMPTY', 'SENSITIVE_PATH_REFUSED', 'FILE_DIRTY_IN_EDITOR'],
  async prepare(input, context, { directory_path }) {
    const { path, stat, childCount } = await checkTarget(input, directory_path, context);
    const { l10n } = context;
    const invocationMessage = l10n.t('Deleting directory {0}', path.display);
    if (stat.isSymlink) {
      return {
        invocationMessage,
        confirmation: {
          title: l10n.t('Delete the link {0}?', path.display),
          message: `${l10n.t('The symbolic link {0} will be deleted; what it points to stays.', codePath(path.display))} ${trashSentence(context)}`,
        },
      };
    }
    if (childCount === 0) {
      return {
        invocationMessage,
        confirmation: {
          title: l10n.t('Delete the empty directory {0}/?', path.display),
          message: `${l10n.t('{0} is empty.', codePath(path.display, true))} ${trashSentence(context)} ${undoSentence(context, 0)}`,
        },
      };
    }
    const tree = await summariseTree(context, path.absolute);
    return {
      invocationMessage,
      confirmation: {
        title: l10n.t('Delete {0}/ and everything in it?', path.display),
        message: `${l10n.t('{0} holds {1}. All of it will be deleted.', codePath(path.display, true), describeTree(tree, l10n))} ${trashSentence(context)} ${
          tree.counts.symlinks + tree.counts.others > 0
            ? l10n.t('It holds a symbolic link or special file, which Agent FS cannot recreate, so it cannot undo this.')
            : undoSentence(context, tree.bytes)
        }`,
      },
    };
  },
  async run(input, context, { directory_path }) {
    const { path, stat, childCount } = await checkTarget(input, directory_path, context);
    // The port removes symbolic links inside the tree as links; a link given as the target is removed alone.
    await context.workspace.fs.delete(path.absolute, { recursive: childCount > 0 && !stat.isSymlink, useTrash: true });
    const { name, relative_path } = namePair(path);
    return { directory_name: name, relative_path, deleted: true, recursive: input.recursive };
  },
});
