/** The search fixture both engine tests and behaviour tests use. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const LONG_LINE = `${'abcdefghij'.repeat(300)} needle ${'0123456789'.repeat(300)}`;

export function writeSearchFixture(base: string): void {
  const files: Record<string, string | Buffer> = {
    '.gitignore': 'ignored/\n*.log\n',
    '.git/config': 'needle in git\n',
    '.env': 'NEEDLE=secret\n',
    '.hidden/h.txt': 'a needle in a dot folder\n',
    'unicode.txt': 'héllo wörld\n😀 smile needle 😀\n文件 search 文件\nStraße und STRASSE\nİstanbul needle\ncafé needle ünïcödé\n',
    'crlf.txt': 'alpha\r\nbeta end\r\ngamma needle\r\n\r\nlast end\r\n',
    'mixed.txt': 'one end\ntwo end\r\nthree\n',
    'long.txt': `short first\n${LONG_LINE}\nshort last needle\n`,
    'code.ts': 'const fooBar = 1;\nconst fooBaz = 2;\nword_needle and needle-dash\nNEEDLE upper\ttab needle\nvalue = 123 + 4567\nfoo\n',
    'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('utf16 needle line\nsecond\n', 'utf16le')]),
    'binary.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2, 3]), Buffer.from('needle\n')]),
    'doc.pdf': Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 0xff, 0]), Buffer.from('needle\n')]),
    'doc.pdf.txt': 'extracted text with a needle\nand more\n',
    'notes.md.txt': 'plain sidecar-looking needle\n',
    'ignored/x.txt': 'needle ignored\n',
    'app.log': 'needle in a log\n',
    'dist/bundle.js': 'needle excluded\n',
    'sub/.gitignore': '*.skip\n',
    'sub/a.skip': 'needle skipped\n',
    'sub/b.txt': 'needle in sub\nline two\nline three needle\n',
    'sub/deep/c.ts': 'export const needle = 1;\n',
    'empty.txt': '',
    'nonl.txt': 'no newline at the end needle',
  };
  for (const [relative, content] of Object.entries(files)) {
    const full = path.join(base, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  fs.symlinkSync('sub/b.txt', path.join(base, 'link.txt'));
}
