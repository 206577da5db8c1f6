import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { countLines, type TextEncodingName } from '../text';
import { replaceLineRange } from '../lines';
import { defineTool } from '../tool';

interface Input {
  path: string;
  start_line: number;
  end_line: number;
  content: string;
  expected_hash?: string;
  dry_run: boolean;
  encoding?: TextEncodingName;
}

function transform(input: Input): (file: TextFile) => { text: string; extra: Record<string, unknown> } {
  return (file) => {
    const text = replaceLineRange(file.text, input.start_line, input.end_line, input.content, file.path.display);
    return { text, extra: { start_line: input.start_line, end_line: input.end_line, total_lines: countLines(text) } };
  };
}

export const replaceLines = defineTool<Input>({
  name: 'replace_lines',
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  parameters: ['path', 'start_line', 'end_line', 'content', 'expected_hash', 'dry_run', 'encoding'],
  async prepare(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    return prepareTextEdit(context, path, editOptionsOf(input), transform(input), `Replacing lines ${input.start_line}-${input.end_line} of`);
  },
  async run(input, context) {
    const path = await context.paths.resolve(input.path, 'file');
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
