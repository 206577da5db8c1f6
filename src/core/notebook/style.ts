/**
 * How a notebook's text is written — indentation, line endings, separators, key order, escaping — read from the text
 * itself, and JSON written the same way. Jupyter writes one-space indentation, sorted keys and raw non-ASCII
 * characters; other writers differ. An edit writes only the values it changes, in the style of what is around them,
 * so the rest of the file keeps every byte.
 */
import type { Node } from 'jsonc-parser';
import type { ParsedNotebook } from './model';

export interface JsonStyle {
  readonly newline: string;
  /** One level of indentation; undefined for JSON written on one line. */
  readonly unit: string | undefined;
  /** What stands between a key and its value (`": "`). */
  readonly colon: string;
  /** What stands between items of JSON written on one line (`","` or `", "`). */
  readonly comma: string;
  /** Whether characters outside ASCII are written as \u escapes (Python's ensure_ascii). */
  readonly asciiOnly: boolean;
  /** Whether a new cell's keys are sorted (Jupyter's sort_keys), else in the order of the notebook's first cell. */
  readonly sortKeys: boolean;
  /** Whether a new cell's source is a list of lines (nbformat's own way) rather than one string. */
  readonly sourceAsLines: boolean;
}

/** The whitespace at the start of the line on which `offset` stands. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

function firstProperty(node: Node): Node | undefined {
  return node.children?.find((child) => child.type === 'property');
}

export function detectStyle(notebook: ParsedNotebook): JsonStyle {
  const { text, cells } = notebook;
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const cellsProperty = notebook.cellsNode.parent;
  const root = cellsProperty?.parent;
  const property = root ? firstProperty(root) : undefined;
  const key = property?.children?.[0];
  const value = property?.children?.[1];
  const onOwnLine = property !== undefined && text.lastIndexOf('\n', property.offset) > (root?.offset ?? 0);
  const unit = onOwnLine && property ? indentAt(text, property.offset) : undefined;
  const colon = key && value ? text.slice(key.offset + key.length, value.offset) : ': ';
  const first = cells[0];
  const pair = root?.children;
  const comma =
    unit === undefined && pair && pair.length > 1 && pair[0] && pair[1] ? text.slice(pair[0].offset + pair[0].length, pair[1].offset) : ',';
  const keys = first?.node.children?.map((child) => String(child.children?.[0]?.value)) ?? [];
  const asciiOnly = !/[^\x00-\x7f]/.test(text) && /\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])[0-9a-fA-F]{2}/.test(text);
  return {
    newline,
    unit: unit === '' ? undefined : unit,
    colon: /^\s*:\s*$/.test(colon) ? colon : ': ',
    comma: /^\s*,\s*$/.test(comma) ? comma : ',',
    asciiOnly,
    sortKeys: keys.length === 0 || keys.every((name, index) => index === 0 || (keys[index - 1] ?? '') <= name),
    sourceAsLines: first === undefined || typeof first.json.source !== 'string',
  };
}

/** A string as JSON, escaped as Python's json module escapes it (and, in an ASCII-only file, as ensure_ascii does). */
export function jsonString(value: string, style: Pick<JsonStyle, 'asciiOnly'>): string {
  const quoted = JSON.stringify(value);
  if (!style.asciiOnly) return quoted;
  return quoted.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `value` as JSON in the notebook's style, its first line standing at `indent` (the indentation of its line). */
export function writeJson(value: unknown, style: JsonStyle, indent: string): string {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? jsonString(value, style) : JSON.stringify(value);
  const entries: [string | undefined, unknown][] = Array.isArray(value)
    ? value.map((item): [undefined, unknown] => [undefined, item])
    : Object.entries(value as Record<string, unknown>);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return open + close;
  const inner = style.unit === undefined ? '' : indent + style.unit;
  const items = entries.map(
    ([key, item]) => (key === undefined ? '' : jsonString(key, style) + style.colon) + writeJson(item, style, inner),
  );
  if (style.unit === undefined) return open + items.join(style.comma) + close;
  const { newline } = style;
  return `${open}${newline}${inner}${items.join(`,${newline}${inner}`)}${newline}${indent}${close}`;
}

/** A cell's source as nbformat stores a multiline string: its lines, each keeping its newline. */
export function sourceLines(source: string): string[] {
  return source.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
