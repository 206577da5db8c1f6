import { toolRef } from '../naming';
import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { countLines } from '../text';
import { replaceLineRange } from '../lines';
import type { InputOf, InputSchema } from '../schema';
import { defineTool } from '../tool';
import { DRY_RUN, EDIT_ENCODING, EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File to edit.'),
    start_line: { type: 'integer', minimum: 1, description: 'First line.' },
    end_line: { type: 'integer', minimum: 1, description: 'Last line.' },
    content: { type: 'string', description: 'The new lines.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: EDIT_ENCODING,
  },
  required: ['path', 'start_line', 'end_line', 'content'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

function transform(input: Input): (file: TextFile) => { text: string; extra: Record<string, unknown> } {
  return (file) => {
    const text = replaceLineRange(file.text, input.start_line, input.end_line, input.content, file.path.display);
    return { text, extra: { start_line: input.start_line, end_line: input.end_line, total_lines: countLines(text) } };
  };
}

export const replaceLines = defineTool({
  name: 'replace_lines',
  title: 'Replace Lines',
  userDescription: 'Replace a range of lines in a workspace file.',
  modelDescription: `Replace lines start_line..end_line (1-based, inclusive) with content; out of range is refused. Use line numbers from a fresh read, else ${toolRef('edit_file')}.`,
  icon: 'replace',
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
      `Replacing lines ${input.start_line}-${input.end_line} of`,
    );
  },
  async run(input, context, { path }) {
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
