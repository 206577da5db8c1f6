/**
 * What a running call listens to and reports, whatever it runs in: cancellation (checked between steps) and
 * progress (shown where the host can). A leaf module: the walkers, the history and the tools all use it.
 */
import { CancelledError } from './errors';

/** The part of a call's context that long loops need. */
export interface CallSignals {
  /** True once the caller cancelled; checked between steps via `throwIfCancelled`. */
  readonly isCancelled: () => boolean;
  /** Told how far a long call has got, where the host shows progress (the MCP server); absent elsewhere. */
  readonly progress?: (progress: Progress) => void;
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
