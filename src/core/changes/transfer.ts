/**
 * The checks and steps copy_file, move_file, copy_directory and move_directory share. Every check of the
 * copy/move contract kept from the LM Studio plugin (docs/design.md, "Compatibility") runs in that contract's order,
 * so a call with several faults answers the code its prompts expect, and all of them run before anything is written.
 */
import { describeTree, codePath, sizeText, summariseTree, trashSentence, undoSentence } from './consequences';
import { type ErrorCode, ToolError } from '../errors';
import type { FileStat } from '../ports/fs';
import { basename, dirname, isWithin, joinPath } from '../paths';
import type { ConfinedPath } from '../confinement';
import { swapParked } from '../files/staging';
import { assertMayRead, assertMayWrite, assertTreeMayChange } from '../policy/policy';
import type { ToolContext } from '../context';

/** What the four transfer tools can answer besides the pipeline's codes: planTransfer's refusals, for files and trees alike. */
export const TRANSFER_ERRORS = [
  'SOURCE_EQUALS_DESTINATION',
  'DESTINATION_INSIDE_SOURCE',
  'SOURCE_FILE_NOT_FOUND',
  'SOURCE_NOT_FILE',
  'SOURCE_DIRECTORY_NOT_FOUND',
  'SOURCE_NOT_DIRECTORY',
  'DESTINATION_IS_DIRECTORY',
  'DESTINATION_EXISTS',
  'DESTINATION_NOT_DIRECTORY',
  'SENSITIVE_PATH_REFUSED',
  'FILE_DIRTY_IN_EDITOR',
] as const satisfies readonly ErrorCode[];

/** The parameters the four transfer tools share (each tool's schema declares them), with the paths resolved. */
export interface TransferInput {
  readonly overwrite: boolean;
}

export interface TransferPaths {
  readonly source_path: ConfinedPath;
  readonly destination_path: ConfinedPath;
}

export interface TransferPlan {
  readonly source: ConfinedPath;
  readonly destination: ConfinedPath;
  readonly sourceStat: FileStat;
  /** The destination as it is now; `undefined` when free. Only set when `overwrite` allows replacing it. */
  readonly replaced: FileStat | undefined;
}

/**
 * `mode` decides the protected/hidden-path checks (policy.ts), made after the contract's checks: a copy reads its source
 * (no hidden path may be carried to a readable name), a move also takes it away (no protected path may leave);
 * the destination, and for directories every path that would land there or be replaced there, must be writable.
 */
export async function planTransfer(
  input: TransferInput,
  { source_path: source, destination_path: destination }: TransferPaths,
  context: ToolContext,
  kind: 'file' | 'directory',
  mode: 'copy' | 'move',
): Promise<TransferPlan> {
  if (source.absolute === destination.absolute) {
    throw new ToolError('SOURCE_EQUALS_DESTINATION', `Source and destination are the same path: ${source.display}.`);
  }
  if (kind === 'directory' && isWithin(source.absolute, destination.absolute)) {
    throw new ToolError(
      'DESTINATION_INSIDE_SOURCE',
      `Destination ${destination.display} is inside the source directory ${source.display}.`,
    );
  }
  const { fs } = context.workspace;
  const sourceStat = await fs.stat(source.absolute);
  if (kind === 'file') {
    if (!sourceStat) throw new ToolError('SOURCE_FILE_NOT_FOUND', `Source file does not exist: ${source.display}.`);
    if (sourceStat.kind !== 'file') {
      throw new ToolError(
        'SOURCE_NOT_FILE',
        `Source is not a file: ${source.display} is a ${sourceStat.kind}. Use the directory tools for directories.`,
      );
    }
  } else {
    if (!sourceStat) throw new ToolError('SOURCE_DIRECTORY_NOT_FOUND', `Source directory does not exist: ${source.display}.`);
    if (sourceStat.kind !== 'directory') {
      throw new ToolError(
        'SOURCE_NOT_DIRECTORY',
        `Source is not a directory: ${source.display} is a ${sourceStat.kind}. Use the file tools for files.`,
      );
    }
  }

  // Fix (unit tests, path cases): the nesting checks here are lexical, so a path through a link inside the base
  // ("into-src/copy" with into-src => src) slipped past them: copy_directory nested the copy inside its own source
  // and move_directory failed with EINVAL. Repeat them on where the entries physically are.
  if (kind === 'directory') await checkPhysicalNesting(context, source, destination, mode);

  const existing = await fs.stat(destination.absolute);
  if (existing) {
    if (kind === 'file' && existing.kind === 'directory') {
      throw new ToolError(
        'DESTINATION_IS_DIRECTORY',
        `Destination is a directory: ${destination.display}. Name the file's full destination path, e.g. ${destination.display}/${basename(source.absolute)}.`,
      );
    }
    if (!input.overwrite) {
      throw new ToolError(
        'DESTINATION_EXISTS',
        `Destination already exists: ${destination.display}. Pass overwrite: true to replace it, or choose another path.`,
      );
    }
    if (kind === 'directory' && existing.kind !== 'directory') {
      throw new ToolError('DESTINATION_NOT_DIRECTORY', `Destination exists and is not a directory: ${destination.display}.`);
    }
    if (kind === 'directory' && isWithin(destination.absolute, source.absolute)) {
      throw new ToolError(
        'DESTINATION_EXISTS',
        `Destination ${destination.display} contains the source ${source.display}, so it cannot be replaced by it.`,
      );
    }
  }
  await checkTransferPolicy(context, source, destination, kind, mode, existing);
  await requireDestinationParent(context, destination);
  return { source, destination, sourceStat, replaced: existing };
}

async function checkTransferPolicy(
  context: ToolContext,
  source: ConfinedPath,
  destination: ConfinedPath,
  kind: 'file' | 'directory',
  mode: 'copy' | 'move',
  replaced: FileStat | undefined,
): Promise<void> {
  if (mode === 'move') await assertMayWrite(context, source, kind);
  else await assertMayRead(context, source, kind);
  await assertMayWrite(context, destination, kind);
  if (kind !== 'directory') return;
  await assertTreeMayChange(context, source, mode === 'move' ? 'write' : 'read', destination);
  if (replaced?.kind === 'directory' && !replaced.isSymlink) await assertTreeMayChange(context, destination, 'write');
}

/**
 * The contract's nesting rules (DESTINATION_INSIDE_SOURCE, DESTINATION_EXISTS) on physical locations (where real paths exist). A copy reads what its source leads
 * to (the real path); a move, and a replacement at the destination, take the entry itself, so the last component of
 * those is not resolved (a link there is moved or replaced as a link).
 */
async function checkPhysicalNesting(
  context: ToolContext,
  source: ConfinedPath,
  destination: ConfinedPath,
  mode: 'copy' | 'move',
): Promise<void> {
  const from = await physicalLocation(context, source, mode === 'move');
  const to = await physicalLocation(context, destination, true);
  if (from === undefined || to === undefined) return;
  if (from === to)
    throw new ToolError(
      'SOURCE_EQUALS_DESTINATION',
      `Source and destination are the same directory: ${source.display} and ${destination.display}.`,
    );
  if (isWithin(from, to)) {
    throw new ToolError(
      'DESTINATION_INSIDE_SOURCE',
      `Destination ${destination.display} is inside the source directory ${source.display} (through a symbolic link).`,
    );
  }
  if (isWithin(to, from)) {
    throw new ToolError(
      'DESTINATION_EXISTS',
      `Destination ${destination.display} contains the source ${source.display} (through a symbolic link), so it cannot be replaced by it.`,
    );
  }
}

/** The real path of `path`, or with `keepLast` its parent's real path plus its name; undefined without real paths. */
async function physicalLocation(context: ToolContext, path: ConfinedPath, keepLast: boolean): Promise<string | undefined> {
  const { fs } = context.workspace;
  if (!fs.realPath) return undefined;
  const last = keepLast && path.absolute !== path.root.path;
  let current = last ? dirname(path.absolute) : path.absolute;
  let rest = last ? basename(path.absolute) : '';
  for (;;) {
    const real = await fs.realPath(current);
    if (real !== undefined) return rest === '' ? real : joinPath(real, rest);
    if (current === '/') return undefined;
    rest = rest === '' ? basename(current) : `${basename(current)}/${rest}`;
    current = dirname(current);
  }
}

/** A file where a parent directory of the destination should be is refused before anything moves. */
async function requireDestinationParent(context: ToolContext, destination: ConfinedPath): Promise<void> {
  const { fs } = context.workspace;
  for (let ancestor = dirname(destination.absolute); isWithin(destination.root.path, ancestor); ancestor = dirname(ancestor)) {
    const stat = await fs.stat(ancestor);
    if (!stat) continue;
    if (stat.kind !== 'directory') {
      throw new ToolError(
        'DESTINATION_NOT_DIRECTORY',
        `Cannot place ${destination.display}: ${context.paths.display(destination.root, ancestor)} is a file, not a directory.`,
      );
    }
    return;
  }
}

/** The confirmation for a copy or move that replaces an existing file. */
export function describeReplacement(plan: TransferPlan, verb: 'Copy' | 'Move', context: ToolContext): { title: string; message: string } {
  const size = plan.replaced?.size ?? 0;
  const { l10n } = context;
  const what = [codePath(plan.source.display), codePath(plan.destination.display), sizeText(size, l10n)] as const;
  return {
    title: l10n.t('Replace {0}?', plan.destination.display),
    message: `${
      verb === 'Copy'
        ? l10n.t('Copying {0} there replaces the existing {1} ({2}).', ...what)
        : l10n.t('Moving {0} there replaces the existing {1} ({2}).', ...what)
    } ${undoSentence(context, size)}`,
  };
}

/** The confirmation for a copy or move that replaces an existing directory, saying what it holds. */
export async function describeDirectoryReplacement(
  plan: TransferPlan,
  verb: 'Copy' | 'Move',
  context: ToolContext,
): Promise<{ title: string; message: string }> {
  const tree = await summariseTree(context, plan.destination.absolute);
  const { l10n } = context;
  const what = [codePath(plan.source.display, true), codePath(plan.destination.display, true), describeTree(tree, l10n)] as const;
  return {
    title: l10n.t('Replace {0}/?', plan.destination.display),
    message: `${
      verb === 'Copy'
        ? l10n.t('Copying {0} there replaces the existing {1}, which holds {2}.', ...what)
        : l10n.t('Moving {0} there replaces the existing {1}, which holds {2}.', ...what)
    } ${trashSentence(context)} ${undoSentence(context, tree.bytes)}`,
  };
}

/**
 * Puts `staged` (a finished copy, or the source of a move) at the destination. An existing destination is parked
 * beside it first and only thrown away once the new one is in place; if the swap fails, it is put back.
 */
export async function swapIntoDestination(plan: TransferPlan, staged: string, context: ToolContext): Promise<void> {
  const { fs } = context.workspace;
  const destination = plan.destination.absolute;
  if (!plan.replaced) {
    await fs.rename(staged, destination, { overwrite: false });
    return;
  }
  await swapParked(fs, staged, destination);
}
