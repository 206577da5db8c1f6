import { INTEGER, nullable, object, oneOf } from '../contract/results';
import { EDIT_FIELDS } from './fields';
import { type InsertFields, insertKind } from '../edit/kinds';
import { editOptionsOf, prepareTextEdit, runTextEdit, TEXT_EDIT_ERRORS, type TextEditKind } from '../edit/textEdit';
import type { InputOf, InputSchema } from '../contract/schema';
import { defineTool } from '../tool';
import { DRY_RUN, ENCODING, EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File.'),
    position: { type: 'string', enum: ['before', 'after', 'end'], description: 'Where, relative to line.' },
    line: { type: 'integer', minimum: 1, description: 'Line number.' },
    content: { type: 'string', minLength: 1, description: 'Lines.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: ENCODING,
  },
  required: ['path', 'position', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

function kinds(input: InputOf<typeof inputSchema>): [TextEditKind<null, InsertFields>] {
  return [insertKind(input.position, input.line, input.content)];
}

export const insertLines = defineTool({
  name: 'insert_lines',
  title: 'Insert Lines',
  userDescription: 'Insert lines into a workspace file.',
  modelDescription: 'Insert lines before or after a 1-based line, or at the end (position end, no line).',
  icon: 'insert',
  tags: ['write', 'edit'],
  effect: 'write',
  announcesChanges: true,
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema: object({ ...EDIT_FIELDS, position: oneOf('before', 'after', 'end'), line: nullable(INTEGER), total_lines: INTEGER }),
  errors: TEXT_EDIT_ERRORS,
  async prepare(input, context, { path }) {
    return prepareTextEdit(context, path, editOptionsOf(input), kinds(input));
  },
  async run(input, context, { path }) {
    return runTextEdit(context, path, editOptionsOf(input), kinds(input));
  },
});
