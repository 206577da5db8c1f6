/**
 * Which encoding a file's bytes are read in, decided the way VS Code decides it (its text file service's
 * `detectEncodingFromBuffer` and `getReadEncoding`), so the tools and an open editor see the same text:
 *
 *  1. an encoding the call names;
 *  2. the encoding an editor has the file open in (the editor will save it in that one);
 *  3. a byte-order mark (UTF-8, UTF-16 LE, UTF-16 BE);
 *  4. without a BOM, zero bytes in the first 512 at every other position: UTF-16 LE or BE; any other zero byte in
 *     the first 8 KiB: binary;
 *  5. where guessing is on (files.autoGuessEncoding; the runner and MCP server by default), jschardet's guess over
 *     the first 64 KiB, among the encodings VS Code lets it guess (files.candidateGuessEncodings narrows them);
 *  6. the configured encoding (files.encoding; the runner's --encoding), UTF-8 by default.
 *
 * Pure ASCII is never guessed (jschardet answers "ascii", which VS Code ignores), so it reads in the configured
 * encoding. One difference to VS Code on purpose: without files.candidateGuessEncodings VS Code lets jschardet pick
 * any encoding it knows, and jschardet takes German Latin-1 text for x-mac-cyrillic; here the guess keeps to the
 * encodings VS Code can name and guess.
 */
import { detect } from 'jschardet';
import { bomEncoding } from './codec';
import { encodingGuessedAs, type EncodingId, guessNames } from './names';

/** What a host says about the encoding of one file: its files.* settings, or the runner's flags. */
export interface EncodingSettings {
  /** files.encoding / --encoding: what a file is read in when neither a BOM nor a guess decides, and new files get. */
  readonly default: EncodingId;
  /** files.autoGuessEncoding / the runner's guessing (on unless --no-guess-encoding). */
  readonly guess: boolean;
  /** files.candidateGuessEncodings: the encodings a guess may choose; empty for all VS Code can guess. */
  readonly candidates: readonly EncodingId[];
}

export const DEFAULT_ENCODING_SETTINGS: EncodingSettings = { default: 'utf8', guess: false, candidates: [] };

/** Where the encoding came from; a guess that proves wrong is not the last word (fileText.ts). */
type DetectionSource = 'requested' | 'editor' | 'bom' | 'utf16-pattern' | 'guess' | 'default';

export type Detection =
  | { readonly kind: 'text'; readonly encoding: EncodingId; readonly bom: boolean; readonly source: DetectionSource }
  | { readonly kind: 'binary' };

/** Bytes looked at for zero bytes: VS Code's 512 for the UTF-16 pattern, git's and ripgrep's 8 KiB for binary. */
const UTF16_PATTERN_BYTES = 512;
const BINARY_SNIFF_BYTES = 8192;
/** VS Code's limit of what jschardet sees (larger inputs make it slow, not better). */
const GUESS_BYTES = 64 * 1024;

/** The bytes a detection needs from the start of a file. */
export const DETECTION_HEAD_BYTES = GUESS_BYTES;

/** UTF-16 without a BOM, told by zero bytes at every other position, or binary for any other zero byte. */
function zeroBytePattern(head: Uint8Array): 'utf16le' | 'utf16be' | 'binary' | undefined {
  let couldBeLE = true;
  let couldBeBE = true;
  let zero = false;
  const end = Math.min(head.length, UTF16_PATTERN_BYTES);
  for (let index = 0; index < end; index++) {
    const odd = index % 2 === 1;
    const isZero = head[index] === 0;
    if (isZero) zero = true;
    if (couldBeLE && ((odd && !isZero) || (!odd && isZero))) couldBeLE = false;
    if (couldBeBE && ((odd && isZero) || (!odd && !isZero))) couldBeBE = false;
    if (isZero && !couldBeLE && !couldBeBE) break;
  }
  if (zero && couldBeLE) return 'utf16le';
  if (zero && couldBeBE) return 'utf16be';
  const sniff = Math.min(head.length, BINARY_SNIFF_BYTES);
  for (let index = 0; index < sniff; index++) if (head[index] === 0) return 'binary';
  return undefined;
}

function isAscii(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte >= 0x80) return false;
  return true;
}

/** jschardet's guess among `candidates`, as a VS Code id; undefined when it has none (or only "ascii"). */
export function guessEncoding(head: Uint8Array, candidates: readonly EncodingId[]): EncodingId | undefined {
  const sample = head.subarray(0, GUESS_BYTES);
  if (isAscii(sample)) return undefined;
  // jschardet reads a "binary string" (one character per byte) in the browser and in Node alike.
  let binary = '';
  for (let offset = 0; offset < sample.length; offset += 0x2000) binary += String.fromCharCode(...sample.subarray(offset, offset + 0x2000));
  const names = guessNames(candidates);
  if (names.length === 0) return undefined;
  try {
    const guessed = detect(binary, { detectEncodings: names });
    // A guess without confidence is jschardet's fallback, not a finding.
    let encoding = guessed.encoding && guessed.confidence > 0 ? encodingGuessedAs(guessed.encoding) : undefined;
    if (names.includes('windows-1251') && isMostlyHighLetters(sample)) {
      // jschardet's Windows-1251 model loses Russian prose to x-mac-cyrillic, which VS Code cannot name (the two
      // agree on every lower-case letter); text whose letters are mostly above 0x7F is then Windows-1251.
      const open = detect(binary);
      if (open.encoding?.toLowerCase() === 'x-mac-cyrillic') encoding = 'windows1251';
    }
    return encoding;
  } catch {
    // jschardet throws for names it does not know; VS Code then guesses nothing, and so does Agent FS.
    return undefined;
  }
}

/** More bytes in 0xC0–0xFF (the letters of the Cyrillic code pages) than ASCII letters: prose in a non-Latin script. */
function isMostlyHighLetters(sample: Uint8Array): boolean {
  let high = 0;
  let ascii = 0;
  for (const byte of sample) {
    if (byte >= 0xc0) high++;
    else if ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)) ascii++;
  }
  return high > ascii;
}

/**
 * The encoding to read `head` (the file's first DETECTION_HEAD_BYTES or all of it) in, by the order in the header.
 * `requested` is the call's `encoding`; `open` the encoding an editor holds the file in.
 */
export function detectEncoding(head: Uint8Array, settings: EncodingSettings, requested?: EncodingId, open?: EncodingId): Detection {
  const bom = bomEncoding(head);
  for (const [wanted, source] of [
    [requested, 'requested'],
    [open, 'editor'],
  ] as const) {
    if (wanted === undefined) continue;
    const encoding = wanted === 'utf8bom' ? 'utf8' : wanted;
    return { kind: 'text', encoding, bom: bom === encoding, source };
  }
  if (bom) return { kind: 'text', encoding: bom, bom: true, source: 'bom' };
  const pattern = zeroBytePattern(head);
  if (pattern === 'binary') return { kind: 'binary' };
  if (pattern) return { kind: 'text', encoding: pattern, bom: false, source: 'utf16-pattern' };
  if (settings.guess) {
    const guessed = guessEncoding(head, settings.candidates);
    if (guessed) return { kind: 'text', encoding: guessed === 'utf8bom' ? 'utf8' : guessed, bom: false, source: 'guess' };
  }
  return { kind: 'text', encoding: settings.default === 'utf8bom' ? 'utf8' : settings.default, bom: false, source: 'default' };
}
