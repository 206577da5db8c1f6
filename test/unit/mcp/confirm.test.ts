/**
 * Confirmation through MCP elicitation, over real stdio: every --confirm mode against a client that accepts,
 * declines, dismisses, or cannot ask. The question is the editor's own confirmation text; a declined call changes
 * nothing on disk and records nothing.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { prepareOperation } from '../../../src/core/invoke';
import { CONFIRM_FIELD, CONFIRM_NO, CONFIRM_YES, confirmationText } from '../../../src/node/mcp/confirm';
import { createNodeSession } from '../../../src/node/host/session';
import { assertTree, expectError, expectOk, removeTree, snapshot } from '../helpers';
import { buildOnce, serve, tempLayout } from './serve';

type Client = 'accepts' | 'answers Yes' | 'answers No' | 'declines' | 'dismisses' | 'cannot ask';

const ANSWERS: Readonly<Record<Exclude<Client, 'cannot ask'>, ElicitResult>> = {
  // Accepting without filling in the form: a client whose own approval stands in for the person.
  accepts: { action: 'accept', content: {} },
  'answers Yes': { action: 'accept', content: { [CONFIRM_FIELD]: CONFIRM_YES } },
  // VS Code's chat has no decline: a person who picks No submits the form, and that is a decline.
  'answers No': { action: 'accept', content: { [CONFIRM_FIELD]: CONFIRM_NO } },
  declines: { action: 'decline' },
  dismisses: { action: 'cancel' },
};

/** [mode, client, asked, runs]: whether the person is asked, and whether the delete happens. */
const MATRIX: readonly (readonly ['elicit' | 'never' | 'require', Client, boolean, boolean])[] = [
  ['elicit', 'accepts', true, true],
  ['elicit', 'answers Yes', true, true],
  ['elicit', 'answers No', true, false],
  ['elicit', 'declines', true, false],
  ['elicit', 'dismisses', true, false],
  ['elicit', 'cannot ask', false, true],
  ['never', 'accepts', false, true],
  ['never', 'declines', false, true],
  ['never', 'cannot ask', false, true],
  ['require', 'accepts', true, true],
  ['require', 'answers Yes', true, true],
  ['require', 'answers No', true, false],
  ['require', 'declines', true, false],
  ['require', 'cannot ask', false, false],
];

describe('MCP server: confirmation by elicitation', function () {
  let tmp = '';
  let base = '';
  let state = '';

  before(buildOnce);
  beforeEach(function () {
    ({ tmp, base, state } = tempLayout('agentfs-mcp-confirm-'));
    fs.mkdirSync(path.join(base, 'keep'));
    fs.writeFileSync(path.join(base, 'a.txt'), 'precious\n');
    fs.writeFileSync(path.join(base, 'keep', 'b.txt'), 'also precious\n');
  });
  afterEach(function () {
    removeTree(tmp);
  });

  /** What the editor's confirmation says for this call on this tree, with the same history (it says what can be undone). */
  async function editorText(operation: string, input: unknown): Promise<string> {
    const { confirmation } = await prepareOperation(operation, input, createNodeSession(base, {}, { stateDirectory: state }));
    assert.ok(confirmation, `${operation} asks for confirmation in the editor`);
    return confirmationText(confirmation);
  }

  for (const [mode, client, asked, runs] of MATRIX) {
    it(`--confirm ${mode}, a client that ${client}: ${asked ? 'asks' : 'does not ask'}, ${runs ? 'deletes' : 'refuses with CONFIRMATION_DECLINED'}`, async function () {
      const expected = await editorText('delete_file', { file_name: 'a.txt' });
      const answer = client === 'cannot ask' ? undefined : ANSWERS[client];
      const served = await serve(
        ['--root', base, '--state', state, ...(mode === 'elicit' ? [] : ['--confirm', mode])],
        answer ? { elicit: () => answer } : {},
      );
      try {
        const before = snapshot(tmp);
        const { envelope } = await served.call('delete_file', { file_name: 'a.txt' });
        assert.equal(served.elicitations.length, asked ? 1 : 0, 'elicitation requests');
        if (asked) {
          const [request] = served.elicitations;
          assert.equal(request?.message, expected, "the question is the editor's confirmation text");
          assert.match(expected, /a\.txt/);
          // One field a form can draw: a choice between Yes and No, No preselected, not required.
          assert.ok(request && 'requestedSchema' in request, 'a form elicitation');
          assert.deepEqual(request.requestedSchema, {
            type: 'object',
            properties: { answer: { type: 'string', title: 'Go ahead?', enum: ['Yes', 'No'], default: 'No' } },
          });
        }
        const history = expectOk((await served.call('history_list', {})).envelope);
        if (runs) {
          expectOk(envelope, 'delete_file');
          assert.ok(!fs.existsSync(path.join(base, 'a.txt')), 'the file is deleted');
          assert.equal(history.count, 1);
        } else {
          const error = expectError(envelope, 'CONFIRMATION_DECLINED', 'delete_file');
          assert.match(error.message, /Nothing was changed/);
          assert.equal(error.details?.reason, client === 'cannot ask' ? 'unsupported' : client === 'dismisses' ? 'cancelled' : 'declined');
          if (client === 'answers No') assert.match(error.message, /The person declined it\. /);
          assertTree(snapshot(tmp), before, 'a declined call changes nothing');
          assert.equal(history.count, 0, 'and records nothing');
        }
      } finally {
        await served.close();
      }
    });
  }

  it('a call with nothing to lose is not asked about, even under --confirm require with a client that cannot ask', async function () {
    const served = await serve(['--root', base, '--state', state, '--confirm', 'require']);
    try {
      expectOk((await served.call('write_file', { file_name: 'new.txt', content: 'fresh\n' })).envelope, 'write_file');
      expectOk((await served.call('create_directory', { directory_name: 'made' })).envelope, 'create_directory');
      expectOk((await served.call('write_file', { file_name: 'a.txt', content: 'replaced\n', dry_run: true })).envelope, 'write_file');
      assert.equal(fs.readFileSync(path.join(base, 'new.txt'), 'utf8'), 'fresh\n');
      assert.equal(fs.readFileSync(path.join(base, 'a.txt'), 'utf8'), 'precious\n');
    } finally {
      await served.close();
    }
  });

  it("asks with the editor's text for an overwrite, a recursive delete and a patch; declining each leaves every byte", async function () {
    const served = await serve(['--root', base, '--state', state], { elicit: () => ({ action: 'decline' }) });
    try {
      const calls: [string, Record<string, unknown>][] = [
        ['write_file', { file_name: 'a.txt', content: 'replaced\n' }],
        ['delete_directory', { directory_path: 'keep', recursive: true }],
        ['apply_patch', { patch: '--- a/a.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-precious\n' }],
        ['copy_file', { source_path: 'keep/b.txt', destination_path: 'a.txt', overwrite: true }],
      ];
      const before = snapshot(tmp);
      for (const [operation, input] of calls) {
        const expected = await editorText(operation, input);
        expectError((await served.call(operation, input)).envelope, 'CONFIRMATION_DECLINED', operation);
        assert.equal(served.elicitations.at(-1)?.message, expected, `${operation}: the editor's text`);
      }
      assert.equal(served.elicitations.length, calls.length);
      assertTree(snapshot(tmp), before);
    } finally {
      await served.close();
    }
  });
});
