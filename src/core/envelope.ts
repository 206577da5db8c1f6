import type { ErrorCode } from './errors';

/** The one reply shape of every tool (docs/design.md, "The contract"). `operation` is the bare operation name. */
export type Envelope = SuccessEnvelope | FailureEnvelope;

export interface SuccessEnvelope {
  readonly ok: true;
  readonly operation: string;
  readonly data: unknown;
}

export interface FailureEnvelope {
  readonly ok: false;
  readonly operation: string;
  readonly error: { readonly code: ErrorCode; readonly message: string; readonly details?: Readonly<Record<string, unknown>> };
}

export function success(operation: string, data: unknown): SuccessEnvelope {
  return { ok: true, operation, data };
}

export function failure(operation: string, code: ErrorCode, message: string, details?: Readonly<Record<string, unknown>>): FailureEnvelope {
  return { ok: false, operation, error: details === undefined ? { code, message } : { code, message, details } };
}
