/**
 * The history's pack read by the tests on their own, from the format docs/design.md and history/pack.ts describe
 * (node:crypto, none of the store's code): what the store wrote, checked entry by entry.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface PackEntry {
  readonly kind: 'B' | 'I' | 'R' | 'C' | 'D';
  /** Where its line starts. */
  readonly offset: number;
  readonly payload: Buffer;
}

export interface Pack {
  readonly generation: string;
  readonly entries: readonly PackEntry[];
  /** Bytes after the last entry that checks out (a torn end). */
  readonly tornBytes: number;
}

const LINE = /^([BIRCD]) (\d{15}) ([0-9a-f]{64}|-{64}) ([0-9a-f]{8})\n$/;

function sha(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function readPack(state: string): Pack {
  const bytes = fs.readFileSync(path.join(state, 'pack'));
  const header = /^agentfs-history-pack 1 ([0-9a-z]{12}) (\d{15})\n/.exec(bytes.subarray(0, 64).toString('latin1'));
  if (!header?.[1]) throw new Error('not a pack');
  const entries: PackEntry[] = [];
  let at = header[0].length;
  while (at < bytes.length) {
    const line = LINE.exec(bytes.subarray(at, at + 92).toString('latin1'));
    if (!line?.[1] || !line[2] || !line[3] || line[4] !== sha(line[0].slice(0, 82)).slice(0, 8)) break;
    const payload = bytes.subarray(at + 92, at + 92 + Number(line[2]));
    if (payload.length !== Number(line[2])) break;
    if (line[1] !== 'R' && sha(payload) !== line[3]) break;
    entries.push({ kind: line[1] as PackEntry['kind'], offset: at, payload });
    at += 92 + payload.length;
  }
  return { generation: header[1], entries, tornBytes: bytes.length - at };
}

/** A room's or C entry's body: the record, or undefined for an empty or torn room; 'cancelled' for a given-up one. */
function body(entry: PackEntry): Record<string, unknown> | 'cancelled' | undefined {
  let text = entry.payload.toString('utf8');
  if (entry.kind === 'R') {
    if (/^ *$/.test(text)) return undefined;
    const newline = text.indexOf('\n');
    const [hash, length] = text.slice(0, newline).split(' ');
    const content = entry.payload.subarray(
      Buffer.byteLength(text.slice(0, newline + 1)),
      Buffer.byteLength(text.slice(0, newline + 1)) + Number(length),
    );
    if (sha(content) !== hash) return undefined;
    text = content.toString('utf8');
  }
  const [head = '', record = ''] = [text.slice(0, text.indexOf('\n')), text.slice(text.indexOf('\n') + 1)];
  if ((JSON.parse(head) as { cancelled?: boolean }).cancelled) return 'cancelled';
  return JSON.parse(record) as Record<string, unknown>;
}

export interface PackOperation {
  readonly intent: { id: string; origin?: { session?: string }; blobs: Record<string, number> };
  record?: Record<string, unknown>;
}

/** The operations the pack holds, in order: every intent not dropped or given up, with its record where written. */
export function packOperations(pack: Pack): Map<string, PackOperation> {
  const operations = new Map<string, PackOperation>();
  let last: PackOperation | undefined;
  for (const entry of pack.entries) {
    if (entry.kind === 'I') {
      last = { intent: JSON.parse(entry.payload.toString('utf8')) as PackOperation['intent'] };
      operations.set(last.intent.id, last);
      continue;
    }
    if (entry.kind === 'R' || entry.kind === 'C') {
      const found = body(entry);
      const target = entry.kind === 'R' ? last : operations.get(String((found as { id?: string } | undefined)?.id));
      if (found === 'cancelled' && target) operations.delete(target.intent.id);
      else if (found && found !== 'cancelled' && target) target.record = found;
    }
    if (entry.kind === 'D') for (const id of (JSON.parse(entry.payload.toString('utf8')) as { drop: string[] }).drop) operations.delete(id);
    last = undefined;
  }
  return operations;
}

/** The blobs the live operations of the pack refer to, with their sizes, and whether the pack holds each. */
export function liveBlobs(pack: Pack): Map<string, { size: number; inPack: boolean }> {
  const inPack = new Set(pack.entries.filter((entry) => entry.kind === 'B').map((entry) => sha(entry.payload)));
  const blobs = new Map<string, { size: number; inPack: boolean }>();
  for (const operation of packOperations(pack).values()) {
    const named = { ...operation.intent.blobs, ...((operation.record?.blobs as Record<string, number> | undefined) ?? {}) };
    for (const [hex, size] of Object.entries(named)) blobs.set(hex, { size, inPack: inPack.has(hex) });
  }
  return blobs;
}
