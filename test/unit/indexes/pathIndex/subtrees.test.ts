/**
 * Subtrees passed over whole: with the index watched, a call after an earlier one lists only the directories on the
 * way to what changed since, and passes over the rest as it was, still answering as a fresh walk does — when what
 * changed is deep down, when it is only the text of a .gitignore below (its directory's listing stays the same), and
 * when a link's target changes kind. Verified directories are never passed over.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listed, same, withIndex } from './setup';

/** Three levels of three directories, three files in each, and a path five deep. */
function tree(): Record<string, string> {
  const files: Record<string, string> = { 'a/b/c/d/deep.md': 'deep', 'notes.md': 'top' };
  for (const first of ['x', 'y', 'z'])
    for (const second of ['p', 'q', 'r'])
      for (const third of ['k', 'l', 'm'])
        for (const name of ['one.md', 'two.ts', 'notes.txt']) files[`${first}/${second}/${third}/${name}`] = name;
  return files;
}

const CALLS: readonly [string, Record<string, unknown>][] = [
  ['list_files', { recursive: true, max_results: 500 }],
  ['search_files', { pattern: '**/*.md', max_results: 200 }],
  ['find_file', { file_name: 'notes', max_results: 50 }],
  ['list_directory', { recursive: true }],
];

describe('path index: subtrees passed over whole', function () {
  it('a repeated call lists its start only; after a change five deep, the directories on the way and beside it', async () => {
    await withIndex(tree(), {}, async (setup) => {
      for (const [operation, input] of CALLS) {
        await same(setup, operation, input);
        let served = setup.index.stats.served;
        await same(setup, operation, input);
        assert.equal(setup.index.stats.served - served, 1, `${operation}: nothing changed, only the start was listed`);
        fs.writeFileSync(path.join(setup.root, 'a/b/c/d', `new-${operation}.md`), 'new');
        served = setup.index.stats.served;
        const data = await same(setup, operation, input);
        // The five directories on the way to a/b/c/d, and the tops of the subtrees passed over beside them (x, y, z:
        // the rules at a subtree's top are read from its own listing).
        assert.equal(setup.index.stats.served - served, 5 + 3, `${operation}: the way to a/b/c/d was listed, and x, y, z`);
        assert.ok(JSON.stringify(data).includes(`new-${operation}.md`) || operation === 'find_file', JSON.stringify(data));
      }
      assert.ok(setup.index.stats.subtrees > 0);
    });
  });

  it('a .gitignore whose text changes below an unchanged listing is read again, and decides', async () => {
    const files = { ...tree(), 'x/p/.gitignore': 'one.md\n', 'y/.gitignore': '' };
    await withIndex(files, {}, async (setup) => {
      const shown = async (): Promise<string[]> =>
        ((await same(setup, 'search_files', { pattern: '**/*.md', max_results: 200 })).matches as { relative_path: string }[]).map(
          (match) => match.relative_path,
        );
      await shown();
      assert.ok(!(await shown()).some((each) => each.startsWith('x/p/')), 'x/p/**/one.md ignored');
      // The same names in x/p and y, other text: their listings do not change, so no event marks them.
      fs.writeFileSync(path.join(setup.root, 'x/p/.gitignore'), 'two.ts\n');
      fs.writeFileSync(path.join(setup.root, 'y/.gitignore'), 'one.md\n');
      const after = await shown();
      assert.ok(after.includes('x/p/k/one.md'), 'x/p no longer ignores one.md');
      assert.ok(!after.some((each) => each.startsWith('y/')), 'y now ignores it');
      fs.writeFileSync(path.join(setup.root, '.gitignore'), 'notes.md\n');
      assert.ok(!(await shown()).includes('notes.md'), "the root's own .gitignore, new, decides too");
    });
  });

  it('a link below is listed as it is now: a subtree holding one is never passed over', async () => {
    await withIndex({ ...tree(), 'target.txt': 't' }, {}, async (setup) => {
      fs.symlinkSync(path.join(setup.root, 'target.txt'), path.join(setup.root, 'x/p/k/link'));
      const input = { recursive: true, max_results: 500 };
      assert.ok(listed(await same(setup, 'list_files', input)).includes('x/p/k/link'));
      await same(setup, 'list_files', input);
      fs.rmSync(path.join(setup.root, 'target.txt'));
      fs.mkdirSync(path.join(setup.root, 'target.txt'));
      assert.ok(!listed(await same(setup, 'list_files', input)).includes('x/p/k/link'), 'a link to a directory is no file');
    });
  });

  it('verify: no subtree is passed over (nothing vouches for a directory it has not looked at)', async () => {
    await withIndex(tree(), { freshness: 'verify', racyMs: 0 }, async (setup) => {
      for (const [operation, input] of CALLS) for (let round = 0; round < 3; round++) await same(setup, operation, input);
      assert.equal(setup.index.stats.subtrees, 0);
    });
  });
});
