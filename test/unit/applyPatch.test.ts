/** apply_patch: every hunk verified before any write; PATCH_FAILED names file and hunk. */
import * as assert from 'node:assert/strict';
import { assertTree, call, expectError, expectOk, tempWorkspace, type TempWorkspace } from './helpers';

const TWENTY = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

function hunk(header: string, ...lines: string[]): string {
  return `${header}\n${lines.join('\n')}\n`;
}

function filePatch(name: string, ...hunks: string[]): string {
  return `--- a/${name}\n+++ b/${name}\n${hunks.join('')}`;
}

describe('apply_patch', function () {
  let ws: TempWorkspace;
  beforeEach(function () {
    ws = tempWorkspace();
    ws.write({
      'twenty.txt': TWENTY,
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'crlf.txt': 'x\r\ny\r\nz\r\n',
    });
  });
  afterEach(function () {
    ws.cleanup();
  });

  it('applies a two-hunk patch and reports each hunk where it applied', async function () {
    const patch = filePatch(
      'twenty.txt',
      hunk('@@ -2,3 +2,3 @@', ' line 2', '-line 3', '+LINE 3', ' line 4'),
      hunk('@@ -15,3 +15,4 @@', ' line 15', '+line 15.5', ' line 16', ' line 17'),
    );
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }), 'apply_patch');
    assert.equal(ws.read('twenty.txt'), TWENTY.replace('line 3\n', 'LINE 3\n').replace('line 15\n', 'line 15\nline 15.5\n'));
    assert.deepEqual(data.files, [
      {
        path: 'twenty.txt',
        action: 'modify',
        hunks: [
          { header: '@@ -2,3 +2,3 @@', line: 2, offset: 0 },
          { header: '@@ -15,3 +15,4 @@', line: 15, offset: 0 },
        ],
        lines_added: 2,
        lines_removed: 1,
        previous_hash: (data.files as { previous_hash: string }[])[0]?.previous_hash,
        content_hash: (data.files as { content_hash: string }[])[0]?.content_hash,
      },
    ]);
  });

  it('offset hunks: lines added above since the diff was made still apply, with the offset reported', async function () {
    ws.write({ 'twenty.txt': 'new top 1\nnew top 2\nnew top 3\n' + TWENTY });
    const patch = filePatch(
      'twenty.txt',
      hunk('@@ -9,3 +9,3 @@', ' line 9', '-line 10', '+LINE 10', ' line 11'),
      hunk('@@ -18,2 +18,2 @@', '-line 18', '+LINE 18', ' line 19'),
    );
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }));
    assert.equal(
      ws.read('twenty.txt'),
      'new top 1\nnew top 2\nnew top 3\n' + TWENTY.replace('line 10\n', 'LINE 10\n').replace('line 18\n', 'LINE 18\n'),
    );
    const [file] = data.files as { hunks: { line: number; offset: number }[] }[];
    assert.deepEqual(
      file?.hunks.map((each) => [each.line, each.offset]),
      [
        [12, 3],
        [21, 3],
      ],
    );
  });

  it('context drift: a changed context line refuses the whole patch, naming file, hunk and the differing line', async function () {
    ws.write({ 'twenty.txt': TWENTY.replace('line 4\n', 'line four\n') });
    const before = ws.snap();
    const patch = filePatch('twenty.txt', hunk('@@ -2,3 +2,3 @@', ' line 2', '-line 3', '+LINE 3', ' line 4'));
    const error = expectError(await call(ws.session, 'apply_patch', { patch }), 'PATCH_FAILED', 'apply_patch');
    assert.match(error.message, /Hunk 1 of 1 \(@@ -2,3 \+2,3 @@\) for twenty\.txt/);
    assert.match(error.message, /line 4/);
    assert.deepEqual(error.details?.differences, [{ line: 4, expected: 'line 4', actual: 'line four' }]);
    assert.equal(error.details?.file, 'twenty.txt');
    assert.equal(error.details?.hunk, 1);
    assertTree(ws.snap(), before);
  });

  it('an ambiguous hunk (fits in several places, none at its line) is refused', async function () {
    ws.write({ 'rep.txt': 'a\nx\nb\nq\nq\nq\na\nx\nb\n' });
    const before = ws.snap();
    const patch = filePatch('rep.txt', hunk('@@ -4,3 +4,3 @@', ' a', '-x', '+X', ' b'));
    const error = expectError(await call(ws.session, 'apply_patch', { patch }), 'PATCH_FAILED');
    assert.match(error.message, /ambiguous/);
    assert.deepEqual(error.details?.matches_at_lines, [1, 7]);
    assertTree(ws.snap(), before);
  });

  it('several files where the last one fails: nothing is written', async function () {
    const before = ws.snap();
    const patch =
      filePatch('src/a.ts', hunk('@@ -1 +1 @@', '-export const a = 1;', '+export const a = 10;')) +
      '--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1 @@\n+export const n = 0;\n' +
      filePatch('src/b.ts', hunk('@@ -1 +1 @@', '-export const b = 3;', '+export const b = 30;'));
    const error = expectError(await call(ws.session, 'apply_patch', { patch }), 'PATCH_FAILED');
    assert.match(error.message, /src\/b\.ts/);
    assert.match(error.message, /Nothing was written/);
    assertTree(ws.snap(), before);
  });

  it('creates a new file (and its directories) and deletes a file', async function () {
    const patch =
      'diff --git a/pkg/new.txt b/pkg/new.txt\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/pkg/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n' +
      'diff --git a/src/b.ts b/src/b.ts\ndeleted file mode 100644\n--- a/src/b.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-export const b = 2;\n';
    const data = expectOk(await call(ws.session, 'apply_patch', { patch }));
    assert.equal(ws.read('pkg/new.txt'), 'hello\nworld\n');
    assert.equal(ws.exists('src/b.ts'), false);
    assert.deepEqual(
      (data.files as { path: string; action: string }[]).map((file) => [file.path, file.action]),
      [
        ['pkg/new.txt', 'create'],
        ['src/b.ts', 'delete'],
      ],
    );
  });

  it('refuses to create a file that exists, and to delete one whose content differs from the patch', async function () {
    ws.write({ 'two.txt': 'one\ntwo\n' });
    const before = ws.snap();
    expectError(await call(ws.session, 'apply_patch', { patch: '--- /dev/null\n+++ b/src/a.ts\n@@ -0,0 +1 @@\n+x\n' }), 'PATCH_FAILED');
    const error = expectError(
      await call(ws.session, 'apply_patch', { patch: '--- a/two.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-one\n' }),
      'PATCH_FAILED',
    );
    assert.match(error.message, /not the whole file/);
    assertTree(ws.snap(), before);
  });

  it('"\\ No newline at end of file" adds or removes the final newline as the patch says', async function () {
    ws.write({ 'open.txt': 'a\nb' });
    expectOk(
      await call(ws.session, 'apply_patch', {
        patch: filePatch('open.txt', hunk('@@ -1,2 +1,2 @@', ' a', '-b', '\\ No newline at end of file', '+b')),
      }),
    );
    assert.equal(ws.read('open.txt'), 'a\nb\n');
    expectOk(
      await call(ws.session, 'apply_patch', {
        patch: filePatch('open.txt', hunk('@@ -1,2 +1,2 @@', ' a', '-b', '+B', '\\ No newline at end of file')),
      }),
    );
    assert.equal(ws.read('open.txt'), 'a\nB');
    // A patch that says nothing about the final newline leaves a file without one as it was.
    expectOk(await call(ws.session, 'apply_patch', { patch: filePatch('open.txt', hunk('@@ -1,2 +1,2 @@', ' a', '-B', '+C')) }));
    assert.equal(ws.read('open.txt'), 'a\nC');
    const before = ws.snap();
    // The patch says the file ends without a newline but adds one to a line that is not there.
    expectError(
      await call(ws.session, 'apply_patch', {
        patch: filePatch('open.txt', hunk('@@ -1,2 +1,2 @@', ' a', '-D', '\\ No newline at end of file', '+D')),
      }),
      'PATCH_FAILED',
    );
    assertTree(ws.snap(), before);
  });

  it('an LF patch applies to a CRLF file, which stays CRLF', async function () {
    expectOk(
      await call(ws.session, 'apply_patch', { patch: filePatch('crlf.txt', hunk('@@ -1,3 +1,4 @@', ' x', '-y', '+Y', '+Y2', ' z')) }),
    );
    assert.equal(ws.read('crlf.txt'), 'x\r\nY\r\nY2\r\nz\r\n');
  });

  it('dry_run verifies and reports but writes nothing', async function () {
    const before = ws.snap();
    const data = expectOk(
      await call(ws.session, 'apply_patch', {
        patch: filePatch('src/a.ts', hunk('@@ -1 +1 @@', '-export const a = 1;', '+export const a = 2;')),
        dry_run: true,
      }),
    );
    assert.equal(data.applied, false);
    assert.equal(data.files_changed, 1);
    assertTree(ws.snap(), before);
  });

  it('refuses renames, binary patches, a patch changing one file twice, garbage, and over 1 MiB', async function () {
    const before = ws.snap();
    const rename = 'diff --git a/src/a.ts b/src/c.ts\nsimilarity index 100%\nrename from src/a.ts\nrename to src/c.ts\n';
    assert.match(expectError(await call(ws.session, 'apply_patch', { patch: rename }), 'PATCH_FAILED').message, /move_file/);
    const binary = 'diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\n';
    expectError(await call(ws.session, 'apply_patch', { patch: binary }), 'PATCH_FAILED');
    const once = filePatch('src/a.ts', hunk('@@ -1 +1 @@', '-export const a = 1;', '+export const a = 2;'));
    expectError(await call(ws.session, 'apply_patch', { patch: once + once }), 'PATCH_FAILED');
    expectError(await call(ws.session, 'apply_patch', { patch: 'please change a to 2' }), 'PATCH_FAILED');
    const huge = filePatch('src/a.ts', hunk('@@ -1 +1,2 @@', ' export const a = 1;', `+// ${'x'.repeat(1024 * 1024)}`));
    expectError(await call(ws.session, 'apply_patch', { patch: huge }), 'LIMIT_EXCEEDED');
    assertTree(ws.snap(), before);
  });

  it('paths in a patch are confined like every other path', async function () {
    const before = ws.snap();
    expectError(
      await call(ws.session, 'apply_patch', { patch: '--- /dev/null\n+++ b/../outside/evil.txt\n@@ -0,0 +1 @@\n+x\n' }),
      'FILE_PATH_OUTSIDE_BASE',
    );
    assertTree(ws.snap(), before);
  });
});
