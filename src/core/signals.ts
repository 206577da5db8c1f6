/**
 * What a running call listens to and reports, whatever it runs in: cancellation (checked between steps), progress
 * (shown where the host can), and the breaths a long loop takes so that the host's event loop turns. A leaf module:
 * the walkers, the history and the tools all use it.
 */
import { CancelledError } from './errors';

/** The part of a call's context that long loops need. */
export interface CallSignals {
  /** True once the caller cancelled; checked between steps via `throwIfCancelled`. */
  readonly isCancelled: () => boolean;
  /** Told how far a long call has got, where the host shows progress (the MCP server); absent elsewhere. */
  readonly progress?: (progress: Progress) => void;
  /**
   * A breath for a loop whose length grows with the workspace (breathe): a promise to await when the call has held the
   * host's event loop for BREATH_MS, undefined before that. Absent: the loop never lets the event loop turn.
   */
  readonly breathe?: () => Promise<void> | undefined;
}

/**
 * The longest a call's code runs before it lets the host's event loop turn. A call and its host share one thread: the
 * cancellation of a call, a second call, the editor's own messages and the indexes' watch events are read only in a
 * turn, so this bounds how late each is read — on a machine whose other processes take half the CPU, about twice it.
 */
const BREATH_MS = 8;

/** One turn of an event loop by timers, where a host has nothing better (Node hosts give setImmediate). */
export function timerTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The breaths of one call (CallSignals.breathe): each due once the call has run BREATH_MS since the last, resolving
 * after one `turn` of the host's event loop and throwing CancelledError if the call was cancelled meanwhile. Undefined
 * when none is due, so a loop reads the clock but awaits nothing at most of its steps.
 */
export function breathing(turn: () => Promise<void>, isCancelled: () => boolean): () => Promise<void> | undefined {
  let since = performance.now();
  const breath = async (): Promise<void> => {
    await turn();
    since = performance.now();
    if (isCancelled()) throw new CancelledError();
  };
  return () => (performance.now() - since < BREATH_MS ? undefined : breath());
}

/**
 * Awaits a breath where one is due: the step a loop takes at each of its iterations (or every few, where an iteration
 * is tiny) so that it never holds the event loop for long. A promise only when it waits.
 */
export function breathe(context: Pick<CallSignals, 'breathe'>): Promise<void> | undefined {
  return context.breathe?.();
}

export function throwIfCancelled(context: Pick<CallSignals, 'isCancelled'>): void {
  if (context.isCancelled()) throw new CancelledError();
}

/** How far one phase of a long call has got: `done` of `total` (when known) `unit` ("files copied"). */
export interface Progress {
  readonly done: number;
  readonly total?: number;
  readonly unit: string;
}

/** Reports progress where the host listens; cheap enough to call at every step (the host throttles). */
export function reportProgress(context: Pick<CallSignals, 'progress'>, done: number, total: number | undefined, unit: string): void {
  context.progress?.(total === undefined ? { done, unit } : { done, total, unit });
}

/** `items.map(derive)`, breathing every `every` items: for maps over as many items as a workspace has files. */
export async function mapBreathing<T, U>(
  context: Pick<CallSignals, 'breathe'>,
  items: readonly T[],
  derive: (item: T) => U,
  every = 1024,
): Promise<U[]> {
  const mapped: U[] = [];
  for (const [index, item] of items.entries()) {
    if (index % every === 0) await breathe(context);
    mapped.push(derive(item));
  }
  return mapped;
}
