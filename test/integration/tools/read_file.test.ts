import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Envelope } from '../../../src/core/envelope';
import { checkEnvelope } from '../../shared/results';
import { callTool, expectError, expectFields, expectOk, scratch, TOOL_PREFIX } from '../helpers';

const IMAGES = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'images');

/** VS Code 1.106 made LanguageModelDataPart (and with it images in tool results) stable API; 1.100 has it as proposed API. */
function hostPassesImages(): boolean {
  const [major = 0, minor = 0] = vscode.version.split('.').map(Number);
  return major > 1 || minor >= 106;
}

describe('read_file', () => {
  it('returns the whole content with the plugin data shape', async () => {
    const s = scratch('read', { 'notes/a b.md': 'first line\r\nsecond line\n' });
    const { data } = expectOk(await callTool('read_file', { file_name: s.rel('notes/a b.md') }));
    expectFields(data, { file_name: 'a b.md', relative_path: s.rel('notes/a b.md'), content: 'first line\r\nsecond line\n' });
  });

  it('answers FILE_NOT_FOUND and FILE_NOT_FILE', async () => {
    const s = scratch('read-missing', { 'dir/': '' });
    expectError(await callTool('read_file', { file_name: s.rel('nope.txt') }), 'FILE_NOT_FOUND');
    expectError(await callTool('read_file', { file_name: s.rel('dir') }), 'FILE_NOT_FILE');
  });

  it('refuses a path that leaves the base directory', async () => {
    const refused = expectError(await callTool('read_file', { file_name: '../../../../../../etc/hostname' }), 'FILE_PATH_OUTSIDE_BASE');
    assert.doesNotMatch(refused.error.message, /^\s*$/);
    expectError(await callTool('read_file', { file_name: '/etc/hostname' }), 'FILE_PATH_OUTSIDE_BASE');
  });

  it('an image comes back as a LanguageModelDataPart with its bytes where VS Code has one (1.106+), else as a refusal saying so', async () => {
    const s = scratch('read-image');
    const bytes = fs.readFileSync(path.join(IMAGES, 'lossy-45x27.webp'));
    fs.writeFileSync(s.abs('shot.webp'), bytes);
    const result = await vscode.lm.invokeTool(`${TOOL_PREFIX}read_file`, {
      input: { file_name: s.rel('shot.webp') },
      toolInvocationToken: undefined,
    });
    const [text, image, ...rest] = result.content;
    assert.ok(text instanceof vscode.LanguageModelTextPart, 'the envelope comes first, as text');
    const envelope = JSON.parse(text.value) as Envelope;
    checkEnvelope(envelope);
    assert.deepEqual(rest, []);
    const dataPart: unknown = Reflect.get(vscode, 'LanguageModelDataPart');
    const { data: info } = expectOk(await callTool('workspace_info', {}));
    assert.equal(info.read_images, hostPassesImages());
    if (hostPassesImages()) {
      expectFields(expectOk(envelope).data, { mime_type: 'image/webp', width: 45, height: 27, size_bytes: bytes.length });
      assert.ok(typeof dataPart === 'function' && image instanceof dataPart, 'the image is a LanguageModelDataPart');
      assert.equal(Reflect.get(image, 'mimeType'), 'image/webp');
      assert.deepEqual(Buffer.from(Reflect.get(image, 'data') as Uint8Array), bytes);
    } else {
      assert.equal(image, undefined);
      const refused = expectError(envelope, 'BINARY_CONTENT_REFUSED');
      assert.equal(
        refused.error.message,
        `${s.rel('shot.webp')} is a WebP image, and it cannot be shown here: VS Code ${vscode.version} cannot pass an image to a model (VS Code 1.106 and later can); agentfs_file_info gives its size.`,
      );
    }
  });
});
