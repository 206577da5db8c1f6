/**
 * git as the oracle of what the finding tools leave out, in the real extension host: the four cases where Agent FS
 * once answered otherwise, and a share of the generated corpus (test/shared/ignoreCorpus.ts), each in a repository
 * made the base directory (agentFs.baseDirectory), with the extension host's git environment pointed at a HOME of
 * the test's own. Then VS Code's own settings on top: search.exclude, and search.useIgnoreFiles and
 * search.useGlobalIgnoreFiles set to false.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { corpus, FOUR_CASES, gitEnv, gitShows, NEEDLE, writeCorpusTree } from '../../shared/ignoreCorpus';
import { callTool, expectOk, scratch, withSetting } from '../helpers';
import { Budget, seedFrom } from '../../shared/budget';

/** The extension host's environment as git's own for the duration of a suite (gitEnvironment reads it per call). */
function withGitHome(): () => string {
  let home = '';
  const saved: Record<string, string | undefined> = {};
  before(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-it-home-'));
    for (const [key, value] of Object.entries(gitEnv(home))) {
      if (key === 'PATH' || key === 'LC_ALL') continue;
      saved[key] = process.env[key];
      process.env[key] = value;
    }
  });
  after(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    fs.rmSync(home, { recursive: true, force: true });
  });
  return () => home;
}

/** A VS Code setting outside agentFs for the duration of `body` (workspace scope), then restored. */
async function withVscodeSetting<T>(section: string, key: string, value: unknown, body: () => Promise<T>): Promise<T> {
  await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Workspace);
  try {
    return await body();
  } finally {
    await vscode.workspace.getConfiguration(section).update(key, undefined, vscode.ConfigurationTarget.Workspace);
  }
}

type Entry = { relative_path?: string; path?: string; type?: string };

async function pages(operation: string, input: Record<string, unknown>, field: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ;) {
    const { data } = expectOk(await callTool(operation, { ...input, offset }));
    for (const item of data[field] as (string | Entry)[]) {
      if (typeof item === 'string') out.push(item);
      else if (item.type === undefined || item.type === 'file') out.push(item.relative_path ?? item.path ?? '');
    }
    if (typeof data.next_offset !== 'number') return [...new Set(out)].sort();
    offset = data.next_offset;
  }
}

/** What each finding tool shows of the base directory, by tool. */
async function shown(): Promise<Record<string, string[]>> {
  return {
    list_files: await pages('list_files', { recursive: true, max_results: 5000 }, 'files'),
    list_directory: await pages('list_directory', { recursive: true, include_hidden: true, max_entries: 1000 }, 'entries'),
    search_files: await pages('search_files', { pattern: '**', max_results: 200 }, 'matches'),
    search_content: await pages('search_content', { query: '.', is_regex: true, max_results: 200 }, 'matches'),
  };
}

// The tools see what git sees with VS Code's defaults for search.exclude (node_modules) switched off.
const NO_SEARCH_EXCLUDE = { '**/node_modules': false, '**/bower_components': false };

describe('ignore rules in the editor: the finding tools show what git shows', function () {
  this.timeout(600_000);
  const home = withGitHome();

  for (const { name, write } of FOUR_CASES) {
    it(name, async () => {
      const s = scratch('git-case');
      write(s.abs(), home());
      const expected = gitShows(s.abs(), home());
      await withSetting('baseDirectory', s.rel(), () =>
        withVscodeSetting('search', 'exclude', NO_SEARCH_EXCLUDE, async () => {
          for (const [tool, files] of Object.entries(await shown())) assert.deepEqual(files, expected, tool);
        }),
      );
    });
  }

  // As many trees as 20 s allow, at least 12, from a seed new at each run (40 trees of one seed took a minute).
  const seed = seedFrom('AGENTFS_IGNORE_SEED');
  it(`a share of the generated corpus (seed ${seed}): 0 differences in list_files and search_content`, async function () {
    this.timeout(600_000);
    const budget = new Budget(20_000, 12);
    const trees = corpus(seed, 400);
    const differences: string[] = [];
    let checked = 0;
    for (const [index, tree] of trees.entries()) {
      if (!budget.more(index)) break;
      checked++;
      const s = scratch('git-corpus');
      const treeHome = path.join(home(), tree.name.replace(/[^a-z0-9]+/gi, '-'));
      fs.mkdirSync(treeHome, { recursive: true });
      writeCorpusTree(s.abs(), treeHome, tree);
      const saved = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
      Object.assign(process.env, { HOME: treeHome, XDG_CONFIG_HOME: path.join(treeHome, '.config') });
      try {
        const expected = gitShows(s.abs(), treeHome);
        await withSetting('baseDirectory', s.rel(), () =>
          withVscodeSetting('search', 'exclude', NO_SEARCH_EXCLUDE, async () => {
            const listed = await pages('list_files', { recursive: true, max_results: 5000 }, 'files');
            const found = await pages('search_content', { query: NEEDLE, max_results: 200 }, 'matches');
            for (const [tool, files] of [
              ['list_files', listed],
              ['search_content', found],
            ] as const) {
              if (JSON.stringify(files) !== JSON.stringify(expected)) {
                const missing = expected.filter((file) => !files.includes(file));
                const extra = files.filter((file) => !expected.includes(file));
                differences.push(
                  `${tree.name}, ${tool}: missing ${JSON.stringify(missing.slice(0, 5))}, extra ${JSON.stringify(extra.slice(0, 5))}`,
                );
              }
            }
          }),
        );
      } finally {
        Object.assign(process.env, saved);
      }
    }
    assert.deepEqual(differences, [], `${differences.length} differences from git over ${checked} trees`);
  });

  it("VS Code's settings on top: search.useIgnoreFiles and search.useGlobalIgnoreFiles set to false", async () => {
    const s = scratch('git-settings');
    const [, , , global] = FOUR_CASES;
    assert.ok(global);
    global.write(s.abs(), home());
    fs.writeFileSync(s.abs('.gitignore'), 'ignored.txt\n');
    fs.writeFileSync(s.abs('ignored.txt'), 'i\n');
    const expected = gitShows(s.abs(), home());
    assert.deepEqual(expected, ['.gitignore', 'a.txt']);
    await withSetting('baseDirectory', s.rel(), async () => {
      assert.deepEqual((await shown()).list_files, expected);
      await withVscodeSetting('search', 'useGlobalIgnoreFiles', false, async () => {
        assert.deepEqual((await shown()).list_files, ['.a.txt.swp', '.gitignore', 'a.txt', 'deep/b.swp']);
      });
      await withVscodeSetting('search', 'useIgnoreFiles', false, async () => {
        assert.deepEqual((await shown()).list_files, ['.a.txt.swp', '.gitignore', 'a.txt', 'deep/b.swp', 'ignored.txt']);
      });
      // search.exclude keeps its meaning for the search tools, on top of git's rules.
      await withVscodeSetting('search', 'exclude', { '**/a.txt': true }, async () => {
        const tools = await shown();
        assert.deepEqual(tools.search_files, ['.gitignore']);
        assert.deepEqual(tools.list_files, expected);
      });
    });
  });
});
