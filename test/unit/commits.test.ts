/**
 * Commit messages keep the project's form: the repository's commit-msg hook (.githooks/commit-msg, which `npm
 * install` points git at) refuses a long, past-tense or run-on subject, and every commit since the hook's rule began
 * passes it, so `git log --oneline` stays a list a person can skim.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..', '..');
const HOOK = path.join(REPO, '.githooks', 'commit-msg');
/** The first commit held to the rule (2026-12-04); the ones before it had subjects of up to 609 characters. */
const FIRST_HELD = '30f5d76';

interface Hook {
  problems(message: string): string[];
}

function hook(): Hook {
  // The hook is a plain Node script; required, it hands out its check.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(HOOK) as Hook;
}

function runHook(message: string): { status: number | null; stderr: string } {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-msg-')), 'COMMIT_EDITMSG');
  fs.writeFileSync(file, message);
  const result = spawnSync(process.execPath, [HOOK, file], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return { status: result.status, stderr: result.stderr };
}

describe('commit messages', function () {
  it('the commit-msg hook takes a short subject in the imperative, with a blank line before the body', function () {
    assert.equal(runHook('Add a thing\n\nWhy it is added.\n').status, 0);
    assert.equal(runHook('Seed the corpus from the issue\n').status, 0);
    for (const [message, why] of [
      [`Add ${'x'.repeat(70)}\n`, /at most 72/],
      ['Added a thing\n', /"Add …"/],
      ['Fix the thing.\n', /period/],
      ['Fix the thing\nwith a body straight after\n', /blank line/],
      ['\n\nbody only\n', /empty/],
    ] as const) {
      const { status, stderr } = runHook(message);
      assert.equal(status, 1, message);
      assert.match(stderr, why);
    }
  });

  it(`every commit since ${FIRST_HELD} passes it`, function () {
    const log = spawnSync('git', ['log', '--format=%H%x00%B%x01', `${FIRST_HELD}^..HEAD`], { cwd: REPO, encoding: 'utf8' });
    assert.equal(log.status, 0, `git log failed (git and the repository's history are needed here): ${log.stderr}`);
    const commits = log.stdout.split('\x01').filter((each) => each.trim() !== '');
    assert.ok(commits.length > 0, 'commits were read');
    const offenders = commits.flatMap((each) => {
      const [hash = '', message = ''] = each.replace(/^\n/, '').split('\0');
      const found = hook().problems(message.trimEnd());
      return found.length === 0 ? [] : [`${hash.slice(0, 7)} ${message.split('\n')[0] ?? ''}: ${found.join('; ')}`];
    });
    assert.deepEqual(offenders, []);
  });
});
