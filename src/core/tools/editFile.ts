import { arrayOf, described, INTEGER, object, oneOf, optional } from '../contract/results';
import { EDIT_FIELDS } from './fields';
import { type MatchEdit, type MatchFields, matchKind } from '../edit/kinds';
import { editOptionsOf, inEdit, prepareTextEdit, runTextEdit, TEXT_EDIT_ERRORS, type TextEditKind } from '../edit/textEdit';
import { ToolError } from '../errors';
import type { InputOf, InputSchema } from '../contract/schema';
import type { ToolContext } from '../context';
import { defineTool } from '../tool';
import { DRY_RUN, ENCODING, EXPECTED_HASH, pathParameter } from './parameters';

/** What one edit answers: for a single one beside the edit fields, for `edits` in its entry. */
const MATCH_FIELDS = {
  stage: oneOf('exact', 'whitespace'),
  match_count: INTEGER,
  replaced: INTEGER,
  lines: described('The 1-based line of each match.', arrayOf(INTEGER)),
} as const;

/** More edits than this in one call is refused: past it, a patch (apply_patch) or a rewrite says it better. */
const EDITS_CAP = 100;

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File.'),
    old_string: { type: 'string', description: 'Text to replace.' },
    new_string: { type: 'string', description: 'Replacement.' },
    replace_all: { type: 'boolean', description: 'All matches.' },
    expected_match_count: { type: 'integer', description: 'Match count.' },
    // The items' shape is checked by editsOf (each property spelt out here would cost the definition ~200 bytes).
    edits: { type: 'array', items: { type: 'object' }, description: 'Or [{old_string, new_string, replace_all?}], in order, all or none.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: ENCODING,
  },
  required: ['path'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

function invalid(field: string, message: string): ToolError {
  return new ToolError('INVALID_INPUT', message, { field });
}

/** The `edits` items, checked here rather than by the schema (see there): each one pair, nothing else. */
function editsOf(items: readonly unknown[]): MatchEdit[] {
  if (items.length === 0) throw invalid('edits', 'edits is empty: give at least one {old_string, new_string}.');
  return items.map((item, index) => {
    const field = `edits[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw invalid(field, `${field} must be an object {old_string, new_string, replace_all?}.`);
    const extra = Object.keys(item).find((key) => key !== 'old_string' && key !== 'new_string' && key !== 'replace_all');
    if (extra !== undefined)
      throw invalid(
        `${field}.${extra}`,
        `${field} has "${extra}", which is not a property of an edit; an edit has old_string, new_string and replace_all.`,
      );
    const { old_string: oldString, new_string: newString, replace_all: replaceAll } = item as Record<string, unknown>;
    if (typeof oldString !== 'string' || oldString === '')
      throw invalid(`${field}.old_string`, `${field}.old_string must be the (non-empty) text to replace.`);
    if (typeof newString !== 'string')
      throw invalid(`${field}.new_string`, `${field}.new_string must be the replacement text ("" deletes).`);
    if (replaceAll !== undefined && typeof replaceAll !== 'boolean')
      throw invalid(`${field}.replace_all`, `${field}.replace_all must be true or false.`);
    return { old_string: oldString, new_string: newString, ...(replaceAll === undefined ? {} : { replace_all: replaceAll }) };
  });
}

/** The edits a call asks for: one pair, or the `edits` list (never both, never neither). */
function requestedEdits(input: Input, context: ToolContext): TextEditKind<unknown, MatchFields>[] {
  const limit = context.policy.editInMemoryBytes;
  const kindAt = (edit: MatchEdit, index: number | undefined): TextEditKind<unknown, MatchFields> => {
    try {
      return matchKind(edit, limit);
    } catch (error) {
      throw index === undefined ? error : inEdit(error, index);
    }
  };
  if (input.edits !== undefined) {
    if (
      input.old_string !== undefined ||
      input.new_string !== undefined ||
      input.expected_match_count !== undefined ||
      input.replace_all !== undefined
    ) {
      throw invalid('edits', 'Pass either old_string and new_string (with replace_all or expected_match_count) or edits, not both.');
    }
    return editsOf(input.edits).map((edit, index) => kindAt(edit, index));
  }
  if (input.old_string === undefined || input.old_string === '') {
    throw invalid('old_string', 'old_string is missing or empty: pass the text to replace (or edits, a list of several).');
  }
  if (input.new_string === undefined)
    throw invalid('new_string', 'new_string is missing: pass the text that replaces old_string ("" deletes it).');
  if (input.expected_match_count !== undefined && input.expected_match_count < 1) {
    throw invalid('expected_match_count', `expected_match_count must be at least 1, not ${input.expected_match_count}.`);
  }
  return [
    kindAt(
      {
        old_string: input.old_string,
        new_string: input.new_string,
        replace_all: input.replace_all === true,
        ...(input.expected_match_count === undefined ? {} : { expected_match_count: input.expected_match_count }),
      },
      undefined,
    ),
  ];
}

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit File',
  userDescription: 'Replace a unique piece of text in a workspace file.',
  modelDescription:
    'Replace old_string with new_string, once unless replace_all or expected_match_count; indentation may differ. Copy old_string from a fresh read.',
  icon: 'edit',
  tags: ['write', 'edit'],
  effect: 'write',
  announcesChanges: true,
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema: object({
    ...EDIT_FIELDS,
    // One edit: its fields beside the edit fields; several (edits): each one's in its entry.
    stage: optional(MATCH_FIELDS.stage),
    match_count: optional(MATCH_FIELDS.match_count),
    replaced: optional(MATCH_FIELDS.replaced),
    lines: optional(MATCH_FIELDS.lines),
    edits: optional(described('With edits: what each edit did, in order.', arrayOf(object(MATCH_FIELDS)))),
  }),
  errors: [...TEXT_EDIT_ERRORS, 'NO_MATCH', 'MULTIPLE_MATCHES'],
  caps: { edits: { cap: EDITS_CAP, advice: 'Split them over several calls, or make a patch.' } },
  async prepare(input, context, { path }) {
    return prepareTextEdit(context, path, editOptionsOf(input), requestedEdits(input, context));
  },
  async run(input, context, { path }) {
    return runTextEdit(context, path, editOptionsOf(input), requestedEdits(input, context));
  },
});
