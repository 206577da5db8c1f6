/**
 * The bins' compile cache (src/node/bin/compileCache.ts), through copies of the built bins and bundle run as the
 * user runs them: where the cache is written and with which modes, that a good cache is used as it is, that a
 * damaged, foreign or unsafe one changes nothing a call answers, and that a PDF (pdf.js imported beside the bundle)
 * still reads from a cached bundle.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makePdf } from '../../shared/documents';
import { makeTempDir, removeTree } from '../helpers';
import { buildOnce } from '../mcp/serve';

const DIST = path.join(__dirname, '..', '..', '..', '..', 'dist');
const COPIED = ['cli.js', 'mcp.js', 'agent-fs.js', 'pdf.mjs', 'pdf.worker.mjs'];

describe('compile cache of the bins', function () {
  let tmp: string;
  let bins: string;
  let cacheHome: string;
  let folder: string;
  let workspace: string;

  before(buildOnce);
  beforeEach(() => {
    tmp = makeTempDir('agentfs-compile-cache-');
    bins = path.join(tmp, 'dist');
    fs.mkdirSync(bins);
    for (const name of COPIED) fs.copyFileSync(path.join(DIST, name), path.join(bins, name));
    cacheHome = path.join(tmp, 'cache');
    folder = path.join(cacheHome, 'agent-fs', 'compile-cache');
    workspace = path.join(tmp, 'workspace');
    fs.mkdirSync(workspace);
    fs.writeFileSync(path.join(workspace, 'note.txt'), 'alpha\nbeta\n');
    fs.writeFileSync(path.join(workspace, 'doc.pdf'), makePdf([['Hello from a cached bundle']]));
  });
  afterEach(() => removeTree(tmp));

  /** One runner call; returns its stdout after checking it exited 0 and wrote nothing to stderr. */
  function run(args: readonly string[], env: Readonly<Record<string, string>> = {}): string {
    const result = spawnSync(process.execPath, [path.join(bins, 'cli.js'), '--root', workspace, '--no-history', ...args], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: cacheHome, ...env },
    });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    return result.stdout;
  }

  /** One server session over stdio: initialize, the tool list, a read_file answered; then stdin closes and it exits. */
  function serve(): Promise<void> {
    const server = spawn(process.execPath, [path.join(bins, 'mcp.js'), '--root', workspace, '--no-history', '--no-index'], {
      env: { ...process.env, XDG_CACHE_HOME: cacheHome },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const send = (message: Record<string, unknown>): boolean => server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
    send({ id: 3, method: 'tools/call', params: { name: 'read_file', arguments: { file_name: 'note.txt' } } });
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('"id":3')) server.stdin.end();
    });
    return new Promise((resolve, reject) =>
      server.on('exit', (code) =>
        code === 0 && output.includes('alpha') ? resolve() : reject(new Error(`server exited ${code}: ${output}`)),
      ),
    );
  }

  const read = (file: string): unknown => (JSON.parse(run(['read_file', JSON.stringify({ file_name: file })])) as { data: unknown }).data;
  const caches = (): string[] => (fs.existsSync(folder) ? fs.readdirSync(folder).sort() : []);

  it('is written once, private to the user, and then used as it is', () => {
    const first = read('note.txt');
    assert.deepEqual(caches().length, 1);
    const [name] = caches();
    const file = path.join(folder, name ?? '');
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const bytes = fs.readFileSync(file);
    assert.match(bytes.subarray(0, 400).toString('latin1'), new RegExp(`^agent-fs compile cache 2\\n${process.version}\\n`));
    assert.ok(bytes.includes(path.join(bins, 'agent-fs.js')), 'the key names the bundle');
    const before = fs.statSync(file);
    assert.deepEqual(read('note.txt'), first);
    const pdf = read('doc.pdf') as { content: string };
    assert.match(pdf.content, /Hello from a cached bundle/);
    const after = fs.statSync(file);
    assert.equal(after.ino, before.ino, 'an accepted cache is not written again');
    assert.deepEqual(fs.readFileSync(file), bytes);
  });

  it("a short run's cache is written again by a server that compiled more, which the next server keeps", async () => {
    const version = spawnSync(process.execPath, [path.join(bins, 'mcp.js'), '--version'], {
      encoding: 'utf8',
      env: { ...process.env, XDG_CACHE_HOME: cacheHome },
    });
    assert.equal(version.status, 0, version.stderr);
    const [name] = caches();
    const file = path.join(folder, name ?? '');
    const short = fs.statSync(file);
    await serve();
    const served = fs.statSync(file);
    assert.deepEqual(caches(), [name], 'the same key');
    assert.notEqual(served.ino, short.ino, 'written again');
    assert.ok(served.size > short.size * 1.1, `${served.size} bytes after ${short.size}`);
    await serve();
    assert.equal(fs.statSync(file).ino, served.ino, 'a server that compiled nothing more keeps it');
  });

  it('a damaged cache answers the same and is written anew', () => {
    const first = read('note.txt');
    const [name] = caches();
    const file = path.join(folder, name ?? '');
    const bytes = fs.readFileSync(file);
    const header = bytes.indexOf('\n\n') + 2;
    const damaged = Buffer.concat([bytes.subarray(0, header), Buffer.alloc(bytes.length - header, 0x5a)]);
    fs.writeFileSync(file, damaged);
    assert.deepEqual(read('note.txt'), first);
    assert.notDeepEqual(fs.readFileSync(file), damaged, 'V8 refused it, and a good one replaced it');
    assert.deepEqual(read('note.txt'), first);
  });

  it('a cache a crash tore (zeros where part of its data was, the header whole) is not used, and is written anew', () => {
    const first = read('note.txt');
    const [name] = caches();
    const file = path.join(folder, name ?? '');
    const bytes = fs.readFileSync(file);
    // What a power cut can leave of a file written just before it: its size and first blocks, then blocks never written.
    const torn = Buffer.from(bytes);
    torn.fill(0, Math.floor(bytes.length / 2));
    fs.writeFileSync(file, torn);
    const before = fs.statSync(file);
    assert.deepEqual(read('note.txt'), first);
    assert.notEqual(fs.statSync(file).ino, before.ino, 'refused by its checksum, and a whole one written in its place');
    assert.equal(
      fs
        .readFileSync(file)
        .subarray(Math.floor(bytes.length / 2))
        .every((byte) => byte === 0),
      false,
    );
    assert.deepEqual(read('note.txt'), first);
  });

  it('a bundle changed since is compiled from its source, and cached under its own key', () => {
    const first = read('note.txt');
    const bundle = path.join(bins, 'agent-fs.js');
    fs.appendFileSync(bundle, '\n// a new build\n');
    assert.deepEqual(read('note.txt'), first);
    assert.equal(caches().length, 2);
  });

  it('a folder others can write to is neither read nor written; nor is a link followed', () => {
    const first = read('note.txt');
    const [name] = caches();
    const file = path.join(folder, name ?? '');
    const garbage = Buffer.from('not a cache');
    fs.writeFileSync(file, garbage);
    fs.chmodSync(folder, 0o777);
    assert.deepEqual(read('note.txt'), first);
    assert.deepEqual(fs.readFileSync(file), garbage);
    assert.deepEqual(caches(), [name]);

    fs.chmodSync(folder, 0o700);
    const elsewhere = path.join(tmp, 'elsewhere.bin');
    fs.writeFileSync(elsewhere, garbage);
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    assert.deepEqual(read('note.txt'), first);
    assert.deepEqual(fs.readFileSync(elsewhere), garbage, 'the link target is untouched');
    assert.ok(fs.lstatSync(file).isFile(), 'the link was replaced by a cache of its own');
  });

  it('AGENT_FS_COMPILE_CACHE=off writes nothing', () => {
    const first = read('note.txt');
    removeTree(cacheHome);
    assert.deepEqual(
      (JSON.parse(run(['read_file', JSON.stringify({ file_name: 'note.txt' })], { AGENT_FS_COMPILE_CACHE: 'off' })) as { data: unknown })
        .data,
      first,
    );
    assert.equal(fs.existsSync(cacheHome), false);
  });
});
