import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { insertLinesAt } from '../lines';
import { countLines } from '../text';
import type { InputOf, InputSchema } from '../schema';
import { defineTool } from '../tool';
import { DRY_RUN, EDIT_ENCODING, EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File to edit.'),
    position: { type: 'string', enum: ['before', 'after', 'end'], description: 'Where, relative to line.' },
    line: { type: 'integer', minimum: 1, description: 'Line number.' },
    content: { type: 'string', minLength: 1, description: 'Lines to insert.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: EDIT_ENCODING,
  },
  required: ['path', 'position', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

function transform(input: Input): (file: TextFile) => { text: string; extra: Record<string, unknown> } {
  return (file) => {
    const text = insertLinesAt(file.text, input.position, input.line, input.content, file.path.display);
    return { text, extra: { position: input.position, line: input.line ?? null, total_lines: countLines(text) } };
  };
}

export const insertLines = defineTool({
  name: 'insert_lines',
  title: 'Insert Lines',
  userDescription: 'Insert lines into a workspace file.',
  modelDescription: 'Insert lines before or after a 1-based line, or at the end (position end, no line). Out of range is refused.',
  icon: 'insert',
  tags: ['write', 'edit'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  async prepare(input, context, { path }) {
    const where = input.position === 'end' ? 'at the end of' : `${input.position} line ${input.line ?? '?'} of`;
    return prepareTextEdit(context, path, editOptionsOf(input), transform(input), `Inserting lines ${where}`);
  },
  async run(input, context, { path }) {
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
