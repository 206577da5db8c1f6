/**
 * Parameters several tools take with the same meaning, so that each is described once. A tool's schema (in its own
 * file) lists them by name; a parameter only one tool takes is written out there.
 */

/**
 * A path in the workspace, relative to the base directory (or absolute inside it). Its length limit is the
 * resolver's (MAX_PATH_LENGTH in confinement.ts), which every path passes through, so the schema need not repeat it.
 */
export function pathParameter<const Description extends string>(description: Description) {
  return { type: 'string', minLength: 1, description } as const;
}

/** Its form is checked by the tools (checkHashFormat in editing.ts), which keeps this definition short. */
export const EXPECTED_HASH = {
  type: 'string',
  description: 'Expected content_hash.',
} as const;

export const DRY_RUN = { type: 'boolean', default: false, description: 'Diff only.' } as const;

/**
 * A VS Code encoding name (encoding/names.ts), checked by the tools (requestedEncoding in encoding/fileText.ts): an
 * enum of the fifty names would cost every definition that takes one about 600 bytes.
 */
export const ENCODING = { type: 'string', description: 'e.g. latin1.' } as const;

export const INCLUDE_IGNORED = {
  type: 'boolean',
  default: false,
  description: 'Ignored too.',
} as const;

export const INCLUDE_HIDDEN = { type: 'boolean', default: false, description: 'Dot files too.' } as const;

/** An id of the history (history/legacy.ts OPERATION_ID_PATTERN says its form; the tools say when it is unknown). */
export const OPERATION_ID = { type: 'string', minLength: 1, maxLength: 64, description: 'The operation_id.' } as const;

export const OFFSET = { type: 'integer', minimum: 0, description: 'A next_offset.' } as const;
