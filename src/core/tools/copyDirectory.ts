import { BOOLEAN, described, INTEGER, object } from '../contract/results';
import { TRANSFER_FIELDS } from './fields';
import { onlyWhere } from '../naming';
import { missingDirectories } from '../changes/writes';
import { removeQuietly, siblingPath } from '../files/staging';
import { dirname, relativeTo } from '../paths';
import type { InputSchema } from '../contract/schema';
import { reportProgress, throwIfCancelled } from '../signals';
import { defineTool } from '../tool';
import { describeDirectoryReplacement, planTransfer, swapIntoDestination, TRANSFER_ERRORS } from '../changes/transfer';
import { walkTree } from '../files/walk';
import { pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    source_path: pathParameter('Directory to copy.'),
    destination_path: pathParameter('Where the copy goes.'),
    overwrite: { type: 'boolean', default: false, description: 'Replace what exists.' },
  },
  required: ['source_path', 'destination_path'],
  additionalProperties: false,
} as const satisfies InputSchema;

export const copyDirectory = defineTool({
  name: 'copy_directory',
  title: 'Copy Directory',
  userDescription: 'Copy a directory tree inside the workspace.',
  modelDescription: `Copy a directory tree (not into itself), creating parents. An existing destination is refused unless overwrite, which replaces it whole${onlyWhere('confirms', ' (the user confirms)')}. Links inside are skipped.`,
  icon: 'files',
  tags: ['write'],
  effect: 'write',
  failureCode: 'COPY_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: { source_path: 'source', destination_path: 'destination' },
  outputSchema: object({
    ...TRANSFER_FIELDS,
    copied: BOOLEAN,
    files: INTEGER,
    directories: INTEGER,
    skipped_symlinks: described('Links inside the tree, skipped (never followed).', INTEGER),
  }),
  errors: TRANSFER_ERRORS,
  async prepare(input, context, paths) {
    const plan = await planTransfer(input, paths, context, 'directory', 'copy');
    const invocationMessage = context.l10n.t('Copying directory {0} to {1}', plan.source.display, plan.destination.display);
    if (!plan.replaced) return { invocationMessage };
    return { invocationMessage, confirmation: await describeDirectoryReplacement(plan, 'Copy', context) };
  },
  // Only the destination changes; the source is read, never written.
  affects(_input, _context, { destination_path }) {
    return Promise.resolve([destination_path]);
  },
  async run(input, context, paths) {
    const plan = await planTransfer(input, paths, context, 'directory', 'copy');
    const { fs } = context.workspace;

    // Read the whole source first. Symbolic links are never followed: they are skipped and counted.
    const directories: string[] = [];
    const files: string[] = [];
    let skippedSymlinks = 0;
    await walkTree(fs, plan.source.absolute, context, (entry) => {
      const relative = relativeTo(plan.source.absolute, entry.absolute);
      if (entry.isSymlink) skippedSymlinks++;
      else if (entry.kind === 'directory') directories.push(relative);
      else if (entry.kind === 'file') files.push(relative);
    });

    // Build the copy in a hidden sibling, then swap it in: a failure part-way (a cancellation too) leaves the
    // destination untouched, and removes the parents it created for it.
    const staged = siblingPath(plan.destination.absolute, 'copy');
    const parents = await missingDirectories(fs, dirname(plan.destination.absolute), plan.destination.root.path);
    try {
      await fs.createDirectory(dirname(plan.destination.absolute));
      await fs.createDirectory(staged);
      directories.sort((a, b) => a.length - b.length);
      for (const directory of directories) await fs.createDirectory(`${staged}/${directory}`);
      for (const [index, file] of files.entries()) {
        throwIfCancelled(context);
        await fs.copyFile(`${plan.source.absolute}/${file}`, `${staged}/${file}`, { overwrite: false });
        reportProgress(context, index + 1, files.length, 'files copied');
      }
      await swapIntoDestination(plan, staged, context);
    } catch (error) {
      await removeQuietly(fs, staged, true);
      for (const parent of parents) await removeQuietly(fs, parent);
      throw error;
    }
    return {
      source_path: plan.source.display,
      destination_path: plan.destination.display,
      copied: true,
      overwritten: plan.replaced !== undefined,
      files: files.length,
      directories: directories.length,
      skipped_symlinks: skippedSymlinks,
    };
  },
});
