/**
 * A file's bytes as text and text as a file's bytes, under the host's encoding rules (detect.ts) and the exactness
 * invariant of codec.ts: a read either hands out text that writes back as the same bytes, naming its encoding, or
 * refuses (BINARY_CONTENT_REFUSED, ENCODING_MISMATCH); a write either stores every character or refuses
 * (INVALID_INPUT naming the first character the encoding cannot hold). Nothing is ever replaced by U+FFFD or `?`.
 */
import { ToolError } from '../errors';
import { bomBytes, decodeExact, describeCharacter, encodeExact, LOCAL_CODEC, lineAndColumn, lineOfOffset } from './codec';
import { DETECTION_HEAD_BYTES, type Detection, detectEncoding, type EncodingSettings, guessEncoding } from './detect';
import type { EncodingHost } from './host';
import { type EncodingId, encodingNamed, publicName, someEncodingNames, type TextShape } from './names';

export interface DecodedText extends TextShape {
  /** Without the BOM, with the file's own line endings. */
  readonly text: string;
}

/** Where the encoding rules of one file come from, and the name a refusal gives the file. */
export interface FileRef {
  readonly encodings: EncodingHost;
  readonly display: string;
  readonly absolute: string;
}

/** The FileRef of a confined path in a call. */
export function fileRef(
  context: { readonly encodings: EncodingHost },
  path: { readonly display: string; readonly absolute: string },
): FileRef {
  return { encodings: context.encodings, display: path.display, absolute: path.absolute };
}

export async function detectFileEncoding(
  file: FileRef,
  head: Uint8Array,
  requested?: EncodingId,
): Promise<{ detection: Detection; settings: EncodingSettings }> {
  const settings = await file.encodings.settingsFor(file.absolute);
  return { detection: detectEncoding(head, settings, requested, file.encodings.openEncoding?.(file.absolute)), settings };
}

export function binaryRefusal(display: string): ToolError {
  return new ToolError(
    'BINARY_CONTENT_REFUSED',
    `${display} looks binary (it has zero bytes that are not UTF-16 text), so it is not handled as text. If it is text, name its encoding with "encoding".`,
    { path: display },
  );
}

/**
 * ENCODING_MISMATCH for bytes that are not text in `encoding`: where the first such byte is, and which encoding a
 * guess suggests (also when the host does not guess, so the model learns what to ask for).
 */
export function mismatch(
  file: FileRef,
  bytes: Uint8Array,
  body: Uint8Array,
  shape: TextShape,
  badOffset: number,
  settings: EncodingSettings,
): ToolError {
  const offset = badOffset + (bytes.length - body.length);
  const line = lineOfOffset(bytes, offset, shape.encoding);
  const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  const name = publicName(shape.encoding);
  const candidate = guessEncoding(bytes.subarray(0, DETECTION_HEAD_BYTES), settings.candidates);
  const suggestion = candidate !== undefined && candidate !== shape.encoding ? candidate : undefined;
  const advice = suggestion
    ? `It looks like ${publicName(suggestion)}: pass "encoding": "${publicName(suggestion)}" (or set ${file.encodings.settingName}).`
    : `Pass its encoding as "encoding" (for example ${someEncodingNames()}), or set ${file.encodings.settingName}.`;
  return new ToolError(
    'ENCODING_MISMATCH',
    `${file.display} is not valid ${name} text: byte 0x${byte} at offset ${offset} (line ${line}) is not part of a ${name} character, so reading it as ${name} would change it. ${advice}`,
    { path: file.display, encoding: name, offset, line, ...(suggestion ? { suggested_encoding: publicName(suggestion) } : {}) },
  );
}

/**
 * Decodes a whole file (or, for a ranged read, a stretch of it that starts and ends on character boundaries: pass
 * the file's head for detection). Refuses binary content unless `requested` names an encoding.
 */
export async function decodeFileText(file: FileRef, bytes: Uint8Array, requested?: EncodingId): Promise<DecodedText> {
  const { detection, settings } = await detectFileEncoding(file, bytes.subarray(0, DETECTION_HEAD_BYTES), requested);
  if (detection.kind === 'binary') throw binaryRefusal(file.display);
  const codec = file.encodings.codec ?? LOCAL_CODEC;
  const attempt = async (shape: TextShape): Promise<{ text: string } | { badOffset: number; body: Uint8Array }> => {
    const body = shape.bom ? bytes.subarray(bomBytes(shape.encoding).length) : bytes;
    const exact = await decodeExact(body, shape.encoding, codec);
    return 'text' in exact ? exact : { badOffset: exact.badOffset, body };
  };
  const first = await attempt(detection);
  if ('text' in first) return { text: first.text, encoding: detection.encoding, bom: detection.bom };
  if (detection.source === 'utf16-pattern') throw binaryRefusal(file.display);
  // A guess that does not fit gives way to the configured encoding, as a person would reopen the file in it.
  if (detection.source === 'guess' && settings.default !== detection.encoding) {
    const fallback = { encoding: settings.default === 'utf8bom' ? 'utf8' : settings.default, bom: false } as const;
    const second = await attempt(fallback);
    if ('text' in second) return { text: second.text, ...fallback };
  }
  throw mismatch(file, bytes, first.body, detection, first.badOffset, settings);
}

/**
 * The bytes `text` is stored as in `shape` (with its BOM). INVALID_INPUT naming the first character the encoding
 * cannot hold, with its line and column in `text`.
 */
export async function encodeFileText(file: Pick<FileRef, 'encodings' | 'display'>, text: string, shape: TextShape): Promise<Uint8Array> {
  const codec = file.encodings.codec ?? LOCAL_CODEC;
  const exact = await encodeExact(text, shape.encoding, codec);
  if ('badIndex' in exact) {
    const { line, column } = lineAndColumn(text, exact.badIndex);
    const character = describeCharacter(text, exact.badIndex);
    const name = publicName(shape.encoding);
    throw new ToolError(
      'INVALID_INPUT',
      `The text cannot be stored in ${file.display}'s encoding ${name}: it has no character ${character} (line ${line}, column ${column} of the new text). Nothing was written. Leave that character out, or write the file in an encoding that has it with "encoding" (utf-8 holds every character).`,
      { path: file.display, encoding: name, code_point: text.codePointAt(exact.badIndex) ?? 0, line, column },
    );
  }
  const prefix = shape.bom ? bomBytes(shape.encoding) : [];
  if (prefix.length === 0) return exact.bytes;
  const result = new Uint8Array(prefix.length + exact.bytes.length);
  result.set(prefix, 0);
  result.set(exact.bytes, prefix.length);
  return result;
}

/**
 * The encoding a call's `encoding` parameter names, or undefined when it names none. INVALID_INPUT for a name Agent
 * FS does not know (the schema leaves it a free string: an enum of every name would cost each definition ~600 bytes).
 */
export function requestedEncoding(name: string | undefined): EncodingId | undefined {
  if (name === undefined) return undefined;
  const encoding = encodingNamed(name);
  if (encoding === undefined) {
    throw new ToolError(
      'INVALID_INPUT',
      `Unknown encoding "${name.slice(0, 40)}". Use one of VS Code's encoding names, for example ${someEncodingNames()}.`,
      { field: 'encoding' },
    );
  }
  return encoding;
}
