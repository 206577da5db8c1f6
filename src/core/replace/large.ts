/**
 * A replacement in a file above the in-memory edit limit, as a streamed edit (edit/textEdit.ts, edit/stream.ts): a
 * first pass finds the lines that hold a match, and the edit's pass rewrites those lines alone and copies every other
 * byte as it is. Memory is one chunk and the lines being rewritten, whatever the file's size.
 *
 * The first pass reads the whole file as text, exactly: a file with a NUL byte (outside UTF-16) is binary and one
 * with bytes its encoding cannot read is not text, and either is passed over, as a file read whole would be. A
 * pattern that spans lines needs the whole text at once, so it is refused for such a file.
 */
import { limitExceeded } from '../contract/caps';
import { decodeExactLocal } from '../encoding/codec';
import { binaryRefusal } from '../encoding/fileText';
import { publicName } from '../encoding/names';
import { ToolError } from '../errors';
import type { LargeText, TextEditKind } from '../edit/textEdit';
import { WINDOW_MAX_BYTES, type WindowSpec } from '../edit/stream';
import { CHUNK_BYTES } from '../ports/fs';
import { humanSize } from '../read/bytes';
import { throwIfCancelled } from '../signals';
import type { ReplacePattern } from './pattern';
import { replaceText } from './text';

/** What a streamed replacement answers. */
export interface ReplaceFields {
  readonly replacements: number;
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice();
  const both = new Uint8Array(a.length + b.length);
  both.set(a, 0);
  both.set(b, a.length);
  return both;
}

/** The lines of a large file that hold a match, one window each (1-based); refuses a binary or undecodable file. */
async function matchingLines(file: LargeText, pattern: ReplacePattern): Promise<WindowSpec[]> {
  const { regex } = pattern;
  const windows: WindowSpec[] = [];
  let line = 1;
  let offset = 0;
  let carry: Uint8Array = new Uint8Array(0);
  for (;;) {
    throwIfCancelled(file.signals);
    // The source may hand out one reused buffer: what is kept of it is copied (joined).
    const chunk = await file.source.read(offset, CHUNK_BYTES);
    const atEnd = chunk.length === 0;
    offset += chunk.length;
    const bytes = joined(carry, chunk);
    const cut = atEnd ? bytes.length : file.breaks.previous(bytes) + 1;
    carry = bytes.subarray(cut);
    if (carry.length > WINDOW_MAX_BYTES) {
      throw limitExceeded(
        'size_bytes',
        WINDOW_MAX_BYTES,
        `${file.display} has a line longer than ${humanSize(WINDOW_MAX_BYTES)}; Agent FS edits lines of at most that size. Nothing was changed.`,
        file.display,
      );
    }
    const block = bytes.subarray(0, cut);
    if (file.breaks.unit === 1 && block.indexOf(0) !== -1) throw binaryRefusal(file.display);
    const decoded = decodeExactLocal(block, file.encoding);
    if (!('text' in decoded)) {
      throw new ToolError('ENCODING_MISMATCH', `${file.display} is not valid ${publicName(file.encoding)} text.`, { path: file.display });
    }
    const { text } = decoded;
    for (let start = 0; start < text.length; line++) {
      const newline = text.indexOf('\n', start);
      const end = newline === -1 ? text.length : newline;
      regex.lastIndex = 0;
      if (regex.test(text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end))) {
        windows.push({ firstLine: line, lastLine: line });
      }
      start = end + 1;
    }
    if (atEnd) break;
  }
  regex.lastIndex = 0;
  return windows;
}

/** The streamed edit that makes a replacement in a large file. */
export function replaceKind(pattern: ReplacePattern, editInMemoryBytes: number): TextEditKind<number, ReplaceFields> {
  return {
    describe: (l10n, path) => l10n.t('Replacing in {0}', path),
    windows: async (file) => {
      if (pattern.spansLines) {
        throw limitExceeded(
          'size_bytes',
          editInMemoryBytes,
          `${file.display} is larger than ${humanSize(editInMemoryBytes)}, and a pattern that spans lines is applied to files of at most that size (it needs the whole text at once). Exclude the file, or use a pattern within one line. Nothing was changed.`,
          file.display,
        );
      }
      return matchingLines(file, pattern);
    },
    rewrite: ({ text }) => {
      const replaced = replaceText(text, pattern);
      return { text: replaced.text, extra: replaced.count };
    },
    finish: (extras) => ({ replacements: extras.reduce((sum, count) => sum + count, 0) }),
  };
}
