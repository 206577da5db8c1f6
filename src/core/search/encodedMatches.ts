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
import type { LineMatch } from '../ports/searcher';

/** Whether ripgrep may search for `query` under the host's encoding rules at `directory` (see the header). */
export async function ripgrepMayRun(context: Pick<ToolContext, 'encodings'>, directory: string, query: string): Promise<boolean> {
  if (!/[^\x00-\x7f]/.test(query)) return true;
  const settings = await context.encodings.settingsFor(directory);
  return !settings.guess && (settings.default === 'utf8' || settings.default === 'utf8bom');
}

/**
 * The text of a file's bytes for a search, as read_file decodes them: per call, each file's encoding found once by the
 * host's rules from its head, and the bytes decoded exactly or not at all. Both engines tell lines through it.
 */
export class SearchDecoder {
  private readonly encodings = new Map<string, Promise<EncodingId | undefined>>();

  constructor(private readonly context: Pick<ToolContext, 'encodings' | 'workspace'>) {}

  /** The encoding `path` is read in; `head`, when the caller holds the whole file, saves reading it again. */
  encodingOf(path: string, head?: Uint8Array): Promise<EncodingId | undefined> {
    let known = this.encodings.get(path);
    if (!known) {
      known = (async () => {
        const { fs } = this.context.workspace;
        // The same head read_file decides by, so both name the same encoding.
        const first =
          head ??
          (fs.readRange ? await fs.readRange(path, 0, DETECTION_HEAD_BYTES) : (await fs.readFile(path)).subarray(0, DETECTION_HEAD_BYTES));
        const { encodings } = this.context;
        const detection = detectEncoding(first, await encodings.settingsFor(path), undefined, encodings.openEncoding?.(path));
        return detection.kind === 'text' ? detection.encoding : undefined;
      })();
      this.encodings.set(path, known);
    }
    return known;
  }

  /** `bytes` (whole lines of `path`; its start when `first`) as text, or undefined where they are not text in its encoding. */
  async text(path: string, bytes: Uint8Array, first: boolean, head?: Uint8Array): Promise<string | undefined> {
    const encoding = await this.encodingOf(path, head);
    if (encoding === undefined) return undefined;
    const body = first && bomEncoding(bytes) === encoding ? bytes.subarray(bomBytes(encoding).length) : bytes;
    const decoded = decodeExactLocal(body, encoding);
    return 'text' in decoded ? decoded.text : undefined;
  }
}

/** Turns ripgrep's matches into the file's text: the match as it is, decoded and matched again, or undefined to drop it. */
export function encodedMatches(
  context: Pick<ToolContext, 'encodings' | 'workspace'>,
  query: CompiledQuery,
): (match: LineMatch) => Promise<LineMatch | undefined> {
  const decoder = new SearchDecoder(context);
  return async (match) => {
    const { raw } = match;
    if (!raw) return match;
    const text = await decoder.text(match.path, raw.line, match.line === 1);
    const found = text === undefined ? undefined : query.find(text);
    if (text === undefined || !found) return undefined;
    const before: string[] = [];
    for (const [index, line] of raw.before.entries()) {
      const decoded = await decoder.text(match.path, line, match.line - raw.before.length + index === 1);
      if (decoded === undefined) return undefined;
      before.push(decoded);
    }
    const after: string[] = [];
    for (const line of raw.after) {
      const decoded = await decoder.text(match.path, line, false);
      if (decoded === undefined) return undefined;
      after.push(decoded);
    }
    return { path: match.path, line: match.line, text, start: found.start, end: found.end, before, after };
  };
}
