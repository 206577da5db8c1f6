/**
 * Text files in every encoding Agent FS knows, made by the tests (nothing downloaded): for each, a text of the
 * script the encoding is for, as LF, CRLF and mixed line endings, with and without a BOM where the encoding has one.
 * Shared by the unit tests (over the runner) and the integration specs (in the editor host).
 *
 * The bytes are made with the same tables the tools use (VS Code's iconv-lite build); what the tests check is the
 * tools' handling: which encoding they read a file in, that the text they give is the text written, and that every
 * byte they do not change stays.
 */
import iconv from '@vscode/iconv-lite-umd';

/** Lines in the script an encoding is for; those a given encoding cannot hold are left out of its sample. */
const SCRIPTS: Readonly<Record<string, readonly string[]>> = {
  western: ['Café au lait, naïve façade: "Grüße aus Köln", señor niño.', 'Zweite Zeile: Äpfel, Öl, Übermut, ß; l’œuvre, “quotes” — 5 €.'],
  central: ['Příliš žluťoučký kůň úpěl ďábelské ódy.', 'Zażółć gęślą jaźń; Árvíztűrő tükörfúrógép.'],
  cyrillic: ['Съешь же ещё этих мягких французских булок, да выпей чаю.', 'Широкая электрификация южных губерний даст мощный толчок.'],
  greek: ['Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.', 'Γαζέες καὶ μυρτιὲς δὲν θὰ βρῶ πιὰ στὸ χρυσαφὶ ξέφωτο.'],
  hebrew: ['דג סקרן שט בים מאוכזב ולפתע מצא חברה.', 'עטלף אבק נס דרך מזגן שהתפוצץ כי חם.'],
  arabic: ['نص حكيم له سر قاطع وذو شأن عظيم.', 'صِف خَلقَ خَودِ كَمِثلِ الشَمسِ إِذ بَزَغَت.'],
  turkish: ['Pijamalı hasta yağız şoföre çabucak güvendi.', 'Çok şişman ğıdıklı öğrenci üzüldü.'],
  baltic: [
    'Įlinkdama fechtuotojo špaga sublykčiojusi pragręžė apvalų arbūzą.',
    'Glāžšķūņa rūķīši dzērumā čiepj Baha koncertflīģeļu vāķus.',
  ],
  nordic: ['Høj bly gom vandt fræk sexquiz på wc.', 'Þú ert ávallt velkominn; Sævör grét áðan því úlpan var ónýt.'],
  celtic: ['Chuaigh bé mhórshách le dlúthspád fíorfhinn trí hata mo dhea-phorcáin bhig.', 'Ŵ ŷ ẁ ẃ ẅ ỳ ḃ ċ ḋ ḟ ġ ṁ ṗ ṡ ṫ.'],
  romanian: ['Fumegând hipnotic sașiul azvârle mreje în bălți.', 'Înțelepciunea ștrengarului țâșnește.'],
  vietnamese: ['Tiếng Việt có dấu: Xin chào thế giới.', 'Đường đi khó, không khó vì ngăn sông cách núi.'],
  thai: ['เป็นมนุษย์สุดประเสริฐเลิศคุณค่า', 'กว่าบรรดาฝูงสัตว์เดรัจฉาน'],
  japanese: ['いろはにほへと ちりぬるを わかよたれそ つねならむ。', '日本語のテキスト、カタカナとひらがな：東京都渋谷区。'],
  simplified: ['我能吞下玻璃而不伤身体。这是一个简体中文的文本文件。', '第二行：北京市海淀区，测试编码检测。'],
  traditional: ['我能吞下玻璃而不傷身體。這是一個繁體中文的文字檔案。', '第二行：台北市信義區，測試編碼偵測。'],
  korean: ['다람쥐 헌 쳇바퀴에 타고파. 이것은 한국어 텍스트 파일입니다.', '두 번째 줄: 서울특별시 강남구, 인코딩 감지를 테스트합니다.'],
  dos: ['Ç ü é â ä à å ç ê ë è ï î ì Ä Å É æ Æ ô ö ò û ù ÿ Ö Ü', '░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼ ■ ½ ¼'],
  mac: ['Café ∑ ∂ ƒ © ™ ° • ¶ ß ® ≠ Æ Ø', 'Über ÿ ﬁ ﬂ ‡ · ‚ „ ‰ Â Ê Á Ë È'],
  unicode: ['Ünïcödé ✓ 日本語 한국어 Ελληνικά русский עברית العربية 😀 𝄞', 'second line: ∑ ∂ ƒ ©, and a combining é.'],
};

/** Which script a sample of each encoding is written in (VS Code's encodings, by their label's language). */
const SCRIPT_OF: Readonly<Record<string, string>> = {
  utf8: 'unicode',
  utf16le: 'unicode',
  utf16be: 'unicode',
  windows1252: 'western',
  iso88591: 'western',
  iso88593: 'western',
  iso885915: 'western',
  macroman: 'mac',
  cp437: 'dos',
  windows1256: 'arabic',
  iso88596: 'arabic',
  windows1257: 'baltic',
  iso88594: 'baltic',
  iso885914: 'celtic',
  windows1250: 'central',
  iso88592: 'central',
  cp852: 'central',
  windows1251: 'cyrillic',
  cp866: 'cyrillic',
  cp1125: 'cyrillic',
  iso88595: 'cyrillic',
  koi8r: 'cyrillic',
  koi8u: 'cyrillic',
  iso885913: 'baltic',
  windows1253: 'greek',
  iso88597: 'greek',
  windows1255: 'hebrew',
  iso88598: 'hebrew',
  iso885910: 'nordic',
  iso885916: 'romanian',
  windows1254: 'turkish',
  iso88599: 'turkish',
  windows1258: 'vietnamese',
  gbk: 'simplified',
  gb18030: 'simplified',
  cp950: 'traditional',
  big5hkscs: 'traditional',
  shiftjis: 'japanese',
  eucjp: 'japanese',
  euckr: 'korean',
  windows874: 'thai',
  iso885911: 'thai',
  koi8ru: 'cyrillic',
  koi8t: 'cyrillic',
  gb2312: 'simplified',
  cp865: 'dos',
  cp850: 'dos',
  cp857: 'dos',
};

/** Every encoding a file can be in (VS Code's list; `utf8bom` is UTF-8 written with a BOM, not an encoding of its own). */
const CORPUS_ENCODINGS: readonly string[] = Object.keys(SCRIPT_OF);

type Newlines = 'lf' | 'crlf' | 'mixed';

export interface CorpusFile {
  /** A file name that says what it is: "shiftjis-crlf.txt", "utf16le-bom-lf.txt". */
  readonly name: string;
  /** VS Code's id of the encoding. */
  readonly encoding: string;
  readonly bom: boolean;
  readonly newlines: Newlines;
  /** The text, as read_file should give it (no BOM character). */
  readonly text: string;
  readonly bytes: Uint8Array;
  /** The characters outside ASCII it holds (at least a few, or the sample would test nothing). */
  readonly nonAscii: number;
}

const BOMS: Readonly<Record<string, readonly number[]>> = { utf8: [0xef, 0xbb, 0xbf], utf16le: [0xff, 0xfe], utf16be: [0xfe, 0xff] };

function roundTrips(text: string, encoding: string): boolean {
  return iconv.decode(iconv.encode(text, encoding), encoding) === text;
}

/** A line of `script` reduced to the characters `encoding` holds (space where one is left out). */
function holdable(line: string, encoding: string): string {
  return [...line]
    .map((character) => (roundTrips(character, encoding) ? character : ' '))
    .join('')
    .replace(/ {2,}/g, ' ');
}

function withNewlines(lines: readonly string[], newlines: Newlines): string {
  const eol = (index: number): string => (newlines === 'lf' ? '\n' : newlines === 'crlf' ? '\r\n' : index % 2 === 0 ? '\r\n' : '\n');
  return lines.map((line, index) => line + eol(index)).join('');
}

/** The bytes `text` is stored as in `encoding`, with its BOM when asked (the reference the tests compare with). */
export function encodeAs(text: string, encoding: string, bom: boolean): Uint8Array {
  const body = iconv.encode(text, encoding);
  const prefix = bom ? (BOMS[encoding] ?? []) : [];
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix, 0);
  bytes.set(body, prefix.length);
  return bytes;
}

/** The lines of a sample: an ASCII first line (edited by the tests), the script's lines, an ASCII last one. */
export function corpusLines(encoding: string): string[] {
  const script = SCRIPTS[SCRIPT_OF[encoding] ?? 'unicode'] ?? [];
  return ['first line, plain ASCII', ...script.map((line) => holdable(line, encoding)), 'last line, plain ASCII'];
}

/** The whole corpus: every encoding × line endings × BOM where there is one. */
export function encodingCorpus(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const encoding of CORPUS_ENCODINGS) {
    const lines = corpusLines(encoding);
    const nonAscii = [...lines.join('')].filter((character) => character.charCodeAt(0) > 0x7f).length;
    for (const newlines of ['lf', 'crlf', 'mixed'] as const) {
      const text = withNewlines(lines, newlines);
      for (const bom of BOMS[encoding] ? [false, true] : [false]) {
        files.push({
          name: `${encoding}${bom ? '-bom' : ''}-${newlines}.txt`,
          encoding,
          bom,
          newlines,
          text,
          bytes: encodeAs(text, encoding, bom),
          nonAscii,
        });
      }
    }
  }
  return files;
}
