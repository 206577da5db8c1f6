/**
 * Takes the README's pictures of Agent FS at home in VS Code: the Get Started walkthrough, the tool sets in the
 * chat's tools picker, and a confirmation in another display language (Japanese, through the locale launch's stub language pack), both in the real UI outside
 * test mode. The Japanese picture needs a font with Japanese glyphs for Chromium (Debian's fonts-ipafont-gothic).
 *
 *   node out/test/launcher/homeShots.js [--host 1.139] [--only walkthrough|confirmation|tool-sets] [--keep]
 *     writes media/screenshots/walkthrough.png, confirmation-ja.png and tool-sets.png
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createDemoWorkspace } from './demo';
import { hostById, REPO_ROOT, type HostSpec } from './hosts';
import { delay } from './launch';
import { registerLanguagePack } from './locale';
import { runCommand, STEP_TIMEOUT } from './palette';
import { cleanUpOnSignals, withLaunch } from './session';

const SHOTS = path.join(REPO_ROOT, 'media', 'screenshots');

async function saveShot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const out = path.join(SHOTS, name);
  await page.screenshot({ path: out });
  process.stdout.write(`screenshot saved to ${path.relative(process.cwd(), out)}\n`);
}

async function workbenchReady(page: Page): Promise<void> {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes' }).first().waitFor({ timeout: 60_000 });
  // The status bar item appears once Agent FS has activated.
  await page.locator('.statusbar-item', { hasText: 'Agent FS' }).first().waitFor({ timeout: 90_000 });
}

/** One UI launch on the demo workspace; `locale` sets the display language. */
async function inWindow(host: HostSpec, keep: boolean, locale: string | undefined, body: (page: Page) => Promise<void>): Promise<void> {
  await withLaunch(
    {
      host,
      label: `home shots ${host.id}${locale ? ` ${locale}` : ''}`,
      trust: false,
      timeoutMs: 300_000,
      keep,
      ...(locale ? { serverArgs: ['--locale', locale] } : {}),
      prepare: (dir) => {
        if (locale) registerLanguagePack(dir, locale);
        return { target: { folder: createDemoWorkspace(path.join(dir, 'demo')) } };
      },
      editor: { extensionDevelopmentPath: REPO_ROOT },
      open: { viewport: { width: 1400, height: 820 } },
    },
    async ({ editor }) => {
      try {
        await workbenchReady(editor.page);
        await body(editor.page);
      } catch (error) {
        await editor.page.screenshot({ path: path.join(SHOTS, `home-shots-${locale ?? 'en'}.failed.png`) }).catch(() => undefined);
        throw error;
      }
    },
  );
}

/** Room for the picture: the chat side bar closed, so the walkthrough lays its pictures out beside its steps. */
async function closeChat(page: Page): Promise<void> {
  if (await page.locator('.part.auxiliarybar').isVisible()) {
    await page.keyboard.press('Control+Alt+KeyB');
    await delay(500);
  }
}

async function walkthroughShot(page: Page): Promise<void> {
  await closeChat(page);
  await runCommand(page, 'Welcome: Open Walkthrough');
  const input = page.locator('.quick-input-widget input').first();
  await input.fill('Agent FS');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Agent FS' }).first().waitFor({ timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await page.locator('.gettingStartedContainer', { hasText: 'Get Started with Agent FS' }).first().waitFor({ timeout: STEP_TIMEOUT });
  // The first step's picture is an SVG the page loads after the text.
  await delay(1_500);
  await saveShot(page, 'walkthrough.png');
}

/** Run Tool… in Japanese: the tool picked by its name, a delete of a demo file, VS Code's modal with Agent FS's words. */
async function confirmationShot(page: Page): Promise<void> {
  await closeChat(page);
  // The palette also matches a translated command by its English title.
  await runCommand(page, 'Agent FS: Run Tool');
  const box = page.locator('.quick-input-widget input').first();
  await box.fill('agentfs_delete_file');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'agentfs_delete_file' }).first().waitFor({ timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget', { hasText: 'agentfs_delete_file' }).first().waitFor({ timeout: STEP_TIMEOUT });
  await box.fill(JSON.stringify({ file_name: 'notes/ideas.txt' }));
  await page.keyboard.press('Enter');
  await page.locator('.monaco-dialog-box').first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await delay(500);
  await saveShot(page, 'confirmation-ja.png');
}

/**
 * The chat's tools picker (its "Configure Tools…" button, in agent mode), filtered to Agent FS: the extension's tool
 * sets with their tools.
 */
async function toolSetShot(page: Page): Promise<void> {
  if (!(await page.locator('.part.auxiliarybar').isVisible())) {
    await page.keyboard.press('Control+Alt+KeyB');
    await delay(500);
  }
  const configure = page.locator('.part.auxiliarybar .action-label[aria-label^="Configure Tools"]').first();
  await configure.waitFor({ timeout: 60_000 });
  await configure.click();
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill('agentfs');
  // The extension's bucket comes collapsed: open it to show its sets.
  const bucket = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Agent FS' }).first();
  await bucket.waitFor({ timeout: STEP_TIMEOUT });
  await bucket.locator('.monaco-tl-twistie').first().click();
  // The sets first: the filter `agentfs-` leaves out the tools (`agentfs_…`) but the whole set.
  await input.fill('agentfs-');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'agentfs-read' }).first().waitFor({ timeout: STEP_TIMEOUT });
  await delay(500);
  await saveShot(page, 'tool-sets.png');
}

async function main(argv: readonly string[]): Promise<number> {
  let host = hostById('1.139');
  let keep = false;
  let only: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--host') host = hostById(argv[++index] ?? '');
    else if (arg === '--keep') keep = true;
    else if (arg === '--only') only = argv[++index];
    else throw new Error(`Unknown argument "${arg}"`);
  }
  cleanUpOnSignals();
  if (only === undefined || only === 'walkthrough') await inWindow(host, keep, undefined, walkthroughShot);
  if (only === undefined || only === 'confirmation') await inWindow(host, keep, 'ja', confirmationShot);
  if (only === undefined || only === 'tool-sets') await inWindow(host, keep, undefined, toolSetShot);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
