/**
 * Driving the workbench's command palette and Run Tool… prompts from Playwright: shared by the UI checks
 * (ui.ts) and the README screenshots (historyShots.ts).
 */
import type { Page } from 'playwright-core';
import { delay } from './launch';

export const STEP_TIMEOUT = 30_000;

/**
 * Runs a command from the palette. Until the extension host has started, the palette does not list the
 * extension's commands yet: close it and try again until the deadline.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 90_000): Promise<void> {
  const input = page.locator('.quick-input-widget input').first();
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(`>${title}`);
      await row.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.keyboard.press('Escape');
      await delay(1_000);
    }
  }
  await page.keyboard.press('Enter');
}

/** Answers Run Tool…'s two prompts: the tool quick pick, then the JSON input box. */
export async function runTool(page: Page, toolName: string, input: object): Promise<void> {
  await runCommand(page, 'Agent FS: Run Tool');
  const box = page.locator('.quick-input-widget input').first();
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Read File' }).first().waitFor({ timeout: STEP_TIMEOUT });
  await box.fill(toolName);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: toolName }).first().waitFor({ timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await page
    .locator('.quick-input-widget', { hasText: `input for ${toolName}` })
    .first()
    .waitFor({ timeout: STEP_TIMEOUT });
  await box.fill(JSON.stringify(input));
  await page.keyboard.press('Enter');
}

export async function confirmation(page: Page): Promise<{ text: string; click: (label: RegExp) => Promise<void> }> {
  const dialog = page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const text = (await dialog.innerText()).replace(/\u00a0/g, ' ');
  return {
    text,
    click: async (label) => {
      const message = await dialog.locator('.dialog-message-text').first().innerText();
      await dialog.locator('.dialog-buttons-row .monaco-button, .dialog-buttons .monaco-button', { hasText: label }).first().click();
      // Another modal may take the same place at once (see dismissCancelledError), so wait for this one's text to go.
      await page
        .locator('.monaco-dialog-box .dialog-message-text', { hasText: message })
        .waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    },
  };
}
