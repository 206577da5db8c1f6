import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { type InsertPosition, insertLinesAt } from '../lines';
import { countLines, type TextEncodingName } from '../text';
import { defineTool } from '../tool';

interface Input {
  path: string;
  position: InsertPosition;
  line?: number;
  content: string;
  expected_hash?: string;
  dry_run: boolean;
  encoding?: TextEncodingName;
}

function transform(input: Input): (file: TextFile) => { text: string; extra: Record<string, unknown> } {
  return (file) => {
    const text = insertLinesAt(file.text, input.position, input.line, input.content, file.path.display);
    return { text, extra: { position: input.position, line: input.line ?? null, total_lines: countLines(text) } };
  };
}

export const insertLines = defineTool<Input>({
  name: 'insert_lines',
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  parameters: ['path', 'position', 'line', 'content', 'expected_hash', 'dry_run', 'encoding'],
  async prepare(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    const where = input.position === 'end' ? 'at the end of' : `${input.position} line ${input.line ?? '?'} of`;
    return prepareTextEdit(context, path, editOptionsOf(input), transform(input), `Inserting lines ${where}`);
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
