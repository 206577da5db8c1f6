/** read_many_files, file_info and workspace_info. */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WHOLE_READ_BYTES } from '../../../src/core/read/limits';
import { DEFAULT_POLICY } from '../../../src/core/settings';
import { createNodeSession } from '../../../src/node/host/session';
import { assertFields, assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from '../helpers';

describe('read_many_files', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'alpha\nbeta\ngamma\n', 'b.md': '# B\nbody\n', 'dir/c.txt': 'c1\nc2\n', '.env': 'KEY=1' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('reads each path on its own: one failure hides nothing else, and the disk is unchanged', async function () {
    const before = ws.snap();
    const data = expectOk(
      await call(ws.session, 'read_many_files', { paths: ['a.txt', 'missing.txt', 'dir', '../outside/secret.txt', '.env', 'b.md'] }),
      'read_many_files',
    );
    assertFields(data, { count: 6, succeeded: 2, failed: 4 });
    const files = data.files as { path: string; ok: boolean; data?: Record<string, unknown>; error?: { code: string } }[];
    assert.deepEqual(
      files.map((file) => [file.path, file.ok, file.ok ? file.data?.content : file.error?.code]),
      [
        ['a.txt', true, 'alpha\nbeta\ngamma\n'],
        ['missing.txt', false, 'FILE_NOT_FOUND'],
        ['dir', false, 'FILE_NOT_FILE'],
        ['../outside/secret.txt', false, 'FILE_PATH_OUTSIDE_BASE'],
        ['.env', false, 'SENSITIVE_PATH_REFUSED'],
        ['b.md', true, '# B\nbody\n'],
      ],
    );
    assertFields(files[0]?.data ?? {}, {
      relative_path: 'a.txt',
      total_lines: 3,
      content_hash: `sha256:${createHash('sha256').update('alpha\nbeta\ngamma\n').digest('hex')}`,
    });
    assertTree(ws.snap(), before);
  });

  it('applies the line options to every file', async function () {
    const data = expectOk(await call(ws.session, 'read_many_files', { paths: ['a.txt', 'dir/c.txt'], start_line: 2, end_line: 2 }));
    const files = data.files as { data: { content: string } }[];
    assert.deepEqual(
      files.map((file) => file.data.content),
      ['beta\n', 'c2\n'],
    );
    const tails = expectOk(await call(ws.session, 'read_many_files', { paths: ['a.txt', 'b.md'], tail_lines: 1 }));
    assert.deepEqual(
      (tails.files as { data: { content: string } }[]).map((file) => file.data.content),
      ['gamma\n', 'body\n'],
    );
  });

  it("refuses more than 32 paths, and max_bytes above each file's share of agentFs.maxReadBytes", async function () {
    const paths = Array.from({ length: 33 }, () => 'a.txt');
    const error = expectError(await call(ws.session, 'read_many_files', { paths }), 'LIMIT_EXCEEDED');
    assert.deepEqual(error.details, { field: 'paths', cap: 32 });
    expectOk(await call(ws.session, 'read_many_files', { paths: paths.slice(0, 32) }));
    const share = Math.floor(DEFAULT_POLICY.maxReadBytes / 2);
    expectError(await call(ws.session, 'read_many_files', { paths: ['a.txt', 'b.md'], max_bytes: share + 1 }), 'LIMIT_EXCEEDED');
    assertFields(expectOk(await call(ws.session, 'read_many_files', { paths: ['a.txt', 'b.md'], max_bytes: share })), {
      max_bytes_per_file: share,
    });
    expectError(await call(ws.session, 'read_many_files', { paths: [] }), 'INVALID_INPUT');
  });

  it('gives a field once in shared when every file read has the same value, and in each entry otherwise', async function () {
    ws.write({ 'crlf.txt': 'one\r\ntwo\r\n', 'bom.txt': '\uFEFFbom\n' });
    const same = expectOk(await call(ws.session, 'read_many_files', { paths: ['a.txt', 'missing.txt', 'dir/c.txt'] }));
    assert.deepEqual(same.shared, { encoding: 'utf-8', bom: false, newline: 'lf', truncation_reason: null });
    const [a, missing] = same.files as { ok: boolean; data?: Record<string, unknown>; error?: Record<string, unknown> }[];
    for (const field of ['encoding', 'bom', 'newline', 'truncation_reason']) assert.ok(!(field in (a?.data ?? {})), field);
    // What a model acts on per file stays in the entry.
    assertFields(a?.data ?? {}, { truncated: false, next_start_line: null, content: 'alpha\nbeta\ngamma\n' });
    assert.deepEqual(Object.keys(missing ?? {}), ['path', 'ok', 'error']);

    const mixed = expectOk(await call(ws.session, 'read_many_files', { paths: ['a.txt', 'crlf.txt', 'bom.txt'] }));
    assert.deepEqual(mixed.shared, { encoding: 'utf-8', truncation_reason: null });
    assert.deepEqual(
      (mixed.files as { data: Record<string, unknown> }[]).map((file) => [file.data.newline, file.data.bom]),
      [
        ['lf', false],
        ['crlf', false],
        ['lf', true],
      ],
    );
    // One file read: its entry is read_file's data whole.
    const one = expectOk(await call(ws.session, 'read_many_files', { paths: ['a.txt', 'missing.txt'] }));
    assert.deepEqual(one.shared, {});
    const single = expectOk(await call(ws.session, 'read_file', { file_name: 'a.txt' }));
    assert.deepEqual((one.files as { data: unknown }[])[0]?.data, single);
  });

  it('a default read of 32 files cut by the budget: under 330 bytes of fields per entry beside its content', async function () {
    const line = 'const value = compute(input);\n';
    const files: Record<string, string> = {};
    for (let index = 0; index < 32; index++) files[`src/module-${index}.ts`] = line.repeat(100);
    ws.write(files);
    const envelope = await call(ws.session, 'read_many_files', { paths: Object.keys(files) });
    const data = expectOk(envelope);
    assert.deepEqual(data.shared, { encoding: 'utf-8', bom: false, newline: 'lf', truncation_reason: 'max_bytes' });
    const entries = data.files as { data: { content: string; truncated: boolean } }[];
    for (const entry of entries) assert.equal(entry.data.truncated, true);
    const content = entries.reduce((sum, entry) => sum + Buffer.byteLength(JSON.stringify(entry.data.content)), 0);
    const perEntry = (Buffer.byteLength(JSON.stringify(envelope)) - content) / 32;
    assert.ok(perEntry < 330, `${perEntry} bytes of fields per entry`);
  });

  it('shares the byte budget: by default each file gets an equal part and is cut honestly', async function () {
    const small = tempWorkspace({ maxReadBytes: 20 });
    try {
      small.write({ 'one.txt': 'aaaa\nbbbb\ncccc\n', 'two.txt': '1\n2\n' });
      const data = expectOk(await call(small.session, 'read_many_files', { paths: ['one.txt', 'two.txt'] }));
      assertFields(data, { max_bytes_per_file: 10 });
      const [one, two] = data.files as { data: Record<string, unknown> }[];
      assertFields(one?.data ?? {}, { content: 'aaaa\nbbbb\n', truncated: true, next_start_line: 3 });
      assertFields(two?.data ?? {}, { content: '1\n2\n', truncated: false });
    } finally {
      small.cleanup();
    }
  });
});

describe('file_info', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('reports metadata and text facts of a file, and changes nothing', async function () {
    const bytes = Buffer.from('\uFEFFone\r\ntwo\r\n', 'utf8');
    ws.write({ 'docs/Notes.MD': bytes });
    const before = ws.snap();
    const data = expectOk(await call(ws.session, 'file_info', { path: 'docs/Notes.MD' }), 'file_info');
    const stat = fs.statSync(path.join(ws.base, 'docs/Notes.MD'));
    assertFields(data, {
      name: 'Notes.MD',
      relative_path: 'docs/Notes.MD',
      type: 'file',
      is_symlink: false,
      size_bytes: bytes.length,
      size_human: `${bytes.length} B`,
      modified: stat.mtime.toISOString(),
      extension: '.MD',
      readonly: false,
      is_text: true,
      content_hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      encoding: 'utf-8',
      bom: true,
      newline: 'crlf',
      line_count: 2,
    });
    assert.match(String(data.created), /^\d{4}-\d\d-\d\dT/);
    assertTree(ws.snap(), before);
  });

  it('describes directories, binary files, a Western one-byte file (guessed, as read_file reads it) and links inside the base', async function () {
    ws.write({ 'dir/x.txt': 'x', 'bin.dat': Buffer.from([1, 0, 2]), 'latin.txt': Buffer.from([0x63, 0xe9, 0x0a]) });
    fs.symlinkSync('dir/x.txt', path.join(ws.base, 'link.txt'));
    assertFields(expectOk(await call(ws.session, 'file_info', { path: 'dir' })), { type: 'directory', extension: '' });
    assert.equal('content_hash' in expectOk(await call(ws.session, 'file_info', { path: 'dir' })), false);
    assertFields(expectOk(await call(ws.session, 'file_info', { path: 'bin.dat' })), { is_text: false, encoding: null, line_count: null });
    assertFields(expectOk(await call(ws.session, 'file_info', { path: 'latin.txt' })), {
      is_text: true,
      encoding: 'windows1252',
      line_count: 1,
    });
    assertFields(expectOk(await call(ws.session, 'read_file', { file_name: 'latin.txt' })), { content: 'cé\n', encoding: 'windows1252' });
    assertFields(expectOk(await call(ws.session, 'file_info', { path: 'link.txt' })), { type: 'file', is_symlink: true, size_bytes: 1 });
  });

  it('does not read a file above 10 MiB whole: no hash, no line count, and a note', async function () {
    const handle = fs.openSync(path.join(ws.base, 'big.txt'), 'w');
    fs.writeSync(handle, 'hello\n');
    fs.ftruncateSync(handle, WHOLE_READ_BYTES + 1);
    fs.closeSync(handle);
    // The sparse tail is NUL bytes, but only the first MiB is judged.
    const data = expectOk(await call(ws.session, 'file_info', { path: 'big.txt' }));
    assertFields(data, { content_hash: null, line_count: null, size_bytes: WHOLE_READ_BYTES + 1 });
  });

  it('answers FILE_NOT_FOUND, PATH_OUTSIDE_BASE and SENSITIVE_PATH_REFUSED', async function () {
    ws.write({ id_rsa: 'key' });
    expectError(await call(ws.session, 'file_info', { path: 'nope' }), 'FILE_NOT_FOUND');
    expectError(await call(ws.session, 'file_info', { path: '/etc/passwd' }), 'PATH_OUTSIDE_BASE');
    expectError(await call(ws.session, 'file_info', { path: 'id_rsa' }), 'SENSITIVE_PATH_REFUSED');
  });
});

describe('workspace_info', function () {
  it('reports the base directory, folders, state, limits and engine', async function () {
    const ws = tempWorkspace({ readOnly: true, exclude: ['dist'], maxReadBytes: 4096 });
    try {
      const data = expectOk(await call(ws.session, 'workspace_info', {}), 'workspace_info');
      assertFields(data, {
        base_directory: ws.base,
        roots: [{ name: 'base', path: ws.base }],
        multi_root: false,
        read_only: true,
        trusted: true,
        exclude: ['dist'],
        ranged_reads: true,
        host: 'runner',
        read_images: true,
        problems_after_edits: false,
        extension_version: (JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { version: string })
          .version,
      });
      assertFields(data.limits as Record<string, unknown>, {
        max_read_bytes: 4096,
        read_many_files_max_paths: 32,
        list_directory_max_entries: 1000,
        search_content_max_results: 200,
      });
      const scanOnly = expectOk(await call(createNodeSession(ws.base, {}, { ripgrep: false }), 'workspace_info', {}));
      assert.equal(scanOnly.content_search_engine, 'scan');
      expectError(await call(ws.session, 'workspace_info', { extra: 1 }), 'INVALID_INPUT');
    } finally {
      ws.cleanup();
    }
  });
});
