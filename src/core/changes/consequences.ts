/**
 * The words confirmations share, so a person can decide at a glance: how big something is, what a directory holds
 * (with its first names), whether a deletion goes to the trash, whether Agent FS can undo the change, and how long
 * ago something happened. Host-neutral plain sentences with `code` paths: the editor shows them in its confirmation
 * cards, an MCP client in its prompts.
 */
import type { ToolContext } from '../context';
import { countPhrase, type Localizer } from '../ports/l10n';
import { humanSize } from '../read/bytes';
import { type TreeCounts, walkTree } from '../files/walk';

/** Names a directory's summary shows before "and N more". */
const FIRST_NAMES = 4;
/** Files a summary stats for their sizes; a bigger tree is described by its counts alone. */
const SIZED_FILES = 2000;

/** "5 bytes", "1.2 KiB": whole bytes read better than "5 B" for small files. */
export function sizeText(bytes: number, l10n: Localizer): string {
  return bytes < 1024 ? countPhrase(l10n, bytes, '1 byte', '{0} bytes') : humanSize(bytes);
}

/** `path` in code quotes, with a trailing slash for a directory. */
export function codePath(display: string, directory = false): string {
  return `\`${directory && !display.endsWith('/') ? `${display}/` : display}\``;
}

export interface TreeSummary {
  readonly counts: TreeCounts;
  /** Bytes of all files, when the tree was small enough to measure. */
  readonly bytes: number | undefined;
  /** The directory's own entries, sorted, the first few (directories with a trailing '/'). */
  readonly firstNames: readonly string[];
  /** Entries of the directory itself beyond `firstNames`. */
  readonly moreNames: number;
}

/** Counts, measures and names what a directory holds (links counted, never followed). */
export async function summariseTree(context: ToolContext, absolute: string): Promise<TreeSummary> {
  const { fs } = context.workspace;
  const counts: TreeCounts = { files: 0, directories: 0, symlinks: 0, others: 0 };
  const files: string[] = [];
  await walkTree(fs, absolute, context, (entry) => {
    if (entry.isSymlink) counts.symlinks++;
    else if (entry.kind === 'file') {
      counts.files++;
      if (files.length <= SIZED_FILES) files.push(entry.absolute);
    } else if (entry.kind === 'directory') counts.directories++;
    else counts.others++;
  });
  let bytes: number | undefined;
  if (counts.files <= SIZED_FILES) {
    bytes = 0;
    for (const file of files) bytes += (await fs.stat(file))?.size ?? 0;
  }
  const own = (await fs.readDirectory(absolute))
    .map((entry) => (entry.kind === 'directory' && !entry.isSymlink ? `${entry.name}/` : entry.name))
    .sort((a, b) => a.localeCompare(b));
  return { counts, bytes, firstNames: own.slice(0, FIRST_NAMES), moreNames: Math.max(0, own.length - FIRST_NAMES) };
}

/** "3 files and 1 directory, 12 KiB: `a.txt`, `lib/` and 2 more" — or "nothing" for an empty tree. */
export function describeTree(summary: TreeSummary, l10n: Localizer): string {
  const { counts } = summary;
  const parts = [
    counts.files > 0 ? countPhrase(l10n, counts.files, '1 file', '{0} files') : undefined,
    counts.directories > 0 ? countPhrase(l10n, counts.directories, '1 directory', '{0} directories') : undefined,
    counts.symlinks > 0 ? countPhrase(l10n, counts.symlinks, '1 symbolic link', '{0} symbolic links') : undefined,
    counts.others > 0 ? countPhrase(l10n, counts.others, '1 other entry', '{0} other entries') : undefined,
  ].filter((part): part is string => part !== undefined);
  if (parts.length === 0) return l10n.t('nothing');
  const what = parts.length === 1 ? (parts[0] ?? '') : l10n.t('{0} and {1}', parts.slice(0, -1).join(', '), parts[parts.length - 1] ?? '');
  const measured = summary.bytes === undefined ? what : `${what}, ${sizeText(summary.bytes, l10n)}`;
  const names = summary.firstNames.map((name) => `\`${name}\``).join(', ');
  return summary.moreNames > 0 ? l10n.t('{0}: {1} and {2} more', measured, names, summary.moreNames) : `${measured}: ${names}`;
}

/** Whether a deletion goes to the trash, as the file system has shown so far. */
export function trashSentence(context: ToolContext): string {
  const trash = context.workspace.fs.trashAvailable?.();
  if (trash === true) return context.l10n.t('It goes to the trash.');
  if (trash === false) return context.l10n.t('There is no trash here: it is removed from the disk.');
  return context.l10n.t('It goes to the trash where this file system has one.');
}

/**
 * Whether Agent FS can undo a change that replaces or removes `bytes` of content (undefined: not measured). The
 * history keeps replaced content up to its byte limit; without a history nothing can be undone.
 */
export function undoSentence(context: ToolContext, bytes: number | undefined): string {
  const { history, l10n } = context;
  if (!history) return l10n.t('Agent FS keeps no history here, so it cannot undo this.');
  const { maxBytes } = history.limits();
  if (bytes === undefined) return l10n.t('Agent FS can undo this if the content fits in its history ({0}).', sizeText(maxBytes, l10n));
  if (bytes > maxBytes)
    return l10n.t("It is more than Agent FS's history keeps ({0}), so Agent FS cannot undo this.", sizeText(maxBytes, l10n));
  return l10n.t('Agent FS can undo this.');
}

/** "just now", "5 minutes ago", "2 hours ago", "3 days ago"; a date beyond a month. */
export function timeAgo(iso: string, l10n: Localizer, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return iso;
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return l10n.t('just now');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return countPhrase(l10n, minutes, '1 minute ago', '{0} minutes ago');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return countPhrase(l10n, hours, '1 hour ago', '{0} hours ago');
  const days = Math.round(hours / 24);
  if (days <= 31) return countPhrase(l10n, days, 'yesterday', '{0} days ago');
  return l10n.t('on {0}', iso.slice(0, 10));
}
