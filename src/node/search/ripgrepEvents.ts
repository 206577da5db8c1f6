/**
 * ripgrep's `--json` output as the core's matches: each file's 'begin', 'match', 'context' and 'end' events gathered
 * into its lines, and its matches passed on, with their context lines, once the file's 'end' says they are all in.
 * Positions come as bytes and leave as UTF-16 units; lines that are not UTF-8 carry their bytes for the core to decode.
 */
import * as nodePath from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { CancelledError } from '../../core/errors';
import type { ContentSearchRequest, LineMatch } from '../../core/ports/searcher';
import { toNativePath } from '../fs/nativePaths';

interface RgText {
  readonly text?: string;
  readonly bytes?: string;
}

interface RgEvent {
  readonly type: 'begin' | 'match' | 'context' | 'end' | 'summary';
  readonly data: {
    readonly path?: RgText;
    readonly lines?: RgText;
    readonly line_number?: number;
    readonly submatches?: readonly { readonly start: number; readonly end: number }[];
  };
}

function bytesOf(value: RgText | undefined): Buffer {
  if (value?.bytes !== undefined) return Buffer.from(value.bytes, 'base64');
  return Buffer.from(value?.text ?? '', 'utf8');
}

interface KnownLine {
  readonly text: string;
  readonly bytes: Uint8Array;
  readonly utf8: boolean;
}

interface FileState {
  readonly path: string;
  readonly lines: Map<number, KnownLine>;
  readonly matches: { line: number; text: string; start: number; end: number }[];
}

/** A line's bytes without its terminator (LF or CRLF). */
function lineBytes(bytes: Buffer): Buffer {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0a) end--;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  return bytes.subarray(0, end);
}

/**
 * Reads ripgrep's --json events from `output`, each file's matches passed on when its 'end' arrives; gives the events
 * read and whether `onMatch` stopped the search.
 */
export async function readEvents(
  output: Readable,
  request: ContentSearchRequest,
  onMatch: (match: LineMatch) => Promise<boolean>,
  isCancelled: () => boolean,
): Promise<{ readonly events: number; readonly stopped: boolean }> {
  const files = new FileEvents(request.root);
  let events = 0;
  const lines = createInterface({ input: output, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const raw of lines) {
    if (isCancelled()) throw new CancelledError();
    events++;
    const done = files.take(JSON.parse(raw) as RgEvent);
    if (done && !(await passOn(done, request.contextLines, onMatch))) return { events, stopped: true };
  }
  return { events, stopped: false };
}

/** Gathers ripgrep's events into the lines and matches of the file they are about, one file at a time. */
class FileEvents {
  private file: FileState | undefined;

  constructor(private readonly root: string) {}

  /** Takes one event; gives the file an 'end' event closes, its lines and matches then complete. */
  take(event: RgEvent): FileState | undefined {
    const { data } = event;
    if (event.type === 'begin') this.file = beginFile(this.root, data);
    else if ((event.type === 'match' || event.type === 'context') && this.file && data.line_number !== undefined) {
      addLine(this.file, event, data.line_number);
    } else if (event.type === 'end' && this.file) {
      const state = this.file;
      this.file = undefined;
      return state;
    }
    return undefined;
  }
}

/** The file a 'begin' event names, as a core path, with no lines yet. */
function beginFile(root: string, data: RgEvent['data']): FileState {
  // Relative to the root, ripgrep's working folder, as the start was given.
  const native = nodePath.resolve(toNativePath(root), bytesOf(data.path).toString('utf8'));
  const path = native.split(nodePath.sep).join('/');
  return { path: nodePath.sep === '\\' ? `/${path}` : path, lines: new Map(), matches: [] };
}

/** Keeps the line of a 'match' or 'context' event, and for a match where its first submatch lies. */
function addLine(file: FileState, event: RgEvent, lineNumber: number): void {
  const { data } = event;
  const bytes = bytesOf(data.lines);
  const text = lineBytes(bytes).toString('utf8');
  // ripgrep sends a line as base64 bytes exactly when they are not UTF-8.
  file.lines.set(lineNumber, { text, bytes: lineBytes(bytes), utf8: data.lines?.bytes === undefined });
  const first = data.submatches?.[0];
  if (event.type === 'match' && first) {
    // ripgrep counts bytes; the core counts UTF-16 units.
    const start = bytes.subarray(0, first.start).toString('utf8').length;
    const end = bytes.subarray(0, first.end).toString('utf8').length;
    file.matches.push({ line: lineNumber, text, start: Math.min(start, text.length), end: Math.min(end, text.length) });
  }
}

/** Passes a finished file's matches on in line order; false once `onMatch` wants no more. */
async function passOn(state: FileState, contextLines: number, onMatch: (match: LineMatch) => Promise<boolean>): Promise<boolean> {
  for (const match of state.matches) if (!(await onMatch(lineMatch(state, match, contextLines)))) return false;
  return true;
}

/** One match of a finished file with its context lines, and the lines' bytes when any of them is not UTF-8. */
function lineMatch(state: FileState, match: FileState['matches'][number], contextLines: number): LineMatch {
  const before: KnownLine[] = [];
  const after: KnownLine[] = [];
  for (let line = match.line - contextLines; line < match.line; line++) {
    const known = state.lines.get(line);
    if (known !== undefined) before.push(known);
  }
  for (let line = match.line + 1; line <= match.line + contextLines; line++) {
    const known = state.lines.get(line);
    if (known === undefined) break;
    after.push(known);
  }
  const own = state.lines.get(match.line);
  const raw =
    own && (!own.utf8 || before.some((each) => !each.utf8) || after.some((each) => !each.utf8))
      ? { line: own.bytes, before: before.map((each) => each.bytes), after: after.map((each) => each.bytes) }
      : undefined;
  const found = {
    path: state.path,
    line: match.line,
    text: match.text,
    start: match.start,
    end: match.end,
    before: before.map((each) => each.text),
    after: after.map((each) => each.text),
  };
  return raw ? { ...found, raw } : found;
}
