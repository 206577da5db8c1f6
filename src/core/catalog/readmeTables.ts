/**
 * The README's tool table and error-code table, written from the definitions (the tools' schemas, caps and output
 * schemas, ERROR_DOCS) so that a parameter or a result field changed in its tool's file changes the README too.
 * `npm run build` rewrites the blocks between the markers (esbuild.mjs, as it writes the manifest), and
 * test/unit/readmeTables.test.ts fails when the committed README differs from what this writes.
 *
 * Compact on purpose (the README stays under 500 lines): one row per tool, parameters as `name` (default, cap),
 * results as field names with `?` on the optional ones, nested fields in [ ] (a list) or { } (an object), a result of
 * several shapes as each shape's description and its fields.
 */
import type { Cap } from '../contract/caps';
import { ERROR_CODES } from '../errors';
import { ERROR_DOCS } from './errorDocs';
import { RUNNER_NAMING, renderText } from '../naming';
import { type FieldSchema, HOST_FIELDS, HOSTS, OPTIONAL, RECORDED_FIELDS, type ResultHost } from '../contract/results';
import type { ParameterSchema } from '../contract/schema';
import type { Tool } from '../tool';

/** The README's blocks, by name: `<!-- name:begin … -->` … `<!-- name:end -->`. */
export type ReadmeBlock = 'tools' | 'errors';

const code = (text: string): string => `\`${text}\``;

function bytesText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return String(bytes);
}

/** A default the schema does not hold (the validator would fill it in) is stated in the description: "Default 200 …". */
function defaultOf(schema: ParameterSchema): string | undefined {
  if (schema.default !== undefined) return typeof schema.default === 'string' ? `"${schema.default}"` : JSON.stringify(schema.default);
  const stated = /\bdefault:? ([^;,)(]+?)(?: \(|[;,)]|\.$|$)/i.exec(schema.description ?? '');
  return stated?.[1]?.trim();
}

function parameterText(name: string, schema: ParameterSchema, cap: Cap | undefined): string {
  const notes: string[] = [];
  if (schema.enum) notes.push(schema.enum.map((value) => code(String(value))).join(' / '));
  const fallback = defaultOf(schema);
  if (fallback !== undefined) notes.push(`default ${fallback}`);
  if (cap) notes.push(`at most ${schema.type === 'string' ? bytesText(cap.cap) : cap.cap}`);
  return notes.length === 0 ? code(name) : `${code(name)} (${notes.join(', ')})`;
}

function parametersText(tool: Tool): string {
  const { properties, required = [] } = tool.inputSchema;
  const text = (names: readonly string[]): string =>
    names.map((name) => parameterText(name, properties[name] ?? {}, tool.caps[name])).join(', ');
  const optional = Object.keys(properties).filter((name) => !required.includes(name));
  if (required.length === 0) return optional.length === 0 ? '(none)' : text(optional);
  return optional.length === 0 ? text(required) : `${text(required)}; ${text(optional)}`;
}

/** The shapes a field may take, nulls left out (a field that may be null is not told apart here). */
function shapesOf(field: FieldSchema): FieldSchema[] {
  return field.anyOf ? field.anyOf.flatMap(shapesOf) : [field];
}

const HOST_NAMES: Record<ResultHost, string> = { editor: 'VS Code', runner: 'runner', mcp: 'MCP server' };

function fieldText(name: string, field: FieldSchema): string {
  const hosts = field[HOSTS];
  const only = hosts ? ` (${hosts.map((host) => HOST_NAMES[host]).join(', ')} only)` : '';
  const label = `${code(name)}${field[OPTIONAL] ? '?' : ''}${only}`;
  const inner = shapesOf(field.items ?? field)
    .map((shape) => {
      const values = (shape.enum ?? []).filter((value) => value !== null);
      if (values.length > 1) return values.map((value) => code(String(value))).join(' / ');
      return shape.properties ? fieldsText(shape.properties) : undefined;
    })
    .filter((text) => text !== undefined);
  if (inner.length === 0) return label;
  const [open, close] = field.items ? ['[', ']'] : field.enum || field.anyOf?.every((shape) => shape.enum) ? ['(', ')'] : ['{', '}'];
  return `${label} ${open}${inner.join(' or ')}${close}`;
}

function fieldsText(properties: Readonly<Record<string, FieldSchema>>, leaveOut: readonly string[] = []): string {
  return Object.entries(properties)
    .filter(([name]) => !leaveOut.includes(name))
    .map(([name, field]) => fieldText(name, field))
    .join(', ');
}

/** What the pipeline and the editor add to the result of every tool that changes files, told once below the table. */
const ADDED_FIELDS = { ...RECORDED_FIELDS, ...HOST_FIELDS };

function dataText(tool: Tool): string {
  const schema = tool.outputSchema;
  const leaveOut = tool.effect === 'write' ? Object.keys(ADDED_FIELDS) : [];
  if (!('anyOf' in schema)) return fieldsText(schema.properties, leaveOut);
  return schema.anyOf.map((shape) => `${shape.description ?? 'Or'}: ${fieldsText(shape.properties, leaveOut)}`).join('; ');
}

function cell(text: string): string {
  return renderText(text, RUNNER_NAMING).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function toolTable(tools: readonly Tool[]): string {
  const rows = tools.map((tool) => `| ${code(tool.name)} | ${cell(parametersText(tool))} | ${cell(dataText(tool))} |`);
  const added = `Every tool that changes files adds ${fieldsText(ADDED_FIELDS)}.`;
  return ['| tool | parameters (required; optional) | `data` on success |', '|---|---|---|', ...rows, '', cell(added)].join('\n');
}

export function errorTable(): string {
  const rows = ERROR_DOCS.map((row) => `| ${row.codes.map(code).join(' / ')} | ${cell(row.when)} |`);
  return ['| code | returned when |', '|---|---|', ...rows].join('\n');
}

/** Every code in exactly one row of ERROR_DOCS, or the codes that are not. */
export function undocumentedCodes(): string[] {
  const documented = ERROR_DOCS.flatMap((row) => row.codes);
  return ERROR_CODES.filter((each) => documented.filter((other) => other === each).length !== 1);
}

const marker = (block: ReadmeBlock, end: 'begin' | 'end'): string =>
  end === 'begin' ? `<!-- ${block}:begin (npm run build writes this block from src/core) -->` : `<!-- ${block}:end -->`;

/** The README with each block rewritten; throws when a block's markers are missing. */
export function rewriteReadme(readme: string, tools: readonly Tool[]): string {
  const blocks: Record<ReadmeBlock, string> = {
    tools: toolTable(tools),
    errors: errorTable(),
  };
  let text = readme;
  for (const [block, content] of Object.entries(blocks) as [ReadmeBlock, string][]) {
    const begin = text.indexOf(marker(block, 'begin'));
    const end = text.indexOf(marker(block, 'end'));
    if (begin === -1 || end < begin) throw new Error(`README.md: no ${block} block (${marker(block, 'begin')} … ${marker(block, 'end')})`);
    text = `${text.slice(0, begin + marker(block, 'begin').length)}\n${content}\n${text.slice(end)}`;
  }
  return text;
}
