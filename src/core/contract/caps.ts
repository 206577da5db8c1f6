/**
 * Caps: requests larger than a tool serves are refused with LIMIT_EXCEEDED, never clipped, and every refusal carries
 * the same `details`: `field` (the parameter, or `size_bytes` for a file too large) and `cap`, plus `path` when the
 * cap is about one file. A cap on a parameter is declared in its tool's definition (`caps`) and checked by the call
 * pipeline before any path is resolved; a cap that depends on the call (the policy's read budget, a file's size) is
 * checked where it is known, through `limitExceeded`.
 *
 * A cap is not a schema `maximum`: the schema would answer INVALID_INPUT first, which tells a model less.
 */
import { ToolError } from '../errors';

/** A cap declared on one parameter: an integer's value, an array's length, a string's UTF-8 bytes. */
export interface Cap {
  readonly cap: number;
  /** What to do instead, said to the model: "Ask for at most 200, or narrow the query." */
  readonly advice: string;
}

export function limitExceeded(field: string, cap: number, message: string, path?: string): ToolError {
  return new ToolError('LIMIT_EXCEEDED', message, path === undefined ? { field, cap } : { field, cap, path });
}

const utf8 = new TextEncoder();

/** Checks each declared cap against the validated input, in the definition's order. */
export function checkDeclaredCaps(caps: Readonly<Record<string, Cap>>, input: Readonly<Record<string, unknown>>): void {
  for (const [field, { cap, advice }] of Object.entries(caps)) {
    const value = input[field];
    if (typeof value === 'number' && value > cap) {
      throw limitExceeded(field, cap, `${field} ${value} is above the cap of ${cap}. ${advice}`);
    }
    if (Array.isArray(value) && value.length > cap) {
      throw limitExceeded(field, cap, `${value.length} ${field} is above the cap of ${cap} per call. ${advice}`);
    }
    if (typeof value === 'string') {
      const bytes = utf8.encode(value).length;
      if (bytes > cap) throw limitExceeded(field, cap, `${field} is ${bytes} bytes, above the cap of ${cap} bytes. ${advice}`);
    }
  }
}
