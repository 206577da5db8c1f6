/**
 * prepareOperation (what the editor shows before a call): an invocation message naming the path for every call, a
 * confirmation naming exactly what will be lost for destructive ones, and no side effects at all.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { invokeOperation, prepareOperation, type Session } from '../../src/core/invoke';
import { createNodeSession } from '../../src/node/host/session';
import type { Origin } from '../../src/core/history/origin';
import type { Localizer } from '../../src/core/ports/l10n';
import type { Preparation } from '../../src/core/tool';
import { assertTree, expectOk, nodeSession, type Snapshot, tempWorkspace, type TempWorkspace } from './helpers';

describe('prepareOperation', function () {
  let ws: TempWorkspace;
  let pristine: Snapshot;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({
      'a.txt': '12345',
      'b.txt': 'bee',
      'tree/one.txt': '1',
      'tree/two.txt': '2',
      'tree/sub/three.txt': '3',
      'src/x.txt': 'x',
      'dest/old1.txt': 'o',
      'dest/deeper/old2.txt': 'o',
    });
    fs.mkdirSync(path.join(ws.base, 'tree', 'sub', 'empty'));
    fs.mkdirSync(path.join(ws.base, 'hollow'));
    fs.symlinkSync(ws.outside, path.join(ws.base, 'tree', 'out-link'));
    pristine = ws.snap();
  });
  afterEach(function () {
    // Whatever a test prepared, nothing on disk changed.
    assertTree(ws.snap(), pristine, 'prepareOperation changed the disk');
    ws.cleanup();
  });

  const states: string[] = [];
  after(function () {
    for (const dir of states) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A session that records history, in a state folder outside the workspace snapshot. */
  function recordedSession(historyLimits: { maxBytes?: number } = {}): Session {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentfs-prepare-state-'));
    states.push(dir);
    return createNodeSession(ws.base, {}, { stateDirectory: dir, historyLimits });
  }

  function prepare(operation: string, input: unknown, confirmDestructive = true): Promise<Preparation> {
    return prepareOperation(operation, input, nodeSession(ws.base, { confirmDestructive }));
  }

  function confirmation(preparation: Preparation): { title: string; message: string } {
    assert.ok(preparation.confirmation, `expected a confirmation: ${JSON.stringify(preparation)}`);
    assert.ok(preparation.confirmation.title.length > 0);
    return preparation.confirmation;
  }

  it('delete_file: names the file and its size', async function () {
    const preparation = await prepare('delete_file', { file_name: './a.txt' });
    assert.match(preparation.invocationMessage, /a\.txt/);
    const { title, message } = confirmation(preparation);
    assert.equal(title, 'Delete a.txt?');
    assert.match(message, /a\.txt/);
    assert.match(message, /5 bytes/);
  });

  it('says whether a deletion goes to the trash and whether Agent FS can undo it', async function () {
    // The runner's file system has no trash, and without a state folder it keeps no history.
    assert.equal(
      confirmation(await prepare('delete_file', { file_name: 'a.txt' })).message,
      '`a.txt` (5 bytes) will be deleted. There is no trash here: it is removed from the disk. Agent FS keeps no history here, so it cannot undo this.',
    );
    const recorded = recordedSession();
    const withHistory = confirmation(await prepareOperation('delete_file', { file_name: 'a.txt' }, recorded));
    assert.match(withHistory.message, /Agent FS can undo this\.$/);
    const small = recordedSession({ maxBytes: 3 });
    assert.match(
      confirmation(await prepareOperation('delete_file', { file_name: 'a.txt' }, small)).message,
      /more than Agent FS's history keeps \(3 bytes\), so Agent FS cannot undo this\.$/,
    );
  });

  it('delete_directory recursive: names the first entries, the total size, and what can be undone', async function () {
    const recorded = recordedSession();
    const { title, message } = confirmation(
      await prepareOperation('delete_directory', { directory_path: 'dest', recursive: true }, recorded),
    );
    assert.equal(title, 'Delete dest/ and everything in it?');
    assert.equal(
      message,
      '`dest/` holds 2 files and 1 directory, 2 bytes: `deeper/`, `old1.txt`. All of it will be deleted. There is no trash here: it is removed from the disk. Agent FS can undo this.',
    );
    // A symbolic link cannot be recreated from recorded content: such a delete is not undoable, and the card says so.
    const linked = confirmation(await prepareOperation('delete_directory', { directory_path: 'tree', recursive: true }, recorded));
    assert.equal(
      linked.message,
      '`tree/` holds 3 files, 2 directories and 1 symbolic link, 3 bytes: `one.txt`, `out-link`, `sub/`, `two.txt`. All of it will be deleted. There is no trash here: it is removed from the disk. It holds a symbolic link or special file, which Agent FS cannot recreate, so it cannot undo this.',
    );
  });

  it('delete_directory recursive: says how many entries go (links counted, not followed)', async function () {
    const preparation = await prepare('delete_directory', { directory_path: 'tree', recursive: true });
    assert.match(preparation.invocationMessage, /tree/);
    const { message } = confirmation(preparation);
    assert.match(message, /tree/);
    assert.match(message, /3 files/);
    assert.match(message, /2 directories/);
    assert.match(message, /1 symbolic link/);
  });

  it('delete_directory of an empty directory is confirmed too; a non-empty one without recursive is not (it will be refused)', async function () {
    assert.match(confirmation(await prepare('delete_directory', { directory_path: 'hollow' })).message, /hollow/);
    const refused = await prepare('delete_directory', { directory_path: 'tree' });
    assert.equal(refused.confirmation, undefined);
    assert.match(refused.invocationMessage, /DIRECTORY_NOT_EMPTY/);
  });

  it('write_file: confirmation only when it replaces an existing file', async function () {
    const replace = await prepare('write_file', { file_name: 'a.txt', content: 'new content' });
    const { title, message } = confirmation(replace);
    assert.equal(title, 'Replace the content of a.txt?');
    assert.match(message, /^`a\.txt` \(5 bytes\) will be replaced by 11 bytes of new content: 1 line removed, 1 added\./);
    assert.match(message, /a\.txt/);
    assert.match(message, /5 bytes/);
    const create = await prepare('write_file', { file_name: 'fresh/new.txt', content: 'x' });
    assert.equal(create.confirmation, undefined);
    assert.match(create.invocationMessage, /fresh\/new\.txt/);
  });

  for (const operation of ['copy_file', 'move_file'] as const) {
    it(`${operation}: confirmation only with overwrite onto an existing destination, naming it`, async function () {
      const { message } = confirmation(await prepare(operation, { source_path: 'a.txt', destination_path: 'b.txt', overwrite: true }));
      assert.match(message, /b\.txt/);
      assert.match(message, /3 bytes/);
      const free = await prepare(operation, { source_path: 'a.txt', destination_path: 'c.txt', overwrite: true });
      assert.equal(free.confirmation, undefined);
      assert.match(free.invocationMessage, /a\.txt/);
      assert.match(free.invocationMessage, /c\.txt/);
      const refused = await prepare(operation, { source_path: 'a.txt', destination_path: 'b.txt' });
      assert.equal(refused.confirmation, undefined);
      assert.match(refused.invocationMessage, /DESTINATION_EXISTS/);
      assert.equal(refused.refusal?.code, 'DESTINATION_EXISTS');
    });
  }

  for (const operation of ['copy_directory', 'move_directory'] as const) {
    it(`${operation}: overwrite onto an existing directory says what it holds`, async function () {
      const { message } = confirmation(await prepare(operation, { source_path: 'src', destination_path: 'dest', overwrite: true }));
      assert.match(message, /dest/);
      assert.match(message, /2 files/);
      assert.match(message, /1 directory/);
      assert.equal(
        (await prepare(operation, { source_path: 'src', destination_path: 'elsewhere', overwrite: true })).confirmation,
        undefined,
      );
    });
  }

  it('read operations and creations are never confirmed, and every message names its path', async function () {
    for (const [operation, input, shown] of [
      ['read_file', { file_name: 'a.txt' }, 'a.txt'],
      ['list_files', { path: 'tree' }, 'tree'],
      ['path_exists', { path: 'tree/one.txt' }, 'tree/one.txt'],
      ['find_file', { file_name: 'one.txt' }, 'one.txt'],
      ['create_directory', { directory_name: 'newdir' }, 'newdir'],
    ] as const) {
      const preparation = await prepare(operation, input);
      assert.equal(preparation.confirmation, undefined, operation);
      assert.ok(preparation.invocationMessage.includes(shown), `${operation}: ${preparation.invocationMessage}`);
    }
  });

  it('confirmDestructive: false drops the tool’s own confirmation but keeps the invocation message', async function () {
    const preparation = await prepare('delete_file', { file_name: 'a.txt' }, false);
    assert.equal(preparation.confirmation, undefined);
    assert.match(preparation.invocationMessage, /a\.txt/);
    assert.equal((await prepare('delete_directory', { directory_path: 'tree', recursive: true }, false)).confirmation, undefined);
  });

  it('refusals and malformed inputs give a message with the code, no confirmation, and never throw', async function () {
    for (const [operation, input, code] of [
      ['delete_file', { file_name: '../outside/secret.txt' }, 'FILE_PATH_OUTSIDE_BASE'],
      ['delete_directory', { directory_path: 'tree/out-link', recursive: true }, 'SYMLINK_OUTSIDE_BASE'],
      ['delete_file', { file_name: 'missing.txt' }, 'FILE_NOT_FOUND'],
      ['delete_file', {}, 'INVALID_INPUT'],
      ['write_file', null, 'INVALID_INPUT'],
    ] as const) {
      const preparation = await prepare(operation, input);
      assert.equal(preparation.confirmation, undefined, operation);
      assert.ok(preparation.invocationMessage.includes(code), `${operation}: ${preparation.invocationMessage}`);
      assert.equal(preparation.refusal?.code, code, operation);
    }
    // What the chat line says: the tool's name, that it was refused, the message's first sentence and the code.
    assert.equal(
      (await prepare('delete_file', { file_name: 'missing.txt' })).invocationMessage,
      'Delete File refused: File does not exist: missing.txt. (FILE_NOT_FOUND)',
    );
    // Only the first sentence: what the model is told to do next, and hashes, are not for this line.
    assert.equal(
      (await prepare('write_file', { file_name: 'a.txt', content: 'x', expected_hash: `sha256:${'0'.repeat(64)}` })).invocationMessage,
      'Write File refused: a.txt changed since it was read. (CONTENT_CONFLICT)',
    );
    assert.equal(
      (await prepare('read_file', { file_name: 'tree' })).invocationMessage,
      'Read File refused: Not a file: tree is a directory. (FILE_NOT_FILE)',
    );
    const readOnly = await prepareOperation('delete_file', { file_name: 'a.txt' }, nodeSession(ws.base, { readOnly: true }));
    assert.equal(readOnly.confirmation, undefined);
    assert.match(readOnly.invocationMessage, /READ_ONLY_MODE/);
    const unknown = await prepareOperation('format_disk', {}, ws.session);
    assert.equal(unknown.confirmation, undefined);
  });

  it("undo: names what is put back in the person's terms, with no ids or raw operation names", async function () {
    const recorded = recordedSession();
    expectOk(await invokeOperation('delete_directory', { directory_path: 'dest', recursive: true }, recorded));
    const undo = confirmation(await prepareOperation('undo_last', {}, recorded));
    assert.equal(undo.title, 'Undo deleting dest/?');
    assert.equal(
      undo.message,
      'Put back `dest/` (2 files, 2 bytes) as it was before it was deleted just now.\n\nChanges made since in other lines are kept; if any overlap this change, nothing is changed. The undo is recorded too, so it can be undone in turn.',
    );
    assert.doesNotMatch(undo.message, /delete_directory|operation|\d{4}-\d\d-\d\dT/);
    expectOk(await invokeOperation('undo_last', {}, recorded));
  });

  /**
   * The person's language from a shipped bundle, as vscode.l10n.t reads it; a key the bundle lacks throws, so any
   * sentence still composed in English fails the test.
   */
  function bundleLocalizer(language: string): Localizer {
    const file = path.join(__dirname, '..', '..', '..', 'l10n', `bundle.l10n.${language}.json`);
    const bundle = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
    return {
      t: (message, ...args) => {
        const translated = bundle[message];
        if (translated === undefined) throw new Error(`l10n/bundle.l10n.${language}.json has no "${message}"`);
        return translated.replace(/\{(\d+)\}/g, (whole, index: string) => String(args[Number(index)] ?? whole));
      },
    };
  }

  it("undo confirmations come whole in the person's language, while the result stays English", async function () {
    const recorded = recordedSession();
    const japanese: Session = { ...recorded, l10n: bundleLocalizer('ja') };
    expectOk(await invokeOperation('delete_directory', { directory_path: 'dest', recursive: true }, recorded));
    const undoDelete = await prepareOperation('undo_last', {}, japanese);
    assert.equal(undoDelete.invocationMessage, 'dest/ の削除を元に戻しています');
    assert.deepEqual(confirmation(undoDelete), {
      title: 'dest/ の削除を元に戻しますか?',
      message:
        '`dest/` (2 個のファイル, 2 バイト) を、削除される前の状態に戻します (たった今)。\n\nその後に別の行で行われた変更は保持されます。この変更と重なる変更があれば、何も変更しません。取り消しも記録されるため、それ自体を元に戻せます。',
    });
    const undone = expectOk(await invokeOperation('undo_last', {}, japanese));
    assert.equal(undone.summary, 'delete_directory dest');
    expectOk(await invokeOperation('move_file', { source_path: 'a.txt', destination_path: 'moved/a.txt' }, recorded));
    const moveBack = confirmation(await prepareOperation('undo_last', {}, japanese));
    assert.equal(moveBack.title, 'a.txt から moved/a.txt へ の移動を元に戻しますか?');
    assert.match(moveBack.message, /^`moved\/a\.txt` を移動前の場所 `a\.txt` に戻します \(たった今\)。/);
    expectOk(await invokeOperation('undo_last', {}, recorded));
    // A session's undo, in German this time: its summary, its list of files and what happens if anyone changed one.
    const origin: Origin = { host: 'mcp', agent: 'claude-code', agent_version: '2.1.0', session: 'mcp-1a2b' };
    const none = (): boolean => false;
    expectOk(await invokeOperation('write_file', { file_name: 'b.txt', content: 'new' }, recorded, none, undefined, origin));
    expectOk(await invokeOperation('delete_file', { file_name: 'src/x.txt' }, recorded, none, undefined, origin));
    const german = confirmation(await prepareOperation('undo_last', { session: 'mcp-1a2b' }, { ...recorded, l10n: bundleLocalizer('de') }));
    assert.equal(german.title, 'Sitzung mcp-1a2b von claude-code 2.1.0 (2 Änderungen) rückgängig machen?');
    assert.equal(
      german.message,
      'Jede Datei, die sie geändert hat, wird auf den Stand vor der Sitzung zurückgesetzt:\n\n- `b.txt`\n- `src/x.txt`\n\nSeitdem von einem anderen Agenten oder sonst jemandem in anderen Zeilen vorgenommene Änderungen bleiben erhalten; überschneidet sich eine davon mit den Änderungen der Sitzung, wird nichts geändert. Das Rückgängigmachen wird als eine Änderung aufgezeichnet und kann seinerseits rückgängig gemacht werden.',
    );
    expectOk(await invokeOperation('undo_last', { session: 'mcp-1a2b' }, recorded));
  });

  it('undo of a move and of a creation say where things go back and what is removed', async function () {
    const recorded = recordedSession();
    expectOk(await invokeOperation('move_file', { source_path: 'a.txt', destination_path: 'moved/a.txt' }, recorded));
    const moveBack = confirmation(await prepareOperation('undo_last', {}, recorded));
    assert.equal(moveBack.title, 'Undo moving a.txt to moved/a.txt?');
    assert.match(moveBack.message, /^Move `moved\/a\.txt` back to `a\.txt`, where it was before it was moved just now\./);
    expectOk(await invokeOperation('undo_last', {}, recorded));
    expectOk(await invokeOperation('create_file', { path: 'fresh.txt', content: 'new\n' }, recorded));
    const remove = confirmation(await prepareOperation('undo_last', {}, recorded));
    assert.equal(remove.title, 'Undo creating fresh.txt?');
    assert.match(remove.message, /^Remove `fresh\.txt` \(4 bytes\), which was created just now\./);
    expectOk(await invokeOperation('undo_last', {}, recorded));
  });
});
