/**
 * search_content's pages, on each engine: a cut reply holds exactly the first max_results lines in path and line
 * order, and following next_offset gives the whole sorted list once each, as one call with a large max_results does.
 * The tree has the names where a walk that sorts each directory by name meets files out of path order ("a/" before
 * "a-b", "a.ts"), which ripgrep's sorted walk does, and a .pdf read through its sidecar.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Session } from '../../../src/core/invoke';
import { ripgrepForTests } from './ripgrep';
import { createNodeSession } from '../../../src/node/host/session';
import { assertTree, call, expectOk, makeTempDir, removeTree, snapshot } from '../helpers';

interface Match {
  path: string;
  line: number;
  text: string;
}

/** Directory and file names that a by-name walk and the path order disagree on, each holding lines with "needle". */
const NAMES = ['a', 'a-b', 'a.ts', 'a b', 'index', 'index.ts', 'z', 'zz', 'm-n', 'm'];

function writeTree(base: string): number {
  let lines = 0;
  const write = (relative: string, count: number): void => {
    const full = path.join(base, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    const body: string[] = [];
    for (let line = 1; line <= count; line++) body.push(line % 2 === 0 ? `needle ${relative} ${line}` : `filler ${line}`);
    fs.writeFileSync(full, `${body.join('\n')}\n`);
    lines += Math.floor(count / 2);
  };
  for (const [index, name] of NAMES.entries()) {
    if (name.includes('.')) write(name, 4 + index);
    else {
      for (let file = 0; file < 4; file++) write(`${name}/f${file}.txt`, 2 + ((index + file) % 5) * 2);
      write(`${name}/sub/deep.txt`, 6);
      write(`${name}/sub-x.txt`, 2);
      write(`${name}/sub.txt`, 4);
    }
  }
  fs.writeFileSync(
    path.join(base, 'doc.pdf'),
    Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from([0, 0xff, 0]), Buffer.from('needle\n')]),
  );
  fs.writeFileSync(path.join(base, 'doc.pdf.txt'), 'needle in the sidecar\nfiller\nneedle again\n');
  fs.writeFileSync(path.join(base, 'doc.pdf-notes.txt'), 'needle between the .pdf and its sidecar\n');
  return lines + 3;
}

function inOrder(matches: readonly Match[]): boolean {
  return matches.every((match, index) => {
    const before = matches[index - 1];
    return before === undefined || before.path < match.path || (before.path === match.path && before.line < match.line);
  });
}

for (const engine of ['ripgrep', 'scan'] as const) {
  describe(`search_content pages (${engine})`, function () {
    let base: string;
    let second: string;
    let session: Session;
    let multi: Session;
    let expected: number;
    before(function () {
      base = makeTempDir('agentfs-paging-');
      second = makeTempDir('agentfs-paging-');
      expected = writeTree(base);
      writeTree(second);
      const ripgrep = engine === 'ripgrep' ? ripgrepForTests() : false;
      session = createNodeSession(base, {}, { ripgrep });
      multi = createNodeSession([base, second], {}, { ripgrep });
    });
    after(function () {
      if (base) removeTree(base);
      if (second) removeTree(second);
    });

    const search = async (on: Session, input: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const data = expectOk(await call(on, 'search_content', { query: 'needle', ...input }), 'search_content');
      assert.equal(data.engine, engine);
      return data;
    };

    /** Every page from offset 0 on, checking each page's fields on the way. */
    const pages = async (on: Session, maxResults: number): Promise<Match[]> => {
      const collected: Match[] = [];
      let offset: number | undefined = 0;
      for (let page = 0; offset !== undefined; page++) {
        assert.ok(page < 200, 'more than 200 pages');
        const data = await search(on, { max_results: maxResults, offset });
        const matches = data.matches as Match[];
        assert.equal(data.count, matches.length);
        assert.equal(data.truncated, data.next_offset !== undefined, 'truncated exactly when there is a next_offset');
        if (data.truncated) {
          assert.equal(matches.length, maxResults);
          assert.equal(data.next_offset, offset + maxResults);
        }
        collected.push(...matches);
        offset = data.next_offset as number | undefined;
      }
      return collected;
    };

    it('one call with a large max_results: every line, sorted by path and line, with total, and the disk unchanged', async function () {
      const before = snapshot(base);
      const whole = await search(session, { max_results: 200 });
      const matches = whole.matches as Match[];
      assert.equal(whole.truncated, false);
      assert.equal('next_offset' in whole, false);
      assert.equal(whole.count, expected);
      assert.equal(whole.total, expected);
      assert.ok(inOrder(matches), 'sorted by path, then line');
      // The names a by-name walk meets out of order come in path order: "a b/…", "a-b/…", "a.ts", then "a/…".
      const tops = [...new Set(matches.map((match) => match.path.split('/')[0]))];
      assert.deepEqual(tops, ['a b', 'a-b', 'a.ts', 'a', 'doc.pdf', 'doc.pdf-notes.txt', 'index.ts', 'index', 'm-n', 'm', 'z', 'zz']);
      assert.deepEqual(
        matches.filter((match) => match.path.startsWith('doc.pdf')).map((match) => [match.path, match.line]),
        [
          ['doc.pdf', 1],
          ['doc.pdf', 3],
          ['doc.pdf-notes.txt', 1],
        ],
      );
      assertTree(snapshot(base), before);
    });

    it('pages of 7, 1 and 50 concatenate to the one-call result, each line once', async function () {
      const whole = (await search(session, { max_results: 200 })).matches as Match[];
      for (const size of [7, 1, 50]) assert.deepEqual(await pages(session, size), whole, `pages of ${size}`);
    });

    it('a cut reply is the first max_results lines in order, the same on every call, with no total it cannot know', async function () {
      const whole = (await search(session, { max_results: 200 })).matches as Match[];
      for (const [maxResults, offset] of [
        [10, 0],
        [13, 20],
        [5, expected - 6],
      ] as const) {
        const first = await search(session, { max_results: maxResults, offset });
        const again = await search(session, { max_results: maxResults, offset });
        assert.deepEqual(first.matches, whole.slice(offset, offset + maxResults));
        assert.deepEqual(again.matches, first.matches);
        assert.equal(first.truncated, true);
        if ('total' in first) assert.equal(first.total, expected);
      }
      const last = await search(session, { max_results: 6, offset: expected - 6 });
      assert.deepEqual(last.matches, whole.slice(expected - 6));
      assert.equal(last.truncated, false);
    });

    it('an offset at or past the end gives an empty page, not an error', async function () {
      for (const offset of [expected, expected + 1000]) {
        const data = await search(session, { offset });
        assert.deepEqual(data.matches, []);
        assert.equal(data.truncated, false);
        assert.equal(data.count, 0);
      }
    });

    it('two roots: the pages concatenate to the one-call result, root blocks in name order', async function () {
      const matches = await pages(multi, 200);
      assert.equal(matches.length, 2 * expected);
      assert.ok(inOrder(matches), 'sorted by path, then line');
      const names = [path.basename(base), path.basename(second)].sort();
      assert.deepEqual([...new Set(matches.map((match) => match.path.split('/')[0]))], names);
      assert.deepEqual(await pages(multi, 9), matches);
      const cut = await search(multi, { max_results: 11, offset: expected - 3 });
      assert.deepEqual(cut.matches, matches.slice(expected - 3, expected + 8));
    });
  });
}
