/**
 * The one policy through the built hosts: dist/mcp.js driven by the SDK's client over real stdio, and dist/cli.js
 * spawned as scripts run it, both with --state where an editor published its policy (written here with the editor's
 * serializer). A change to the file applies to the next call of the running server; the agent cannot reach the
 * state folder through any tool.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { DEFAULT_HIDDEN_PATHS, DEFAULT_PROTECTED_PATHS } from '../../../src/core/settings';
import { POLICY_FILE_NAME, policyFileText, type PublishedPolicy } from '../../../src/core/policy/sharedPolicy';
import { toPosixPath } from '../../../src/node/fs/nativePaths';
import { expectError, expectOk, removeTree, snapshot, assertTree } from '../helpers';
import { buildOnce, RUNNER, serve, tempLayout } from './serve';

describe('shared policy: the MCP server and the runner follow the editor through --state', function () {
  let tmp = '';
  let base = '';
  let state = '';

  function publish(changes: Partial<PublishedPolicy> = {}): void {
    const policy: PublishedPolicy = {
      roots: [toPosixPath(base)],
      unavailable: null,
      readOnly: false,
      trusted: true,
      protectedPaths: DEFAULT_PROTECTED_PATHS,
      hiddenPaths: DEFAULT_HIDDEN_PATHS,
      exclude: [],
      searchExclude: [],
      dirtyEditors: [],
      ...changes,
    };
    fs.mkdirSync(state, { recursive: true });
    const file = path.join(state, POLICY_FILE_NAME);
    fs.writeFileSync(`${file}.new`, policyFileText(policy, new Date()));
    fs.renameSync(`${file}.new`, file);
  }

  before(buildOnce);
  beforeEach(function () {
    ({ tmp, base, state } = tempLayout('agentfs-mcp-policy-'));
    fs.mkdirSync(path.join(base, 'secrets'));
    fs.writeFileSync(path.join(base, 'secrets', 'token.txt'), 'hunter2\n');
    fs.writeFileSync(path.join(base, 'notes.txt'), 'mine\n');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it('a protected pattern, an unsaved editor and a tampered file reach a running server on its next call', async function () {
    publish({ protectedPaths: [...DEFAULT_PROTECTED_PATHS, 'secrets/**'] });
    const served = await serve(['--root', base, '--state', state]);
    try {
      const refused = expectError(
        (await served.call('write_file', { file_name: 'secrets/token.txt', content: 'x\n' })).envelope,
        'SENSITIVE_PATH_REFUSED',
      );
      assert.equal(refused.details?.pattern, 'secrets/**');
      publish({ dirtyEditors: [toPosixPath(path.join(base, 'notes.txt'))] });
      expectError((await served.call('write_file', { file_name: 'notes.txt', content: 'x\n' })).envelope, 'FILE_DIRTY_IN_EDITOR');
      // The pattern went with the new file: the editor's setting was taken back.
      expectOk((await served.call('write_file', { file_name: 'secrets/token.txt', content: 'changed\n' })).envelope);
      const file = path.join(state, POLICY_FILE_NAME);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"trusted": true', '"trusted": false'));
      const before = snapshot(base);
      const { result, envelope } = await served.call('read_file', { file_name: 'notes.txt' });
      expectError(envelope, 'POLICY_UNAVAILABLE');
      assert.equal(result.isError, true);
      assertTree(snapshot(base), before);
    } finally {
      await served.close();
    }
  });

  it('no tool reaches the state folder: not by a relative path, not by an absolute one, not through a link', async function () {
    publish({ protectedPaths: [...DEFAULT_PROTECTED_PATHS, 'secrets/**'] });
    fs.symlinkSync(state, path.join(base, 'state-link'));
    const policyFile = path.join(state, POLICY_FILE_NAME);
    const served = await serve(['--root', base, '--state', state]);
    try {
      const stateBefore = snapshot(state);
      const loosened = fs.readFileSync(policyFile, 'utf8').replace('"secrets/**"', '"nothing/**"');
      const attempts: [string, Record<string, unknown>, string][] = [
        ['write_file', { file_name: '../state/policy.json', content: loosened }, 'FILE_PATH_OUTSIDE_BASE'],
        ['write_file', { file_name: policyFile, content: loosened }, 'FILE_PATH_OUTSIDE_BASE'],
        ['write_file', { file_name: 'state-link/policy.json', content: loosened }, 'SYMLINK_OUTSIDE_BASE'],
        ['delete_file', { file_name: 'state-link/policy.json' }, 'SYMLINK_OUTSIDE_BASE'],
        ['move_file', { source_path: 'notes.txt', destination_path: 'state-link/policy.json', overwrite: true }, 'SYMLINK_OUTSIDE_BASE'],
        [
          'copy_file',
          { source_path: 'notes.txt', destination_path: '../state/policy.json', overwrite: true },
          'DESTINATION_PATH_OUTSIDE_BASE',
        ],
        ['delete_directory', { directory_path: 'state-link', recursive: true }, 'SYMLINK_OUTSIDE_BASE'],
        ['read_file', { file_name: 'state-link/policy.json' }, 'SYMLINK_OUTSIDE_BASE'],
      ];
      for (const [operation, input, code] of attempts) {
        const envelope: Envelope = (await served.call(operation, input)).envelope;
        if (envelope.ok) assert.fail(`${operation} ${JSON.stringify(input).slice(0, 80)} reached the state folder`);
        assert.ok(
          [code, 'SENSITIVE_PATH_REFUSED'].includes(envelope.error.code),
          `${operation}: ${envelope.error.code} ${envelope.error.message}`,
        );
      }
      assertTree(snapshot(state), stateBefore, 'the state folder is as the editor left it');
      expectError((await served.call('write_file', { file_name: 'secrets/token.txt', content: 'x\n' })).envelope, 'SENSITIVE_PATH_REFUSED');
    } finally {
      await served.close();
    }
  });

  it('the runner with --state follows the same file', function () {
    publish({ readOnly: true, protectedPaths: [...DEFAULT_PROTECTED_PATHS, 'secrets/**'] });
    const run = (operation: string, input: unknown): Envelope => {
      const child = spawnSync(process.execPath, [RUNNER, '--root', base, '--state', state, operation, JSON.stringify(input)], {
        encoding: 'utf8',
      });
      return JSON.parse(child.stdout) as Envelope;
    };
    const error = expectError(run('write_file', { file_name: 'notes.txt', content: 'x\n' }), 'READ_ONLY_MODE');
    assert.match(error.message, /VS Code's setting agentFs\.readOnly, which this runner follows/);
    publish({ dirtyEditors: [toPosixPath(path.join(base, 'notes.txt'))] });
    expectError(run('delete_file', { file_name: 'notes.txt' }), 'FILE_DIRTY_IN_EDITOR');
    publish();
    expectOk(run('write_file', { file_name: 'notes.txt', content: 'x\n' }));
    assert.equal(fs.readFileSync(path.join(base, 'notes.txt'), 'utf8'), 'x\n');
  });
});
