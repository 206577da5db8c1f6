import { ROOT } from './fields';
import { arrayOf, BOOLEAN, described, INTEGER, nullable, NUMBER, object, oneOf, optional, STRING } from '../contract/results';
import type { HistoryStore } from '../history/store';
import { EXTENSION_VERSION } from '../catalog/manifest';
import type { PathIndex } from '../ports/pathIndex';
import type { ContentIndex } from '../ports/contentIndex';
import { UNRANGED_READ_CAP, WHOLE_READ_BYTES } from '../read/limits';
import type { InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { DIRECTORY_TREE_MAX_ENTRIES } from './directoryTree';
import { FIND_FILE_CAP } from './findFile';
import { LIST_DIRECTORY_CAP } from './listDirectory';
import { LIST_FILES_CAP } from './listFiles';
import { READ_MANY_FILES_CAP } from './readManyFiles';
import { CONTEXT_LINES_CAP, SEARCH_CONTENT_CAP } from './searchContent';
import { SEARCH_FILES_CAP } from './searchFiles';

const inputSchema = {
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const satisfies InputSchema;

/** The warm path index of a long-lived host, as the person reading workspace_info needs it; null where calls walk. */
function pathIndexInfo(index: PathIndex | undefined) {
  if (!index) return null;
  const report = index.report();
  return {
    state: report.state,
    reason: report.reason ?? null,
    paths: report.paths,
    directories: report.directories,
    estimated_bytes: report.bytes,
    walks_answered: report.answered,
    freshness: report.freshness ?? null,
  };
}

/** The history's size and limits (HistoryStore.report); null where the session keeps none. */
async function historyInfo(history: HistoryStore | undefined) {
  if (!history) return null;
  const limits = history.limits();
  const report = await history.report().catch(() => ({ operations: 0, bytes: 0, sessionsCut: 0 }));
  return {
    operations: report.operations,
    bytes: report.bytes,
    max_operations: limits.maxOperations,
    max_bytes: limits.maxBytes,
    max_age_days: limits.maxAgeDays,
    sessions_cut: report.sessionsCut,
  };
}

/** The warm content index, as pathIndexInfo gives the path index; null where a content search reads every file. */
function contentIndexInfo(index: ContentIndex | undefined) {
  if (!index) return null;
  const report = index.report();
  return {
    state: report.state,
    reason: report.reason ?? null,
    files: report.files,
    text_bytes: report.textBytes,
    estimated_bytes: report.bytes,
    searches_narrowed: report.answered,
  };
}

export const workspaceInfo = defineTool({
  name: 'workspace_info',
  title: 'Workspace Info',
  userDescription: 'Show the base directory, folders, limits and settings Agent FS works with.',
  modelDescription:
    "Base directory and workspace folders (a path may start with a folder's name), read-only and trust state, limits, exclude and protected patterns.",
  icon: 'root-folder',
  tags: ['read'],
  effect: 'read',
  failureCode: 'READ_FAILED',
  idempotent: true,
  inputSchema,
  pathParameters: {},
  outputSchema: object({
    base_directory: nullable(STRING),
    base_directory_as_given: nullable(STRING),
    roots: arrayOf(ROOT),
    workspace_folders: arrayOf(ROOT),
    multi_root: BOOLEAN,
    read_only: BOOLEAN,
    trusted: BOOLEAN,
    limits: object({
      max_read_bytes: INTEGER,
      whole_read_bytes: INTEGER,
      unranged_read_cap_bytes: nullable(INTEGER),
      read_many_files_max_paths: INTEGER,
      list_files_max_results: INTEGER,
      list_directory_max_entries: INTEGER,
      directory_tree_max_entries: INTEGER,
      find_file_max_results: INTEGER,
      search_files_max_results: INTEGER,
      search_content_max_results: INTEGER,
      search_content_max_context_lines: INTEGER,
    }),
    exclude: arrayOf(STRING),
    search_exclude: arrayOf(STRING),
    hidden_paths: arrayOf(STRING),
    protected_paths: arrayOf(STRING),
    ranged_reads: BOOLEAN,
    content_search_engine: STRING,
    host: nullable(STRING),
    host_version: nullable(STRING),
    read_images: BOOLEAN,
    problems_after_edits: BOOLEAN,
    path_index: described(
      "The MCP server's path index; null where calls walk the tree.",
      nullable(
        object({
          state: oneOf('ready', 'building', 'off'),
          reason: nullable(STRING),
          paths: INTEGER,
          directories: INTEGER,
          estimated_bytes: INTEGER,
          walks_answered: INTEGER,
          freshness: nullable(oneOf('events', 'verify')),
        }),
      ),
    ),
    history: optional(
      described(
        'What the change history keeps; whole sessions are pruned, oldest first, and sessions_cut counts those cut short.',
        nullable(
          object({
            operations: INTEGER,
            bytes: INTEGER,
            max_operations: INTEGER,
            max_bytes: INTEGER,
            max_age_days: NUMBER,
            sessions_cut: INTEGER,
          }),
        ),
      ),
    ),
    content_index: optional(
      described(
        "The host's index of file text, which narrows the files a content search reads; null where it reads them all.",
        nullable(
          object({
            state: oneOf('ready', 'building', 'off'),
            reason: nullable(STRING),
            files: INTEGER,
            text_bytes: INTEGER,
            estimated_bytes: INTEGER,
            searches_narrowed: INTEGER,
          }),
        ),
      ),
    ),
    durability: optional(
      described(
        'full: each change is synced to the disk before its reply; fast: not synced (still atomic). synced: whether this file system can sync at all.',
        object({ mode: oneOf('full', 'fast'), synced: BOOLEAN }),
      ),
    ),
    extension_version: STRING,
  }),
  errors: [],
  prepare(_input, context) {
    return Promise.resolve({ invocationMessage: context.l10n.t('Describing the workspace') });
  },
  async run(_input, context) {
    const { policy, host } = context;
    const roots = context.paths.roots.map((root) => ({ name: root.name, path: root.path }));
    return {
      base_directory: roots[0]?.path ?? null,
      base_directory_as_given: host?.baseDirectoryAsGiven ?? null,
      roots,
      workspace_folders: host?.workspaceFolders ?? roots,
      multi_root: roots.length > 1,
      read_only: policy.readOnly,
      trusted: policy.trusted,
      limits: {
        max_read_bytes: policy.maxReadBytes,
        whole_read_bytes: WHOLE_READ_BYTES,
        unranged_read_cap_bytes: context.workspace.fs.readRange ? null : UNRANGED_READ_CAP,
        read_many_files_max_paths: READ_MANY_FILES_CAP,
        list_files_max_results: LIST_FILES_CAP,
        list_directory_max_entries: LIST_DIRECTORY_CAP,
        directory_tree_max_entries: DIRECTORY_TREE_MAX_ENTRIES,
        find_file_max_results: FIND_FILE_CAP,
        search_files_max_results: SEARCH_FILES_CAP,
        search_content_max_results: SEARCH_CONTENT_CAP,
        search_content_max_context_lines: CONTEXT_LINES_CAP,
      },
      exclude: policy.exclude,
      search_exclude: policy.searchExclude,
      hidden_paths: policy.hiddenPaths,
      protected_paths: policy.protectedPaths,
      ranged_reads: context.workspace.fs.readRange !== undefined,
      content_search_engine: context.contentSearcher?.name ?? 'scan',
      host: host?.kind ?? null,
      host_version: host?.version ?? null,
      // What this host adds to results: images from read_file, and problems after edits (the editor's language services).
      read_images: host !== undefined && host.imageRefusal === undefined,
      problems_after_edits: host?.problemsAfterEdits ?? false,
      path_index: pathIndexInfo(context.index),
      history: await historyInfo(context.history),
      content_index: contentIndexInfo(context.contentIndex),
      // What a reply's "done" means here: the setting, and whether the file system can sync at all (a virtual one cannot).
      durability: { mode: policy.durability, synced: policy.durability === 'full' && context.workspace.fs.sync !== undefined },
      extension_version: EXTENSION_VERSION,
    };
  },
});
