import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { replaceLineRange } from '../lines';
import { countLines } from '../text';
import type { InputOf, InputSchema } from '../schema';
import { defineTool } from '../tool';
import { DRY_RUN, EDIT_ENCODING, EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File to edit.'),
    start_line: { type: 'integer', minimum: 1, description: 'First line.' },
    end_line: { type: 'integer', minimum: 1, description: 'Last line.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: EDIT_ENCODING,
  },
  required: ['path', 'start_line', 'end_line'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

function transform(input: Input): (file: TextFile) => { text: string; extra: Record<string, unknown> } {
  return (file) => {
    const text = replaceLineRange(file.text, input.start_line, input.end_line, '', file.path.display);
    return { text, extra: { start_line: input.start_line, end_line: input.end_line, total_lines: countLines(text) } };
  };
}

export const deleteLines = defineTool({
  name: 'delete_lines',
  title: 'Delete Lines',
  userDescription: 'Delete a range of lines from a workspace file.',
  modelDescription: 'Delete lines start_line..end_line (1-based, inclusive); out of range is refused.',
  icon: 'remove',
  tags: ['write', 'edit'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  async prepare(input, context, { path }) {
    return prepareTextEdit(
      context,
      path,
      editOptionsOf(input),
      transform(input),
      `Deleting lines ${input.start_line}-${input.end_line} of`,
    );
  },
  async run(input, context, { path }) {
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
