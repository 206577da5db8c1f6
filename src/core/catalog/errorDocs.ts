/**
 * What each error code means, as the README's error-code table says it (readmeTables.ts writes the table from this
 * list). A row names one code, or several that mean the same for different tools; every code is in exactly one row
 * (test/unit/readmeTables.test.ts). The text is Markdown; tools are named through toolRef, as everywhere.
 */
import type { ErrorCode } from '../errors';
import { toolRef } from '../naming';

export interface ErrorDoc {
  readonly codes: readonly ErrorCode[];
  /** When a call answers it, and what `details` says. */
  readonly when: string;
}

export const ERROR_DOCS: readonly ErrorDoc[] = [
  { codes: ['DIR_NOT_SET'], when: 'No folder is open and none was picked with "Select Base Directory…".' },
  {
    codes: ['DIR_NOT_AVAILABLE'],
    when: 'The base directory does not exist, or `agentFs.baseDirectory` leaves the workspace folder or names no directory.',
  },
  { codes: ['FILE_PATH_OUTSIDE_BASE'], when: 'A `file_name` resolves outside the base directory.' },
  {
    codes: ['DIRECTORY_PATH_OUTSIDE_BASE'],
    when: 'A `directory_name`, `directory_path` or listing `path` resolves outside the base directory.',
  },
  { codes: ['PATH_OUTSIDE_BASE'], when: `\`${toolRef('path_exists')}\`'s \`path\` resolves outside the base directory.` },
  {
    codes: ['SOURCE_PATH_OUTSIDE_BASE', 'DESTINATION_PATH_OUTSIDE_BASE'],
    when: "A copy or move's `source_path` / `destination_path` resolves outside the base directory.",
  },
  {
    codes: ['SYMLINK_OUTSIDE_BASE'],
    when: 'The path goes through a symbolic link that leads outside the base directory, or that dangles (so where it leads cannot be checked); on file systems without real paths, any link.',
  },
  { codes: ['FILE_NOT_FOUND'], when: 'The file to read or delete does not exist.' },
  { codes: ['FILE_NOT_FILE'], when: 'The path to read, write or delete as a file is a directory.' },
  { codes: ['DIRECTORY_NOT_FOUND'], when: 'The directory to delete or list does not exist.' },
  {
    codes: ['DIRECTORY_NOT_DIRECTORY'],
    when: 'The path is a file where a directory is needed (including a file in the way of a parent to create).',
  },
  { codes: ['DIRECTORY_NOT_EMPTY'], when: `\`${toolRef('delete_directory')}\` without \`recursive\` on a non-empty directory.` },
  { codes: ['SOURCE_EQUALS_DESTINATION'], when: 'A copy or move onto itself.' },
  {
    codes: ['SOURCE_FILE_NOT_FOUND', 'SOURCE_NOT_FILE'],
    when: `\`${toolRef('copy_file')}\`/\`${toolRef('move_file')}\` source missing / not a file.`,
  },
  {
    codes: ['SOURCE_DIRECTORY_NOT_FOUND', 'SOURCE_NOT_DIRECTORY'],
    when: `\`${toolRef('copy_directory')}\`/\`${toolRef('move_directory')}\` source missing / not a directory.`,
  },
  { codes: ['DESTINATION_IS_DIRECTORY'], when: `\`${toolRef('copy_file')}\`/\`${toolRef('move_file')}\` destination is a directory.` },
  { codes: ['DESTINATION_NOT_DIRECTORY'], when: 'A directory destination exists as a file, or a parent of a destination is a file.' },
  {
    codes: ['DESTINATION_EXISTS'],
    when: 'The destination exists and `overwrite` is not true (or it contains the source, so cannot be replaced by it).',
  },
  { codes: ['DESTINATION_INSIDE_SOURCE'], when: 'A directory copy or move into itself.' },
  { codes: ['CROSS_DEVICE_MOVE_UNSUPPORTED'], when: 'The file system refused a move across devices.' },
  {
    codes: ['READ_FAILED', 'WRITE_FAILED', 'LIST_FAILED', 'DELETE_FAILED', 'COPY_FAILED', 'MOVE_FAILED'],
    when: 'The file system failed unexpectedly (permissions, I/O), or another Agent FS process held the path for 30 s; the message carries the reason. A call that had changed something by then is recorded as it stands: `details.recorded_operation_id`.',
  },
  {
    codes: ['INVALID_INPUT'],
    when: "The input does not match the tool's schema (the message and `details.field` name the parameter), a path holds a NUL byte, an unknown operation, or deleting the base directory itself; a line number outside the file (`details.total_lines`); `old_string` equal to `new_string`; a character the file's encoding cannot hold.",
  },
  { codes: ['ALREADY_EXISTS'], when: `\`${toolRef('create_file')}\` on a path where something exists.` },
  {
    codes: ['SENSITIVE_PATH_REFUSED'],
    when: 'A tool that changes files on a path of `agentFs.protectedPaths` or `agentFs.hiddenPaths` (or a tree holding one), or a read of a hidden path; `details.setting` and `details.pattern` say which.',
  },
  {
    codes: ['FILE_DIRTY_IN_EDITOR'],
    when: 'A tool that changes files on a file with unsaved changes in an editor (or a tree holding one).',
  },
  {
    codes: ['CONTENT_CONFLICT'],
    when: `\`expected_hash\` differs from the file's current \`content_hash\`, or the file no longer exists; \`${toolRef('replace_in_files')}\`'s \`expected_total\` is no longer what the files give; nothing written.`,
  },
  {
    codes: ['NO_MATCH'],
    when: `\`${toolRef('edit_file')}\`'s \`old_string\` matches nowhere, even ignoring whitespace (\`details.candidates\`), or fewer times than \`expected_match_count\`.`,
  },
  {
    codes: ['MULTIPLE_MATCHES'],
    when: `\`${toolRef('edit_file')}\`'s \`old_string\` matches more than once without \`replace_all\`, or more often than \`expected_match_count\` (\`details.lines\`).`,
  },
  {
    codes: ['PATCH_FAILED'],
    when: `\`${toolRef('apply_patch')}\`: a hunk or V4A section does not match or is ambiguous (\`details.file\`, \`hunk\` or \`section\`, \`differences\`), a created file or a move's destination exists, a deleted one differs, a rename/copy/binary unified diff, or no parsable patch; nothing written.`,
  },
  {
    codes: ['BINARY_CONTENT_REFUSED'],
    when: 'A text tool on binary content (zero bytes that are not UTF-16 text) with no `encoding` named.',
  },
  {
    codes: ['DOCUMENT_UNREADABLE'],
    when: `\`${toolRef('read_file')}\` of a PDF or Word file whose text cannot be had; \`details.reason\`: \`encrypted\` (needs a password), \`damaged\` (not a PDF or .docx that can be parsed) or \`no_text\` (scanned pages, images only).`,
  },
  {
    codes: ['ENCODING_MISMATCH'],
    when: "The file's bytes are not text in the encoding the rules pick (`details.offset`, `line`, `encoding`, `suggested_encoding`): name the `encoding`, or set `files.encoding` / `--encoding`.",
  },
  {
    codes: ['HISTORY_WRITE_FAILED'],
    when: 'The history could not keep what a change would replace (full disk, unwritable store, unreadable content), so nothing was changed.',
  },
  {
    codes: ['INVALID_PATTERN'],
    when: `\`${toolRef('search_content')}\`: a \`query\` that is not a valid JavaScript regular expression, or a literal holding a line break; \`${toolRef('replace_in_files')}\`: one that can match the empty string; \`${toolRef('search_files')}\` / \`file_pattern\` / \`include\`: a negated glob or a reversed range.`,
  },
  {
    codes: ['LIMIT_EXCEEDED'],
    when: `A request above a cap (\`max_results\` of \`${toolRef('list_files')}\` > 5000, of \`${toolRef('find_file')}\`, \`${toolRef('search_files')}\`, \`${toolRef('search_content')}\` > 200; \`${toolRef('list_directory')}\`'s \`max_entries\` > 1000; \`context_lines\` > 5; more than 32 \`paths\`; \`max_bytes\` above \`agentFs.maxReadBytes\` or its per-file share; a patch over 1 MiB; a file over 10 MiB for the editing tools where the file system cannot stream, or in a V4A patch; a file over 64 MiB where ranged reads are unavailable; \`${toolRef('history_list')}\`'s \`limit\` > 200; a replacement over \`max_files\` files or 10,000 replacements, with \`details.files\` and \`replacements\`). \`details.field\` (the parameter, or \`size_bytes\` for a file) and \`details.cap\` say which.`,
  },
  { codes: ['READ_ONLY_MODE'], when: 'A tool that changes files while `agentFs.readOnly` is on (runner and MCP server: `--read-only`).' },
  { codes: ['WORKSPACE_UNTRUSTED'], when: 'A tool that changes files in an untrusted workspace.' },
  {
    codes: ['OPERATION_NOT_FOUND'],
    when: `\`${toolRef('history_get')}\` / \`${toolRef('undo_operation')}\` with an id the history does not hold (unknown, or pruned); \`${toolRef('undo_last')}\` with nothing left to undo.`,
  },
  {
    codes: ['UNDO_CONFLICT'],
    when: 'An undo where a path changed since the operation in a way it cannot merge around: lines overlapping its change (`details.conflicts[].lines` name them on each side), a file created, deleted or replaced, binary or too large to merge (`details.paths`, `details.conflicts` name each file); or of an operation already undone (`details.undone_by`). Nothing changed.',
  },
  {
    codes: ['HISTORY_UNAVAILABLE'],
    when: 'An undo of an operation whose content was over `agentFs.history.maxBytes` or cannot be recreated (a deleted symbolic link), or whose recorded content is gone from the store; any history tool with `--no-history`.',
  },
  {
    codes: ['CONFIRMATION_DECLINED'],
    when: 'MCP server: the person declined or dismissed the confirmation a delete or replacement asked for, it got no answer in time, or (`--confirm require`) the client cannot ask; `details.reason` says which. Nothing changed.',
  },
  {
    codes: ['POLICY_UNAVAILABLE'],
    when: 'MCP server and runner: the `policy.json` the editor published into their `--state` folder cannot be read, is not what the editor wrote, or was removed after it was read; every call is refused until the editor writes it anew. `details.path` names it.',
  },
  {
    codes: ['NOTEBOOK_INVALID', 'CELL_NOT_FOUND'],
    when: `\`${toolRef('edit_notebook')}\`: the notebook is not valid nbformat 4 by Jupyter's schema, or the edits would leave it invalid (\`details.reason\`); a \`cell\` that is neither an id nor an index of the notebook (\`details.total_cells\`). Nothing changed; a notebook is never repaired.`,
  },
  {
    codes: ['SYMBOL_NOT_FOUND', 'SYMBOL_AMBIGUOUS', 'LANGUAGE_UNSUPPORTED'],
    when: `A \`symbol\` (a name path such as \`Server/listen\`) names no symbol of the file (\`details.nearest\`: the closest name paths), or several (\`details.candidates\`: each with its lines); or the file is in no language Agent FS can outline (the message lists those it can). Nothing changed.`,
  },
];
