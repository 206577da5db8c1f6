/**
 * The one-pass edit of a large file (searchSplicePass) against the two passes it replaces (searchBytes, then
 * splicePass over the windows found): on files of several chunks with short lines, long lines and lines longer than
 * a chunk, occurrences placed where chunk boundaries cut them, back to back and on neighbouring lines, both must give
 * the same windows, the same output bytes and the same counts, or refuse alike.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  searchBytes,
  searchSplicePass,
  splicePass,
  mergeWindows,
  WINDOW_MAX_BYTES,
  type PassSummary,
  type Window,
} from '../../src/core/edit/stream';
import type { ToolError } from '../../src/core/errors';
import { CHUNK_BYTES } from '../../src/core/ports/fs';
import { memorySource } from '../../src/core/read/select';
import { createNodeSession } from '../../src/node/host/session';
import { Chooser, seeded } from '../shared/churn';
import { call, expectError, expectOk, makeTempDir, removeTree } from './helpers';

const NEVER_CANCELLED = { isCancelled: () => false };
const around = (match: { line: number; endLine: number }): { firstLine: number; lastLine: number } => ({
  firstLine: Math.max(1, match.line - 1),
  lastLine: match.endLine + 1,
});

interface Outcome {
  readonly output: Buffer;
  readonly windows: readonly Pick<Window, 'firstLine' | 'start' | 'end' | 'atEnd'>[];
  readonly summary: Omit<PassSummary, 'windows'>;
  readonly found?: readonly number[];
}

/** Each window becomes its bytes with every driving occurrence replaced by `<>`, so the output shows where each was. */
function passOptions(pattern: Uint8Array): { options: Parameters<typeof splicePass>[2]; output: Buffer[] } {
  const output: Buffer[] = [];
  return {
    output,
    options: {
      display: 'big.txt',
      signals: NEVER_CANCELLED,
      writer: {
        write: (bytes) => {
          output.push(Buffer.from(bytes));
          return Promise.resolve();
        },
        close: () => Promise.resolve(),
      },
      rewrite: (window) =>
        Promise.resolve(
          Buffer.from(Buffer.from(window.bytes).toString('latin1').split(Buffer.from(pattern).toString('latin1')).join('<>'), 'latin1'),
        ),
    },
  };
}

function outcome(summary: PassSummary & { found?: readonly number[] }, output: Buffer[]): Outcome {
  const { windows, ...rest } = summary;
  return {
    output: Buffer.concat(output),
    windows: windows.map(({ firstLine, start, end, atEnd }) => ({ firstLine, start, end, atEnd })),
    summary: { totalLines: rest.totalLines, lf: rest.lf, crlf: rest.crlf },
    ...(rest.found ? { found: rest.found } : {}),
  };
}

async function twoPasses(bytes: Uint8Array, patterns: readonly Uint8Array[], drives: number): Promise<Outcome | ToolError> {
  const matches = await searchBytes(memorySource(bytes), patterns, NEVER_CANCELLED);
  const { options, output } = passOptions(patterns[drives] ?? new Uint8Array(0));
  const specs = matches.filter((match) => match.pattern === drives).map(around);
  try {
    const summary = await splicePass(memorySource(bytes), mergeWindows(specs), options);
    const found = patterns.map((_, index) => matches.filter((match) => match.pattern === index).length);
    return { ...outcome(summary, output), found };
  } catch (error) {
    return error as ToolError;
  }
}

async function onePass(bytes: Uint8Array, patterns: readonly Uint8Array[], drives: number): Promise<Outcome | ToolError> {
  const { options, output } = passOptions(patterns[drives] ?? new Uint8Array(0));
  try {
    const summary = await searchSplicePass(
      memorySource(bytes),
      { patterns, drives, around, limit: 100_000, tooMany: () => new Error('too many') as ToolError },
      options,
    );
    return outcome(summary, output);
  } catch (error) {
    return error as ToolError;
  }
}

function assertSame(actual: Outcome | ToolError, expected: Outcome | ToolError, what: string): void {
  if (expected instanceof Error || actual instanceof Error) {
    assert.ok(expected instanceof Error && actual instanceof Error, `${what}: one refused, the other did not`);
    assert.equal(actual.message, expected.message, what);
    return;
  }
  assert.deepEqual(actual.windows, expected.windows, `${what}: windows`);
  assert.deepEqual(actual.summary, expected.summary, `${what}: counts`);
  assert.deepEqual(actual.found, expected.found, `${what}: occurrences`);
  assert.ok(actual.output.equals(expected.output), `${what}: output bytes`);
}

/** A file of `size` bytes of lines whose lengths the chooser picks (some longer than a chunk), some ending in CRLF. */
function randomFile(chooser: Chooser, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const length = chooser.chance(0.02)
      ? CHUNK_BYTES + chooser.int(CHUNK_BYTES)
      : chooser.chance(0.2)
        ? chooser.int(5000)
        : chooser.int(90);
    const end = Math.min(size, at + length);
    bytes.fill(0x61 + chooser.int(3), at, end);
    at = end;
    if (at < size && chooser.chance(0.3)) bytes[at++] = 0x0d;
    if (at < size) bytes[at++] = 0x0a;
  }
  return bytes;
}

describe('searchSplicePass: one pass that searches and splices, against a search and then a splice', function () {
  this.timeout(300_000);

  it('gives the same windows, bytes and counts on random files, with occurrences cut by every chunk boundary', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const chooser = new Chooser(seeded(seed));
      const bytes = randomFile(chooser, 3 * CHUNK_BYTES + chooser.int(CHUNK_BYTES));
      const patterns = [Buffer.from('find\nme'), Buffer.from('find\r\nme'), Buffer.from('zz')];
      // Occurrences cut by each boundary after a different byte, on neighbouring lines, back to back, at both ends.
      for (let boundary = 1; boundary <= 3; boundary++) bytes.set(patterns[seed % 2] ?? [], boundary * CHUNK_BYTES - 1 - chooser.int(6));
      for (let count = 0; count < 20; count++) {
        const pattern = patterns[chooser.int(patterns.length)] ?? new Uint8Array(0);
        const at = chooser.int(bytes.length - 2 * pattern.length);
        bytes.set(pattern, at);
        if (chooser.chance(0.3)) bytes.set(pattern, at + pattern.length);
      }
      bytes.set(patterns[0] ?? [], 0);
      bytes.set(patterns[2] ?? [], bytes.length - 2);
      for (const drives of [0, 1, 2]) {
        const expected = await twoPasses(bytes, patterns, drives);
        assert.ok(expected instanceof Error || expected.windows.length > 0 || drives === 1, `seed ${seed}: the fixture holds occurrences`);
        assertSame(await onePass(bytes, patterns, drives), expected, `seed ${seed}, pattern ${drives}`);
      }
    }
  });

  it('refuses a window longer than the limit as the two passes do, and edits one just past a line that long', async () => {
    const long = WINDOW_MAX_BYTES + CHUNK_BYTES / 2;
    const bytes = new Uint8Array(long + 4 * CHUNK_BYTES).fill(0x61);
    for (let offset = long + 100; offset < bytes.length; offset += 70) bytes[offset] = 0x0a;
    bytes[10] = 0x0a;
    const pattern = Buffer.from('NEEDLE');
    // Just after the long line: its window (the line before included) is too large.
    bytes.set(pattern, long + 120);
    const tooLarge = await twoPasses(bytes, [pattern], 0);
    assert.ok(tooLarge instanceof Error && /longer than/.test(tooLarge.message), 'the two passes refuse');
    assertSame(await onePass(bytes, [pattern], 0), tooLarge, 'next to the long line');
    // Two lines further on, the window leaves the long line out: both edit it.
    bytes.fill(0x61, long + 120, long + 126);
    bytes.set(pattern, long + 250);
    const edited = await twoPasses(bytes, [pattern], 0);
    assert.ok(!(edited instanceof Error), 'the two passes edit');
    assertSame(await onePass(bytes, [pattern], 0), edited, 'past the long line');
    // Inside the long line itself, far from its start: too large for both.
    bytes.fill(0x61, long + 250, long + 256);
    bytes.set(pattern, long - 50);
    assertSame(await onePass(bytes, [pattern], 0), await twoPasses(bytes, [pattern], 0), 'inside the long line');
  });

  it('finds nothing in a file without the pattern and copies it byte for byte', async () => {
    const bytes = randomFile(new Chooser(seeded(99)), 2 * CHUNK_BYTES + 17);
    const result = await onePass(bytes, [Buffer.from('absent')], 0);
    assert.ok(!(result instanceof Error));
    assert.deepEqual(result.found, [0]);
    assert.deepEqual(result.windows, []);
    assert.ok(result.output.equals(Buffer.from(bytes)));
  });
});

/**
 * edit_file on a file streamed as a large one (the in-memory limit set to 0), against the same edit in memory: the
 * one pass where its search drives it, and each way back to the search-then-splice passes (the CRLF form found where
 * the file's head is LF, the exact form found where the head is CRLF, indentation ignored, nothing found).
 */
describe('edit_file streamed in one pass agrees with edit_file in memory', function () {
  let base: string;
  beforeEach(() => {
    base = makeTempDir('agentfs-one-pass-');
  });
  afterEach(() => removeTree(base));

  const filler = (count: number, eol: string): string =>
    Array.from({ length: count }, (_, index) => `filler line ${index} with some text${eol}`).join('');
  const files: { name: string; text: string; input: Record<string, unknown> }[] = [
    {
      name: 'lf, one line',
      text: `${filler(40_000, '\n')}the target\n${filler(40_000, '\n')}`,
      input: { old_string: 'the target', new_string: 'the edit' },
    },
    {
      name: 'crlf, two lines in the crlf form',
      text: `${filler(40_000, '\r\n')}first\r\nsecond\r\n${filler(40_000, '\r\n')}`,
      input: { old_string: 'first\nsecond', new_string: 'one\ntwo' },
    },
    {
      name: 'lf head, the crlf form further on',
      text: `${filler(40_000, '\n')}${filler(10, '\r\n')}first\r\nsecond\r\n${filler(10, '\n')}`,
      input: { old_string: 'first\nsecond', new_string: 'one\ntwo' },
    },
    {
      name: 'crlf head, the exact form further on as well as the crlf one',
      text: `${filler(40_000, '\r\n')}first\r\nsecond\r\n${filler(40_000, '\r\n')}first\nsecond\n${filler(10, '\n')}`,
      input: { old_string: 'first\nsecond', new_string: 'one\ntwo' },
    },
    {
      name: 'indentation ignored',
      text: `${filler(40_000, '\n')}    indented\n      deeper\n${filler(40_000, '\n')}`,
      input: { old_string: 'indented\n  deeper', new_string: 'flat\nagain' },
    },
    {
      name: 'replace_all across chunks',
      text: `${'x'.repeat(200)} some text\n`.repeat(9_000),
      input: { old_string: 'some text', new_string: 'TEXT', replace_all: true },
    },
  ];
  for (const file of files) {
    it(`${file.name}: the same bytes and fields`, async () => {
      const target = path.join(base, 'big.txt');
      fs.writeFileSync(target, file.text);
      const inMemory = expectOk(await call(createNodeSession(base), 'edit_file', { path: 'big.txt', ...file.input }));
      const expected = fs.readFileSync(target);
      assert.ok(!expected.equals(Buffer.from(file.text)), 'the edit changes the file');
      fs.writeFileSync(target, file.text);
      // expected_hash holds the file's hash before the edit: the pass must compute the same one.
      const streamed = expectOk(
        await call(createNodeSession(base, { editInMemoryBytes: 0 }), 'edit_file', {
          path: 'big.txt',
          ...file.input,
          expected_hash: inMemory.previous_hash,
        }),
      );
      assert.ok(fs.readFileSync(target).equals(expected), 'the same bytes');
      for (const field of [
        'stage',
        'match_count',
        'replaced',
        'lines',
        'lines_added',
        'lines_removed',
        'previous_hash',
        'content_hash',
        'newline',
      ]) {
        assert.deepEqual(streamed[field], inMemory[field], field);
      }
      assert.deepEqual(fs.readdirSync(base), ['big.txt'], 'no staging file is left');
    });
  }

  it('refuses a text that occurs nowhere, leaving the file and the folder as they were', async () => {
    const target = path.join(base, 'big.txt');
    const text = filler(80_000, '\n');
    fs.writeFileSync(target, text);
    const session = createNodeSession(base, { editInMemoryBytes: 0 });
    expectError(await call(session, 'edit_file', { path: 'big.txt', old_string: 'absent text', new_string: 'x' }), 'NO_MATCH');
    expectError(await call(session, 'edit_file', { path: 'big.txt', old_string: 'filler', new_string: 'x' }), 'LIMIT_EXCEEDED');
    assert.ok(fs.readFileSync(target).equals(Buffer.from(text)));
    assert.deepEqual(fs.readdirSync(base), ['big.txt']);
  });
});
