/**
 * The history's pack (store.ts): one append-only file per store that every record and every small blob is written
 * to, its format, and the index a reader builds from it.
 *
 *   header   "agentfs-history-pack 1 <generation> <trusted>\n"; the generation changes when the pack is rewritten
 *            (compacted, cleared, migrated), so a reader tells a new pack from the one it read; `trusted`: the bytes
 *            the writer synced before the pack took this name (all of a rewritten pack)
 *   entries  a line "<kind> <payload length> <payload sha-256> <check>\n", then the payload. `check` is the start of
 *            the SHA-256 of the line before it, so a line that is torn or was never written is told from one that is
 *            whole; the payload's SHA-256 tells the same of the payload.
 *     B  a blob: file content; its SHA-256 is its name, so it is stored once per pack
 *     I  an intent: what an operation is about to change (its paths and their states before), the blobs holding the
 *        content an undo writes back (B entries before it, or files of their own for large content), its session;
 *        appended and synced before the change is made (store.ts `reserve`)
 *     R  the room reserved for the operation's record, right after its intent: spaces, later filled once, in place,
 *        with the record (or a note that the operation changed nothing). It is the one part of the pack written
 *        after it was appended; its line carries no payload hash, its content carries its own (`roomText`)
 *     C  a record that did not fit its room, appended instead
 *     D  operations dropped (pruned)
 *
 * What a crash can leave, and what a reader makes of it. A writer appends whole entries and syncs the pack before the
 * change it describes; a crash can tear only what came after the last sync, and under a strict model of the disk
 * (data survives only once synced) that can be any mix of old and new bytes, zeros included. A reader takes entries
 * in order and stops at the first that does not check out: nothing after it can have been synced (the pack is synced
 * whole). A process holding the store's lock then cuts the pack there (store.ts), and says so. A room that does not
 * check out is an operation whose record was not written: its intent says what to look at (recording/record.ts puts
 * it right). A record names blobs; a reader hands one out only with the blobs it has, so no record is ever seen
 * without its content.
 *
 * Verifying a large pack whole at every start would cost a read of all of it, so each intent also says how much of
 * the pack its writer had synced before appending it (`synced`): what lies before that was on the disk and is whole,
 * and a blob there is checked only when it is read (store.ts `readBlob` checks every blob it hands out anyway).
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import type { Origin } from './origin';
import type { PathState } from './state';

export const GENERATION_LENGTH = 12;
const PACK_MAGIC = 'agentfs-history-pack 1 ';
const PACK_HEADER = /^agentfs-history-pack 1 ([0-9a-z]{12}) (\d{15})\n$/;
export const PACK_HEADER_BYTES = PACK_MAGIC.length + GENERATION_LENGTH + 1 + 15 + 1;

export type EntryKind = 'B' | 'I' | 'R' | 'C' | 'D';
const KINDS = new Set<string>(['B', 'I', 'R', 'C', 'D']);
/** "K " + 15 digits + " " + 64 hex + " " + 8 hex + "\n". */
export const LINE_BYTES = 2 + 15 + 1 + 64 + 1 + 8 + 1;
const NO_HASH = '-'.repeat(64);
/** The most a payload may be: what 15 digits hold is far beyond any file the history keeps. */
const MAX_PAYLOAD = 10 ** 15 - 1;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function randomToken(length: number): string {
  let token = '';
  while (token.length < length) token += Math.random().toString(36).slice(2);
  return token.slice(0, length);
}

export function packHeader(generation: string, trusted: number): Uint8Array {
  return encoder.encode(`${PACK_MAGIC}${generation} ${String(trusted).padStart(15, '0')}\n`);
}

export function parsePackHeader(bytes: Uint8Array): { generation: string; trusted: number } | undefined {
  const match = PACK_HEADER.exec(decoder.decode(bytes.subarray(0, PACK_HEADER_BYTES)));
  return match?.[1] && match[2] ? { generation: match[1], trusted: Number(match[2]) } : undefined;
}

function check(text: string): string {
  return bytesToHex(sha256(encoder.encode(text))).slice(0, 8);
}

function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/** An entry's bytes: its line and its payload. `hash`: the payload's SHA-256, where the caller has it already. */
export function entryBytes(kind: EntryKind, payload: Uint8Array, hash?: string): Uint8Array {
  const digest = kind === 'R' ? NO_HASH : (hash ?? sha256Hex(payload));
  const head = `${kind} ${String(payload.length).padStart(15, '0')} ${digest}`;
  const line = encoder.encode(`${head} ${check(head)}\n`);
  const bytes = new Uint8Array(line.length + payload.length);
  bytes.set(line);
  bytes.set(payload, line.length);
  return bytes;
}

export interface EntryLine {
  readonly kind: EntryKind;
  readonly length: number;
  /** The payload's SHA-256; undefined for a room. */
  readonly hash: string | undefined;
}

/** The line at the start of `bytes`, or undefined when it is not a whole, checked line. */
export function parseLine(bytes: Uint8Array): EntryLine | undefined {
  if (bytes.length < LINE_BYTES || bytes[LINE_BYTES - 1] !== 0x0a) return undefined;
  const text = decoder.decode(bytes.subarray(0, LINE_BYTES - 1));
  const kind = text.charAt(0);
  if (!KINDS.has(kind) || text.charAt(1) !== ' ') return undefined;
  const head = text.slice(0, LINE_BYTES - 10);
  if (text.slice(LINE_BYTES - 9) !== check(head)) return undefined;
  const length = Number(text.slice(2, 17));
  const hash = text.slice(18, 82);
  if (!Number.isInteger(length) || length < 0 || length > MAX_PAYLOAD) return undefined;
  if (kind === 'R') return hash === NO_HASH ? { kind, length, hash: undefined } : undefined;
  return /^[0-9a-f]{64}$/.test(hash) ? { kind: kind as EntryKind, length, hash } : undefined;
}

/** A room's bytes: spaces, which is what it holds until its record is written. */
export function emptyRoom(length: number): Uint8Array {
  return new Uint8Array(length).fill(0x20);
}

/**
 * What a room holds once written: "<sha-256 of the text> <its length>\n<text>", then spaces to its end. Undefined when
 * the text does not fit.
 */
export function roomText(text: string, length: number): Uint8Array | undefined {
  const body = encoder.encode(text);
  const head = encoder.encode(`${sha256Hex(body)} ${body.length}\n`);
  if (head.length + body.length > length) return undefined;
  const room = emptyRoom(length);
  room.set(head);
  room.set(body, head.length);
  return room;
}

/**
 * What a room holds: nothing yet, a text that checks out (with where it lies in the room, and its length in bytes), or
 * something torn (a crash while it was written).
 */
export function parseRoom(bytes: Uint8Array): { text: string; offset: number; length: number } | 'empty' | 'torn' {
  if (bytes.every((byte) => byte === 0x20)) return 'empty';
  const newline = bytes.indexOf(0x0a);
  if (newline < 0 || newline > 90) return 'torn';
  const [hash = '', size = ''] = decoder.decode(bytes.subarray(0, newline)).split(' ');
  const length = Number(size);
  if (!/^[0-9a-f]{64}$/.test(hash) || !Number.isInteger(length) || newline + 1 + length > bytes.length) return 'torn';
  const body = bytes.subarray(newline + 1, newline + 1 + length);
  if (sha256Hex(body) !== hash) return 'torn';
  return { text: decoder.decode(body), offset: newline + 1, length };
}

/** One path an intent is about to change, with its state before. */
export interface IntendedPath {
  readonly absolute: string;
  readonly display: string;
  readonly before: PathState;
}

/** An I entry's payload. */
export interface Intent {
  readonly id: string;
  readonly time: string;
  readonly operation: string;
  /** The call as recorded (record.ts): one line for people, its input without file content, who made it. */
  readonly summary: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly origin?: Origin;
  readonly paths: readonly IntendedPath[];
  /** The content an undo writes back: sha-256 hex → size. */
  readonly blobs: Readonly<Record<string, number>>;
  /** How many bytes of the pack its writer had synced when it appended this: a reader trusts them (see the header). */
  readonly synced: number;
}

export function parseIntent(text: string): Intent | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<Intent>;
    if (typeof parsed.id !== 'string' || !Array.isArray(parsed.paths) || typeof parsed.blobs !== 'object' || parsed.blobs === null)
      return undefined;
    return parsed as Intent;
  } catch {
    return undefined;
  }
}

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** Where a payload lies in the pack. */
export interface Span {
  readonly offset: number;
  readonly length: number;
}

/** One operation the pack holds, as far as the index needs it; its record is read when asked for. */
export interface PackOperation<R> {
  readonly id: string;
  readonly session?: string;
  /** The paths its intent names (absolute): which operations may touch a path, without reading their records. */
  readonly paths?: readonly string[];
  /** The intent's payload, and the room after it (none when the pack was cut between the two). */
  readonly intent: Span;
  room?: Span;
  /** Where its record's text is: in its room, or in a C entry. Undefined while its record is not written. */
  record?: Span;
  /** The room held a note that the operation changed nothing: it is gone from the index. */
  cancelled?: true;
  /** Every blob it refers to (the intent's, then those its record adds). */
  blobs: Readonly<Record<string, number>>;
  /** The intent's blobs: there before the change, so always there. */
  readonly before: Readonly<Record<string, number>>;
  loaded?: R;
}

/** What the store holds, as of the pack's first `offset` bytes. */
export class PackIndex<R> {
  readonly operations = new Map<string, PackOperation<R>>();
  /** Ascending, so oldest first. */
  readonly ids: string[] = [];
  /** Blob hex → where its bytes are in the pack (a blob of its own file has none). */
  readonly located = new Map<string, Span>();
  /** Blob hex → how many operations refer to it, and its size. */
  readonly refs = new Map<string, { count: number; size: number }>();
  bytes = 0;
  /** Bytes of the pack no operation needs any more (dropped records, freed blobs): what compaction would win. */
  dead = 0;
  /** Bytes before which every entry was synced by its writer (see the header): blobs there are not hashed at a scan. */
  trusted = 0;

  constructor(
    /** The pack's generation (its header); '' while there is no pack. */
    public generation: string,
    /** The pack's size as scanned. */
    public offset: number,
    /** The pack's stat `ctimeMs` when last read: with `offset`, what tells a changed pack from ours. */
    public stamp: number,
  ) {}

  insert(operation: PackOperation<R>): void {
    if (this.operations.has(operation.id)) return;
    this.operations.set(operation.id, operation);
    let at = this.ids.length;
    while (at > 0 && (this.ids[at - 1] ?? '') > operation.id) at--;
    this.ids.splice(at, 0, operation.id);
    for (const [hex, size] of Object.entries(operation.blobs)) this.refer(hex, size);
  }

  /** Blobs an operation's record adds to those of its intent (its after content, kept for diffs). */
  extend(id: string, blobs: Readonly<Record<string, number>>): void {
    const operation = this.operations.get(id);
    if (!operation) return;
    const added: Record<string, number> = {};
    for (const [hex, size] of Object.entries(blobs)) {
      if (operation.blobs[hex] !== undefined) continue;
      added[hex] = size;
      this.refer(hex, size);
    }
    operation.blobs = { ...operation.blobs, ...added };
  }

  private refer(hex: string, size: number): void {
    const ref = this.refs.get(hex);
    if (ref) ref.count++;
    else {
      this.refs.set(hex, { count: 1, size });
      this.bytes += size;
    }
  }

  /** Drops an operation; returns the blobs no operation refers to any more. */
  remove(id: string): string[] {
    const operation = this.operations.get(id);
    if (!operation) return [];
    this.operations.delete(id);
    const at = this.ids.indexOf(id);
    if (at >= 0) this.ids.splice(at, 1);
    this.dead +=
      operation.intent.length +
      (operation.room?.length ?? 0) +
      (operation.record && operation.record !== operation.room ? operation.record.length : 0);
    const freed: string[] = [];
    for (const hex of Object.keys(operation.blobs)) {
      const ref = this.refs.get(hex);
      if (!ref) continue;
      if (--ref.count === 0) {
        this.refs.delete(hex);
        this.bytes -= ref.size;
        this.dead += this.located.get(hex)?.length ?? 0;
        freed.push(hex);
      }
    }
    return freed;
  }

  /** Whether a record's blob is there to read: in the pack, or one its intent kept (before the change). */
  has(operation: PackOperation<R>, hex: string): boolean {
    return this.located.has(hex) || operation.before[hex] !== undefined;
  }
}
