/** The text facts file_info reports about a file, without returning its content. */
import { decodeExact, LOCAL_CODEC } from '../encoding/codec';
import { DETECTION_HEAD_BYTES } from '../encoding/detect';
import { decodeFileText, detectFileEncoding, type FileRef } from '../encoding/fileText';
import { familyOf, publicName } from '../encoding/names';
import { ToolError } from '../errors';
import type { FileSystem } from '../ports/fs';
import { contentHash } from '../files/hashing';
import { countLines, detectNewline, type NewlineStyle } from '../files/text';
import { countLinesInBytes, newlineOfBytes } from './bytes';
import { UNRANGED_READ_CAP, WHOLE_READ_BYTES } from './limits';

export interface TextFacts {
  readonly is_text: boolean;
  readonly content_hash: string | null;
  /** The encoding read_file reads the file in; null when the file is not text in the encoding the rules pick. */
  readonly encoding: string | null;
  readonly bom: boolean | null;
  readonly newline: NewlineStyle | null;
  readonly line_count: number | null;
}

/**
 * The text facts of file_info, by the same rules as read_file (encoding/fileText.ts), so both name the same encoding.
 * Files up to WHOLE_READ_BYTES are read whole and described completely; larger ones are judged by their first bytes
 * (content_hash and line_count null), never read whole. A file whose bytes are not text in the encoding the rules
 * pick is still text (`is_text`), with `encoding` null: read_file then refuses it (ENCODING_MISMATCH) until an
 * encoding is named.
 */
export async function describeText(fs: FileSystem, file: FileRef, size: number): Promise<TextFacts> {
  const unknown: TextFacts = { is_text: false, content_hash: null, encoding: null, bom: null, newline: null, line_count: null };
  if (size <= WHOLE_READ_BYTES || !fs.readRange) {
    if (size > UNRANGED_READ_CAP) return unknown;
    const bytes = await fs.readFile(file.absolute);
    const hash = contentHash(bytes);
    try {
      const decoded = await decodeFileText(file, bytes);
      return {
        is_text: true,
        content_hash: hash,
        encoding: publicName(decoded.encoding),
        bom: decoded.bom,
        newline: detectNewline(decoded.text),
        line_count: countLines(decoded.text),
      };
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      if (error.code === 'BINARY_CONTENT_REFUSED') return { ...unknown, content_hash: hash };
      return {
        is_text: true,
        content_hash: hash,
        encoding: null,
        bom: false,
        newline: newlineOfBytes(bytes),
        line_count: countLinesInBytes(bytes),
      };
    }
  }
  const head = await fs.readRange(file.absolute, 0, DETECTION_HEAD_BYTES);
  const { detection } = await detectFileEncoding(file, head);
  if (detection.kind === 'binary') return unknown;
  const utf16 = familyOf(detection.encoding) === 'utf16';
  // The head up to its last line end is whole characters (in any encoding but UTF-16, a '\n' byte ends a character).
  const whole = utf16 ? head.subarray(0, head.length - (head.length % 2)) : head.subarray(0, head.lastIndexOf(0x0a) + 1);
  const body = detection.bom ? whole.subarray(detection.encoding === 'utf8' ? 3 : 2) : whole;
  const exact = await decodeExact(body, detection.encoding, file.encodings.codec ?? LOCAL_CODEC);
  const text = 'text' in exact ? exact.text : undefined;
  return {
    is_text: true,
    content_hash: null,
    encoding: text === undefined && !utf16 ? null : publicName(detection.encoding),
    bom: detection.bom,
    newline: text !== undefined ? detectNewline(text) : utf16 ? null : newlineOfBytes(head),
    line_count: null,
  };
}
