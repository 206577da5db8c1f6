/**
 * The text encodings Agent FS reads and writes: exactly the ones VS Code offers ("Reopen with Encoding"), under
 * VS Code's own ids (`windows1252`, `shiftjis`, `gbk`, …), so a name that works in `files.encoding` works here.
 *
 * Names in results: the VS Code id, except that the four encodings results named before there were VS Code ids keep
 * those names (`utf-8`, `utf-16le`, `utf-16be`, `latin1` for ISO 8859-1), so scripts comparing them keep working. Names in calls: any VS Code id, any of
 * those three, and the usual labels (`latin1`, `windows-1252`, `shift_jis`, `big5`, `cp1251`, …) through `encodingNamed`.
 */

/** How bytes map to characters, as far as cutting and line scanning need to know. */
export type EncodingFamily =
  /** One byte per character: any byte offset is a character boundary. */
  | 'single'
  /** UTF-8: continuation bytes are 10xxxxxx. */
  | 'utf8'
  /** UTF-16: two-byte units; '\n' is not a single byte. */
  | 'utf16'
  /** Double-byte legacy encodings whose lead bytes (≥ 0x81) start a two-byte character. */
  | 'dbcs'
  /** Shift JIS: lead bytes 0x81–0x9F and 0xE0–0xFC; 0xA1–0xDF are one-byte katakana. */
  | 'sjis'
  /** EUC-JP: 0x8E starts two bytes, 0x8F three, 0xA1–0xFE two. */
  | 'eucjp'
  /** GB 18030: like a double-byte encoding, but a second byte 0x30–0x39 makes it four bytes. */
  | 'gb18030';

interface EncodingSpec {
  /** VS Code's label ("Western (Windows 1252)"). */
  readonly label: string;
  readonly family: EncodingFamily;
  /** The name jschardet reports it under, for the encodings VS Code lets it guess (and jschardet can detect). */
  readonly guessAs?: string;
}

/** VS Code's encodings, in the order its picker shows them. */
const ENCODINGS = {
  utf8: { label: 'UTF-8', family: 'utf8', guessAs: 'UTF-8' },
  utf8bom: { label: 'UTF-8 with BOM', family: 'utf8' },
  utf16le: { label: 'UTF-16 LE', family: 'utf16', guessAs: 'UTF-16LE' },
  utf16be: { label: 'UTF-16 BE', family: 'utf16', guessAs: 'UTF-16BE' },
  windows1252: { label: 'Western (Windows 1252)', family: 'single', guessAs: 'windows-1252' },
  iso88591: { label: 'Western (ISO 8859-1)', family: 'single' },
  iso88593: { label: 'Western (ISO 8859-3)', family: 'single' },
  iso885915: { label: 'Western (ISO 8859-15)', family: 'single' },
  macroman: { label: 'Western (Mac Roman)', family: 'single' },
  cp437: { label: 'DOS (CP 437)', family: 'single' },
  windows1256: { label: 'Arabic (Windows 1256)', family: 'single' },
  iso88596: { label: 'Arabic (ISO 8859-6)', family: 'single' },
  windows1257: { label: 'Baltic (Windows 1257)', family: 'single' },
  iso88594: { label: 'Baltic (ISO 8859-4)', family: 'single' },
  iso885914: { label: 'Celtic (ISO 8859-14)', family: 'single' },
  windows1250: { label: 'Central European (Windows 1250)', family: 'single', guessAs: 'windows-1250' },
  iso88592: { label: 'Central European (ISO 8859-2)', family: 'single', guessAs: 'ISO-8859-2' },
  cp852: { label: 'Central European (CP 852)', family: 'single' },
  windows1251: { label: 'Cyrillic (Windows 1251)', family: 'single', guessAs: 'windows-1251' },
  cp866: { label: 'Cyrillic (CP 866)', family: 'single', guessAs: 'IBM866' },
  // VS Code lists IBM1125 as guessable, but jschardet cannot detect it (it throws on the name), so it is not guessed.
  cp1125: { label: 'Cyrillic (CP 1125)', family: 'single' },
  iso88595: { label: 'Cyrillic (ISO 8859-5)', family: 'single', guessAs: 'ISO-8859-5' },
  koi8r: { label: 'Cyrillic (KOI8-R)', family: 'single', guessAs: 'KOI8-R' },
  koi8u: { label: 'Cyrillic (KOI8-U)', family: 'single' },
  iso885913: { label: 'Estonian (ISO 8859-13)', family: 'single' },
  windows1253: { label: 'Greek (Windows 1253)', family: 'single', guessAs: 'windows-1253' },
  iso88597: { label: 'Greek (ISO 8859-7)', family: 'single', guessAs: 'ISO-8859-7' },
  windows1255: { label: 'Hebrew (Windows 1255)', family: 'single', guessAs: 'windows-1255' },
  // As IBM1125: guessable in VS Code's table, unknown to jschardet.
  iso88598: { label: 'Hebrew (ISO 8859-8)', family: 'single' },
  iso885910: { label: 'Nordic (ISO 8859-10)', family: 'single' },
  iso885916: { label: 'Romanian (ISO 8859-16)', family: 'single' },
  windows1254: { label: 'Turkish (Windows 1254)', family: 'single' },
  iso88599: { label: 'Turkish (ISO 8859-9)', family: 'single' },
  windows1258: { label: 'Vietnamese (Windows 1258)', family: 'single' },
  gbk: { label: 'Simplified Chinese (GBK)', family: 'dbcs' },
  gb18030: { label: 'Simplified Chinese (GB18030)', family: 'gb18030' },
  cp950: { label: 'Traditional Chinese (Big5)', family: 'dbcs', guessAs: 'Big5' },
  big5hkscs: { label: 'Traditional Chinese (Big5-HKSCS)', family: 'dbcs' },
  shiftjis: { label: 'Japanese (Shift JIS)', family: 'sjis', guessAs: 'SHIFT_JIS' },
  eucjp: { label: 'Japanese (EUC-JP)', family: 'eucjp', guessAs: 'EUC-JP' },
  euckr: { label: 'Korean (EUC-KR)', family: 'dbcs', guessAs: 'EUC-KR' },
  windows874: { label: 'Thai (Windows 874)', family: 'single' },
  iso885911: { label: 'Latin/Thai (ISO 8859-11)', family: 'single' },
  koi8ru: { label: 'Cyrillic (KOI8-RU)', family: 'single' },
  koi8t: { label: 'Tajik (KOI8-T)', family: 'single' },
  gb2312: { label: 'Simplified Chinese (GB 2312)', family: 'dbcs', guessAs: 'GB2312' },
  cp865: { label: 'Nordic DOS (CP 865)', family: 'single' },
  cp850: { label: 'Western European DOS (CP 850)', family: 'single' },
  cp857: { label: 'Turkish DOS (CP 857)', family: 'single' },
} as const satisfies Readonly<Record<string, EncodingSpec>>;

/** A VS Code encoding id. `utf8bom` only says how to write (UTF-8 with a BOM); a file read is `utf8` with `bom`. */
export type EncodingId = keyof typeof ENCODINGS;

const ENCODING_IDS = Object.keys(ENCODINGS) as EncodingId[];

/** The encoding of a text file as stored: its encoding and whether a byte-order mark starts it. */
export interface TextShape {
  readonly encoding: EncodingId;
  readonly bom: boolean;
}

const SHIPPED_NAMES: Partial<Record<EncodingId, string>> = { utf8: 'utf-8', utf16le: 'utf-16le', utf16be: 'utf-16be', iso88591: 'latin1' };

/** The name results give an encoding (see the header). */
export function publicName(encoding: EncodingId): string {
  return SHIPPED_NAMES[encoding] ?? encoding;
}

export function familyOf(encoding: EncodingId): EncodingFamily {
  return ENCODINGS[encoding].family;
}

function isEncodingId(name: string): name is EncodingId {
  return Object.prototype.hasOwnProperty.call(ENCODINGS, name);
}

/** Labels people and other tools use, normalised (lower case, letters and digits only), for VS Code ids. */
const ALIASES: Readonly<Record<string, EncodingId>> = {
  latin1: 'iso88591',
  l1: 'iso88591',
  ascii: 'utf8',
  usascii: 'utf8',
  utf16: 'utf16le',
  ucs2: 'utf16le',
  sjis: 'shiftjis',
  mskanji: 'shiftjis',
  big5: 'cp950',
  xmacroman: 'macroman',
  mac: 'macroman',
  ibm437: 'cp437',
  ibm850: 'cp850',
  ibm852: 'cp852',
  ibm857: 'cp857',
  ibm865: 'cp865',
  ibm866: 'cp866',
  ibm1125: 'cp1125',
  gb180302005: 'gb18030',
  cp936: 'gbk',
  windows936: 'gbk',
  cp949: 'euckr',
  ksc56011987: 'euckr',
  cp874: 'windows874',
  tis620: 'iso885911',
};

/**
 * The encoding a caller means by `name` (`windows1252`, `windows-1252`, `cp1252`, `latin1`, `utf-8`, `Shift_JIS`,
 * …), or undefined when Agent FS does not know it. Matching ignores case and every character but letters and
 * digits, as VS Code and iconv-lite do.
 */
export function encodingNamed(name: string): EncodingId | undefined {
  const normal = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (isEncodingId(normal)) return normal;
  const alias = ALIASES[normal];
  if (alias) return alias;
  const windows = /^cp(125\d)$/.exec(normal);
  if (windows && isEncodingId(`windows${windows[1] ?? ''}`)) return `windows${windows[1] ?? ''}` as EncodingId;
  return undefined;
}

/** The VS Code id of a name jschardet reports, when it is one of the encodings VS Code lets it guess. */
export function encodingGuessedAs(jschardetName: string): EncodingId | undefined {
  for (const id of ENCODING_IDS) {
    const guessAs: string | undefined = (ENCODINGS[id] as EncodingSpec).guessAs;
    if (guessAs !== undefined && guessAs.toLowerCase() === jschardetName.toLowerCase()) return id;
  }
  return undefined;
}

/** The jschardet names of the encodings a guess may choose from (VS Code's guessable ones that jschardet knows). */
export function guessNames(candidates: readonly EncodingId[]): string[] {
  const names: string[] = [];
  for (const id of candidates.length > 0 ? candidates : ENCODING_IDS) {
    const guessAs: string | undefined = (ENCODINGS[id] as EncodingSpec).guessAs;
    if (guessAs !== undefined && !names.includes(guessAs)) names.push(guessAs);
  }
  return names;
}

/** "utf-8, windows1252, shiftjis, …": the names a refusal offers, short enough for a message. */
export function someEncodingNames(): string {
  return 'utf-8, utf-16le, windows1252, iso88591, shiftjis, eucjp, gbk, cp950, euckr, koi8r, windows1251';
}
