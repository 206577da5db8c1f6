import { editOptionsOf, prepareTextEdit, runTextEdit, type TextFile } from '../editing';
import { ToolError } from '../errors';
import { applyRegions, findMatches, type MatchStage } from '../match';
import type { InputOf, InputSchema } from '../schema';
import { defineTool } from '../tool';
import { DRY_RUN, EDIT_ENCODING, EXPECTED_HASH, pathParameter } from './parameters';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File to edit.'),
    old_string: { type: 'string', minLength: 1, description: 'Text to replace.' },
    new_string: { type: 'string', description: 'Replacement text.' },
    replace_all: { type: 'boolean', default: false, description: 'All matches.' },
    expected_match_count: { type: 'integer', minimum: 1, description: 'Matches to replace.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
    encoding: EDIT_ENCODING,
  },
  required: ['path', 'old_string', 'new_string'],
  additionalProperties: false,
} as const satisfies InputSchema;

type Input = InputOf<typeof inputSchema>;

interface Extra extends Record<string, unknown> {
  stage: MatchStage;
  match_count: number;
  replaced: number;
  lines: number[];
}

function transform(input: Input): (file: TextFile) => { text: string; extra: Extra } {
  return (file) => {
    if (input.old_string === input.new_string) {
      throw new ToolError('INVALID_INPUT', 'old_string and new_string are the same, so the edit would change nothing.', {
        field: 'new_string',
      });
    }
    const display = file.path.display;
    const result = findMatches(file.text, input.old_string, input.new_string);
    if (result.stage === 'none') {
      const best = result.candidates[0];
      const nearest = best
        ? ` The nearest text is at lines ${best.start_line}-${best.end_line} (similarity ${best.similarity}):\n${best.lines.map((line) => `${line.line}: ${line.text}`).join('\n')}\nRead those lines and retry with old_string copied from them.`
        : ' The file has no similar lines.';
      throw new ToolError(
        'NO_MATCH',
        `old_string was not found in ${display}, neither exactly nor ignoring indentation, trailing whitespace and line endings.${nearest}`,
        {
          path: display,
          candidates: result.candidates,
        },
      );
    }
    const count = result.regions.length;
    const lines = result.regions.map((region) => region.line);
    const expected = input.expected_match_count;
    if (expected !== undefined && count !== expected) {
      throw new ToolError(
        count > expected ? 'MULTIPLE_MATCHES' : 'NO_MATCH',
        `old_string matches ${count} time${count === 1 ? '' : 's'} in ${display} (${result.stage} match, at line${count === 1 ? '' : 's'} ${lines.join(', ')}), but expected_match_count is ${expected}. Nothing was changed.`,
        { path: display, stage: result.stage, match_count: count, expected_match_count: expected, lines },
      );
    }
    if (expected === undefined && count > 1 && !input.replace_all) {
      throw new ToolError(
        'MULTIPLE_MATCHES',
        `old_string matches ${count} times in ${display} (${result.stage} match, at lines ${lines.join(', ')}). Include more surrounding lines so it matches once, or pass replace_all: true to change every one.`,
        { path: display, stage: result.stage, match_count: count, lines },
      );
    }
    return { text: applyRegions(file.text, result.regions), extra: { stage: result.stage, match_count: count, replaced: count, lines } };
  };
}

export const editFile = defineTool({
  name: 'edit_file',
  title: 'Edit File',
  userDescription: 'Replace a unique piece of text in a workspace file.',
  modelDescription:
    'Replace old_string with new_string in a file, once unless replace_all or expected_match_count; indentation may differ. Copy old_string from a fresh read.',
  icon: 'edit',
  tags: ['write', 'edit'],
  effect: 'write',
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  async prepare(input, context, { path }) {
    return prepareTextEdit(context, path, editOptionsOf(input), transform(input), 'Editing');
  },
  async run(input, context, { path }) {
    return runTextEdit(context, path, editOptionsOf(input), transform(input));
  },
});
