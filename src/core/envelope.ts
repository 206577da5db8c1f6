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

/** The four image formats a model can be shown (read/imageHeader.ts tells them by their first bytes). */
export type ImageMimeType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** An image a reply carries beside its envelope (read_file of an image); each host passes it as its protocol's image. */
export interface ImageAttachment {
  readonly mimeType: ImageMimeType;
  readonly bytes: Uint8Array;
}

/** What one call answers: its envelope, and the image that goes beside it, if any. */
export interface Reply {
  readonly envelope: Envelope;
  readonly image?: ImageAttachment;
}

/**
 * What a tool's `run` returns when its reply carries an image: the envelope's `data` and the image, which stays out
 * of the JSON (its bytes would cost a text-reading model a third more than the file, as base64, for nothing).
 */
export class WithImage<Data = unknown> {
  constructor(
    readonly data: Data,
    readonly image: ImageAttachment,
  ) {}
}
