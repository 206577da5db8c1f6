/**
 * The lines of stdin the MCP server reads, checked before the SDK's transport sees them. The SDK skips a line that is
 * not JSON without a word; JSON-RPC wants a parse error back (id null, as the id cannot be known), so a client that
 * sent a broken line hears about it rather than waiting forever. Lines that parse pass through unchanged, in order.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** A parse error as JSON-RPC sends it, one line. */
function parseErrorLine(detail: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${detail}` } })}\n`;
}

export class CheckedLines extends Transform {
  private pending: Buffer[] = [];

  /** `refuse` writes the answer to a line that is not JSON (to stdout, where the protocol goes). */
  constructor(private readonly refuse: (line: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.pending.push(chunk.subarray(start, end + 1));
      this.line(Buffer.concat(this.pending));
      this.pending = [];
      start = end + 1;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without its newline is not a message yet; the SDK would not read it either.
    this.pending = [];
    done();
  }

  private line(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r?\n$/, '');
    if (text.trim() === '') return;
    try {
      JSON.parse(text);
    } catch (error) {
      this.refuse(parseErrorLine(error instanceof Error ? error.message : String(error)));
      return;
    }
    this.push(bytes);
  }
}
