/**
 * The four cases where Agent FS once showed otherwise than git (test/shared/ignoreCorpus.ts FOUR_CASES), through the
 * built programs people run: the runner (dist/cli.js) and the MCP server (dist/mcp.js) over real stdio, with its path
 * index and without. git runs with the same HOME and no system config, and every answer must be git's.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { FOUR_CASES, gitEnv, gitShows, initRepository, treeFolders } from '../../shared/ignoreCorpus';
import { checkEnvelope } from '../../shared/results';
import { makeTempDir, removeTree } from '../helpers';
import { buildOnce, RUNNER, serve } from './serve';

/** The environment the programs run in: git's own, as the test gives git. */
function environment(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(gitEnv(home))) if (value !== undefined) env[key] = value;
  return env;
}

function files(envelope: Envelope, field: string): string[] {
  checkEnvelope(envelope);
  assert.ok(envelope.ok, JSON.stringify(envelope));
  const items = (envelope.data as Record<string, unknown>)[field] as (string | { relative_path?: string; path?: string; type?: string })[];
  return [
    ...new Set(
      items
        .filter((item) => typeof item === 'string' || item.type === undefined || item.type === 'file')
        .map((item) => (typeof item === 'string' ? item : (item.relative_path ?? item.path ?? ''))),
    ),
  ].sort();
}

const CALLS: readonly { readonly operation: string; readonly input: Record<string, unknown>; readonly field: string }[] = [
  { operation: 'list_files', input: { recursive: true }, field: 'files' },
  { operation: 'search_files', input: { pattern: '**' }, field: 'matches' },
  { operation: 'list_directory', input: { recursive: true, include_hidden: true }, field: 'entries' },
  // Every file of the four trees holds a line: search_content finds each once.
  { operation: 'search_content', input: { query: '.', is_regex: true, max_results: 200 }, field: 'matches' },
];

describe('ignore rules in the runner and the MCP server: the four cases answer as git does', function () {
  before(buildOnce);

  for (const { name, write } of FOUR_CASES) {
    it(name, async () => {
      const tmp = makeTempDir('agentfs-four-');
      const { root, home } = treeFolders(tmp);
      try {
        write(root, home);
        const shown = gitShows(root, home);
        assert.ok(shown.length > 0, 'git shows something');
        const env = environment(home);
        for (const { operation, input, field } of CALLS) {
          const run = spawnSync(process.execPath, [RUNNER, '--root', root, '--no-history', operation, JSON.stringify(input)], {
            encoding: 'utf8',
            env,
          });
          assert.deepEqual(files(JSON.parse(run.stdout) as Envelope, field), shown, `runner ${operation}`);
        }
        for (const flags of [[], ['--no-index']]) {
          const served = await serve(['--root', root, '--no-history', ...flags], { env });
          try {
            for (const { operation, input, field } of CALLS) {
              // Twice: with the index, the second answer comes from memory.
              for (const round of [1, 2]) {
                const { envelope } = await served.call(operation, input);
                assert.deepEqual(files(envelope, field), shown, `MCP ${flags.join(' ') || 'with its index'} ${operation} (call ${round})`);
              }
            }
          } finally {
            await served.close();
          }
        }
      } finally {
        removeTree(tmp);
      }
    });
  }

  it('--no-ignore-files, --no-ignore-global and --no-ignore-parent each turn one source off', () => {
    const tmp = makeTempDir('agentfs-sources-');
    const { root, home } = treeFolders(tmp);
    try {
      initRepository(root, home);
      fs.writeFileSync(path.join(home, '.config', 'git', 'ignore'), '*.swp\n');
      fs.appendFileSync(path.join(root, '.git', 'info', 'exclude'), '*.tmp\n');
      const files = {
        '.gitignore': 'dist/\n',
        'app/.gitignore': '*.log\n',
        'app/a.ts': '',
        'app/a.swp': '',
        'app/a.tmp': '',
        'app/b.log': '',
        'app/dist/c.js': '',
      };
      for (const [relative, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
        fs.writeFileSync(path.join(root, relative), content);
      }
      // The root is the repository's folder app/: the .gitignore above it, at the top, still counts.
      const app = path.join(root, 'app');
      const list = (flags: readonly string[]): string[] => {
        const run = spawnSync(process.execPath, [RUNNER, '--root', app, '--no-history', ...flags, 'list_files', '{}'], {
          encoding: 'utf8',
          env: environment(home),
        });
        return (JSON.parse(run.stdout) as { data: { files: string[] } }).data.files;
      };
      assert.deepEqual(list([]), ['.gitignore', 'a.ts']);
      assert.deepEqual(list(['--no-ignore-global']), ['.gitignore', 'a.swp', 'a.ts']);
      assert.deepEqual(list(['--no-ignore-parent']), ['.gitignore', 'a.ts', 'dist/c.js']);
      assert.deepEqual(list(['--no-ignore-files']), ['.gitignore', 'a.swp', 'a.tmp', 'a.ts', 'b.log', 'dist/c.js']);
      // git, run in app/, agrees with the first answer.
      assert.deepEqual(gitShows(app, home), ['.gitignore', 'a.ts']);
    } finally {
      removeTree(tmp);
    }
  });
});
