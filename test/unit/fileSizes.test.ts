/**
 * Rooms with one job each: a source file (src/, bench/) over 300 lines says in its header comment why it is one file,
 * in a line of its own starting "Over 300 lines:", so a file that grows past it is either split or explained.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..', '..');
const MAX_LINES = 300;

function sources(relative: string): string[] {
  return fs.readdirSync(path.join(REPO, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = `${relative}/${entry.name}`;
    if (entry.isDirectory()) return sources(child);
    return entry.name.endsWith('.ts') ? [child] : [];
  });
}

describe('source file sizes', function () {
  it(`a file over ${MAX_LINES} lines says why at its top`, function () {
    const files = [...sources('src'), ...sources('bench')];
    assert.ok(files.length > 100, `only ${files.length} source files found`);
    const unexplained: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(path.join(REPO, file), 'utf8');
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines <= MAX_LINES) continue;
      const header = /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? '';
      if (!/^ \* Over 300 lines: \S/m.test(header)) unexplained.push(`${file} (${lines} lines)`);
    }
    assert.deepEqual(unexplained, [], 'split these files, or say in their header comment why each is one ("Over 300 lines: …")');
  });
});
