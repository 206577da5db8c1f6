/**
 * The record of a change: its paths' states before and after, and which of the content read for them it keeps, within
 * the history's byte cap, the content an undo needs first. Shared by the pipeline's recording (record.ts) and the
 * records of changes seen made outside Agent FS (outside.ts).
 */
import { planUndo } from '../history/plan';
import { fileHashes } from '../history/state';
import type { OperationRecord, PathRecord } from '../history/store';

/**
 * A record of `paths`, keeping the content `readable` holds (hash → size) as far as `maxBytes` allows: the content an
 * undo needs first, then what only a diff shows. `input` is already the recorded summary of the call's input.
 */
export function buildRecord(
  id: string,
  operation: string,
  summary: string,
  input: Readonly<Record<string, unknown>>,
  paths: readonly PathRecord[],
  readable: ReadonlyMap<string, number>,
  maxBytes: number,
  undoOf: string | undefined,
): OperationRecord {
  // Content an undo needs comes first; then, while it fits the cap, the rest (only the diff view needs it).
  const sizes: Record<string, number> = {};
  for (const [hash, size] of readable) sizes[hash.replace(/^sha256:/, '')] = size;
  const draft = planUndo({ paths, blobs: sizes });
  const required = new Map<string, number>();
  if ('steps' in draft)
    for (const step of draft.steps)
      if (step.kind === 'restore') for (const [hash, size] of fileHashes(step.path.before)) required.set(hash, size);
  const blobs: Record<string, number> = {};
  let stored = 0;
  const keep = (hash: string, size: number): boolean => {
    const hex = hash.replace(/^sha256:/, '');
    if (blobs[hex] !== undefined) return true;
    if (!readable.has(hash) || stored + size > maxBytes) return false;
    blobs[hex] = size;
    stored += size;
    return true;
  };
  let overCap = false;
  for (const [hash, size] of required) if (!keep(hash, size)) overCap = true;
  for (const path of paths) for (const state of [path.before, path.after]) for (const [hash, size] of fileHashes(state)) keep(hash, size);
  const plan = overCap
    ? { reason: `the content it replaced is larger than the history may keep (setting agentFs.history.maxBytes, ${maxBytes} bytes)` }
    : planUndo({ paths, blobs });
  const reason = 'reason' in plan ? plan.reason : undefined;
  return {
    version: 1,
    id,
    time: new Date().toISOString(),
    operation,
    summary,
    input,
    paths,
    undo_available: reason === undefined,
    ...(reason === undefined ? {} : { unavailable_reason: reason }),
    ...(undoOf === undefined ? {} : { undo_of: undoOf }),
    blobs,
  };
}
