/**
 * The MCP server's path index, over real stdio: the server (dist/mcp.js) keeps its index in its own process, the
 * test changes the tree from outside it (this process, another process, git) and through the server's own tools,
 * and every answer of the finding tools must equal a fresh walk's of the same tree (a session without an index, in
 * this process). workspace_info shows that the server's answers came from its index (walks_answered), what it holds
 * and its memory; --no-index and the runner keep none.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { invokeOperation } from '../../../src/core/invoke';
import { serverNaming } from '../../../src/node/mcp/server';
import { flagPolicy, parseHostOptions } from '../../../src/node/host/options';
import { createNodeSession } from '../../../src/node/host/session';
import { baseTree, Chooser, makeRepository, randomChange, randomQuery, seeded } from '../../shared/churn';
import { assertTree, snapshot, writeTree } from '../../shared/tree';
import { pollUntil, removeTree } from '../helpers';
import { buildOnce, RUNNER, serve, type Served, tempLayout } from './serve';
import { checkEnvelope } from '../../shared/results';

const STEPS = Number(process.env.AGENTFS_INDEX_STEPS ?? 40);

interface PathIndexInfo {
  state: string;
  reason: string | null;
  paths: number;
  directories: number;
  estimated_bytes: number;
  walks_answered: number;
  freshness: string | null;
}

async function pathIndexOf(served: Served): Promise<PathIndexInfo | null> {
  const { envelope } = await served.call('workspace_info', {});
  assert.ok(envelope.ok, JSON.stringify(envelope));
  return (envelope.data as { path_index: PathIndexInfo | null }).path_index;
}

/** Polls workspace_info until the index answers (its first walk runs between calls). */
async function whenReady(served: Served): Promise<PathIndexInfo> {
  const info = await pollUntil(
    () => pathIndexOf(served),
    (each) => each?.state === 'ready',
  );
  assert.ok(info);
  return info;
}

/** Every entry below `root` (.git included: the index holds what include_ignored can show). */
function countPaths(root: string): { paths: number; directories: number } {
  let paths = 0;
  let directories = 1;
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    paths++;
    if (entry.isDirectory()) directories++;
  }
  return { paths, directories };
}

describe('MCP server: the path index', function () {
  this.timeout(240_000);
  before(buildOnce);

  for (const seed of [11, 12]) {
    it(`answers every finding call as a fresh walk does while the tree changes (seed ${seed}, ${STEPS} changes)`, async () => {
      const { tmp, base } = tempLayout('agentfs-mcp-index-');
      const chooser = new Chooser(seeded(seed));
      writeTree(base, baseTree(chooser));
      makeRepository(base, chooser);
      // No ripgrep on the server's PATH: search_content scans, and its file filter walks the index.
      const served = await serve(['--root', base, '--no-history', '--confirm', 'never'], { env: { PATH: path.join(tmp, 'no-programs') } });
      try {
        // The server's own policy (its flags, its messages), so that refusals compare too.
        const policy = { ...flagPolicy(defaultOptions(), 'MCP server'), confirmDestructive: false };
        const walking = createNodeSession(base, policy, { ripgrep: false, hostKind: 'mcp', naming: serverNaming('never') });
        const info = (await served.call('workspace_info', {})).envelope;
        assert.ok(info.ok);
        assert.equal((info.data as { content_search_engine: string }).content_search_engine, 'scan');
        await served.call('list_files', { recursive: true });
        const ready = await whenReady(served);
        assert.equal(ready.freshness, 'events');
        let compared = 0;
        const history: string[] = [];
        for (let step = 0; step < STEPS; step++) {
          const change = randomChange(base, chooser, async (operation, input) => (await served.call(operation, input)).envelope);
          history.push(change.what);
          await change.apply();
          for (let query = 0, queries = 1 + chooser.int(3); query < queries; query++) {
            const { operation, input } = randomQuery(base, chooser);
            const fromServer = (await served.call(operation, input)).envelope;
            const fromWalk = await invokeOperation(operation, input, walking);
            checkEnvelope(fromWalk);
            compared++;
            assert.deepEqual(
              comparable(fromServer),
              comparable(fromWalk),
              `seed ${seed}, step ${step}: ${operation} ${JSON.stringify(input)}; last changes: ${history.slice(-4).join(' | ')}`,
            );
          }
        }
        const after = await whenReady(served);
        assert.ok(after.walks_answered >= compared / 2, `${after.walks_answered} walks answered from the index for ${compared} calls`);
        // Once the background has caught up, the index holds exactly the tree (files, directories, links, .git).
        const settled = await pollUntil(
          () => whenReady(served),
          (info) => info.paths === countPaths(base).paths && info.directories === countPaths(base).directories,
        );
        assert.deepEqual({ paths: settled.paths, directories: settled.directories }, countPaths(base));
        assert.ok(settled.estimated_bytes > settled.paths * 100, `${settled.estimated_bytes} bytes for ${settled.paths} paths`);
      } finally {
        await served.close();
        removeTree(tmp);
      }
    });
  }

  it('a new server starts from the saved index, and sees what changed while none ran', async () => {
    const { tmp, base, state } = tempLayout('agentfs-mcp-saved-');
    writeTree(base, { 'src/app/user-controller.ts': 'a', 'docs/guide.md': 'b', 'lib/util.ts': 'c' });
    try {
      const first = await serve(['--root', base, '--state', state]);
      try {
        await first.call('find_file', { file_name: 'guide' });
        await whenReady(first);
      } finally {
        await first.close();
      }
      assert.ok(
        fs.readdirSync(path.join(state, 'path-index')).some((name) => name.endsWith('.index')),
        'saved on close',
      );
      fs.writeFileSync(path.join(base, 'docs', 'offline-notes.md'), 'added while no server ran\n');
      fs.rmSync(path.join(base, 'lib'), { recursive: true });
      const next = await serve(['--root', base, '--state', state]);
      try {
        await next.client.listTools();
        // Held as saved (a saved listing is a claim until a call proves it), so `lib` may still be counted here.
        assert.equal((await whenReady(next)).freshness, 'events');
        const policy = { ...flagPolicy(defaultOptions(), 'MCP server'), confirmDestructive: true };
        const walking = createNodeSession(base, policy, { ripgrep: false, hostKind: 'mcp', naming: serverNaming('elicit') });
        for (const [operation, input] of [
          ['find_file', { file_name: 'offline notes' }],
          ['search_files', { pattern: '**/*' }],
          ['find_file', { file_name: 'util' }],
        ] as const) {
          const { envelope } = await next.call(operation, input);
          assert.equal(JSON.stringify(envelope), JSON.stringify(await invokeOperation(operation, input, walking)), operation);
        }
        const found = (await next.call('find_file', { file_name: 'offline notes' })).envelope;
        assert.ok(found.ok && JSON.stringify(found.data).includes('docs/offline-notes.md'), 'the file added offline is found');
      } finally {
        await next.close();
      }
    } finally {
      removeTree(tmp);
    }
  });

  it('a new server warms up from its saved index before the first call, changing and recording nothing', async () => {
    const { tmp, base, state } = tempLayout('agentfs-mcp-warm-');
    writeTree(base, { '.gitignore': 'build/\n', 'src/app/user-controller.ts': 'a', 'docs/guide.md': 'b', 'build/out.js': 'c' });
    try {
      const first = await serve(['--root', base, '--state', state]);
      try {
        await first.call('write_file', { path: 'docs/notes.md', content: 'recorded\n' });
        await whenReady(first);
      } finally {
        await first.close();
      }
      const tree = snapshot(base);
      const history = snapshot(state, ['path-index']);
      const next = await serve(['--root', base, '--state', state]);
      try {
        await next.client.listTools();
        // Only workspace_info is called, which walks nothing: the walks answered are the warm-up's, a glob and a
        // fuzzy name search (one snapshot each), run in the pauses between the client's polls (a pause is 250 ms
        // without a call: a poll that cancels the warm-up lets it run again after the next).
        const info = await pollUntil(
          () => whenReady(next),
          (each) => each.walks_answered >= 2,
          400,
        );
        assert.equal(info.walks_answered, 2, 'the warm-up walked the saved index, twice');
        const { envelope } = await next.call('find_file', { file_name: 'user controler' });
        assert.ok(envelope.ok && JSON.stringify(envelope.data).includes('src/app/user-controller.ts'), JSON.stringify(envelope));
      } finally {
        await next.close();
      }
      assertTree(snapshot(base), tree, 'the tree is as it was');
      assertTree(snapshot(state, ['path-index']), history, 'nothing recorded');
    } finally {
      removeTree(tmp);
    }
  });

  it('--no-index keeps none, and the runner walks every call: workspace_info says so', async () => {
    const { tmp, base } = tempLayout('agentfs-mcp-index-');
    writeTree(base, { 'src/a.ts': 'a', 'docs/b.md': 'b' });
    const served = await serve(['--root', base, '--no-history', '--no-index']);
    try {
      await served.call('list_files', { recursive: true });
      assert.equal(await pathIndexOf(served), null);
      assert.match(served.log(), /path index off \(--no-index\)/);
      fs.writeFileSync(path.join(base, 'src', 'c.ts'), 'c');
      const { envelope } = await served.call('search_files', { pattern: '**/*.ts' });
      assert.ok(envelope.ok);
      const matches = (envelope.data as { matches: { relative_path: string }[] }).matches;
      assert.deepEqual(
        matches.map((match) => match.relative_path),
        ['src/a.ts', 'src/c.ts'],
      );
      for (const args of [[], ['--no-index']]) {
        const result = spawnSync(process.execPath, [RUNNER, '--root', base, '--no-history', ...args, 'workspace_info', '{}'], {
          encoding: 'utf8',
        });
        const runner = JSON.parse(result.stdout) as Envelope;
        checkEnvelope(runner);
        assert.ok(runner.ok, result.stdout);
        assert.equal((runner.data as { path_index: unknown }).path_index, null);
      }
    } finally {
      await served.close();
      removeTree(tmp);
    }
  });
});

function defaultOptions(): Parameters<typeof flagPolicy>[0] {
  const options = parseHostOptions([], () => 'no other arguments');
  if (typeof options === 'string') throw new Error(options);
  return options;
}

/** An envelope without what differs between two hosts answering the same call (none of the finding tools has any). */
function comparable(envelope: Envelope): unknown {
  return JSON.parse(JSON.stringify(envelope)) as unknown;
}
