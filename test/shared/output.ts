/**
 * What a child process writes on one stream, kept as text, and waits on it that end when the text shows what they wait
 * for — checked at every chunk, so a test waits exactly as long as the process takes, on a quiet machine or a busy
 * one, with no deadline but the test runner's own.
 */
export class Output {
  private written = '';
  private ended = false;
  private readonly waiting = new Set<() => void>();

  constructor(stream: NodeJS.EventEmitter) {
    stream.on('data', (chunk: Buffer | string) => {
      this.written += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      this.wake();
    });
    stream.once('close', () => {
      this.ended = true;
      this.wake();
    });
  }

  /** Everything written so far. */
  get text(): string {
    return this.written;
  }

  /** The complete lines written so far (a line still being written is left out). */
  lines(): string[] {
    const lines = this.written.split('\n');
    lines.pop();
    return lines;
  }

  /**
   * Resolves once `holds` is true — of the text, or of anything else the caller's closure reads — checked now and at
   * every chunk; rejects, naming `what` and giving the text, if the stream closes first.
   */
  until(holds: (text: string) => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const held = holds(this.written);
        if (!held && !this.ended) return;
        this.waiting.delete(check);
        if (held) resolve();
        else reject(new Error(`the output ended before it showed ${what}:\n${this.written}`));
      };
      this.waiting.add(check);
      check();
    });
  }

  private wake(): void {
    for (const check of [...this.waiting]) check();
  }
}
