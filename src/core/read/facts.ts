/** The text facts file_info reports about a file, without returning its content. */
import type { FileSystem } from '../fs';
import {
  contentHash,
  countLines,
  decodeText,
  detectBom,
  detectNewline,
  isLosslessUtf8,
  looksBinary,
  type NewlineStyle,
  type TextEncodingName,
} from '../text';
import { countLinesInBytes, newlineOfBytes } from './bytes';
import { CHUNK_BYTES, UNRANGED_READ_CAP, WHOLE_READ_BYTES } from './limits';

export interface TextFacts {
  readonly is_text: boolean;
  readonly content_hash: string | null;
  readonly encoding: TextEncodingName | null;
  readonly bom: boolean | null;
  readonly newline: NewlineStyle | null;
  readonly line_count: number | null;
}

/**
 * The text facts of file_info. Files up to WHOLE_READ_BYTES are read whole and described completely; larger ones
 * are judged by their first bytes (content_hash and line_count null), never read whole.
 */
export async function describeText(fs: FileSystem, path: string, size: number): Promise<TextFacts> {
  const unknown: TextFacts = { is_text: false, content_hash: null, encoding: null, bom: null, newline: null, line_count: null };
  if (size <= WHOLE_READ_BYTES || !fs.readRange) {
    if (size > UNRANGED_READ_CAP) return unknown;
    const bytes = await fs.readFile(path);
    const hash = contentHash(bytes);
    if (looksBinary(bytes)) return { ...unknown, content_hash: hash };
    const announced = detectBom(bytes);
    if (announced === 'utf-16le' || announced === 'utf-16be') {
      const { text } = decodeText(bytes);
      return {
        is_text: true,
        content_hash: hash,
        encoding: announced,
        bom: true,
        newline: detectNewline(text),
        line_count: countLines(text),
      };
    }
    return {
      is_text: true,
      content_hash: hash,
      encoding: announced ?? (isLosslessUtf8(bytes) ? 'utf-8' : 'latin1'),
      bom: announced !== undefined,
      newline: newlineOfBytes(bytes),
      line_count: countLinesInBytes(bytes),
    };
  }
  const head = await fs.readRange(path, 0, CHUNK_BYTES);
  if (looksBinary(head)) return unknown;
  const announced = detectBom(head);
  return {
    is_text: true,
    content_hash: null,
    encoding: announced ?? 'utf-8',
    bom: announced !== undefined,
    newline: newlineOfBytes(head),
    line_count: null,
  };
}
