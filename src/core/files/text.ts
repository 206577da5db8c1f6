/**
 * Line facts of decoded text (newline style, line count) and the contract's content hash. Decoding and encoding
 * text is encoding/'s: every read and write of text goes through encoding/fileText.ts.
 */
export { contentHash } from './hashing';

export type NewlineStyle = 'lf' | 'crlf' | 'mixed' | 'none';

export function detectNewline(text: string): NewlineStyle {
  let crlf = 0;
  let lf = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf++;
    else lf++;
    if (crlf > 0 && lf > 0) return 'mixed';
  }
  return crlf > 0 ? 'crlf' : lf > 0 ? 'lf' : 'none';
}

/** Lines as an editor counts them: a trailing newline does not start another line; an empty text has none. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return text.endsWith('\n') ? count - 1 : count;
}
