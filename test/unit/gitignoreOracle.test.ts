/**
 * git as the oracle of what the finding tools leave out. Over a corpus of rule sets shaped like real ones
 * (test/shared/ignoreCorpus.ts), each written into a tree at the root and nested, into info/exclude, the global
 * excludes file or a core.excludesFile, with core.ignoreCase on for some: every finding tool's answer is compared with
 * `git ls-files --others --exclude-standard` on the same tree, with a HOME of its own and no system config. A single
 * difference fails the test, with the tree, the tool and the paths.
 *
 * AGENTFS_IGNORE_SETS=N and AGENTFS_IGNORE_SEED=S run another corpus by hand.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeOperation, type Session } from '../../src/core/invoke';
import { gitEnvironment } from '../../src/node/host/gitEnvironment';
import { NodePathIndex } from '../../src/node/indexes/pathIndex';
import { createNodeSession } from '../../src/node/host/session';
import { Chooser, seeded } from '../shared/churn';
import { corpus, type CorpusTree, gitEnv, gitIgnores, gitShows, NEEDLE, treeFolders, writeCorpusTree } from '../shared/ignoreCorpus';
import { checkEnvelope } from '../shared/results';
import { makeTempDir, removeTree } from './helpers';
import { Budget, seedFrom } from '../shared/budget';
import { ripgrepForTests } from './search/ripgrep';

/**
 * Rule sets checked against git: as many as 20 s allow, at least 48 (AGENTFS_IGNORE_SETS: exactly that many), from a
 * seed new at every run (AGENTFS_IGNORE_SEED repeats one). 320 sets of one seed took a minute, the same sets each run.
 */
const SETS = process.env.AGENTFS_IGNORE_SETS === undefined ? undefined : Number(process.env.AGENTFS_IGNORE_SETS);
const SEED = seedFrom('AGENTFS_IGNORE_SEED');
const MOST_SETS = 2_000;

interface Difference {
  readonly tree: string;
  readonly tool: string;
  readonly missing: readonly string[];
  readonly extra: readonly string[];
}

async function call(session: Session, operation: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const envelope = await invokeOperation(operation, input, session);
  checkEnvelope(envelope);
  if (!envelope.ok) throw new Error(`${operation} ${JSON.stringify(input)} refused: ${envelope.error.code} ${envelope.error.message}`);
  return envelope.data as Record<string, unknown>;
}

/** Every page of a paged tool, its items gathered. */
async function allPages(session: Session, operation: string, input: Record<string, unknown>, items: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let offset = 0; ;) {
    const data = await call(session, operation, { ...input, offset });
    out.push(...(data[items] as unknown[]));
    if (typeof data.next_offset !== 'number') return out;
    offset = data.next_offset;
  }
}

type Entry = { relative_path: string; type: string };

/** The files each finding tool shows of the whole tree, by tool. */
async function shownByTools(session: Session, scan: Session): Promise<Record<string, string[]>> {
  const files = (entries: unknown[]): string[] =>
    (entries as Entry[]).filter((entry) => entry.type === 'file').map((entry) => entry.relative_path);
  const matches = async (engine: Session): Promise<string[]> => {
    const found = (await allPages(engine, 'search_content', { query: NEEDLE, max_results: 200 }, 'matches')) as { path: string }[];
    return [...new Set(found.map((match) => match.path))];
  };
  return {
    list_files: (await allPages(session, 'list_files', { recursive: true, max_results: 5000 }, 'files')) as string[],
    list_directory: files(
      await allPages(session, 'list_directory', { recursive: true, include_hidden: true, max_entries: 1000 }, 'entries'),
    ),
    search_files: files(await allPages(session, 'search_files', { pattern: '**', max_results: 200 }, 'matches')),
    'search_content (ripgrep)': await matches(session),
    'search_content (scan)': await matches(scan),
  };
}

function compare(tree: string, tool: string, expected: readonly string[], actual: readonly string[]): Difference | undefined {
  const want = new Set(expected);
  const got = new Set(actual);
  const missing = expected.filter((each) => !got.has(each));
  const extra = actual.filter((each) => !want.has(each));
  return missing.length === 0 && extra.length === 0 && actual.length === got.size ? undefined : { tree, tool, missing, extra };
}

/** Compares every finding tool with git on one tree; the differences found. */
async function check(tree: CorpusTree, root: string, home: string): Promise<Difference[]> {
  const git = { git: gitEnvironment(gitEnv(home)), locks: false as const };
  const session = createNodeSession(root, {}, { ...git, ripgrep: ripgrepForTests() });
  const scan = createNodeSession(root, {}, { ...git, ripgrep: false });
  const shown = gitShows(root, home);
  const differences: Difference[] = [];
  const note = (difference: Difference | undefined): void => {
    if (difference) differences.push(difference);
  };
  for (const [tool, files] of Object.entries(await shownByTools(session, scan))) note(compare(tree.name, tool, shown, files));

  const treeData = await call(session, 'directory_tree', { include_hidden: true, max_depth: 64 });
  if (treeData.truncated !== true && treeData.files !== shown.length)
    differences.push({ tree: tree.name, tool: `directory_tree (files: ${String(treeData.files)})`, missing: [], extra: [] });

  // find_file by the names of a few files, shown or not: exact matches are the files git shows by that name.
  // find_file trims its query: names with blanks around them are asked for by list_files above.
  const names = [...new Set(tree.files.map((file) => path.posix.basename(file)))]
    .filter((name) => name.trim() === name)
    .slice(0, 40)
    .filter((_name, index) => index % 8 === 0);
  for (const name of names) {
    const data = await call(session, 'find_file', { file_name: name, max_results: 200 });
    const exact = data.match_type === 'exact' ? (data.matches as { relative_path: string }[]).map((match) => match.relative_path) : [];
    // find_file's exact matches ignore case.
    const same = shown.filter((file) => path.posix.basename(file).toLowerCase() === name.toLowerCase());
    note(compare(tree.name, `find_file ${JSON.stringify(name)}`, same, exact));
  }

  // A folder listed by itself: what git shows below it, and nothing when git ignores the folder (git check-ignore).
  const folders = [...new Set(tree.files.map((file) => path.posix.dirname(file)).filter((folder) => folder !== '.'))];
  const ignored = gitIgnores(root, home, folders);
  // A folder with a backslash in its name cannot be named by a path (a backslash separates, confinement.ts): the
  // listings of the whole tree above cover it.
  const nameable = folders.filter((folder) => !folder.includes('\\'));
  for (const folder of nameable.filter((_folder, index) => index % 3 === 0)) {
    // A folder the corpus named "~…" is asked for as "./~…": a leading "~" means the home directory; so is one whose
    // name is only blanks, since a blank path means the base directory.
    const asked = folder.startsWith('~') || folder.trim() === '' ? `./${folder}` : folder;
    const listed = (await allPages(session, 'list_files', { path: asked, recursive: true, max_results: 5000 }, 'files')) as string[];
    const below = shown.filter((file) => file.startsWith(`${folder}/`));
    note(compare(tree.name, `list_files ${folder}`, below, listed));
    if (ignored.has(folder) && listed.length > 0)
      differences.push({ tree: tree.name, tool: `list_files ${folder} (git check-ignore: ignored)`, missing: [], extra: listed });
  }
  return differences;
}

function describe_(differences: readonly Difference[]): string {
  const byTool = new Map<string, number>();
  for (const each of differences) {
    const tool = each.tool.split(' ')[0] ?? each.tool;
    byTool.set(tool, (byTool.get(tool) ?? 0) + 1);
  }
  const listed = differences.filter((each) => each.tool === 'list_files');
  const hidden = listed.reduce((sum, each) => sum + each.missing.length, 0);
  const shown = listed.reduce((sum, each) => sum + each.extra.length, 0);
  return `${[...byTool].map(([tool, count]) => `${tool}: ${count}`).join(', ')}; list_files of the whole tree hid ${hidden} files git shows and showed ${shown} it hides\n${differences
    .slice(0, 12)
    .map(
      (each) =>
        `${each.tree}, ${each.tool}: missing ${JSON.stringify(each.missing.slice(0, 6))}, extra ${JSON.stringify(each.extra.slice(0, 6))}`,
    )
    .join('\n')}`;
}

/** One random change to what decides the ignored files: the rule files of every source, and core.ignoreCase. */
function changeRules(root: string, home: string, chooser: Chooser, lines: readonly string[]): string {
  // The comment keeps a rule file one search_content finds, as the corpus writes them.
  const some = (): string => `${[...lines.filter(() => chooser.chance(0.3)), `# ${NEEDLE}`].join('\n')}\n`;
  const folders = gitShows(root, home)
    .map((file) => path.posix.dirname(file))
    .filter((folder) => folder !== '.');
  switch (chooser.int(6)) {
    case 0:
      fs.writeFileSync(path.join(root, '.gitignore'), some());
      return 'root .gitignore rewritten';
    case 1: {
      const folder = folders.length > 0 ? chooser.pick(folders) : '.';
      fs.writeFileSync(path.join(root, folder, '.gitignore'), some());
      return `${folder}/.gitignore written`;
    }
    case 2:
      fs.writeFileSync(path.join(root, '.git', 'info', 'exclude'), some());
      return 'info/exclude rewritten';
    case 3:
      fs.writeFileSync(path.join(home, '.config', 'git', 'ignore'), some());
      return 'global excludes rewritten';
    case 4: {
      const on = chooser.chance(0.5);
      spawnSync('git', ['config', 'core.ignorecase', String(on)], { cwd: root, env: gitEnv(home) });
      return `core.ignorecase ${String(on)}`;
    }
    default: {
      const folder = folders.length > 0 ? chooser.pick(folders) : '.';
      fs.rmSync(path.join(root, folder, '.gitignore'), { force: true });
      return `${folder}/.gitignore removed`;
    }
  }
}

describe('ignore rules: every finding tool shows what git shows', function () {
  this.timeout(1_800_000);

  before(() => {
    const version = spawnSync('git', ['--version'], { encoding: 'utf8' });
    if (version.status !== 0) assert.fail('git is needed by this test and is not on PATH (apt-get install git)');
  });

  it(`rule sets for 20 s, at least 48 (seed ${SEED}), each at the root and nested: 0 differences`, async function () {
    this.timeout(600_000);
    const all = corpus(SEED, SETS ?? MOST_SETS);
    const budget = SETS === undefined ? new Budget(20_000, 48 * 2) : new Budget(0, SETS * 2);
    const trees: CorpusTree[] = [];
    const scratch = makeTempDir('agentfs-oracle-');
    const differences: Difference[] = [];
    let files = 0;
    try {
      for (const [index, tree] of all.entries()) {
        // Whole sets: each is a tree at the root and one nested.
        if (index % 2 === 0 && !budget.more(index)) break;
        trees.push(tree);
        const { root, home } = treeFolders(path.join(scratch, `t${index}`));
        writeCorpusTree(root, home, tree);
        files += tree.files.length;
        differences.push(...(await check(tree, root, home)));
        fs.rmSync(path.join(scratch, `t${index}`), { recursive: true, force: true });
      }
    } finally {
      removeTree(scratch);
    }
    process.stdout.write(`      (${trees.length / 2} rule sets, ${trees.length} trees, ${files} files)\n`);
    assert.ok(
      trees.length >= 2 * (SETS ?? 48) && files > 10 * trees.length,
      `the corpus is what it says (${trees.length} trees, ${files} files)`,
    );
    assert.equal(
      differences.length,
      0,
      `${differences.length} differences from git over ${trees.length} trees:\n${describe_(differences)}`,
    );
  });

  it(`with the path index, after random changes to the rule files between calls (seed ${SEED}): 0 differences`, async () => {
    const trees = corpus(SEED + 1, 24);
    const chooser = new Chooser(seeded(SEED));
    const scratch = makeTempDir('agentfs-oracle-index-');
    const index = new NodePathIndex();
    const differences: Difference[] = [];
    let answered = 0;
    try {
      for (const [number, tree] of trees.entries()) {
        const { root, home } = treeFolders(path.join(scratch, `t${number}`));
        writeCorpusTree(root, home, tree);
        const options = { git: gitEnvironment(gitEnv(home)), locks: false as const, index };
        const indexed = createNodeSession(root, {}, { ...options, ripgrep: ripgrepForTests() });
        const scan = createNodeSession(root, {}, { ...options, ripgrep: false });
        await index.whenReady(root);
        const lines = trees[(number + 7) % trees.length]?.ruleSet.lines ?? [];
        for (let step = 0; step < 6; step++) {
          const what = step === 0 ? 'as written' : changeRules(root, home, chooser, [...tree.ruleSet.lines, ...lines]);
          const shown = gitShows(root, home);
          for (const [tool, found] of Object.entries(await shownByTools(indexed, scan))) {
            const difference = compare(`${tree.name}, ${what}`, tool, shown, found);
            if (difference) differences.push(difference);
          }
          answered++;
        }
      }
      assert.ok(index.stats.served > 0, 'the index answered');
    } finally {
      index.close();
      removeTree(scratch);
    }
    assert.equal(answered, trees.length * 6);
    assert.equal(differences.length, 0, `${differences.length} differences from git:\n${describe_(differences)}`);
  });
});
