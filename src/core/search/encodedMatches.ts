/**
 * search_content and the file's encoding: what ripgrep finds is told in the encoding read_file reads the file in.
 * ripgrep searches bytes as UTF-8; a line it can only send as bytes (not UTF-8) is decoded here in the file's own
 * encoding by the host's rules (encoding/detect.ts), matched again, and dropped when it is not text in that
 * encoding. A query with characters outside ASCII is not given to ripgrep at all where the host may read a file in
 * a legacy encoding (guessing on, or a legacy default): its bytes would differ there, and the scan decodes each file.
 */
import type { ToolContext } from '../context';
import { bomBytes, bomEncoding, decodeExactLocal } from '../encoding/codec';
import { DETECTION_HEAD_BYTES, detectEncoding } from '../encoding/detect';
import type { EncodingId } from '../encoding/names';
import type { CompiledQuery } from './query';
import type { LineMatch } from './searcher';

/** Whether ripgrep may search for `query` under the host's encoding rules at `directory` (see the header). */
export async function ripgrepMayRun(context: Pick<ToolContext, 'encodings'>, directory: string, query: string): Promise<boolean> {
  if (!/[^\x00-\x7f]/.test(query)) return true;
  const settings = await context.encodings.settingsFor(directory);
  return !settings.guess && (settings.default === 'utf8' || settings.default === 'utf8bom');
}

/** Turns ripgrep's matches into the file's text: the match as it is, decoded and matched again, or undefined to drop it. */
export function encodedMatches(
  context: Pick<ToolContext, 'encodings' | 'workspace'>,
  query: CompiledQuery,
): (match: LineMatch) => Promise<LineMatch | undefined> {
  const encodings = new Map<string, Promise<EncodingId | undefined>>();
  const encodingOf = (path: string): Promise<EncodingId | undefined> => {
    let known = encodings.get(path);
    if (!known) {
      known = (async () => {
        const { fs } = context.workspace;
        const head = fs.readRange
          ? await fs.readRange(path, 0, DETECTION_HEAD_BYTES)
          : (await fs.readFile(path)).subarray(0, DETECTION_HEAD_BYTES);
        const detection = detectEncoding(
          head,
          await context.encodings.settingsFor(path),
          undefined,
          context.encodings.openEncoding?.(path),
        );
        return detection.kind === 'text' ? detection.encoding : undefined;
      })();
      encodings.set(path, known);
    }
    return known;
  };
  const decode = (bytes: Uint8Array, encoding: EncodingId, first: boolean): string | undefined => {
    const body = first && bomEncoding(bytes) === encoding ? bytes.subarray(bomBytes(encoding).length) : bytes;
    const decoded = decodeExactLocal(body, encoding);
    return 'text' in decoded ? decoded.text : undefined;
  };
  return async (match) => {
    const { raw } = match;
    if (!raw) return match;
    const encoding = await encodingOf(match.path);
    if (encoding === undefined) return undefined;
    const text = decode(raw.line, encoding, match.line === 1);
    const found = text === undefined ? undefined : query.find(text);
    if (text === undefined || !found) return undefined;
    const before: string[] = [];
    for (const [index, line] of raw.before.entries()) {
      const decoded = decode(line, encoding, match.line - raw.before.length + index === 1);
      if (decoded === undefined) return undefined;
      before.push(decoded);
    }
    const after: string[] = [];
    for (const line of raw.after) {
      const decoded = decode(line, encoding, false);
      if (decoded === undefined) return undefined;
      after.push(decoded);
    }
    return { path: match.path, line: match.line, text, start: found.start, end: found.end, before, after };
  };
}
