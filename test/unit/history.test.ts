/**
 * History and undo over the runner's session: every mutating operation is recorded, undo puts the whole tree back
 * byte for byte (modes included), a change made since refuses the undo and touches nothing, an undo can be undone,
 * the store survives a restart and keeps to its caps.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../src/core/envelope';
import { findTool, TOOL_DEFINITIONS } from '../../src/core/tools';
import { type FileSystem, FsError } from '../../src/core/ports/fs';
import { NodeFileSystem } from '../../src/node/fs/nodeFileSystem';
import { createNodeSession } from '../../src/node/host/session';
import type { Session } from '../../src/core/invoke';
import type { HistoryLimits } from '../../src/core/settings';
import { checkEnvelope } from '../shared/results';
import { assertTree, snapshot } from '../shared/tree';
import { call, expectError, expectOk, makeTempDir, removeTree } from './helpers';
import { liveBlobs, packOperations, readPack } from './packFile';
import { buildBundles } from './bundles';

/** Every entry below `root` with its type, mode and bytes (links by target), so "identical" means identical. */
function fullTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (relative: string): void => {
    const absolute = relative === '' ? root : path.join(root, relative);
    for (const name of fs.readdirSync(absolute).sort()) {
      const key = relative === '' ? name : `${relative}/${name}`;
      const full = path.join(absolute, name);
      const stat = fs.lstatSync(full);
      const mode = (stat.mode & 0o7777).toString(8);
      if (stat.isSymbolicLink()) out[key] = `link -> ${fs.readlinkSync(full)}`;
      else if (stat.isDirectory()) {
        out[key] = `dir ${mode}`;
        visit(key);
      } else out[key] = `file ${mode} ${fs.readFileSync(full).toString('base64')}`;
    }
  };
  visit('');
  return out;
}

interface Fixture {
  readonly tmp: string;
  readonly base: string;
  readonly state: string;
  session: Session;
  restart(limits?: Partial<HistoryLimits>): void;
  write(files: Record<string, string | Uint8Array>): void;
  tree(): Record<string, string>;
  run(operation: string, input: unknown): Promise<Envelope>;
  cleanup(): void;
}

function fixture(limits: Partial<HistoryLimits> = {}): Fixture {
  const tmp = makeTempDir('agentfs-history-');
  const base = path.join(tmp, 'base');
  const state = path.join(tmp, 'state');
  fs.mkdirSync(base);
  const self: Fixture = {
    tmp,
    base,
    state,
    session: createNodeSession(base, {}, { stateDirectory: state, historyLimits: limits }),
    restart(newLimits = limits) {
      self.session = createNodeSession(base, {}, { stateDirectory: state, historyLimits: newLimits });
    },
    write(files) {
      for (const [relative, content] of Object.entries(files)) {
        const full = path.join(base, relative);
        fs.mkdirSync(path.dirname(full), { recursive: true });
        fs.writeFileSync(full, content);
      }
    },
    tree: () => fullTree(base),
    run: (operation, input) => call(self.session, operation, input),
    cleanup: () => removeTree(tmp),
  };
  return self;
}

/** A workspace with files of several modes, a nested tree, and binary content. */
function seed(f: Fixture): void {
  f.write({
    'notes.md': '# Notes\nfirst\n',
    'script.sh': '#!/bin/sh\necho hi\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/deep/b.ts': 'export const b = 2;\r\n',
    'src/deep/blob.bin': new Uint8Array([0, 1, 2, 255, 0, 7]),
    'docs/guide.md': 'guide\n',
    'docs/readme.txt': 'readme\n',
  });
  fs.chmodSync(path.join(f.base, 'script.sh'), 0o755);
  fs.chmodSync(path.join(f.base, 'src/deep/b.ts'), 0o600);
  fs.chmodSync(path.join(f.base, 'docs'), 0o750);
}

interface Case {
  readonly operation: string;
  readonly input: Record<string, unknown>;
  readonly setup?: (f: Fixture) => void;
}

const PATCH = [
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1 +1,2 @@',
  ' export const a = 1;',
  '+export const c = 3;',
  '--- a/notes.md',
  '+++ /dev/null',
  '@@ -1,2 +0,0 @@',
  '-# Notes',
  '-first',
  '--- /dev/null',
  '+++ b/new/made.txt',
  '@@ -0,0 +1 @@',
  '+made',
  '',
].join('\n');

/** The V4A grammar: a move with an edit (of a file with its own mode), a deletion and a new file. */
const V4A_PATCH = [
  '*** Begin Patch',
  '*** Update File: script.sh',
  '*** Move to: bin/run.sh',
  '@@',
  ' #!/bin/sh',
  '-echo hi',
  '+echo hello',
  '*** Delete File: docs/readme.txt',
  '*** Add File: made/v4a.txt',
  '+made',
  '*** End Patch',
  '',
].join('\n');

/** One case per mutating operation (and per interesting variant of it). Editing tools join when they exist. */
const CASES: readonly Case[] = [
  { operation: 'write_file', input: { file_name: 'new/dir/file.txt', content: 'hello\n' } },
  { operation: 'write_file', input: { file_name: 'script.sh', content: 'replaced\n' } },
  { operation: 'delete_file', input: { file_name: 'script.sh' } },
  { operation: 'copy_file', input: { source_path: 'notes.md', destination_path: 'copies/notes.md' } },
  { operation: 'copy_file', input: { source_path: 'notes.md', destination_path: 'script.sh', overwrite: true } },
  { operation: 'move_file', input: { source_path: 'src/deep/b.ts', destination_path: 'moved/b.ts' } },
  { operation: 'move_file', input: { source_path: 'notes.md', destination_path: 'script.sh', overwrite: true } },
  { operation: 'create_directory', input: { directory_name: 'x/y/z' } },
  { operation: 'delete_directory', input: { directory_path: 'src', recursive: true } },
  {
    operation: 'delete_directory',
    input: { directory_path: 'empty' },
    setup: (f) => fs.mkdirSync(path.join(f.base, 'empty'), { mode: 0o700 }),
  },
  { operation: 'copy_directory', input: { source_path: 'src', destination_path: 'src-copy' } },
  { operation: 'copy_directory', input: { source_path: 'src', destination_path: 'docs', overwrite: true } },
  { operation: 'move_directory', input: { source_path: 'src', destination_path: 'lib/src' } },
  { operation: 'move_directory', input: { source_path: 'src', destination_path: 'docs', overwrite: true } },
  {
    operation: 'move_directory',
    input: { source_path: 'src', destination_path: 'elsewhere' },
    // A link inside a moved tree cannot be recreated from content, but the move is undone as a move back.
    setup: (f) => fs.symlinkSync('a.ts', path.join(f.base, 'src', 'link-to-a')),
  },
  { operation: 'create_file', input: { path: 'fresh/new.md', content: 'new\n' } },
  { operation: 'edit_file', input: { path: 'src/a.ts', old_string: '= 1', new_string: '= 42' } },
  { operation: 'replace_lines', input: { path: 'src/deep/b.ts', start_line: 1, end_line: 1, content: 'export const b = 3;\n' } },
  { operation: 'insert_lines', input: { path: 'notes.md', position: 'end', content: 'appended\n' } },
  { operation: 'delete_lines', input: { path: 'notes.md', start_line: 1, end_line: 1 } },
  {
    operation: 'edit_symbol',
    input: { path: 'src/service.py', symbol: 'Service/run', action: 'replace', text: '    def run(self):\n        return 2\n' },
    setup: (f) =>
      fs.writeFileSync(
        path.join(f.base, 'src', 'service.py'),
        'class Service:\r\n    @cached\r\n    def run(self):\r\n        return 1\r\n',
      ),
  },
  { operation: 'apply_patch', input: { patch: PATCH } },
  { operation: 'apply_patch', input: { patch: V4A_PATCH } },
  { operation: 'replace_in_files', input: { query: 'export const ([a-z]) =', replacement: 'export let $1 =', is_regex: true } },
  {
    operation: 'edit_notebook',
    input: {
      path: 'nb.ipynb',
      edits: [
        { action: 'insert', source: 'print(2)' },
        { action: 'delete', cell: 0 },
      ],
    },
    setup: (f) =>
      fs.writeFileSync(
        path.join(f.base, 'nb.ipynb'),
        `${JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source: ['# One'] }], metadata: {}, nbformat: 4, nbformat_minor: 4 }, null, 1)}\n`,
      ),
  },
  { operation: 'edit_notebook', input: { path: 'made/new.ipynb', edits: [{ action: 'insert', kind: 'markdown', source: '# New' }] } },
];

describe('history and undo', () => {
  let f: Fixture;
  beforeEach(() => {
    f = fixture();
    seed(f);
  });
  afterEach(() => f.cleanup());

  describe('every mutating operation: do, then undo, gives back the identical tree', () => {
    for (const each of CASES) {
      it(`${each.operation} ${JSON.stringify(each.input).slice(0, 90)}`, async function () {
        assert.ok(findTool(each.operation), `${each.operation}: this list names a tool the code does not define`);
        each.setup?.(f);
        const before = f.tree();
        const data = expectOk(await f.run(each.operation, each.input), each.operation);
        assert.equal(typeof data.operation_id, 'string', 'the result names its operation');
        assert.equal(data.undo_available, true);
        assert.notDeepEqual(f.tree(), before, 'the operation changed the tree');
        const changed = f.tree();

        const undo = expectOk(await f.run('undo_operation', { operation_id: data.operation_id }), 'undo_operation');
        assert.equal(undo.undone_operation_id, data.operation_id);
        assert.equal(typeof undo.operation_id, 'string');
        assert.deepEqual(f.tree(), before);

        // The undo is recorded too: undoing it redoes the operation.
        expectOk(await f.run('undo_operation', { operation_id: undo.operation_id }), 'undo_operation');
        assert.deepEqual(f.tree(), changed);
      });
    }
  });

  it('has a do/undo case for every mutating tool', () => {
    const covered = new Set(CASES.map((each) => each.operation));
    const missing = TOOL_DEFINITIONS.filter(
      (tool) => tool.effect !== 'read' && !tool.name.startsWith('undo_') && !covered.has(tool.name),
    ).map((tool) => tool.name);
    assert.deepEqual(missing, [], 'add a case to CASES for each');
  });

  it('records a deleted symbolic link as not undoable, and says why', async () => {
    fs.symlinkSync('notes.md', path.join(f.base, 'link.md'));
    const deleted = expectOk(await f.run('delete_file', { file_name: 'link.md' }));
    assert.equal(deleted.undo_available, false);
    const refused = expectError(await f.run('undo_operation', { operation_id: deleted.operation_id }), 'HISTORY_UNAVAILABLE');
    assert.match(refused.message, /symbolic link/);
  });

  it('fails closed: content it cannot read makes the call change nothing (HISTORY_WRITE_FAILED), and says how to go on', async () => {
    const real = new NodeFileSystem();
    const unreadable = path.join(f.base, 'src', 'deep', 'b.ts');
    // Root reads any file whatever its mode, so the refusal is injected at the port.
    const faulty: FileSystem = Object.assign(Object.create(real) as NodeFileSystem, {
      readFile: (file: string) =>
        file === unreadable ? Promise.reject(new FsError('permission', 'EACCES: permission denied')) : real.readFile(file),
    });
    const inner = createNodeSession(f.base, {}, { stateDirectory: f.state });
    const session: Session = {
      ...inner,
      policy: () => inner.policy(),
      workspace: async () => ({ ...(await inner.workspace()), fs: faulty }),
    };
    const tree = snapshot(f.base);
    const refused = expectError(
      await call(session, 'delete_directory', { directory_path: 'src', recursive: true }),
      'HISTORY_WRITE_FAILED',
    );
    assert.match(refused.message, /changed nothing.*permission denied.*agentFs\.history\.enabled/s);
    assertTree(snapshot(f.base), tree, 'nothing was deleted');
    assert.equal(expectOk(await f.run('history_list', {})).total, 0);
    // Without the history the same call runs: the person's way on.
    const plain = createNodeSession(f.base, {}, {});
    const deleted = expectOk(
      await call({ ...plain, workspace: async () => ({ ...(await plain.workspace()), fs: faulty }) }, 'delete_directory', {
        directory_path: 'src',
        recursive: true,
      }),
    );
    assert.equal(deleted.deleted, true);
    assert.equal(fs.existsSync(path.join(f.base, 'src')), false);
  });

  it('records nothing for a dry run, a failed call or a call that changed nothing', async () => {
    const dry = expectOk(await f.run('write_file', { file_name: 'notes.md', content: 'x', dry_run: true }));
    assert.equal(dry.operation_id, null);
    assert.equal(dry.undo_available, false);
    expectError(await f.run('delete_file', { file_name: 'missing.txt' }), 'FILE_NOT_FOUND');
    const same = expectOk(await f.run('create_directory', { directory_name: 'src' }));
    assert.equal(same.operation_id, null);
    const list = expectOk(await f.run('history_list', {}));
    assert.equal(list.total, 0);
    assert.deepEqual(fs.readdirSync(f.base).sort(), ['docs', 'notes.md', 'script.sh', 'src']);
  });

  it('refuses an undo with UNDO_CONFLICT when a path changed since, and changes nothing', async () => {
    const moved = expectOk(await f.run('move_file', { source_path: 'notes.md', destination_path: 'archive/notes.md' }));
    fs.appendFileSync(path.join(f.base, 'archive/notes.md'), 'edited by the person\n');
    const now = f.tree();
    const error = expectError(await f.run('undo_operation', { operation_id: moved.operation_id }), 'UNDO_CONFLICT');
    assert.match(error.message, /archive\/notes\.md/);
    assert.deepEqual(error.details?.paths, ['archive/notes.md']);
    assert.deepEqual(f.tree(), now);
    // A path the operation created and the person then removed conflicts as well.
    const written = expectOk(await f.run('write_file', { file_name: 'docs/new.md', content: 'n\n' }));
    fs.rmSync(path.join(f.base, 'docs/new.md'));
    const after = f.tree();
    expectError(await f.run('undo_operation', { operation_id: written.operation_id }), 'UNDO_CONFLICT');
    assert.deepEqual(f.tree(), after);
  });

  it('ignores a mode change since the operation: it loses no data', async () => {
    const before = f.tree();
    const written = expectOk(await f.run('write_file', { file_name: 'script.sh', content: 'new\n' }));
    fs.chmodSync(path.join(f.base, 'script.sh'), 0o644);
    expectOk(await f.run('undo_operation', { operation_id: written.operation_id }));
    assert.deepEqual(f.tree(), before);
  });

  it('refuses to undo twice, and names the undo to undo instead', async () => {
    const written = expectOk(await f.run('write_file', { file_name: 'notes.md', content: 'v2\n' }));
    const undo = expectOk(await f.run('undo_operation', { operation_id: written.operation_id }));
    const error = expectError(await f.run('undo_operation', { operation_id: written.operation_id }), 'UNDO_CONFLICT');
    assert.equal(error.details?.undone_by, undo.operation_id);
  });

  it('undo_last walks back one operation at a time, then says nothing is left', async () => {
    const before = f.tree();
    expectOk(await f.run('write_file', { file_name: 'notes.md', content: 'v2\n' }));
    expectOk(await f.run('write_file', { file_name: 'notes.md', content: 'v3\n' }));
    expectOk(await f.run('delete_directory', { directory_path: 'docs', recursive: true }));
    const first = expectOk(await f.run('undo_last', {}), 'undo_last');
    assert.equal(first.undone_operation, 'delete_directory');
    assert.ok(fs.existsSync(path.join(f.base, 'docs/guide.md')));
    expectOk(await f.run('undo_last', {}));
    assert.equal(fs.readFileSync(path.join(f.base, 'notes.md'), 'utf8'), 'v2\n');
    expectOk(await f.run('undo_last', {}));
    assert.deepEqual(f.tree(), before);
    expectError(await f.run('undo_last', {}), 'OPERATION_NOT_FOUND');
  });

  it('survives a restart of the store', async () => {
    const before = f.tree();
    const written = expectOk(await f.run('write_file', { file_name: 'notes.md', content: 'after restart\n' }));
    f.restart();
    const list = expectOk(await f.run('history_list', {}));
    assert.equal((list.operations as { operation_id: string }[])[0]?.operation_id, written.operation_id);
    expectOk(await f.run('undo_operation', { operation_id: written.operation_id }));
    assert.deepEqual(f.tree(), before);
    // The state lives outside the base directory: the pack holds both records.
    assert.ok(packOperations(readPack(f.state)).size >= 2);
    assert.deepEqual(fs.readdirSync(f.base).sort(), ['docs', 'notes.md', 'script.sh', 'src']);
  });

  it('prunes the oldest operations beyond maxOperations, with their content', async () => {
    f.restart({ maxOperations: 3 });
    const ids: string[] = [];
    for (let index = 1; index <= 5; index++) {
      ids.push(
        String(
          expectOk(await f.run('write_file', { file_name: 'notes.md', content: `version ${index} ${'x'.repeat(index * 100)}\n` }))
            .operation_id,
        ),
      );
    }
    const list = expectOk(await f.run('history_list', {}));
    assert.deepEqual(
      (list.operations as { operation_id: string }[]).map((each) => each.operation_id),
      ids.slice(2).reverse(),
    );
    expectError(await f.run('history_get', { operation_id: ids[0] }), 'OPERATION_NOT_FOUND');
    // Blobs: before and after content of the three kept writes (version 2..5), nothing older: the pack drops the
    // pruned records (a D entry), and the bytes only they held count no more (compaction reclaims them).
    const pack = readPack(f.state);
    assert.deepEqual([...packOperations(pack).keys()], ids.slice(2));
    assert.equal(liveBlobs(pack).size, 4);
    assert.deepEqual(
      pack.entries
        .filter((entry) => entry.kind === 'D')
        .flatMap((entry) => (JSON.parse(entry.payload.toString()) as { drop: string[] }).drop),
      ids.slice(0, 2),
    );
    const info = expectOk(await f.run('workspace_info', {})).history as { bytes: number; operations: number };
    assert.deepEqual(
      { operations: info.operations, bytes: info.bytes },
      { operations: 3, bytes: [...liveBlobs(pack).values()].reduce((sum, blob) => sum + blob.size, 0) },
    );
  });

  it('prunes by bytes, and records an operation over maxBytes without content (undo_available false)', async () => {
    f.restart({ maxBytes: 4000 });
    f.write({ 'big.txt': 'b'.repeat(5000) });
    const big = expectOk(await f.run('delete_file', { file_name: 'big.txt' }));
    assert.equal(big.undo_available, false);
    const got = expectOk(await f.run('history_get', { operation_id: big.operation_id }));
    assert.match(String(got.unavailable_reason), /agentFs\.history\.maxBytes/);
    expectError(await f.run('undo_operation', { operation_id: big.operation_id }), 'HISTORY_UNAVAILABLE');

    const small = expectOk(await f.run('write_file', { file_name: 'notes.md', content: 'n'.repeat(1500) }));
    expectOk(await f.run('write_file', { file_name: 'docs/guide.md', content: 'g'.repeat(1500) }));
    expectOk(await f.run('write_file', { file_name: 'docs/readme.txt', content: 'r'.repeat(1500) }));
    const ids = (expectOk(await f.run('history_list', {})).operations as { operation_id: string }[]).map((each) => each.operation_id);
    assert.ok(!ids.includes(String(small.operation_id)), 'the oldest write was pruned to keep the bytes under the cap');
    const total = [...liveBlobs(readPack(f.state)).values()].reduce((sum, blob) => sum + blob.size, 0);
    assert.ok(total <= 4000, `stored ${total} bytes`);

    // undo_last passes over what it cannot undo and says so.
    const last = expectOk(await f.run('undo_last', {}));
    assert.equal(last.undone_operation, 'write_file');
  });

  it('undo_last reports operations over the cap it passed over', async () => {
    f.restart({ maxBytes: 100 });
    expectOk(await f.run('write_file', { file_name: 'notes.md', content: 'short\n' }));
    f.write({ 'big.txt': 'b'.repeat(500) });
    const big = expectOk(await f.run('delete_file', { file_name: 'big.txt' }));
    const last = expectOk(await f.run('undo_last', {}));
    assert.deepEqual(
      (last.history_skipped as { operation_id: string }[]).map((each) => each.operation_id),
      [big.operation_id],
    );
    assert.equal(fs.readFileSync(path.join(f.base, 'notes.md'), 'utf8'), '# Notes\nfirst\n');
    expectError(await f.run('undo_last', {}), 'HISTORY_UNAVAILABLE');
  });

  it('history_get shows a unified diff per text file and is_binary for binary content', async () => {
    const written = expectOk(await f.run('write_file', { file_name: 'src/a.ts', content: 'export const a = 2;\n' }));
    const got = expectOk(await f.run('history_get', { operation_id: written.operation_id }), 'history_get');
    const [change] = got.changes as { path: string; change: string; diff: string }[];
    assert.equal(change?.path, 'src/a.ts');
    assert.equal(change?.change, 'modified');
    assert.equal(change?.diff, '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,1 +1,1 @@\n-export const a = 1;\n+export const a = 2;\n');
    assert.deepEqual(got.input, { file_name: 'src/a.ts', content: '[20 characters]', dry_run: false });

    const deleted = expectOk(await f.run('delete_directory', { directory_path: 'src', recursive: true }));
    const tree = expectOk(await f.run('history_get', { operation_id: deleted.operation_id }));
    const changes = tree.changes as { path: string; change: string; is_binary: boolean; diff?: string }[];
    assert.deepEqual(
      changes.map((each) => `${each.change} ${each.path}`),
      ['deleted src/a.ts', 'deleted src/deep/b.ts', 'deleted src/deep/blob.bin'],
    );
    assert.equal(changes[2]?.is_binary, true);
    assert.match(changes[1]?.diff ?? '', /^--- a\/src\/deep\/b\.ts\n\+\+\+ \/dev\/null\n/);
  });

  it('history_list filters by path, caps limit at 200 and answers OPERATION_NOT_FOUND for unknown ids', async () => {
    expectOk(await f.run('write_file', { file_name: 'src/a.ts', content: '1' }));
    expectOk(await f.run('write_file', { file_name: 'docs/guide.md', content: '2' }));
    expectOk(await f.run('delete_directory', { directory_path: 'src', recursive: true }));
    const bySrcFile = expectOk(await f.run('history_list', { path: 'src/a.ts' }));
    assert.deepEqual(
      (bySrcFile.operations as { operation: string }[]).map((each) => each.operation),
      ['delete_directory', 'write_file'],
    );
    const limited = expectOk(await f.run('history_list', { limit: 1 }));
    assert.equal(limited.count, 1);
    assert.equal(limited.total, 3);
    assert.equal(limited.truncated, true);
    expectError(await f.run('history_list', { limit: 201 }), 'LIMIT_EXCEEDED');
    expectError(await f.run('history_list', { path: '../outside' }), 'PATH_OUTSIDE_BASE');
    expectError(await f.run('history_get', { operation_id: 'nope-0000-0000' }), 'OPERATION_NOT_FOUND');
    // An id is only ever a name inside the store: anything else is simply not found.
    expectError(await f.run('history_get', { operation_id: '../../etc/passwd' }), 'OPERATION_NOT_FOUND');
  });

  it('answers HISTORY_UNAVAILABLE and records nothing where the session keeps no history', async () => {
    const session = createNodeSession(f.base);
    const written = expectOk(await call(session, 'write_file', { file_name: 'notes.md', content: 'x' }));
    assert.equal(written.operation_id, null);
    assert.equal(written.undo_available, false);
    expectError(await call(session, 'history_list', {}), 'HISTORY_UNAVAILABLE');
    expectError(await call(session, 'undo_last', {}), 'HISTORY_UNAVAILABLE');
  });

  it('undo is refused in read-only mode like every mutating call', async () => {
    const written = expectOk(await f.run('write_file', { file_name: 'notes.md', content: 'x' }));
    const readOnly = createNodeSession(f.base, { readOnly: true }, { stateDirectory: f.state });
    expectError(await call(readOnly, 'undo_operation', { operation_id: written.operation_id }), 'READ_ONLY_MODE');
    expectOk(await call(readOnly, 'history_list', {}));
  });

  it('serialises concurrent calls so each record describes its own change', async () => {
    const before = f.tree();
    const writes = await Promise.all(
      Array.from({ length: 8 }, (_, index) => f.run('write_file', { file_name: `many/${index}.txt`, content: `${index}\n` })),
    );
    for (const envelope of writes) expectOk(envelope);
    for (let index = 0; index < 8; index++) expectOk(await f.run('undo_last', {}));
    assert.deepEqual(f.tree(), before);
  });
});

describe('history through the runner: node dist/cli.js --state DIR', function () {
  const repo = path.join(__dirname, '..', '..', '..');
  const cli = path.join(repo, 'dist', 'cli.js');
  let f: Fixture;

  before(buildBundles);
  beforeEach(() => {
    f = fixture();
    seed(f);
  });
  afterEach(() => f.cleanup());

  function runner(...args: string[]): { code: number | null; envelope: Envelope | undefined; stderr: string } {
    const result = spawnSync(process.execPath, [cli, '--root', f.base, ...args], {
      encoding: 'utf8',
      env: { ...process.env, XDG_STATE_HOME: path.join(f.tmp, 'xdg') },
    });
    const line = result.stdout.trim();
    if (line !== '') checkEnvelope(JSON.parse(line));
    return { code: result.status, envelope: line === '' ? undefined : (JSON.parse(line) as Envelope), stderr: result.stderr };
  }

  it('records in one process and undoes in another', () => {
    const before = f.tree();
    const written = runner('--state', f.state, 'write_file', JSON.stringify({ file_name: 'notes.md', content: 'from the runner\n' }));
    assert.equal(written.code, 0);
    const id = expectOk(written.envelope as Envelope).operation_id;
    assert.equal(typeof id, 'string');
    const listed = expectOk(runner('--state', f.state, 'history_list', '{}').envelope as Envelope);
    assert.equal((listed.operations as { operation_id: string }[])[0]?.operation_id, id);
    assert.equal(runner('--state', f.state, 'undo_last', '{}').code, 0);
    assert.deepEqual(f.tree(), before);
  });

  it('defaults to a per-root folder under $XDG_STATE_HOME/agent-fs, and --no-history records nothing', () => {
    expectOk(runner('write_file', JSON.stringify({ file_name: 'notes.md', content: 'x' })).envelope as Envelope);
    const folders = fs.readdirSync(path.join(f.tmp, 'xdg', 'agent-fs', 'history'));
    assert.equal(folders.length, 1);
    assert.match(folders[0] ?? '', /^base-[0-9a-f]{16}$/);
    const off = expectOk(
      runner('--no-history', 'write_file', JSON.stringify({ file_name: 'notes.md', content: 'y' })).envelope as Envelope,
    );
    assert.equal(off.operation_id, null);
    expectError(runner('--no-history', 'history_list', '{}').envelope as Envelope, 'HISTORY_UNAVAILABLE');
  });

  it('refuses a state folder inside the root', () => {
    const inside = runner('--state', path.join(f.base, '.history'), 'write_file', JSON.stringify({ file_name: 'notes.md', content: 'x' }));
    assert.equal(inside.code, 2);
    assert.match(inside.stderr, /inside the root/);
    assert.equal(fs.readFileSync(path.join(f.base, 'notes.md'), 'utf8'), '# Notes\nfirst\n');
  });
  it('--history-max-age-days drops the sessions older than it, whole, and keeps the change being recorded', () => {
    const write = (name: string, ...flags: string[]): void => {
      const result = runner('--state', f.state, ...flags, 'write_file', JSON.stringify({ file_name: name, content: `${name}\n` }));
      assert.equal(result.code, 0, result.stderr);
    };
    write('a.md', '--session', 'a');
    write('b.md', '--session', 'b');
    const sessions = (flags: string[] = []): string[] =>
      (expectOk(runner('--state', f.state, ...flags, 'history_list', '{}').envelope as Envelope).operations as { session: string }[]).map(
        (entry) => entry.session,
      );
    assert.deepEqual(sessions(), ['runner:b', 'runner:a']);
    write('c.md', '--session', 'c', '--history-max-age-days', '0');
    assert.deepEqual(sessions(), ['runner:c']);
    const info = expectOk(runner('--state', f.state, '--history-max-age-days', '7', 'workspace_info', '{}').envelope as Envelope);
    assert.equal((info.history as { max_age_days: number }).max_age_days, 7);
    for (const name of ['a.md', 'b.md', 'c.md']) assert.equal(fs.readFileSync(path.join(f.base, name), 'utf8'), `${name}\n`);
    const bad = runner('--state', f.state, '--history-max-age-days', '-1', 'history_list', '{}');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--history-max-age-days needs a whole number of days/);
  });
});
