/**
 * Checks driven through the real UI, outside test mode, as a person would use Agent FS: the command palette,
 * "Agent FS: Run Tool…", its quick pick and input box, and VS Code's own confirmation dialog. Inside a test run
 * VS Code accepts tool confirmations by itself, so only a window without extensionTestsPath shows whether
 * answering Cancel really leaves the disk untouched. The Run Tool… check leaves a result on screen and takes the
 * README's screenshot from it. Then the Get Started walkthrough, whose steps complete only through the real UI, and
 * on 1.139 the chat's tools picker with Agent FS's tool sets.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createDemoWorkspace } from './demo';
import { REPO_ROOT, type HostSpec } from './hosts';
import { delay } from './launch';
import { confirmation, runCommand, runTool, STEP_TIMEOUT } from './palette';
import type { Outcome } from './outcome';
import { withLaunch } from './session';

/**
 * VS Code reports the command's rejection after Cancel as "Command 'Agent FS: Run Tool…' resulted in an error
 * (Canceled)" in a second modal (when the command lets the CancellationError through). Returns whether one showed.
 */
async function dismissCancelledError(page: Page): Promise<boolean> {
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'resulted in an error' }).first();
  try {
    await dialog.waitFor({ state: 'visible', timeout: 2_000 });
  } catch {
    return false;
  }
  assert.match(await dialog.innerText(), /Cancel/i, 'the only error is the cancellation');
  await dialog.locator('.monaco-button', { hasText: 'OK' }).first().click();
  await dialog.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  return true;
}

/** The text of the Run Tool… result editor named `<toolName>.json`, once it shows. */
async function resultText(page: Page, toolName: string): Promise<string> {
  await page
    .locator('.tabs-container .tab', { hasText: `${toolName}.json` })
    .first()
    .waitFor({ timeout: STEP_TIMEOUT });
  const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await lines.waitFor({ timeout: STEP_TIMEOUT });
  return (await lines.innerText()).replace(/\u00a0/g, ' ');
}

async function eventually(check: () => boolean, what: string, timeoutMs = STEP_TIMEOUT): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await delay(100);
  }
}

/** Opens Get Started with Agent FS through the palette, as a person finds it again after the first install. */
async function openWalkthrough(page: Page): Promise<void> {
  await runCommand(page, 'Welcome: Open Walkthrough');
  const input = page.locator('.quick-input-widget input').first();
  await input.fill('Agent FS');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Agent FS' }).first().waitFor({ timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await page.locator('.gettingStartedContainer', { hasText: 'Get Started with Agent FS' }).first().waitFor({ timeout: STEP_TIMEOUT });
}

/** Opens the walkthrough's step titled `step` and clicks its button labelled `button`. */
async function stepButton(page: Page, step: string, button: string): Promise<void> {
  await page.locator('.getting-started-step', { hasText: step }).first().click();
  await page.locator('.gettingStartedContainer').getByText(button, { exact: true }).first().click();
}

/** The `data-done-step-id` of each step mark `marks` finds: VS Code's id of the step, qualified with the walkthrough's. */
async function stepIds(marks: Locator): Promise<string[]> {
  const ids: string[] = [];
  for (const mark of await marks.all()) ids.push((await mark.getAttribute('data-done-step-id')) ?? '');
  return ids;
}

/** The walkthrough's steps the page shows as done, by their own ids. */
async function doneSteps(page: Page): Promise<string[]> {
  return (await stepIds(page.locator('[data-done-step-id][aria-checked="true"]'))).map((id) => id.slice(id.lastIndexOf('#') + 1));
}

/**
 * The chat's "Configure Tools…" picker, filtered to Agent FS's sets: the names of the sets it lists under the
 * extension's entry (the filter `agentfs-` matches the sets' names and not the tools', `agentfs_…`).
 */
async function toolSetsInPicker(page: Page): Promise<string[]> {
  if (!(await page.locator('.part.auxiliarybar').isVisible())) await page.keyboard.press('Control+Alt+KeyB');
  const configure = page.locator('.part.auxiliarybar .action-label[aria-label^="Configure Tools"]').first();
  await configure.waitFor({ timeout: 60_000 });
  await configure.click();
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill('agentfs');
  // The extension's entry comes collapsed.
  const entry = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Agent FS' }).first();
  await entry.waitFor({ timeout: STEP_TIMEOUT });
  await entry.locator('.monaco-tl-twistie').first().click();
  await input.fill('agentfs-');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await rows.filter({ hasText: 'agentfs-read' }).first().waitFor({ timeout: STEP_TIMEOUT });
  const labels = await rows.allTextContents();
  return labels.flatMap((label) => /agentfs-[a-z]+/.exec(label)?.[0] ?? []).sort();
}

export interface UiOptions {
  readonly timeoutMs: number;
  readonly keep: boolean;
  /** Where to save the screenshot of the Run Tool… result; without it, none is taken. */
  readonly screenshot?: string;
  /** The extension folder to load (default: this repository). */
  readonly extension?: string;
}

export async function runUiChecks(host: HostSpec, options: UiOptions): Promise<Outcome> {
  const label = `it ${host.id} ui`;
  const started = Date.now();
  const say = (line: string): void => void process.stdout.write(`[${label}] ${line}\n`);
  say(`VS Code ${host.vscodeVersion}: Agent FS through the real UI, outside test mode`);
  let passed = 0;
  let failed = 0;
  const check = async (page: Page, dir: string, title: string, body: () => Promise<void>): Promise<void> => {
    try {
      await body();
      passed++;
      process.stdout.write(`    ✔ ${title}\n`);
    } catch (error) {
      failed++;
      process.stdout.write(`    ✘ ${title}\n      ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      const picture = path.join(dir, `failure-${failed}.png`);
      await page.screenshot({ path: picture }).then(
        () => say(`the window at that moment: ${picture}`),
        () => undefined,
      );
      // Leave no dialog or palette open for the next check.
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  };
  try {
    await withLaunch(
      {
        host,
        label,
        trust: false,
        timeoutMs: options.timeoutMs,
        keep: options.keep,
        prepare: (dir) => ({ target: { folder: createDemoWorkspace(path.join(dir, 'demo')) } }),
        editor: { extensionDevelopmentPath: options.extension ?? REPO_ROOT },
        open: { viewport: { width: 1280, height: 760 } },
      },
      async ({ editor, dir }) => {
        const { page } = editor;
        const ws = path.join(dir, 'demo');
        await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
        // Let the explorer and the extension host settle before typing into the window.
        await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes' }).first().waitFor({ timeout: 60_000 });

        await check(page, dir, 'the status bar names the base directory, and a click on it opens the Activity view', async () => {
          const item = page.locator('.statusbar-item', { hasText: 'Agent FS: demo' }).first();
          await item.waitFor({ timeout: STEP_TIMEOUT });
          await item.click();
          await page.locator('.pane-header.expanded', { hasText: 'Agent FS Activity' }).first().waitFor({ timeout: STEP_TIMEOUT });
        });

        await check(page, dir, 'Cancel on a real delete confirmation leaves the file on disk', async () => {
          const file = path.join(ws, 'notes', 'todo.md');
          const before = fs.readFileSync(file, 'utf8');
          await runTool(page, 'agentfs_delete_file', { file_name: 'notes/todo.md' });
          const dialog = await confirmation(page);
          assert.match(dialog.text, /todo\.md/, `the dialog names the file: ${dialog.text}`);
          await dialog.click(/^Cancel$/);
          if (await dismissCancelledError(page))
            say('note: Cancel is reported as an error dialog ("Canceled") by VS Code, since the command rethrows the cancellation');
          await delay(1_000);
          assert.equal(fs.readFileSync(file, 'utf8'), before);
          assert.equal(
            await page.locator('.tabs-container .tab', { hasText: 'agentfs_delete_file.json' }).count(),
            0,
            'no result was shown',
          );
        });

        await check(page, dir, 'accepting the same confirmation deletes the file and shows the envelope', async () => {
          const file = path.join(ws, 'drafts', 'letter.txt');
          await runTool(page, 'agentfs_delete_file', { file_name: 'drafts/letter.txt' });
          const dialog = await confirmation(page);
          assert.match(dialog.text, /letter\.txt/);
          await dialog.click(/^(Yes|Continue|Allow|OK)$/);
          await eventually(() => !fs.existsSync(file), 'the file is gone');
          assert.match(await resultText(page, 'agentfs_delete_file'), /"deleted": true/);
        });

        await check(page, dir, 'Run Tool… shows a find_file result in a JSON editor', async () => {
          await page.keyboard.press('Escape');
          await runTool(page, 'agentfs_find_file', { file_name: 'report_2026' });
          const text = await resultText(page, 'agentfs_find_file');
          assert.match(text, /"ok": true/);
          assert.match(text, /report-final-2026\.md/);
          if (options.screenshot) {
            // The pointer and notifications would only clutter the picture.
            await page.mouse.move(0, 0);
            await page.keyboard.press('Escape');
            await delay(500);
            fs.mkdirSync(path.dirname(options.screenshot), { recursive: true });
            await page.screenshot({ path: options.screenshot });
            say(`screenshot saved to ${path.relative(process.cwd(), options.screenshot)}`);
          }
        });

        await check(page, dir, 'the Get Started walkthrough opens, and its steps complete by doing what they say', async () => {
          await page.keyboard.press('Escape');
          // VS Code starts following the steps' completion events when the walkthrough service starts, which opening a
          // walkthrough does (on the first install, VS Code opens this one): what the checks above did is not counted.
          await openWalkthrough(page);
          const steps = await stepIds(page.locator('[data-done-step-id]'));
          // VS Code qualifies a step's id with the walkthrough's.
          assert.deepEqual(
            steps.map((id) => id.slice(id.lastIndexOf('#') + 1)),
            ['baseDirectory', 'runTool', 'undo', 'connect', 'settings'],
          );
          assert.deepEqual(await doneSteps(page), []);
          // Showing the Activity view completes "Make a change, then undo it" (its button, from a closed view).
          const activity = page.locator('.pane-header.expanded', { hasText: 'Agent FS Activity' }).first();
          if (await activity.isVisible()) await activity.click();
          await stepButton(page, 'Make a change, then undo it', 'Show the Activity View');
          await page.locator('[data-done-step-id$="#undo"][aria-checked="true"]').first().waitFor({ timeout: STEP_TIMEOUT });
          // Opening the settings from its step completes "Choose how careful it is".
          await stepButton(page, 'Choose how careful it is', 'Open Agent FS Settings');
          await page.locator('.settings-editor').first().waitFor({ timeout: STEP_TIMEOUT });
          // Running a tool from the palette completes "Run a tool yourself".
          await runTool(page, 'agentfs_workspace_info', {});
          assert.match(await resultText(page, 'agentfs_workspace_info'), /"ok": true/);
          await openWalkthrough(page);
          assert.deepEqual(await doneSteps(page), ['runTool', 'undo', 'settings']);
        });

        if (host.id === '1.139')
          await check(page, dir, "the chat's tools picker shows the Agent FS tool sets", async () => {
            await page.keyboard.press('Escape');
            const sets = await toolSetsInPicker(page);
            assert.deepEqual(sets, ['agentfs-edit', 'agentfs-history', 'agentfs-read']);
            await page.keyboard.press('Escape');
          });
        return failed;
      },
      (failures) => failures === 0,
    );
  } catch (error) {
    failed = Math.max(failed, 1);
    say(`failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  say(`VS Code ${host.vscodeVersion}: ${passed} passed, ${failed} failed (${seconds} s)`);
  return { label, vscode: host.vscodeVersion, passed, failed, pending: 0, seconds };
}
