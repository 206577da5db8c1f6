/**
 * Images: the four formats told by their first bytes and their pixel size read from the header, on files written by
 * real encoders (imageFixtures.ts); read_file of one through the call pipeline, its bytes beside the envelope and
 * never in it; and the refusals around it.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeForReply, type Session } from '../../../src/core/invoke';
import { IMAGE_MAX_BYTES } from '../../../src/core/read/image';
import { imageFormatOf, readImageHeader } from '../../../src/core/read/imageHeader';
import { DEFAULT_POLICY } from '../../../src/core/settings';
import { NodeFileSystem } from '../../../src/node/fs/nodeFileSystem';
import { toPosixPath } from '../../../src/node/fs/nativePaths';
import { createNodeSession } from '../../../src/node/host/session';
import { assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from '../helpers';
import { FIXTURES, IMAGES } from '../imageFixtures';

const fixture = (file: string): Buffer => fs.readFileSync(path.join(IMAGES, file));
const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

describe('image headers', function () {
  for (const { file, mimeType, width, height } of FIXTURES) {
    it(`${file}: ${mimeType}, ${width}×${height}`, function () {
      assert.deepEqual(readImageHeader(fixture(file)), { mimeType, width, height });
    });
  }

  it('the first 16 bytes tell the format; other files are no image', function () {
    for (const { file, mimeType } of FIXTURES) assert.equal(imageFormatOf(fixture(file).subarray(0, 16)), mimeType, file);
    assert.equal(imageFormatOf(Buffer.from('GIF88a not quite')), undefined);
    assert.equal(imageFormatOf(Buffer.from('RIFF\0\0\0\0WAVEfmt ')), undefined);
    assert.equal(imageFormatOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined);
    assert.equal(readImageHeader(Buffer.from('\0\0\0 binary, not an image')), undefined);
    assert.equal(readImageHeader(new Uint8Array()), undefined);
  });

  it('a header cut short, or one that says zero pixels, is damaged', function () {
    for (const { file, mimeType } of FIXTURES) {
      // Cut inside the fields the size is read from (a JPEG's frame header comes after its tables).
      const cut = { 'image/png': 20, 'image/gif': 9, 'image/webp': 25, 'image/jpeg': 40 }[mimeType] ?? 0;
      assert.deepEqual(readImageHeader(fixture(file).subarray(0, cut)), { mimeType, damaged: true }, file);
    }
    const png = Buffer.from(fixture('gradient-37x23.png'));
    png.writeUInt32BE(0, 16);
    assert.deepEqual(readImageHeader(png), { mimeType: 'image/png', damaged: true });
  });
});

describe('read_file of an image', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace({ hiddenPaths: ['private/**'] });
    const files: Record<string, Uint8Array> = {};
    for (const { file } of FIXTURES) files[`img/${file}`] = fixture(file);
    // Told by the bytes, not the name.
    files['img/no-extension'] = fixture('gradient-37x23.png');
    files['private/photo.png'] = fixture('gradient-37x23.png');
    ws.write(files);
  });
  afterEach(function () {
    ws.cleanup();
  });

  for (const { file, mimeType, width, height } of FIXTURES) {
    it(`${file}: the envelope gives its format, size and hash; the image goes beside it with the file's bytes`, async function () {
      const before = ws.snap();
      const bytes = fixture(file);
      const { envelope, image } = await invokeForReply('read_file', { file_name: `img/${file}` }, ws.session);
      assert.deepEqual(expectOk(envelope, 'read_file'), {
        file_name: file,
        relative_path: `img/${file}`,
        mime_type: mimeType,
        width,
        height,
        size_bytes: bytes.length,
        content_hash: sha256(bytes),
      });
      assert.ok(image);
      assert.equal(image.mimeType, mimeType);
      assert.deepEqual(Buffer.from(image.bytes), bytes);
      assert.ok(JSON.stringify(envelope).length < 400, 'no bytes in the JSON');
      assertTree(ws.snap(), before);
    });
  }

  it('a file without an image extension is one by its bytes; content_hash is what a guarded delete takes', async function () {
    const data = expectOk(await call(ws.session, 'read_file', { file_name: 'img/no-extension' }));
    assert.equal(data.mime_type, 'image/png');
    expectOk(await call(ws.session, 'delete_file', { file_name: 'img/no-extension', expected_hash: data.content_hash }));
    assert.equal(ws.exists('img/no-extension'), false);
  });

  it('naming an encoding reads it as text, as before', async function () {
    const { envelope, image } = await invokeForReply('read_file', { file_name: 'img/gradient-29x31.gif', encoding: 'latin1' }, ws.session);
    const data = expectOk(envelope);
    assert.equal(image, undefined);
    assert.equal(data.encoding, 'latin1');
    assert.ok(String(data.content).startsWith('GIF89a'));
  });

  it('line options are refused: an image has no lines', async function () {
    for (const option of [{ start_line: 1 }, { end_line: 3 }, { tail_lines: 5 }]) {
      const error = expectError(await call(ws.session, 'read_file', { file_name: 'img/plasma-41x19.jpg', ...option }), 'INVALID_INPUT');
      assert.match(error.message, /img\/plasma-41x19\.jpg is a JPEG image, which has no lines/);
      assert.deepEqual(error.details, { field: Object.keys(option)[0] });
    }
  });

  it('the path rules hold: a hidden image and one outside the base are refused as any file is', async function () {
    fs.writeFileSync(path.join(ws.outside, 'out.png'), fixture('gradient-37x23.png'));
    expectError(await call(ws.session, 'read_file', { file_name: 'private/photo.png' }), 'SENSITIVE_PATH_REFUSED');
    expectError(await call(ws.session, 'read_file', { file_name: '../outside/out.png' }), 'FILE_PATH_OUTSIDE_BASE');
    fs.symlinkSync(path.join(ws.outside, 'out.png'), path.join(ws.base, 'img', 'link.png'));
    expectError(await call(ws.session, 'read_file', { file_name: 'img/link.png' }), 'SYMLINK_OUTSIDE_BASE');
  });

  it('an image above the cap is LIMIT_EXCEEDED, a damaged one and other binary files BINARY_CONTENT_REFUSED', async function () {
    const large = Buffer.alloc(IMAGE_MAX_BYTES + 1);
    fixture('gradient-37x23.png').copy(large);
    const damaged = Buffer.from(fixture('gradient-37x23.png').subarray(0, 20));
    ws.write({ 'big.png': large, 'damaged.png': damaged, 'blob.bin': Buffer.from([0, 1, 2, 3, 0x89, 0x50]) });
    const tooLarge = expectError(await call(ws.session, 'read_file', { file_name: 'big.png' }), 'LIMIT_EXCEEDED');
    assert.deepEqual(tooLarge.details, { field: 'size_bytes', cap: IMAGE_MAX_BYTES, path: 'big.png' });
    assert.match(tooLarge.message, /big\.png is a PNG image of 5\.0 MiB; Agent FS passes images of at most 5\.0 MiB/);
    const broken = expectError(await call(ws.session, 'read_file', { file_name: 'damaged.png' }), 'BINARY_CONTENT_REFUSED');
    assert.match(broken.message, /damaged\.png starts like a PNG image, but its header is damaged/);
    const blob = expectError(await call(ws.session, 'read_file', { file_name: 'blob.bin' }), 'BINARY_CONTENT_REFUSED');
    assert.match(blob.message, /looks binary/);
  });

  it('read_many_files still refuses images as binary: one image a call, through read_file', async function () {
    const data = expectOk(await call(ws.session, 'read_many_files', { paths: ['img/gradient-37x23.png'] }));
    assert.equal((data.files as { error: { code: string } }[])[0]?.error.code, 'BINARY_CONTENT_REFUSED');
  });

  it('a host that cannot pass images refuses them and says why; so does a session that names no host', async function () {
    const plain = createNodeSession(ws.base);
    const editor: Session = {
      ...plain,
      host: {
        ...(plain.host ?? { kind: 'x', baseDirectoryAsGiven: '', workspaceFolders: [], problemsAfterEdits: false }),
        imageRefusal: 'VS Code 1.100.3 cannot.',
      },
    };
    const old = expectError(await call(editor, 'read_file', { file_name: 'img/lossy-45x27.webp' }), 'BINARY_CONTENT_REFUSED');
    assert.equal(old.message, 'img/lossy-45x27.webp is a WebP image, and it cannot be shown here: VS Code 1.100.3 cannot.');
    assert.deepEqual(old.details, { mime_type: 'image/webp' });
    assert.equal(expectOk(await call(editor, 'workspace_info', {})).read_images, false);
    assert.equal(expectOk(await call(plain, 'workspace_info', {})).read_images, true);
    const port = new NodeFileSystem();
    const hostless: Session = {
      policy: () => DEFAULT_POLICY,
      workspace: () => Promise.resolve({ roots: [{ name: 'base', path: toPosixPath(ws.base) }], fs: port }),
    };
    const none = expectError(await call(hostless, 'read_file', { file_name: 'img/gradient-29x31.gif' }), 'BINARY_CONTENT_REFUSED');
    assert.match(none.message, /This host does not pass images to a model/);
  });

  it('on a file system without ranged reads the image is read whole: twice, since the text read refuses it first', async function () {
    const inner = new NodeFileSystem();
    const reads: string[] = [];
    const port: NodeFileSystem = Object.create(inner) as NodeFileSystem;
    Object.assign(port, {
      readRange: undefined,
      readFile(file: string) {
        reads.push(file);
        return inner.readFile(file);
      },
    });
    const plain = createNodeSession(ws.base);
    const session: Session = {
      ...plain,
      workspace: () => Promise.resolve({ roots: [{ name: 'base', path: toPosixPath(ws.base) }], fs: port }),
    };
    const { envelope, image } = await invokeForReply('read_file', { file_name: 'img/gradient-37x23.png' }, session);
    assert.equal(expectOk(envelope).width, 37);
    assert.deepEqual(Buffer.from(image?.bytes ?? []), fixture('gradient-37x23.png'));
    // Once by the text read, which refused it as binary, and once here.
    assert.equal(reads.length, 2);
  });
});
