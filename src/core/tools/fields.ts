/**
 * Result fields several tools answer with the same meaning, so that each is declared once (results.ts says the
 * schema language). A tool's outputSchema (in its own file) spreads these; a field only one tool has is written there.
 */
import { arrayOf, BOOLEAN, described, INTEGER, nullable, object, oneOf, optional, STRING } from '../contract/results';

/** A VS Code encoding name ("utf8", "windows1252"), as the encoding parameters take it. */
export const ENCODING_NAME = described('The encoding name, as the encoding parameter takes it.', STRING);

export const NEWLINE = oneOf('lf', 'crlf', 'mixed', 'none');

/** A content hash as the tools give it ("sha256:<hex>"), which expected_hash takes. */
export const HASH = STRING;

/** A page of a listing or search: cut (truncated) with next_offset to go on. */
export const PAGE = {
  truncated: BOOLEAN,
  next_offset: optional(described('Pass as offset to get the rest, in the same order.', INTEGER)),
} as const;

/** How many entries the ignore rules skipped; null where the engine does not count them (ripgrep). */
export const IGNORED_COUNT = nullable(INTEGER);

/** The basename and the path as results show it (the plugin operations' naming pair). */
export const FILE_NAMES = { file_name: STRING, relative_path: STRING } as const;

export const DIRECTORY_NAMES = { directory_name: STRING, relative_path: STRING } as const;

/** The text of a bounded line read (read_file, each file of read_many_files). */
export const LINE_READ = {
  content: STRING,
  size_bytes: INTEGER,
  total_lines: nullable(INTEGER),
  content_hash: nullable(HASH),
  encoding: ENCODING_NAME,
  bom: BOOLEAN,
  newline: NEWLINE,
  start_line: nullable(INTEGER),
  end_line: nullable(INTEGER),
  truncated: BOOLEAN,
  truncation_reason: nullable(oneOf('max_bytes', 'line_too_long')),
  next_start_line: nullable(INTEGER),
} as const;

/** A unified diff of a dry run, cut at 64 KiB (diff_truncated); null when there is none to show. */
export const DRY_RUN_DIFF = {
  diff: optional(nullable(STRING)),
  diff_truncated: optional(BOOLEAN),
} as const;

/** What every text-editing tool (edit_file, replace_lines, insert_lines, delete_lines) answers. */
export const EDIT_FIELDS = {
  path: STRING,
  dry_run: BOOLEAN,
  changed: BOOLEAN,
  lines_added: INTEGER,
  lines_removed: INTEGER,
  previous_hash: HASH,
  content_hash: described('Pass as expected_hash to the next edit.', HASH),
  encoding: ENCODING_NAME,
  bom: BOOLEAN,
  newline: NEWLINE,
  ...DRY_RUN_DIFF,
} as const;

/** Copy and move: the plugin operations' pair of paths and what happened at the destination. */
export const TRANSFER_FIELDS = { source_path: STRING, destination_path: STRING, overwritten: BOOLEAN } as const;

/** One recorded operation, as history_list lists it and history_get begins. */
export const OPERATION_FIELDS = {
  operation_id: STRING,
  time: described('ISO 8601.', STRING),
  operation: STRING,
  summary: STRING,
  paths: arrayOf(STRING),
  path_count: optional(described('All the paths, where paths lists only the first.', INTEGER)),
  undo_available: BOOLEAN,
  unavailable_reason: optional(STRING),
  undone: BOOLEAN,
  undone_by: optional(STRING),
  undo_of: optional(STRING),
  host: optional(described('Where the change was made: editor, mcp, runner, or outside Agent FS.', STRING)),
  agent: optional(described("The agent as its client names itself (MCP clientInfo), or the editor's chat: a claim, not proof.", STRING)),
  session: optional(described('One per MCP connection, editor chat session, or runner --session value.', STRING)),
  label: optional(described('A label the caller gave: a filter, not authority.', STRING)),
  session_cut: optional(described("How many of the session's oldest changes the history's limits pruned.", INTEGER)),
} as const;

/** Paths an undo's reply lists one by one (an undo of a replacement across a project puts back a thousand). */
const RESTORED_SHOWN = 100;

/** An undo's `restored` within a reply's budget: the first RESTORED_SHOWN paths, and how many there were in all. */
export function restoredFields<Path>(restored: readonly Path[]): { restored: Path[]; restored_count?: number } {
  return restored.length > RESTORED_SHOWN
    ? { restored: restored.slice(0, RESTORED_SHOWN), restored_count: restored.length }
    : { restored: [...restored] };
}

/** What an undo answers (undo_operation, undo_last). */
export const UNDO_FIELDS = {
  undone_operation_id: STRING,
  undone_operation: STRING,
  summary: STRING,
  restored: arrayOf(
    object({
      path: STRING,
      action: STRING,
      state: STRING,
      merged: optional(described('Later changes to other lines were kept.', BOOLEAN)),
    }),
  ),
  restored_count: optional(described('Every path put back, where restored lists only the first.', INTEGER)),
  undone_operation_ids: optional(described('Every operation a session undo undid, newest first.', arrayOf(STRING))),
  session: optional(STRING),
} as const;

/**
 * One file of read_many_files: the read fields, where those the reply's `shared` holds (every file had them alike)
 * are left out.
 */
export const SHARABLE_READ = {
  ...FILE_NAMES,
  ...LINE_READ,
  encoding: optional(ENCODING_NAME),
  bom: optional(BOOLEAN),
  newline: optional(NEWLINE),
  truncation_reason: optional(LINE_READ.truncation_reason),
} as const;

/** One side of a recorded change of one file. */
export const SIDE_STATE = object({
  type: oneOf('file', 'directory', 'symlink', 'other', 'missing'),
  hash: optional(STRING),
  size: optional(INTEGER),
});

/** A base directory: the workspace folder's name and its path. */
export const ROOT = object({ name: STRING, path: STRING });
