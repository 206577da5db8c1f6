/**
 * Problems after an edit, with VS Code's built-in TypeScript service (it runs offline): an edit that introduces a
 * type error reports it, one that fixes it reports it resolved, an unrelated file's problems are not reported, and
 * the setting turns it off. Each check reads the diagnostics VS Code itself has afterwards, so a report that
 * disagreed with the Problems view would fail.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { callTool, eventually, expectOk, scratch, withSetting } from '../helpers';

interface Problems {
  readonly new: readonly { path: string; line: number; severity: string; message: string; source: string | null }[];
  readonly more: number;
  readonly resolved: number;
  readonly unchecked?: readonly string[];
}

function problemsOf(data: Record<string, unknown>): Problems {
  const problems = data.problems as Problems | undefined;
  assert.ok(problems, `the result reports problems: ${JSON.stringify(data)}`);
  return problems;
}

const errorsIn = (file: string): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(vscode.Uri.file(file)).filter((each) => each.severity === vscode.DiagnosticSeverity.Error);

function shownInATab(file: string): boolean {
  const uri = vscode.Uri.file(file).toString();
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri),
  );
}

describe('problems after an edit (TypeScript)', function () {
  this.timeout(120_000);

  before(async function () {
    // TypeScript's server starts with the first TypeScript editor and takes seconds the first time; a result waits
    // a second at most, so the service is warmed up first, as it is in a window where someone works.
    const s = scratch('problems-warm-up', { 'warm.ts': 'export const warm: number = "cold";\n' });
    await vscode.window.showTextDocument(vscode.Uri.file(s.abs('warm.ts')), { preview: true });
    await eventually(() => errorsIn(s.abs('warm.ts')).length > 0, 'TypeScript reports the warm-up error', 60_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  afterEach(async function () {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('an edit that introduces a type error reports it (path, line, severity, message, source); the fix reports it resolved', async function () {
    const s = scratch('problems-edit', {
      'count.ts': 'export function double(value: number): number {\n  return value * 2;\n}\n\nexport const count: number = double(2);\n',
    });
    const file = s.abs('count.ts');
    // Each result waits for TypeScript's report on the file (an error appearing, or going), however long a busy
    // machine makes it take: the timeout only bounds a hang.
    await withSetting('problemsAfterEditsTimeout', 30_000, async () => {
      const broken = expectOk(
        await callTool('edit_file', { path: s.rel('count.ts'), old_string: 'double(2)', new_string: "double('2')" }),
      ).data;
      const introduced = problemsOf(broken);
      assert.equal(introduced.new.length, 1, JSON.stringify(introduced));
      const [problem] = introduced.new;
      assert.deepEqual(
        { ...problem, message: undefined },
        { path: s.rel('count.ts'), line: 5, severity: 'error', message: undefined, source: 'ts' },
      );
      assert.match(problem?.message ?? '', /not assignable to parameter of type 'number'/);
      assert.equal(introduced.more, 0);
      assert.equal(introduced.resolved, 0);
      // What the editor shows agrees, and the file was shown so that TypeScript would check it.
      assert.deepEqual(
        errorsIn(file).map((each) => each.message),
        [problem?.message],
      );
      assert.ok(shownInATab(file), 'the edited file is shown in an editor');
      const fixed = problemsOf(
        expectOk(await callTool('edit_file', { path: s.rel('count.ts'), old_string: "double('2')", new_string: 'double(3)' })).data,
      );
      assert.deepEqual(fixed, { new: [], more: 0, resolved: 1 });
      assert.equal(errorsIn(file).length, 0, 'the editor shows the error gone');
    });
    assert.equal(fs.readFileSync(file, 'utf8').includes('double(3)'), true);
  });

  it("another file's problems are not reported, nor an error the edit only moved down", async function () {
    const s = scratch('problems-unrelated', {
      'other.ts': 'export const other: string = 42;\n',
      'main.ts': 'export const flag: boolean = "yes";\n',
    });
    await vscode.window.showTextDocument(vscode.Uri.file(s.abs('other.ts')), { preview: false, preserveFocus: true });
    await vscode.window.showTextDocument(vscode.Uri.file(s.abs('main.ts')), { preview: false, preserveFocus: true });
    await eventually(() => errorsIn(s.abs('other.ts')).length === 1 && errorsIn(s.abs('main.ts')).length === 1, 'both errors show', 30_000);
    const data = expectOk(
      await callTool('insert_lines', { path: s.rel('main.ts'), position: 'before', line: 1, content: '// A comment above.\n' }),
    ).data;
    assert.deepEqual(problemsOf(data), { new: [], more: 0, resolved: 0 });
    // TypeScript checks the edited file again in its own time: the error shows on line 2 once it has.
    await eventually(() => errorsIn(s.abs('main.ts'))[0]?.range.start.line === 1, 'the error moved to line 2 and is still there', 30_000);
    assert.equal(errorsIn(s.abs('other.ts')).length, 1, "the other file's error is still there");
  });

  it('a patch over two files, one of them new, reports the new errors of each', async function () {
    const s = scratch('problems-patch', { 'a.ts': 'export const a = 1;\n' });
    const patch = [
      `--- a/${s.rel('a.ts')}`,
      `+++ b/${s.rel('a.ts')}`,
      '@@ -1 +1 @@',
      '-export const a = 1;',
      "+export const a: number = 'one';",
      `--- /dev/null`,
      `+++ b/${s.rel('b.ts')}`,
      '@@ -0,0 +1,2 @@',
      '+export const b: string = 2;',
      '+export const c: boolean = 3;',
      '',
    ].join('\n');
    // TypeScript checks the two files one after the other; on a busy machine the second report can come long after the
    // first. The result waits for both (the timeout only bounds a hang), so it lists each file's errors every time.
    const problems = await withSetting('problemsAfterEditsTimeout', 30_000, async () =>
      problemsOf(expectOk(await callTool('apply_patch', { patch })).data),
    );
    assert.deepEqual(
      problems.new.map((each) => [each.path, each.line, each.severity]),
      [
        [s.rel('a.ts'), 1, 'error'],
        [s.rel('b.ts'), 1, 'error'],
        [s.rel('b.ts'), 2, 'error'],
      ],
    );
    assert.equal(problems.unchecked, undefined, 'both files were reported on');
  });

  it('a file a service has not reported on, beside one it has, is named unchecked', async function () {
    const s = scratch('problems-unchecked', { 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 1;\n' });
    const patch = [
      `--- a/${s.rel('a.ts')}`,
      `+++ b/${s.rel('a.ts')}`,
      '@@ -1 +1 @@',
      '-export const a = 1;',
      "+export const a: number = 'one';",
      `--- a/${s.rel('b.ts')}`,
      `+++ b/${s.rel('b.ts')}`,
      '@@ -1 +1 @@',
      '-export const b = 1;',
      '+export const b = 2;',
      '',
    ].join('\n');
    // b.ts stays clean, and TypeScript reports nothing for a file that stays clean: the wait ends at the timeout.
    const problems = await withSetting('problemsAfterEditsTimeout', 5_000, async () =>
      problemsOf(expectOk(await callTool('apply_patch', { patch })).data),
    );
    assert.deepEqual(
      problems.new.map((each) => [each.path, each.line]),
      [[s.rel('a.ts'), 1]],
    );
    assert.deepEqual(problems.unchecked, [s.rel('b.ts')]);
  });

  it('off: no problems in the result and workspace_info says so; a text file that no service checks adds none either', async function () {
    const s = scratch('problems-off', { 'x.ts': 'export const x = 1;\n', 'notes.txt': 'one\n' });
    assert.equal(expectOk(await callTool('workspace_info', {})).data.problems_after_edits, true);
    const plain = expectOk(await callTool('edit_file', { path: s.rel('notes.txt'), old_string: 'one', new_string: 'two' })).data;
    assert.deepEqual(problemsOf(plain), { new: [], more: 0, resolved: 0 });
    await withSetting('problemsAfterEdits', 'off', async () => {
      await eventually(
        async () => expectOk(await callTool('workspace_info', {})).data.problems_after_edits === false,
        'the setting applies',
      );
      const data = expectOk(await callTool('edit_file', { path: s.rel('x.ts'), old_string: '= 1', new_string: "= 'a' * 2" })).data;
      assert.equal('problems' in data, false);
      assert.equal(shownInATab(s.abs('x.ts')), false, 'nothing was opened');
    });
  });
});
