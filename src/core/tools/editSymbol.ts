import { INTEGER, described, object, oneOf, STRING } from '../contract/results';
import { EDIT_FIELDS } from './fields';
import { editOptionsOf, prepareTextEdit, runTextEdit, TEXT_EDIT_ERRORS } from '../edit/textEdit';
import type { InputOf, InputSchema } from '../contract/schema';
import type { ToolContext } from '../context';
import type { ConfinedPath } from '../confinement';
import { defineTool } from '../tool';
import { DRY_RUN, EXPECTED_HASH, pathParameter } from './parameters';
import { symbolKind } from '../symbols/edit';
import { languageFor, type Outliner, outlinerFor } from '../symbols/symbols';
import { assertMayWrite } from '../policy/policy';

const inputSchema = {
  type: 'object',
  properties: {
    path: pathParameter('File.'),
    symbol: { type: 'string', description: 'name_path.' },
    action: { type: 'string', enum: ['replace', 'insert_before', 'insert_after'], description: 'Where text goes.' },
    text: { type: 'string', description: 'Lines.' },
    expected_hash: EXPECTED_HASH,
    dry_run: DRY_RUN,
  },
  required: ['path', 'symbol', 'action', 'text'],
  additionalProperties: false,
} as const satisfies InputSchema;

/**
 * The edit, with its language's parser loaded. A path the edit itself refuses (protected, missing, not a file) is
 * refused for that, as by every edit tool, before its language is asked about.
 */
async function kinds(input: InputOf<typeof inputSchema>, context: ToolContext, path: ConfinedPath) {
  await assertMayWrite(context, path, 'file');
  const stat = await context.workspace.fs.stat(path.absolute);
  const outliner: Outliner =
    stat?.kind === 'file'
      ? await outlinerFor(context, path, languageFor(path))
      : () => {
          throw new Error('unreachable: the edit refuses a path that is not a file before it rewrites');
        };
  return [symbolKind(outliner, input.symbol, input.action, input.text, context.policy.editInMemoryBytes)] as const;
}

export const editSymbol = defineTool({
  name: 'edit_symbol',
  title: 'Edit Symbol',
  userDescription: 'Replace a function, method or class by name, or insert lines before or after it.',
  modelDescription:
    "Replace a symbol's whole declaration (decorators and modifiers too, not comments above) with text, or insert text before or after it.",
  icon: 'symbol-method',
  tags: ['write', 'edit', 'symbols'],
  effect: 'write',
  announcesChanges: true,
  failureCode: 'WRITE_FAILED',
  idempotent: false,
  inputSchema,
  pathParameters: { path: 'file' },
  outputSchema: object({
    ...EDIT_FIELDS,
    symbol: described('The name path edited.', STRING),
    action: oneOf('replace', 'insert_before', 'insert_after'),
    start_line: described("The declaration's first line before the edit.", INTEGER),
    end_line: described("The declaration's last line before the edit.", INTEGER),
    total_lines: INTEGER,
  }),
  errors: [...TEXT_EDIT_ERRORS, 'LANGUAGE_UNSUPPORTED', 'SYMBOL_NOT_FOUND', 'SYMBOL_AMBIGUOUS'],
  async prepare(input, context, { path }) {
    return prepareTextEdit(context, path, editOptionsOf({ ...input, encoding: undefined }), await kinds(input, context, path));
  },
  async run(input, context, { path }) {
    return runTextEdit(context, path, editOptionsOf({ ...input, encoding: undefined }), await kinds(input, context, path));
  },
});
