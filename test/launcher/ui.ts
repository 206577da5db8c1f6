/**
 * Checks driven through the real UI, outside test mode, as a person would use Agent FS: the command palette,
 * "Agent FS: Run Tool…", its quick pick and input box, and VS Code's own confirmation dialog. Inside a test run
 * VS Code accepts tool confirmations by itself, so only a window without extensionTestsPath shows whether
 * answering Cancel really leaves the disk untouched. The last check leaves a Run Tool… result on screen and
 * takes the README's screenshot from it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createDemoWorkspace } from './demo';
import { REPO_ROOT, type HostSpec } from './hosts';
import { delay } from './launch';
import { confirmation, runTool, STEP_TIMEOUT } from './palette';
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
