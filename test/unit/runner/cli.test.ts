/**
 * The headless runner, spawned as scripts use it: `node dist/cli.js [--root DIR] <operation> ['<json>' | -]`.
 * Exit codes 0 (ok), 1 (ok:false), 2 (usage); `-` reads stdin; `--list`; large replies reach a pipe whole.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Envelope } from '../../../src/core/envelope';
import { assertFields, assertTree, expectError, expectOk, makeTempDir, removeTree, tempWorkspace, type TempWorkspace } from '../helpers';
import { FIXTURES, IMAGES } from '../imageFixtures';
import { makeDocx, makePdf, word } from '../../shared/documents';
import { checkEnvelope } from '../../shared/results';
import { buildBundles } from '../bundles';
import { jupyterVerdicts, notebookStyles, sampleNotebook, writeNotebook } from '../../shared/notebooks';

const REPO = path.join(__dirname, '..', '..', '..', '..');
const CLI = path.join(REPO, 'dist', 'cli.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe('runner: node dist/cli.js', function () {
  let ws: TempWorkspace;
  let state = '';

  before(function () {
    buildBundles();
    state = makeTempDir('agentfs-cli-state-');
  });
  after(function () {
    removeTree(state);
  });
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({ 'a.txt': 'alpha', 'dir/b.txt': 'beta' });
  });
  afterEach(function () {
    ws.cleanup();
  });

  /** Runs the CLI with stdout and stderr as pipes; `stdin` is written and closed when given. */
  function run(args: readonly string[], options: { stdin?: string | Buffer; cwd?: string } = {}): Promise<Run> {
    return new Promise((resolve, reject) => {
      // History goes to a temp state directory, never the user's own.
      const child = spawn(process.execPath, [CLI, ...args], {
        cwd: options.cwd ?? ws.base,
        env: { ...process.env, XDG_STATE_HOME: state },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', reject);
      child.on('close', (code) =>
        resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
      );
      if (options.stdin !== undefined) child.stdin.end(options.stdin);
      else child.stdin.end();
    });
  }

  /** stdout must be exactly one JSON envelope on one line. */
  function envelopeOf(result: Run): Envelope {
    assert.ok(result.stdout.endsWith('\n'), `stdout does not end with a newline: ${result.stdout.slice(-200)}`);
    assert.equal(result.stdout.trimEnd().split('\n').length, 1, 'more than one line on stdout');
    const envelope = JSON.parse(result.stdout) as Envelope;
    checkEnvelope(envelope);
    return envelope;
  }

  it('exit 0 with the ok envelope; --root and the current directory as default root', async function () {
    const [explicit, byCwd] = await Promise.all([
      run(['--root', ws.base, 'read_file', '{"file_name":"dir/b.txt"}'], { cwd: ws.tmp }),
      run(['list_files']),
    ]);
    assert.equal(explicit.code, 0, explicit.stderr);
    assertFields(expectOk(envelopeOf(explicit), 'read_file'), { file_name: 'b.txt', relative_path: 'dir/b.txt', content: 'beta' });
    assert.equal(byCwd.code, 0, byCwd.stderr);
    assertFields(expectOk(envelopeOf(byCwd), 'list_files'), { count: 2, recursive: true, files: ['a.txt', 'dir/b.txt'] });
  });

  it('exit 1 with the refusal envelope (ok:false), nothing outside touched', async function () {
    const before = ws.snap();
    const [missing, escape, invalid] = await Promise.all([
      run(['read_file', '{"file_name":"nope.txt"}']),
      run(['write_file', '{"file_name":"../outside/secret.txt","content":"pwned"}']),
      run(['read_file', '{"file_name":42}']),
    ]);
    assert.equal(missing.code, 1);
    expectError(envelopeOf(missing), 'FILE_NOT_FOUND', 'read_file');
    assert.equal(escape.code, 1);
    expectError(envelopeOf(escape), 'FILE_PATH_OUTSIDE_BASE', 'write_file');
    assert.equal(invalid.code, 1);
    expectError(envelopeOf(invalid), 'INVALID_INPUT', 'read_file');
    assertTree(ws.snap(), before);
  });

  it('--root given twice serves both roots as a multi-root workspace; nothing outside them is reached', async function () {
    const second = path.join(ws.tmp, 'second');
    fs.mkdirSync(second);
    fs.writeFileSync(path.join(second, 'c.txt'), 'gamma');
    const roots = ['--root', ws.base, '--root', second];
    const before = ws.snap();
    const [inSecond, inFirst, escape] = await Promise.all([
      run([...roots, 'read_file', '{"file_name":"second/c.txt"}']),
      run([...roots, 'read_file', '{"file_name":"a.txt"}']),
      run([...roots, 'write_file', JSON.stringify({ file_name: path.join(ws.outside, 'x.txt'), content: 'x' })]),
    ]);
    assert.equal(inSecond.code, 0, inSecond.stderr);
    assertFields(expectOk(envelopeOf(inSecond), 'read_file'), { content: 'gamma', relative_path: 'second/c.txt' });
    assert.equal(inFirst.code, 0, inFirst.stderr);
    assertFields(expectOk(envelopeOf(inFirst), 'read_file'), { content: 'alpha', relative_path: 'base/a.txt' });
    assert.equal(escape.code, 1);
    expectError(envelopeOf(escape), 'FILE_PATH_OUTSIDE_BASE', 'write_file');
    assertTree(ws.snap(), before);
  });

  it('--read-only refuses changes with READ_ONLY_MODE (exit 1); a missing root is DIR_NOT_AVAILABLE', async function () {
    const [readOnly, gone] = await Promise.all([
      run(['--read-only', 'delete_file', '{"file_name":"a.txt"}']),
      run(['--root', path.join(ws.tmp, 'gone'), 'list_files', '{}']),
    ]);
    assert.equal(readOnly.code, 1);
    expectError(envelopeOf(readOnly), 'READ_ONLY_MODE');
    assert.equal(ws.read('a.txt'), 'alpha');
    assert.equal(gone.code, 1);
    expectError(envelopeOf(gone), 'DIR_NOT_AVAILABLE');
  });

  it('an unknown operation prints an INVALID_INPUT envelope naming it and exits 2', async function () {
    const result = await run(['format_disk', '{}']);
    assert.equal(result.code, 2);
    const envelope = envelopeOf(result);
    expectError(envelope, 'INVALID_INPUT');
    assert.equal(envelope.operation, 'format_disk');
  });

  it('unparsable JSON prints an INVALID_INPUT envelope and exits 2, also from stdin; nothing changes', async function () {
    const before = ws.snap();
    const cases = [
      [['write_file', '{"file_name": "a.txt", content: }'], undefined],
      [['write_file', '-'], '{"file_name": "a.txt",'],
    ] as const;
    const results = await Promise.all(cases.map(([args, stdin]) => run(args, { stdin })));
    for (const result of results) {
      assert.equal(result.code, 2, result.stdout);
      expectError(envelopeOf(result), 'INVALID_INPUT', 'write_file');
    }
    assertTree(ws.snap(), before);
  });

  it('usage errors exit 2: no operation, an unknown option, too many arguments', async function () {
    const results = await Promise.all([[], ['--bogus', 'list_files'], ['read_file', '{}', 'extra']].map((args) => run(args)));
    for (const result of results) {
      assert.equal(result.code, 2, result.stdout);
      assert.match(result.stderr, /Usage: agent-fs/);
    }
  });

  it('`-` reads the input from stdin: a 5 MB write_file arrives byte for byte', async function () {
    const content = 'ünïcödé line ✓\n'.repeat(Math.ceil((5 * 1024 * 1024) / 18));
    const result = await run(['write_file', '-'], { stdin: JSON.stringify({ file_name: 'big/five.txt', content }) });
    assert.equal(result.code, 0, result.stdout.slice(0, 500) + result.stderr);
    assertFields(expectOk(envelopeOf(result), 'write_file'), {
      file_name: 'five.txt',
      relative_path: 'big/five.txt',
      created: true,
      updated: false,
    });
    assert.ok(Buffer.byteLength(content) > 5 * 1024 * 1024);
    assert.ok(fs.readFileSync(path.join(ws.base, 'big', 'five.txt')).equals(Buffer.from(content, 'utf8')));
  });

  it('a large read_file reply reaches a pipe whole', async function () {
    const content = `${'0123456789abcdef'.repeat(1024 * 128)}END`; // 2 MiB (a pipe buffer is 64 KiB) and a marker
    fs.writeFileSync(path.join(ws.base, 'large.txt'), content);
    const result = await run(['read_file', '{"file_name":"large.txt"}']);
    assert.equal(result.code, 0, result.stderr);
    const data = expectOk(envelopeOf(result), 'read_file');
    assert.equal(typeof data.content, 'string');
    // Either the whole file, or (if the code bounds reads) an honest truncation; never a cut-off JSON document.
    if (data.truncated === true) assert.ok(content.startsWith(data.content as string));
    else assert.equal(data.content, content);
  });

  it('read_file of an image prints its bytes as base64 in the data, beside its MIME type and pixel size', async function () {
    for (const { file, mimeType, width, height } of FIXTURES) {
      ws.write({ [`img/${file}`]: fs.readFileSync(path.join(IMAGES, file)) });
      const result = await run(['read_file', JSON.stringify({ file_name: `img/${file}` })]);
      assert.equal(result.code, 0, result.stderr);
      const data = expectOk(envelopeOf(result), 'read_file');
      assertFields(data, { relative_path: `img/${file}`, mime_type: mimeType, width, height });
      assert.deepEqual(Buffer.from(String(data.base64), 'base64'), fs.readFileSync(path.join(IMAGES, file)), file);
    }
  });

  it('reads and searches PDF and Word text from the bundle, where pdf.js runs without a canvas, printing nothing else', async function () {
    ws.write({
      'doc/two.pdf': makePdf([['Hello world'], ['Γειά σου κόσμε']]),
      'doc/locked.pdf': makePdf([['secret']], { encrypted: true }),
      'doc/notes.docx': await makeDocx(word.paragraph('Notes', 'Heading1') + word.item('world peace', 1)),
    });
    const [read, locked, docx, found] = await Promise.all([
      run(['read_file', '{"file_name":"doc/two.pdf","pages":"2"}']),
      run(['read_file', '{"file_name":"doc/locked.pdf"}']),
      run(['read_file', '{"file_name":"doc/notes.docx"}']),
      run(['search_content', '{"query":"world","documents":true}']),
    ]);
    for (const result of [read, locked, docx, found]) assert.equal(result.stderr, '');
    assertFields(expectOk(envelopeOf(read), 'read_file'), { content: '--- page 2 ---\nΓειά σου κόσμε\n', total_pages: 2, next_page: null });
    assert.deepEqual(expectError(envelopeOf(locked), 'DOCUMENT_UNREADABLE').details, { reason: 'encrypted' });
    assertFields(expectOk(envelopeOf(docx), 'read_file'), { content: '# Notes\n- world peace\n', total_lines: 2 });
    const matches = expectOk(envelopeOf(found), 'search_content').matches as { path: string; page?: number; line: number }[];
    assert.deepEqual(
      matches.map(({ path: where, page, line }) => ({ where, page, line })),
      [
        { where: 'doc/notes.docx', page: undefined, line: 2 },
        { where: 'doc/two.pdf', page: 1, line: 1 },
      ],
    );
  });

  it('a large list_files reply reaches a pipe whole', async function () {
    const files: Record<string, string> = {};
    // About 250 KB of reply: well past a 64 KiB pipe buffer.
    for (let index = 0; index < 1500; index++) files[`many/${'long-name-'.repeat(15)}${String(index).padStart(5, '0')}.txt`] = '';
    ws.write(files);
    const result = await run(['list_files', '{"max_results":5000}']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stdout.length > 200_000);
    assertFields(expectOk(envelopeOf(result)), { count: 1502 });
  });

  it('--list prints every operation with its input schema, taken from package.json', async function () {
    const result = await run(['--list']);
    assert.equal(result.code, 0, result.stderr);
    const listed = JSON.parse(result.stdout) as { operation: string; input_schema: unknown }[];
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      contributes: { languageModelTools: { name: string; inputSchema: unknown }[] };
    };
    const expected = manifest.contributes.languageModelTools.map((tool) => ({
      operation: tool.name.replace(/^agentfs_/, ''),
      input_schema: tool.inputSchema,
    }));
    assert.deepEqual(
      listed.map((entry) => ({ operation: entry.operation, input_schema: entry.input_schema })),
      expected,
    );
    for (const operation of ['read_file', 'write_file', 'find_file', 'path_exists'])
      assert.ok(
        listed.some((entry) => entry.operation === operation),
        operation,
      );
  });

  it('--version prints the package version; --help lists every operation on one line each', async function () {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      version: string;
      bin: Record<string, string>;
      contributes: { languageModelTools: { name: string }[] };
    };
    assert.equal(manifest.bin['agent-fs'], 'dist/cli.js');
    assert.ok(fs.readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node'));
    const [version, help] = await Promise.all([run(['--version']), run(['--help'])]);
    assert.equal(version.code, 0);
    assert.equal(version.stdout, `agent-fs ${manifest.version}\n`);
    assert.equal(help.code, 0, help.stderr);
    const operations = manifest.contributes.languageModelTools.map((tool) => tool.name.replace(/^agentfs_/, ''));
    for (const operation of operations) {
      const lines = help.stdout.split('\n').filter((line) => line.trimStart().startsWith(`${operation} `));
      assert.equal(lines.length, 1, `${operation} is not on exactly one line of --help`);
    }
    assert.match(help.stdout, /asks no confirmation/);
    assert.match(help.stdout, /--read-only/);
  });

  it("<operation> --help prints that operation's parameters from its schema; an unknown one exits 2", async function () {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      contributes: {
        languageModelTools: { name: string; inputSchema: { properties?: Record<string, { description?: string }>; required?: string[] } }[];
      };
    };
    for (const tool of manifest.contributes.languageModelTools) {
      const operation = tool.name.replace(/^agentfs_/, '');
      const result = await run([operation, '--help']);
      assert.equal(result.code, 0, `${operation}: ${result.stderr}`);
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        const line = result.stdout.split('\n').find((each) => each.trimStart().startsWith(`${name} `));
        assert.ok(line, `${operation} --help does not list ${name}`);
        assert.match(line, (tool.inputSchema.required ?? []).includes(name) ? /required/ : /optional/);
        assert.ok(
          schema.description === undefined || result.stdout.includes(schema.description),
          `${operation}.${name}: description missing`,
        );
      }
    }
    const unknown = await run(['format_disk', '--help']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown operation "format_disk"/);
  });

  it("refusals name the runner's flags, not editor settings; --max-read-bytes sets the read cap", async function () {
    ws.write({ '.env': 'SECRET=1\n' });
    const [secret, readOnly, cap, tooSmall] = await Promise.all([
      run(['write_file', '{"file_name":".env","content":"x"}']),
      run(['--read-only', 'write_file', '{"file_name":"a.txt","content":"x"}']),
      run(['--max-read-bytes', '2048', 'read_file', '{"file_name":"a.txt","max_bytes":4096}']),
      run(['--max-read-bytes=10', 'read_file', '{"file_name":"a.txt"}']),
    ]);
    const protectedMessage = expectError(envelopeOf(secret), 'SENSITIVE_PATH_REFUSED', 'write_file').message;
    assert.match(protectedMessage, /runner/);
    assert.doesNotMatch(protectedMessage, /user settings/);
    assert.equal(fs.readFileSync(path.join(ws.base, '.env'), 'utf8'), 'SECRET=1\n');
    assert.match(expectError(envelopeOf(readOnly), 'READ_ONLY_MODE').message, /--read-only/);
    assert.equal(ws.read('a.txt'), 'alpha');
    const capError = expectError(envelopeOf(cap), 'LIMIT_EXCEEDED');
    assert.match(capError.message, /cap of 2048 bytes \(the runner's --max-read-bytes\)/);
    assert.equal(tooSmall.code, 2);
    assert.match(tooSmall.stderr, /--max-read-bytes needs/);
  });

  it('applies a V4A patch from stdin (a move with an edit, a CRLF file kept CRLF) and undoes it in one step', async function () {
    ws.write({ 'win.txt': 'one\r\ntwo\r\n' });
    const before = ws.snap();
    const patch = [
      '*** Begin Patch',
      '*** Update File: win.txt',
      '*** Move to: dir/moved.txt',
      '@@',
      ' one',
      '-two',
      '+TWO',
      '*** Update File: a.txt',
      '-alpha',
      '+ALPHA',
      '*** End Patch',
      '',
    ].join('\n');
    const result = await run(['apply_patch', '-'], { stdin: JSON.stringify({ patch }) });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const data = expectOk(envelopeOf(result), 'apply_patch');
    assert.deepEqual(
      (data.files as { path: string; action: string; moved_to?: string }[]).map((file) => [file.path, file.action, file.moved_to]),
      [
        ['win.txt', 'move', 'dir/moved.txt'],
        ['a.txt', 'modify', undefined],
      ],
    );
    assert.deepEqual(fs.readFileSync(path.join(ws.base, 'dir', 'moved.txt')), Buffer.from('one\r\nTWO\r\n'));
    assert.equal(ws.exists('win.txt'), false);
    // a.txt had no final newline, and has none now.
    assert.equal(ws.read('a.txt'), 'ALPHA');
    expectOk(envelopeOf(await run(['undo_last'])), 'undo_last');
    assertTree(ws.snap(), before);
  });

  it('edits a notebook from stdin and undoes it across runs, every byte back', async function () {
    const style = notebookStyles().find((each) => each.minor === 5 && each.crlf) ?? assert.fail('a style');
    const original = writeNotebook(sampleNotebook(style), style);
    ws.write({ 'nb.ipynb': original });
    const input = JSON.stringify({ path: 'nb.ipynb', edits: [{ action: 'move', cell: 'raw1', to: 0 }, { action: 'clear_outputs' }] });
    const edited = expectOk(envelopeOf(await run(['edit_notebook', '-'], { stdin: input })), 'edit_notebook');
    assert.deepEqual(edited.edits, [
      { action: 'move', index: 0, id: 'raw1' },
      { action: 'clear_outputs', index: null, id: null },
    ]);
    assert.deepEqual(jupyterVerdicts([path.join(ws.base, 'nb.ipynb')]), [undefined]);
    expectOk(envelopeOf(await run(['undo_last'])), 'undo_last');
    assert.deepEqual(fs.readFileSync(path.join(ws.base, 'nb.ipynb')), original);
  });
});
