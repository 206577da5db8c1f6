/**
 * The stable error codes of the contract (docs/design.md, "The contract"). A code, once shipped, keeps its meaning; the README
 * lists each with when it is returned. Add new codes at the end of their group, never rename one.
 */
export const ERROR_CODES = [
  // The LM Studio plugin's contract (docs/design.md, "Compatibility"), general.
  'DIR_NOT_SET',
  'DIR_NOT_AVAILABLE',
  'FILE_PATH_OUTSIDE_BASE',
  'DIRECTORY_PATH_OUTSIDE_BASE',
  'FILE_NOT_FOUND',
  'FILE_NOT_FILE',
  'DIRECTORY_NOT_FOUND',
  'DIRECTORY_NOT_DIRECTORY',
  'DIRECTORY_NOT_EMPTY',
  'DELETE_FAILED',
  'PATH_OUTSIDE_BASE',
  // The plugin's contract, copy and move.
  'SOURCE_PATH_OUTSIDE_BASE',
  'DESTINATION_PATH_OUTSIDE_BASE',
  'SOURCE_EQUALS_DESTINATION',
  'SOURCE_FILE_NOT_FOUND',
  'SOURCE_NOT_FILE',
  'DESTINATION_IS_DIRECTORY',
  'DESTINATION_EXISTS',
  'CROSS_DEVICE_MOVE_UNSUPPORTED',
  'MOVE_FAILED',
  'COPY_FAILED',
  'DESTINATION_INSIDE_SOURCE',
  'SOURCE_DIRECTORY_NOT_FOUND',
  'SOURCE_NOT_DIRECTORY',
  'DESTINATION_NOT_DIRECTORY',
  // The plugin's code returns these too, though its contract does not list them.
  'WRITE_FAILED',
  'READ_FAILED',
  'LIST_FAILED',
  // Agent FS's own.
  'INVALID_INPUT',
  'LIMIT_EXCEEDED',
  'BINARY_CONTENT_REFUSED',
  'INVALID_PATTERN',
  'ALREADY_EXISTS',
  'SENSITIVE_PATH_REFUSED',
  'CONTENT_CONFLICT',
  'NO_MATCH',
  'MULTIPLE_MATCHES',
  'PATCH_FAILED',
  'OPERATION_NOT_FOUND',
  'UNDO_CONFLICT',
  'HISTORY_UNAVAILABLE',
  'READ_ONLY_MODE',
  'WORKSPACE_UNTRUSTED',
  'FILE_DIRTY_IN_EDITOR',
  'SYMLINK_OUTSIDE_BASE',
  // The MCP server: the person declined a confirmation asked through the client (or the client could not ask).
  'CONFIRMATION_DECLINED',
  // The MCP server and the runner: the policy the editor published into their state folder cannot be used.
  'POLICY_UNAVAILABLE',
  // Text in its encoding: bytes that are not text in the encoding a read would use (never handed out as U+FFFD).
  'ENCODING_MISMATCH',
  // The history could not record a change's before state (a full disk, an unwritable store), so the change was not made.
  'HISTORY_WRITE_FAILED',
  // Notebooks: a notebook that is not valid nbformat 4 (or that edits would make invalid), and a cell that is not there.
  'NOTEBOOK_INVALID',
  'CELL_NOT_FOUND',
  // A PDF or Word file whose text cannot be had: encrypted, damaged, or holding no text (details.reason).
  'DOCUMENT_UNREADABLE',
  // Symbols: a name path that names no symbol or several, and a file in no language Agent FS can outline.
  'SYMBOL_NOT_FOUND',
  'SYMBOL_AMBIGUOUS',
  'LANGUAGE_UNSUPPORTED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A refusal a tool reports as `ok:false`. Anything else a tool throws is a bug (or a cancellation). */
export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Machine-readable extras a model can act on (e.g. candidate lines); always JSON-serialisable. */
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Thrown when the caller cancelled; the editor layer turns it into `vscode.CancellationError`. */
export class CancelledError extends Error {
  constructor() {
    super('Cancelled');
    this.name = 'CancelledError';
  }
}

/** The message of anything thrown, for wrapping I/O failures into a ToolError. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
