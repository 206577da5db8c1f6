/**
 * Takes the README's picture of the history: a model-like sequence of changes made through "Agent FS: Run Tool…"
 * in the real UI (outside test mode), then the "Agent FS Activity" view beside the diff of one recorded change.
 *
 *   node out/test/launcher/historyShots.js [--host 1.139] [--out media/screenshots/history.png] [--keep]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createDemoWorkspace } from './demo';
import { hostById, REPO_ROOT } from './hosts';
import { delay } from './launch';
import { confirmation, runCommand, runTool, STEP_TIMEOUT } from './palette';
import { cleanUpOnSignals, withLaunch } from './session';

/** Runs one tool through Run Tool…, accepting its confirmation when it asks one, and waits for the result. */
async function runToolToResult(page: Page, toolName: string, input: object, confirms = false): Promise<void> {
  await runTool(page, toolName, input);
  if (confirms) await (await confirmation(page)).click(/^(Yes|Continue|Allow|OK)$/);
  await page
    .locator('.tabs-container .tab', { hasText: `${toolName}.json` })
    .first()
    .waitFor({ timeout: STEP_TIMEOUT });
}

async function main(argv: readonly string[]): Promise<number> {
  let host = hostById('1.139');
  let out = path.join(REPO_ROOT, 'media', 'screenshots', 'history.png');
  let keep = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--host') host = hostById(argv[++index] ?? '');
    else if (arg === '--out') out = path.resolve(argv[++index] ?? out);
    else if (arg === '--keep') keep = true;
    else throw new Error(`Unknown argument "${arg}"`);
  }
  cleanUpOnSignals();
  await withLaunch(
    {
      host,
      label: `history shots ${host.id}`,
      trust: false,
      timeoutMs: 300_000,
      keep,
      prepare: (dir) => ({ target: { folder: createDemoWorkspace(path.join(dir, 'demo')) } }),
      editor: { extensionDevelopmentPath: REPO_ROOT },
      open: { viewport: { width: 1400, height: 820 } },
    },
    async ({ editor }) => {
      const { page } = editor;
      try {
        await takeShot(page, out);
      } catch (error) {
        // A picture of where it stopped says more than a selector that timed out.
        await page.screenshot({ path: `${out}.failed.png` }).catch(() => undefined);
        throw error;
      }
    },
  );
  return 0;
}

async function takeShot(page: Page, out: string): Promise<void> {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes' }).first().waitFor({ timeout: 60_000 });

  await runToolToResult(page, 'agentfs_write_file', {
    file_name: 'notes/plan.md',
    content: '# Plan\n\n- ship history and undo\n- write the README\n',
  });
  await runToolToResult(page, 'agentfs_move_file', { source_path: 'drafts/letter.txt', destination_path: 'archive/letter.txt' });
  await runToolToResult(page, 'agentfs_delete_file', { file_name: 'notes/ideas.txt' }, true);
  // The person takes the delete back: "Undo Last Change" asks first.
  await runCommand(page, 'Agent FS: Undo Last Change');
  const dialog = page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await dialog
    .locator('.monaco-button', { hasText: /^Undo$/ })
    .first()
    .click();
  await dialog.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  await runToolToResult(page, 'agentfs_edit_file', {
    path: 'src/hello.ts',
    old_string: 'return `Hello, ${name}!`;',
    new_string: "const greeting = name.trim() || 'world';\n  return `Hello, ${greeting}!`;",
  });
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'Notifications: Clear All Notifications');
  // Room for the picture: no chat side bar, the folder tree collapsed, the Activity view opened from the status bar.
  const auxiliary = page.locator('.part.auxiliarybar');
  if (await auxiliary.isVisible()) {
    await page.keyboard.press('Control+Alt+KeyB');
    await delay(500);
  }
  await page.locator('.explorer-viewlet .pane-header', { hasText: 'demo' }).first().click();
  // Widen the side bar so the operations' summaries fit: drag the sash between it and the editor.
  const sash = page.locator('.part.sidebar').first();
  const box = await sash.boundingBox();
  if (box) {
    await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + 140, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  }
  await page.locator('.statusbar-item', { hasText: 'Agent FS:' }).first().click();
  const view = page.locator('.pane', { hasText: 'Agent FS Activity' }).last();
  const moved = view.locator('.monaco-list-row', { hasText: 'move_file' }).first();
  await moved.waitFor({ timeout: STEP_TIMEOUT });
  await moved.locator('.monaco-tl-twistie').click();
  const row = view.locator('.monaco-list-row', { hasText: 'edit_file src/hello.ts' }).first();
  await row.click();
  await page.locator('.editor-group-container.active .monaco-diff-editor').first().waitFor({ timeout: STEP_TIMEOUT });
  await delay(1_500);
  // Hovering shows the inline Open Diff and Undo actions of the row.
  await row.hover();
  await delay(500);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  process.stdout.write(`screenshot saved to ${path.relative(process.cwd(), out)}\n`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
