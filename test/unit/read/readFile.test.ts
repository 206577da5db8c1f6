/** read_file with line ranges, tails, byte caps, encodings, and ranged reads of files too large to read whole. */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Session } from '../../../src/core/invoke';
import { DEFAULT_READ_BYTES, UNRANGED_READ_CAP, WHOLE_READ_BYTES } from '../../../src/core/read/limits';
import { DEFAULT_POLICY } from '../../../src/core/settings';
import { NodeFileSystem } from '../../../src/node/fs/nodeFileSystem';
import { toPosixPath } from '../../../src/node/fs/nativePaths';
import { assertFields, assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from '../helpers';

function sha256(bytes: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** A session over node:fs whose port records what it reads, and can lose `readRange` or lie about sizes. */
function recordingSession(
  root: string,
  options: { ranged?: boolean; fakeSize?: number } = {},
): { session: Session; wholeReads: string[]; rangedBytes: () => number } {
  const inner = new NodeFileSystem();
  const wholeReads: string[] = [];
  let rangedBytes = 0;
  const fs: NodeFileSystem = Object.create(inner) as NodeFileSystem;
  Object.assign(fs, {
    readFile(file: string) {
      wholeReads.push(file);
      return inner.readFile(file);
    },
    async stat(file: string) {
      const stat = await inner.stat(file);
      return stat && options.fakeSize !== undefined && stat.kind === 'file' ? { ...stat, size: options.fakeSize } : stat;
    },
    readRange:
      options.ranged === false
        ? undefined
        : async (file: string, offset: number, length: number) => {
            const bytes = await inner.readRange(file, offset, length);
            rangedBytes += bytes.length;
            return bytes;
          },
  });
  const rootPath = toPosixPath(root);
  return {
    session: { policy: () => DEFAULT_POLICY, workspace: () => Promise.resolve({ roots: [{ name: 'base', path: rootPath }], fs }) },
    wholeReads,
    rangedBytes: () => rangedBytes,
  };
}

describe('read_file: ranges, limits and encodings', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('returns the whole file with its facts, and changes nothing on disk', async function () {
    const text = 'one\ntwo\nthree\n';
    ws.write({ 'a.txt': text });
    const before = ws.snap();
    const data = expectOk(await call(ws.session, 'read_file', { file_name: 'a.txt' }), 'read_file');
    assert.deepEqual(data, {
      file_name: 'a.txt',
      relative_path: 'a.txt',
      content: text,
      size_bytes: 14,
      total_lines: 3,
      content_hash: sha256(text),
      encoding: 'utf-8',
      bom: false,
      newline: 'lf',
      start_line: 1,
      end_line: 3,
      truncated: false,
      truncation_reason: null,
      next_start_line: null,
    });
    assertTree(ws.snap(), before);
  });

  it('reads an inclusive 1-based range; an end past the end reads to the end', async function () {
    ws.write({ 'a.txt': 'l1\nl2\nl3\nl4\nl5' });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'a.txt', start_line: 2, end_line: 3 })), {
      content: 'l2\nl3\n',
      start_line: 2,
      end_line: 3,
      total_lines: 5,
      truncated: false,
      next_start_line: null,
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'a.txt', start_line: 4, end_line: 99 })), {
      content: 'l4\nl5',
      start_line: 4,
      end_line: 5,
      truncated: false,
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'a.txt', start_line: 5 })), {
      content: 'l5',
      start_line: 5,
      end_line: 5,
    });
  });

  it('refuses a start past the end, an end before the start, and a tail combined with a range', async function () {
    ws.write({ 'a.txt': 'l1\nl2\n', 'empty.txt': '' });
    const past = expectError(await call(ws.session, 'read_file', { file_name: 'a.txt', start_line: 3 }), 'INVALID_INPUT');
    assert.match(past.message, /has 2 lines/);
    assert.deepEqual(past.details, { field: 'start_line', total_lines: 2 });
    expectError(await call(ws.session, 'read_file', { file_name: 'a.txt', start_line: 2, end_line: 1 }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'read_file', { file_name: 'a.txt', tail_lines: 1, start_line: 1 }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'read_file', { file_name: 'a.txt', start_line: 0 }), 'INVALID_INPUT');
    expectError(await call(ws.session, 'read_file', { file_name: 'empty.txt', start_line: 2 }), 'INVALID_INPUT');
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'empty.txt' })), {
      content: '',
      total_lines: 0,
      start_line: null,
      end_line: null,
      newline: 'none',
    });
  });

  it('truncates honestly at max_bytes, on whole lines, and the rest follows from next_start_line', async function () {
    const lines = Array.from({ length: 40 }, (_, index) => `line ${String(index + 1).padStart(2, '0')}\r\n`);
    ws.write({ 'crlf.txt': lines.join('') });
    const first = expectOk(await call(ws.session, 'read_file', { file_name: 'crlf.txt', max_bytes: 100 }));
    // Each line is 9 bytes: 11 whole lines fit in 100.
    assertFields(first, {
      content: lines.slice(0, 11).join(''),
      truncated: true,
      truncation_reason: 'max_bytes',
      start_line: 1,
      end_line: 11,
      next_start_line: 12,
      newline: 'crlf',
    });
    let assembled = String(first.content);
    let next = first.next_start_line;
    while (typeof next === 'number') {
      const part = expectOk(await call(ws.session, 'read_file', { file_name: 'crlf.txt', start_line: next, max_bytes: 100 }));
      assembled += String(part.content);
      next = part.next_start_line;
    }
    assert.equal(assembled, lines.join(''));
  });

  it('cuts a line longer than max_bytes at a character boundary and says so', async function () {
    const long = `${'é'.repeat(100)}\nshort\n`;
    ws.write({ 'long.txt': long });
    const data = expectOk(await call(ws.session, 'read_file', { file_name: 'long.txt', max_bytes: 51 }));
    assertFields(data, {
      content: 'é'.repeat(25),
      truncated: true,
      truncation_reason: 'line_too_long',
      start_line: 1,
      end_line: 1,
      next_start_line: 2,
    });
  });

  it('caps max_bytes at agentFs.maxReadBytes and defaults to it', async function () {
    const small = tempWorkspace({ maxReadBytes: 64 });
    try {
      small.write({ 'a.txt': 'x'.repeat(40) + '\n' + 'y'.repeat(40) + '\n' });
      const refused = expectError(await call(small.session, 'read_file', { file_name: 'a.txt', max_bytes: 65 }), 'LIMIT_EXCEEDED');
      assert.match(refused.message, /agentFs\.maxReadBytes/);
      assertFields(expectOk(await call(small.session, 'read_file', { file_name: 'a.txt' })), {
        content: 'x'.repeat(40) + '\n',
        truncated: true,
        next_start_line: 2,
      });
    } finally {
      small.cleanup();
    }
  });

  it('says a UTF-8 BOM is there (bom) without putting it in content, and keeps mixed line endings as stored', async function () {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\nc')]);
    ws.write({ 'bom.txt': bytes });
    const data = expectOk(await call(ws.session, 'read_file', { file_name: 'bom.txt' }));
    assertFields(data, {
      content: 'a\r\nb\nc',
      bom: true,
      encoding: 'utf-8',
      newline: 'mixed',
      total_lines: 3,
      content_hash: sha256(bytes),
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'bom.txt', start_line: 2 })), { content: 'b\nc' });
  });

  it('decodes UTF-16 by its BOM and Latin-1 when named', async function () {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé\nwörld\n', 'utf16le')]);
    ws.write({ 'u16.txt': utf16, 'latin.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'u16.txt', start_line: 2 })), {
      content: 'wörld\n',
      encoding: 'utf-16le',
      bom: true,
      total_lines: 2,
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'latin.txt', encoding: 'latin1' })), {
      content: 'café\n',
      encoding: 'latin1',
    });
  });

  it('refuses binary content unless an encoding is named', async function () {
    ws.write({ 'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x0a, 0xff]) });
    expectError(await call(ws.session, 'read_file', { file_name: 'image.png' }), 'BINARY_CONTENT_REFUSED');
    const data = expectOk(await call(ws.session, 'read_file', { file_name: 'image.png', encoding: 'latin1' }));
    assert.equal(String(data.content).length, 8);
  });

  it('returns the last lines with tail_lines, with or without a final newline', async function () {
    ws.write({ 'log.txt': 'a\nb\nc\nd\n', 'open.txt': 'a\nb\nc' });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'log.txt', tail_lines: 2 })), {
      content: 'c\nd\n',
      start_line: 3,
      end_line: 4,
      total_lines: 4,
      truncated: false,
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'open.txt', tail_lines: 2 })), {
      content: 'b\nc',
      start_line: 2,
      end_line: 3,
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'open.txt', tail_lines: 10 })), {
      content: 'a\nb\nc',
      start_line: 1,
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'log.txt', tail_lines: 3, max_bytes: 5 })), {
      content: 'c\nd\n',
      truncated: true,
      truncation_reason: 'max_bytes',
      start_line: 3,
    });
  });

  it('answers the contract codes for missing, directories, outside paths and hidden paths', async function () {
    ws.write({ 'dir/x.txt': 'x', '.env': 'SECRET=1' });
    expectError(await call(ws.session, 'read_file', { file_name: 'nope.txt' }), 'FILE_NOT_FOUND');
    expectError(await call(ws.session, 'read_file', { file_name: 'dir' }), 'FILE_NOT_FILE');
    expectError(await call(ws.session, 'read_file', { file_name: '../outside/secret.txt' }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await call(ws.session, 'read_file', { file_name: '.env' }), 'SENSITIVE_PATH_REFUSED');
  });
});

describe('read_file: files above the whole-read size', function () {
  let ws: TempWorkspace;
  let lineCount: number;
  const line = (number: number): string => `${String(number).padStart(8, '0')} the quick brown fox jumps over the lazy dog\n`;
  before(function () {
    ws = tempWorkspace();
    lineCount = Math.ceil((WHOLE_READ_BYTES + 1024 * 1024) / line(1).length);
    const handle = fs.openSync(path.join(ws.base, 'big.log'), 'w');
    const block: string[] = [];
    for (let number = 1; number <= lineCount; number++) {
      block.push(line(number));
      if (block.length === 10_000 || number === lineCount) {
        fs.writeSync(handle, block.join(''));
        block.length = 0;
      }
    }
    fs.closeSync(handle);
  });
  after(function () {
    ws.cleanup();
  });

  it('reads the tail through ranged reads only, without a hash or line count', async function () {
    const { session, wholeReads, rangedBytes } = recordingSession(ws.base);
    const data = expectOk(await call(session, 'read_file', { file_name: 'big.log', tail_lines: 3 }));
    assertFields(data, {
      content: line(lineCount - 2) + line(lineCount - 1) + line(lineCount),
      content_hash: null,
      total_lines: null,
      start_line: null,
      truncated: false,
      size_bytes: fs.statSync(path.join(ws.base, 'big.log')).size,
    });
    assert.deepEqual(wholeReads, []);
    assert.ok(rangedBytes() < 256 * 1024, `read ${rangedBytes()} bytes for a tail`);
  });

  it('reads a range near the end in chunks and refuses a start past the end with the exact count', async function () {
    const { session, wholeReads } = recordingSession(ws.base);
    const data = expectOk(await call(session, 'read_file', { file_name: 'big.log', start_line: lineCount - 1, end_line: lineCount + 5 }));
    assertFields(data, {
      content: line(lineCount - 1) + line(lineCount),
      start_line: lineCount - 1,
      end_line: lineCount,
      total_lines: lineCount,
      content_hash: null,
    });
    const past = expectError(await call(session, 'read_file', { file_name: 'big.log', start_line: lineCount + 1 }), 'INVALID_INPUT');
    assert.deepEqual(past.details, { field: 'start_line', total_lines: lineCount });
    assert.deepEqual(wholeReads, []);
  });

  it('truncates the default read at DEFAULT_READ_BYTES (below agentFs.maxReadBytes) with a place to continue', async function () {
    const { session } = recordingSession(ws.base);
    const data = expectOk(await call(session, 'read_file', { file_name: 'big.log' }));
    const perLine = line(1).length;
    assert.ok(DEFAULT_READ_BYTES < DEFAULT_POLICY.maxReadBytes);
    const fit = Math.floor(DEFAULT_READ_BYTES / perLine);
    assertFields(data, {
      truncated: true,
      truncation_reason: 'max_bytes',
      start_line: 1,
      end_line: fit,
      next_start_line: fit + 1,
      total_lines: null,
    });
    assert.equal(String(data.content).length, fit * perLine);
  });

  it('without ranged reads, reads whole up to the cap and refuses above it', async function () {
    const plain = recordingSession(ws.base, { ranged: false });
    assertFields(expectOk(await call(plain.session, 'read_file', { file_name: 'big.log', tail_lines: 1 })), {
      content: line(lineCount),
      total_lines: lineCount,
    });
    assert.equal(plain.wholeReads.length, 1);
    const huge = recordingSession(ws.base, { ranged: false, fakeSize: UNRANGED_READ_CAP + 1 });
    const refused = expectError(await call(huge.session, 'read_file', { file_name: 'big.log', tail_lines: 1 }), 'LIMIT_EXCEEDED');
    assert.match(refused.message, /cannot read part of a file/);
    assert.deepEqual(huge.wholeReads, []);
  });
});
