/**
 * The calls a host is running now. Background work of the host's indexes (the content index's reading, the path
 * index's building, catching up and saves, the MCP server's warm-up) waits while any call is in flight: it runs on
 * the same event loop, so a slice of it started between two steps of a call lengthens that call, and a call that
 * awaits often (every read, every stat) would wait for a slice at each step. Calls come with pauses between them (an
 * agent thinks), which is when the background catches up. Nothing a call needs waits here: reading a saved index and
 * the walks, which calls await, are not background work in this sense.
 */
export class Foreground {
  private running = 0;
  private readonly idle: (() => void)[] = [];
  /** When the last call ended (performance.now()); 0 before any. */
  private lastEnded = 0;

  /** Runs `work` counted among the calls in flight. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.lastEnded = performance.now();
      if (this.running === 0) for (const resume of this.idle.splice(0)) resume();
    }
  }

  get busy(): boolean {
    return this.running > 0;
  }

  /** How many pieces of background work wait for the calls in flight to end (settled, quietFor, whenIdle). */
  get waiting(): number {
    return this.idle.length;
  }

  /** Resolves once no call is in flight (at once when none is). */
  settled(): Promise<void> {
    return this.running === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /**
   * Resolves once no call has run for `ms`: for work that is worth doing only in an agent's pause, not in the moment
   * between two calls of a burst.
   */
  async quietFor(ms: number): Promise<void> {
    for (;;) {
      await this.settled();
      const left = this.lastEnded + ms - performance.now();
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, left).unref());
    }
  }

  /** Calls `resume` once no call is in flight: now when none is, else after the last one ends. */
  whenIdle(resume: () => void): void {
    if (this.running === 0) resume();
    else this.idle.push(resume);
  }
}

/**
 * One turn of Node's event loop: setImmediate runs after the poll phase, so the I/O that arrived meanwhile (a
 * cancellation on stdin, another request, a watch event) is read first — where a timer would also wait out its 1 ms.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
