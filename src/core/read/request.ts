/** The line parameters read_file and read_many_files share, checked against each other and the read cap. */
import { limitExceeded } from '../contract/caps';
import { ToolError } from '../errors';
import { requestedEncoding } from '../encoding/fileText';
import type { LineRequest } from './select';

/** The line-range parameters read_file and read_many_files share. */
export interface LineParameters {
  start_line?: number;
  end_line?: number;
  tail_lines?: number;
  max_bytes?: number;
  encoding?: string;
}

/**
 * Checks the shared parameters against each other and the cap (LIMIT_EXCEEDED above `cap`, which is
 * agentFs.maxReadBytes) and turns them into a LineRequest; `defaultMaxBytes` applies when max_bytes is absent.
 */
export function lineRequest(input: LineParameters, cap: number, defaultMaxBytes: number, capName: string): LineRequest {
  if (input.tail_lines !== undefined && (input.start_line !== undefined || input.end_line !== undefined)) {
    throw new ToolError(
      'INVALID_INPUT',
      'tail_lines reads the last lines of a file; it cannot be combined with start_line or end_line. Pass one or the other.',
      { field: 'tail_lines' },
    );
  }
  if (input.start_line !== undefined && input.end_line !== undefined && input.end_line < input.start_line) {
    throw new ToolError(
      'INVALID_INPUT',
      `end_line ${input.end_line} is before start_line ${input.start_line}; both are 1-based and inclusive.`,
      { field: 'end_line' },
    );
  }
  if (input.max_bytes !== undefined && input.max_bytes > cap) {
    throw limitExceeded(
      'max_bytes',
      cap,
      `max_bytes ${input.max_bytes} is above the cap of ${cap} bytes (${capName}). Ask for at most ${cap} and continue from next_start_line.`,
    );
  }
  return {
    startLine: input.start_line,
    endLine: input.end_line,
    tailLines: input.tail_lines,
    maxBytes: input.max_bytes ?? defaultMaxBytes,
    encoding: requestedEncoding(input.encoding),
  };
}
