import { INTEGER, object } from '../contract/results';
import { EDIT_FIELDS } from './fields';
import { toolRef } from '../naming';
import { type LineRangeFields, lineRangeKind } from '../edit/kinds';
import { editOptionsOf, prepareTextEdit, runTextEdit, TEXT_EDIT_ERRORS, type TextEditKind } from '../edit/textEdit';
import type { InputOf, InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { DRY_RUN, ENCODING, EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File.'),
    start_line: { type: 'integer', minimum: 1, description: 'First line.' },
    end_line: { type: 'integer', minimum: 1, description: 'Last line.' },
    content: { type: 'string', description: 'New lines.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: ENCODING,
  },
  required: ['path', 'start_line', 'end_line', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

function kinds(input: InputOf<typeof inputSchema>): [TextEditKind<null, LineRangeFields>] {
  return [
    lineRangeKind(input.start_line, input.end_line, input.content, (l10n, path) =>
      l10n.t('Replacing lines {0}-{1} of {2}', input.start_line, input.end_line, path),
    ),
  ];
}

export const replaceLines = defineTool({
  name: 'replace_lines',
  title: 'Replace Lines',
  userDescription: 'Replace a range of lines in a workspace file.',
  modelDescription: `Replace lines start_line..end_line (1-based, inclusive) with content. Use line numbers from a fresh read, else ${toolRef('edit_file')}.`,
  icon: 'replace',
  tags: ['write', 'edit'],
  effect: 'write',
  announcesChanges: true,
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema: object({ ...EDIT_FIELDS, start_line: INTEGER, end_line: INTEGER, total_lines: INTEGER }),
  errors: TEXT_EDIT_ERRORS,
  async prepare(input, context, { path }) {
    return prepareTextEdit(context, path, editOptionsOf(input), kinds(input));
  },
  async run(input, context, { path }) {
    return runTextEdit(context, path, editOptionsOf(input), kinds(input));
  },
});
