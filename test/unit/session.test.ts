/**
 * The session's policy and base directory: READ_ONLY_MODE / WORKSPACE_UNTRUSTED for every mutating tool (new ones
 * included) before anything is touched, read tools unaffected; DIR_NOT_AVAILABLE for a missing base; a base
 * reached through a symbolic link works.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ToolError } from '../../src/core/errors';
import type { Session } from '../../src/core/invoke';
import { findTool, TOOL_DEFINITIONS } from '../../src/core/tools';
import { assertFields, assertTree, call, expectError, expectOk, nodeSession, tempWorkspace, type TempWorkspace } from './helpers';
import { PLUGIN_OPERATIONS, validInput } from './schemaInputs';

describe('session policy and base directory', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'alpha', 'dir/b.txt': 'beta' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  for (const [policy, code] of [
    [{ readOnly: true }, 'READ_ONLY_MODE'],
    [{ trusted: false }, 'WORKSPACE_UNTRUSTED'],
    [{ trusted: false, readOnly: true }, 'WORKSPACE_UNTRUSTED'],
  ] as const) {
    it(`${JSON.stringify(policy)}: every mutating tool answers ${code} and changes nothing; read tools still work`, async function () {
      const session = nodeSession(ws.base, policy);
      const before = ws.snap();
      let mutating = 0;
      for (const tool of TOOL_DEFINITIONS) {
        const schema = findTool(tool.name)?.inputSchema;
        assert.ok(schema, tool.name);
        const input = validInput(tool.name, schema);
        if (!input) {
          assert.ok(!PLUGIN_OPERATIONS.includes(tool.name), `no input for ${tool.name}`);
          continue;
        }
        const envelope = await call(session, tool.name, input);
        if (tool.effect === 'read') {
          assert.ok(
            envelope.ok || (envelope.error.code !== 'READ_ONLY_MODE' && envelope.error.code !== 'WORKSPACE_UNTRUSTED'),
            `${tool.name} refused a read`,
          );
        } else {
          mutating++;
          const error = expectError(envelope, code, tool.name);
          assert.match(error.message, new RegExp(code === 'READ_ONLY_MODE' ? 'read-only' : 'untrusted'));
        }
      }
      assert.ok(mutating >= 9, `only ${mutating} mutating tools checked`);
      assertTree(ws.snap(), before);
      assertFields(expectOk(await call(session, 'read_file', { file_name: 'a.txt' })), { content: 'alpha' });
    });
  }

  it('the plugin operations: only read_file, list_files, path_exists and find_file are read tools', function () {
    for (const operation of PLUGIN_OPERATIONS) {
      const tool = TOOL_DEFINITIONS.find((each) => each.name === operation);
      assert.ok(tool, operation);
      assert.equal(tool.effect === 'read', ['read_file', 'list_files', 'path_exists', 'find_file'].includes(operation), operation);
    }
  });

  it('DIR_NOT_AVAILABLE for a missing base or a base that is a file, for every plugin operation', async function () {
    const gone = path.join(ws.tmp, 'gone');
    const notADirectory = path.join(ws.base, 'a.txt');
    for (const root of [gone, notADirectory]) {
      const session = nodeSession(root);
      for (const operation of PLUGIN_OPERATIONS) {
        const schema = findTool(operation)?.inputSchema;
        assert.ok(schema);
        const input = validInput(operation, schema);
        const error = expectError(await call(session, operation, input), 'DIR_NOT_AVAILABLE', operation);
        assert.ok(error.message.includes(root), error.message);
      }
    }
    assert.equal(fs.existsSync(gone), false, 'a missing base was created');
  });

  it('DIR_NOT_SET from a session without a base directory reaches every plugin operation as its envelope', async function () {
    const unset: Session = {
      policy: () => ws.session.policy(),
      workspace: () => Promise.reject(new ToolError('DIR_NOT_SET', 'No base directory is set. Run "Agent FS: Select Base Directory…".')),
    };
    for (const operation of PLUGIN_OPERATIONS) {
      const schema = findTool(operation)?.inputSchema;
      assert.ok(schema);
      expectError(await call(unset, operation, validInput(operation, schema)), 'DIR_NOT_SET', operation);
    }
  });

  it('DIR_NOT_AVAILABLE when the base disappears between calls', async function () {
    const root = path.join(ws.tmp, 'vanishing');
    fs.mkdirSync(root);
    const session = nodeSession(root);
    expectOk(await call(session, 'write_file', { file_name: 'x.txt', content: 'x' }));
    fs.rmSync(root, { recursive: true });
    expectError(await call(session, 'write_file', { file_name: 'x.txt', content: 'x' }), 'DIR_NOT_AVAILABLE');
    assert.equal(fs.existsSync(root), false);
  });

  it('a base reached through a symbolic link: inside works, results are relative to it, links out are still refused', async function () {
    const link = path.join(ws.tmp, 'base-link');
    fs.symlinkSync(ws.base, link);
    fs.symlinkSync(ws.outside, path.join(ws.base, 'out'));
    const session = nodeSession(link);
    assertFields(expectOk(await call(session, 'read_file', { file_name: 'dir/b.txt' })), { relative_path: 'dir/b.txt', content: 'beta' });
    assertFields(expectOk(await call(session, 'read_file', { file_name: path.join(link, 'a.txt') })), { relative_path: 'a.txt' });
    assertFields(expectOk(await call(session, 'write_file', { file_name: 'new/c.txt', content: 'c' })), {
      relative_path: 'new/c.txt',
      created: true,
    });
    assert.equal(ws.read('new/c.txt'), 'c');
    assertFields(expectOk(await call(session, 'list_files', {})), { files: ['a.txt', 'dir/b.txt', 'new/c.txt'] });
    expectError(await call(session, 'read_file', { file_name: 'out/secret.txt' }), 'SYMLINK_OUTSIDE_BASE');
    expectError(await call(session, 'write_file', { file_name: '../outside/x.txt', content: 'x' }), 'FILE_PATH_OUTSIDE_BASE');
    // The base's real path, spelled out, is not the path the session was given: refused (conservative).
    expectError(await call(session, 'read_file', { file_name: path.join(ws.base, 'a.txt') }), 'FILE_PATH_OUTSIDE_BASE');
    assert.equal(fs.readdirSync(ws.outside).join(','), 'secret.txt');
  });

  it('multi-root: a relative path picks the root it names, absolute paths the root containing them by segments', async function () {
    const app = path.join(ws.tmp, 'app');
    const app2 = path.join(ws.tmp, 'app2');
    fs.mkdirSync(app);
    fs.mkdirSync(app2);
    fs.writeFileSync(path.join(app, 'f.txt'), 'in app');
    fs.writeFileSync(path.join(app2, 'f.txt'), 'in app2');
    const single = nodeSession(app);
    const session: Session = {
      policy: () => single.policy(),
      async workspace() {
        const { fs: port } = await single.workspace();
        return {
          roots: [
            { name: 'app', path: app },
            { name: 'app2', path: app2 },
          ],
          fs: port,
        };
      },
    };
    assertFields(expectOk(await call(session, 'read_file', { file_name: 'f.txt' })), { relative_path: 'app/f.txt', content: 'in app' });
    assertFields(expectOk(await call(session, 'read_file', { file_name: 'app2/f.txt' })), {
      relative_path: 'app2/f.txt',
      content: 'in app2',
    });
    assertFields(expectOk(await call(session, 'read_file', { file_name: path.join(app2, 'f.txt') })), {
      relative_path: 'app2/f.txt',
      content: 'in app2',
    });
    expectError(await call(session, 'read_file', { file_name: 'app2/../../base/a.txt' }), 'FILE_PATH_OUTSIDE_BASE');
    expectError(await call(session, 'read_file', { file_name: path.join(ws.base, 'a.txt') }), 'FILE_PATH_OUTSIDE_BASE');
    const listed = expectOk(await call(session, 'find_file', { file_name: 'f.txt' }));
    assert.deepEqual(
      (listed.matches as { relative_path: string }[]).map((match) => match.relative_path),
      ['app/f.txt', 'app2/f.txt'],
    );
  });
});
