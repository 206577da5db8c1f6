/**
 * The one policy, from the side of a host that follows it: a session over node:fs with a state folder where an
 * editor published its policy (written here with the editor's own serializer). Every check calls tools through the
 * pipeline and looks at the disk; the file is changed between calls of one session, as an editor changes it while
 * an agent runs.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Session } from '../../src/core/invoke';
import { DEFAULT_PROTECTED_PATHS, DEFAULT_HIDDEN_PATHS } from '../../src/core/settings';
import { POLICY_FILE_NAME, policyFileText, type PublishedPolicy, readPolicyFile } from '../../src/core/policy/sharedPolicy';
import { flagWording } from '../../src/node/host/options';
import { toPosixPath } from '../../src/node/fs/nativePaths';
import { createNodeSession } from '../../src/node/host/session';
import { SharedPolicyFile } from '../../src/node/host/sharedPolicy';
import { call, expectError, expectOk, makeTempDir, removeTree, snapshot, assertTree } from './helpers';

describe('shared policy: a host follows what the editor published', function () {
  let tmp = '';
  let base = '';
  let state = '';
  let policyPath = '';

  /** What an editor with default settings on `base` publishes. */
  function editorDefaults(): PublishedPolicy {
    return {
      roots: [toPosixPath(base)],
      unavailable: null,
      readOnly: false,
      trusted: true,
      protectedPaths: DEFAULT_PROTECTED_PATHS,
      hiddenPaths: DEFAULT_HIDDEN_PATHS,
      exclude: [],
      searchExclude: [],
      dirtyEditors: [],
    };
  }

  function publish(changes: Partial<PublishedPolicy> = {}): void {
    fs.mkdirSync(state, { recursive: true });
    // As the editor writes it: a sibling renamed over the file.
    fs.writeFileSync(`${policyPath}.new`, policyFileText({ ...editorDefaults(), ...changes }, new Date()));
    fs.renameSync(`${policyPath}.new`, policyPath);
  }

  function session(flags: { readOnly?: boolean } = {}, roots: readonly string[] = [base]): Session {
    return createNodeSession(
      roots,
      { readOnly: flags.readOnly === true, wording: flagWording('MCP server') },
      { stateDirectory: state, sharedPolicy: new SharedPolicyFile(state, 'MCP server'), hostKind: 'mcp' },
    );
  }

  beforeEach(function () {
    tmp = makeTempDir('agentfs-policy-');
    base = path.join(tmp, 'base');
    state = path.join(tmp, 'state');
    policyPath = path.join(state, POLICY_FILE_NAME);
    fs.mkdirSync(path.join(base, 'secrets'), { recursive: true });
    fs.mkdirSync(path.join(base, 'src'), { recursive: true });
    fs.writeFileSync(path.join(base, 'secrets', 'token.txt'), 'hunter2\n');
    fs.writeFileSync(path.join(base, 'src', 'app.ts'), 'export {};\n');
    fs.writeFileSync(path.join(base, 'notes.txt'), 'mine\n');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  it('without a policy file the flags alone apply; one published later applies to the next call of the same session', async function () {
    const host = session();
    expectOk(await call(host, 'write_file', { file_name: 'secrets/token.txt', content: 'changed 1\n' }));
    publish({ protectedPaths: [...DEFAULT_PROTECTED_PATHS, 'secrets/**'] });
    const before = snapshot(base);
    const error = expectError(
      await call(host, 'write_file', { file_name: 'secrets/token.txt', content: 'changed 2\n' }),
      'SENSITIVE_PATH_REFUSED',
    );
    assert.equal(error.details?.pattern, 'secrets/**');
    assert.match(error.message, /VS Code's agentFs\.protectedPaths, which this MCP server follows/);
    assertTree(snapshot(base), before, 'the refused write changed nothing');
    // The setting taken back in the editor: the next call may write again.
    publish();
    expectOk(await call(host, 'write_file', { file_name: 'secrets/token.txt', content: 'changed 3\n' }));
    assert.equal(fs.readFileSync(path.join(base, 'secrets', 'token.txt'), 'utf8'), 'changed 3\n');
  });

  it('hidden patterns keep a path out of reads and listings; exclude patterns out of listings and searches', async function () {
    publish({ hiddenPaths: [...DEFAULT_HIDDEN_PATHS, 'secrets/'], exclude: ['src/'] });
    const host = session();
    expectError(await call(host, 'read_file', { file_name: 'secrets/token.txt' }), 'SENSITIVE_PATH_REFUSED');
    const listed = expectOk(await call(host, 'list_files', {})).files as string[];
    assert.deepEqual(listed, ['notes.txt']);
    const found = expectOk(await call(host, 'search_content', { query: 'export' }));
    assert.deepEqual(found.matches, []);
    // Exclusions only tidy: the file is still readable.
    expectOk(await call(host, 'read_file', { file_name: 'src/app.ts' }));
  });

  it('read-only and untrusted in the editor refuse every change here too', async function () {
    publish({ readOnly: true });
    const host = session();
    const error = expectError(await call(host, 'write_file', { file_name: 'notes.txt', content: 'x\n' }), 'READ_ONLY_MODE');
    assert.match(error.message, /VS Code's setting agentFs\.readOnly, which this MCP server follows/);
    expectOk(await call(host, 'read_file', { file_name: 'notes.txt' }));
    publish({ trusted: false });
    expectError(await call(host, 'delete_file', { file_name: 'notes.txt' }), 'WORKSPACE_UNTRUSTED');
    assert.equal(fs.readFileSync(path.join(base, 'notes.txt'), 'utf8'), 'mine\n');
  });

  it("the editor's base directory narrows the host's root: outside it is outside the base, and workspace_info says where", async function () {
    publish({ roots: [toPosixPath(path.join(base, 'src'))] });
    const host = session();
    const info = expectOk(await call(host, 'workspace_info', {}));
    assert.equal(info.base_directory, toPosixPath(path.join(base, 'src')));
    expectOk(await call(host, 'read_file', { file_name: 'app.ts' }));
    expectError(await call(host, 'read_file', { file_name: '../notes.txt' }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await call(host, 'write_file', { file_name: `${toPosixPath(base)}/notes.txt`, content: 'x\n' }), 'FILE_PATH_OUTSIDE_BASE');
    assert.equal(fs.readFileSync(path.join(base, 'notes.txt'), 'utf8'), 'mine\n');
  });

  it('an editor with no base directory, or one that shares nothing with the host, leaves no directory: DIR_NOT_AVAILABLE', async function () {
    publish({ roots: [], unavailable: 'The setting agentFs.baseDirectory ("gone") is not an existing directory.' });
    const host = session();
    const none = expectError(await call(host, 'read_file', { file_name: 'notes.txt' }), 'DIR_NOT_AVAILABLE');
    assert.match(none.message, /agentFs\.baseDirectory \("gone"\)/);
    const elsewhere = makeTempDir('agentfs-policy-other-');
    try {
      publish({ roots: [toPosixPath(elsewhere)] });
      const disjoint = expectError(await call(host, 'list_files', {}), 'DIR_NOT_AVAILABLE');
      assert.match(disjoint.message, /none of the MCP server's directories/);
    } finally {
      removeTree(elsewhere);
    }
  });

  it('a file with unsaved changes in the editor answers FILE_DIRTY_IN_EDITOR, and so does a tree holding one', async function () {
    publish({ dirtyEditors: [toPosixPath(path.join(base, 'src', 'app.ts'))] });
    const host = session();
    const before = snapshot(base);
    expectError(await call(host, 'write_file', { file_name: 'src/app.ts', content: 'x\n' }), 'FILE_DIRTY_IN_EDITOR');
    expectError(await call(host, 'edit_file', { path: 'src/app.ts', old_string: 'export', new_string: 'import' }), 'FILE_DIRTY_IN_EDITOR');
    expectError(await call(host, 'delete_directory', { directory_path: 'src', recursive: true }), 'FILE_DIRTY_IN_EDITOR');
    assertTree(snapshot(base), before);
    expectOk(await call(host, 'read_file', { file_name: 'src/app.ts' }), 'read_file');
    publish();
    expectOk(await call(host, 'write_file', { file_name: 'src/app.ts', content: 'saved\n' }));
  });

  it('a policy only narrows: it cannot drop a default protection, lift --read-only, or widen the root', async function () {
    publish({ protectedPaths: [], hiddenPaths: [], roots: [toPosixPath(tmp)] });
    const host = session();
    fs.writeFileSync(path.join(base, '.env'), 'KEY=1\n');
    expectError(await call(host, 'read_file', { file_name: '.env' }), 'SENSITIVE_PATH_REFUSED');
    expectError(await call(host, 'write_file', { file_name: '.npmrc', content: 'x\n' }), 'SENSITIVE_PATH_REFUSED');
    assert.equal(expectOk(await call(host, 'workspace_info', {})).base_directory, toPosixPath(base), 'the root stays --root');
    expectError(await call(host, 'read_file', { file_name: '../state/policy.json' }), 'FILE_PATH_OUTSIDE_BASE');
    const readOnly = session({ readOnly: true });
    expectError(await call(readOnly, 'write_file', { file_name: 'notes.txt', content: 'x\n' }), 'READ_ONLY_MODE');
  });

  it("a root narrowed to must really lie inside the host's: one that is a link leading out leaves no directory", async function () {
    const elsewhere = makeTempDir('agentfs-policy-elsewhere-');
    try {
      fs.writeFileSync(path.join(elsewhere, 'private.txt'), 'not for the agent\n');
      fs.symlinkSync(elsewhere, path.join(base, 'link'));
      publish({ roots: [toPosixPath(path.join(base, 'link'))] });
      const host = session();
      const error = expectError(await call(host, 'read_file', { file_name: 'private.txt' }), 'DIR_NOT_AVAILABLE');
      assert.match(error.message, /not an existing directory inside the MCP server's own/);
      expectError(await call(host, 'write_file', { file_name: 'private.txt', content: 'x\n' }), 'DIR_NOT_AVAILABLE');
      assert.equal(fs.readFileSync(path.join(elsewhere, 'private.txt'), 'utf8'), 'not for the agent\n');
    } finally {
      removeTree(elsewhere);
    }
  });

  describe('a policy file that cannot be used fails closed: every call is refused, nothing is read or changed', function () {
    const broken: readonly [string, (text: string) => string][] = [
      ['edited by hand (a pattern removed)', (text) => text.replace('"secrets/**"', '"nothing/**"')],
      ['cut short', (text) => text.slice(0, text.length - 40)],
      ['not JSON', () => 'protectedPaths = none\n'],
      ['another format', (text) => text.replace('agent-fs-policy/1', 'agent-fs-policy/9')],
      [
        'with a field an editor never writes',
        (text) => text.replace('"readOnly": false', '"readOnly": false,\n    "allowEverything": true'),
      ],
      ['with a mistyped field', (text) => text.replace('"readOnly": false', '"readOnly": "no"')],
      ['with its digest recomputed wrongly', (text) => text.replace(/"sha256": "[0-9a-f]+"/, `"sha256": "${'0'.repeat(64)}"`)],
    ];
    for (const [what, damage] of broken) {
      it(what, async function () {
        publish({ protectedPaths: [...DEFAULT_PROTECTED_PATHS, 'secrets/**'] });
        const host = session();
        expectError(await call(host, 'write_file', { file_name: 'secrets/token.txt', content: 'x\n' }), 'SENSITIVE_PATH_REFUSED');
        fs.writeFileSync(policyPath, damage(fs.readFileSync(policyPath, 'utf8')));
        const before = snapshot(base);
        for (const [operation, input] of [
          ['write_file', { file_name: 'secrets/token.txt', content: 'x\n' }],
          ['read_file', { file_name: 'notes.txt' }],
          ['list_files', {}],
        ] as const) {
          const error = expectError(await call(host, operation, input), 'POLICY_UNAVAILABLE');
          assert.match(
            error.message,
            /The policy VS Code published for this workspace \(.*policy\.json\) .+, so this MCP server refuses every call/,
          );
          assert.equal(error.details?.path, policyPath);
        }
        assertTree(snapshot(base), before, 'nothing changed');
        // The editor writing it anew makes the next call work again.
        publish();
        expectOk(await call(host, 'write_file', { file_name: 'secrets/token.txt', content: 'after\n' }));
      });
    }

    it('unreadable (a directory where the file should be)', async function () {
      fs.mkdirSync(policyPath, { recursive: true });
      const error = expectError(await call(session(), 'read_file', { file_name: 'notes.txt' }), 'POLICY_UNAVAILABLE');
      assert.match(error.message, /is not a file/);
    });

    it('removed after the host had read it', async function () {
      publish({ protectedPaths: [...DEFAULT_PROTECTED_PATHS, 'secrets/**'] });
      const host = session();
      expectOk(await call(host, 'read_file', { file_name: 'notes.txt' }));
      fs.rmSync(policyPath);
      const error = expectError(await call(host, 'write_file', { file_name: 'secrets/token.txt', content: 'x\n' }), 'POLICY_UNAVAILABLE');
      assert.match(error.message, /was removed after this MCP server had read it/);
      assert.equal(fs.readFileSync(path.join(base, 'secrets', 'token.txt'), 'utf8'), 'hunter2\n');
    });
  });

  it('the file is exactly what the serializer writes and reads back', function () {
    const published = { ...editorDefaults(), dirtyEditors: ['/a/b.txt'], exclude: ['x/'] };
    const text = policyFileText(published, new Date('2026-12-02T10:00:00.000Z'));
    const read = readPolicyFile(text);
    assert.deepEqual(read.policy, published);
    assert.equal(read.written, '2026-12-02T10:00:00.000Z');
    assert.throws(() => readPolicyFile(text.replace('"/a/b.txt"', '"b.txt"')), /does not match its digest/);
  });
});
