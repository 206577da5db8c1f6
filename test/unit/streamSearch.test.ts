import { strict as assert } from 'node:assert';
import { memorySource } from '../../src/core/read/select';
import { searchBytes } from '../../src/core/edit/stream';
import { CHUNK_BYTES } from '../../src/core/ports/fs';

const NEVER_CANCELLED = { isCancelled: () => false };

/** What searchBytes must find, by the obvious means: every start of every pattern in the whole buffer. */
function everyOccurrence(
  bytes: Uint8Array,
  patterns: readonly Uint8Array[],
): { pattern: number; start: number; line: number; endLine: number }[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const newlines: number[] = [];
  for (let index = buffer.indexOf(10); index !== -1; index = buffer.indexOf(10, index + 1)) newlines.push(index);
  /** One more than the newlines before `offset`. */
  const lineAt = (offset: number): number => {
    let low = 0;
    let high = newlines.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((newlines[middle] ?? 0) < offset) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  };
  const found: { pattern: number; start: number; line: number; endLine: number }[] = [];
  patterns.forEach((pattern, index) => {
    for (let at = buffer.indexOf(pattern); at !== -1; at = buffer.indexOf(pattern, at + 1)) {
      found.push({ pattern: index, start: at, line: lineAt(at), endLine: lineAt(at + pattern.length - 1) });
    }
  });
  return found.sort((a, b) => a.start - b.start || a.pattern - b.pattern);
}

function sorted<T extends { start: number; pattern: number }>(matches: readonly T[]): T[] {
  return [...matches].sort((a, b) => a.start - b.start || a.pattern - b.pattern);
}

describe('searchBytes over a file larger than one chunk', () => {
  it('finds every occurrence where a chunk boundary cuts it, with its lines, as a search of the whole buffer does', async () => {
    const size = 3 * CHUNK_BYTES + 5000;
    const bytes = new Uint8Array(size).fill(0x2e);
    for (let offset = 97; offset < size; offset += 211) bytes[offset] = 0x0a;
    const patterns = [Buffer.from('needle\nin a\nhaystack'), Buffer.from('ne'), Buffer.from('k')];
    // Each boundary cuts the long pattern after a different byte; more copies lie wholly inside the chunks.
    [1, 7, 19].forEach((cut, index) => bytes.set(patterns[0] ?? [], (index + 1) * CHUNK_BYTES - cut));
    for (let offset = 1000; offset < size - 100; offset += 99_991) bytes.set(patterns[0] ?? [], offset);
    const expected = everyOccurrence(bytes, patterns);
    assert.ok(expected.length > 60, `the fixture holds occurrences (${expected.length})`);
    const straddling = expected.filter((match) =>
      [1, 2, 3].some((n) => match.start < n * CHUNK_BYTES && match.start + (patterns[match.pattern]?.length ?? 0) > n * CHUNK_BYTES),
    );
    assert.ok(straddling.length >= 3, `some occurrences straddle a chunk boundary (${straddling.length})`);

    const found = await searchBytes(memorySource(bytes), patterns, NEVER_CANCELLED);
    assert.deepEqual(sorted(found), expected);
    // Chunks that do not start on a word boundary of their buffer are read byte by byte, with the same result.
    const unaligned = {
      size: bytes.length,
      read: (offset: number, length: number): Promise<Uint8Array> => {
        const piece = bytes.subarray(offset, offset + length);
        const room = new Uint8Array(piece.length + 1);
        room.set(piece, 1);
        return Promise.resolve(room.subarray(1));
      },
    };
    assert.deepEqual(sorted(await searchBytes(unaligned, patterns, NEVER_CANCELLED)), expected);
  });

  it('finds an occurrence that straddles a boundary exactly once, whichever byte the boundary falls after', async () => {
    const pattern = Buffer.from('abcdefgh');
    const bytes = new Uint8Array(2 * CHUNK_BYTES).fill(0x2e);
    for (let offset = 999; offset < bytes.length; offset += 1000) bytes[offset] = 0x0a;
    for (let cut = 1; cut < pattern.length; cut++) {
      bytes.set(pattern, CHUNK_BYTES - cut);
      const found = await searchBytes(memorySource(bytes), [pattern], NEVER_CANCELLED);
      assert.deepEqual(found, everyOccurrence(bytes, [pattern]), `cut ${cut}`);
      assert.equal(found.length, 1, `cut ${cut}`);
      bytes.fill(0x2e, CHUNK_BYTES - cut, CHUNK_BYTES - cut + pattern.length);
      for (let offset = 999; offset < bytes.length; offset += 1000) bytes[offset] = 0x0a;
    }
  });

  it('finds a pattern by its rarest byte wherever that byte lies, as a search of the whole buffer does', async () => {
    // The file's start is full of the pattern's first bytes, so the search looks for its last one ('X', rare there).
    const pattern = Buffer.from('eeeee eX');
    const patterns = [pattern, Buffer.from('X')];
    const bytes = new Uint8Array(2 * CHUNK_BYTES).fill(0x65);
    for (let offset = 60; offset < bytes.length; offset += 61) bytes[offset] = 0x0a;
    for (let offset = 41; offset < bytes.length; offset += 83) bytes[offset] = 0x20;
    // A copy at the very start and at the end, two back to back, and one cut by the boundary after each of its bytes.
    bytes.set(pattern, 0);
    bytes.set(pattern, bytes.length - pattern.length);
    bytes.set(Buffer.concat([pattern, pattern]), 500_000);
    const plain = Uint8Array.from(bytes);
    for (let cut = 1; cut < pattern.length; cut++) {
      bytes.set(pattern, CHUNK_BYTES - cut);
      const expected = everyOccurrence(bytes, patterns);
      assert.equal(expected.filter((match) => match.pattern === 0).length, 5, `cut ${cut}: the fixture holds five copies`);
      assert.deepEqual(sorted(await searchBytes(memorySource(bytes), patterns, NEVER_CANCELLED)), expected, `cut ${cut}`);
      bytes.set(plain);
    }
  });

  it('finds long patterns of common bytes by skipping, overlapping occurrences and chunk boundaries included', async () => {
    // Every byte of each pattern is common in the file, so none is searched for by itself.
    let state = 7;
    const bytes = new Uint8Array(3 * CHUNK_BYTES + 333).map(() => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return [0x61, 0x62, 0x61, 0x0a][state % 4] ?? 0x61;
    });
    const patterns = [Buffer.from('abaa'), Buffer.from('aaaaa'), Buffer.from('ba\nab\na'), Buffer.from('a\nb')];
    for (const [index, cut] of [1, 3, 5].entries()) bytes.set(patterns[index % 3] ?? [], (index + 1) * CHUNK_BYTES - cut);
    const expected = everyOccurrence(bytes, patterns);
    assert.ok(expected.filter((match) => match.pattern === 1).length > 1000, 'overlapping runs of a are in the fixture');
    assert.deepEqual(sorted(await searchBytes(memorySource(bytes), patterns, NEVER_CANCELLED, 10_000_000)), expected);
  });

  it('stops at the limit, in order of position', async () => {
    const bytes = new Uint8Array(2 * CHUNK_BYTES).fill(0x78);
    const found = await searchBytes(memorySource(bytes), [Buffer.from('xx')], NEVER_CANCELLED, 5);
    assert.deepEqual(
      found.map((match) => match.start),
      [0, 1, 2, 3, 4],
    );
  });
});
