/**
 * Takes the README's pictures of the history: a model-like sequence of changes made through "Agent FS: Run Tool…"
 * in the real UI (outside test mode), then the "Agent FS Activity" view beside the diff of one recorded change.
 * With --agents, two MCP clients with different names (the SDK's client over stdio, each starting the server on the
 * window's history folder, as "Connect Another Agent…" does) change the workspace between the person's changes, and
 * the picture is the view grouped by agent and session. With --review, an MCP agent edits a file in three places and
 * another adds one; the picture is the Source Control view listing them beside the file with the review's gutter
 * marks and the inline diff peek open on one hunk, whose Revert Change is then clicked: the file on the disk must
 * have that hunk back as it was and the other two as the agent left them, else the run fails.
 *
 *   node out/test/launcher/historyShots.js [--host 1.139] [--out media/screenshots/history.png] [--keep]
 *   node out/test/launcher/historyShots.js --agents     (media/screenshots/history-by-agent.png)
 *   node out/test/launcher/historyShots.js --review     (media/screenshots/review.png)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Locator, Page } from 'playwright-core';
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
  let out: string | undefined;
  let keep = false;
  let agents = false;
  let review = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--agents') agents = true;
    else if (arg === '--review') review = true;
    else if (arg === '--host') host = hostById(argv[++index] ?? '');
    else if (arg === '--out') out = path.resolve(argv[++index] ?? '.');
    else if (arg === '--keep') keep = true;
    else throw new Error(`Unknown argument "${arg}"`);
  }
  const picture =
    out ?? path.join(REPO_ROOT, 'media', 'screenshots', review ? 'review.png' : agents ? 'history-by-agent.png' : 'history.png');
  let launchDir = '';
  let demo = '';
  cleanUpOnSignals();
  await withLaunch(
    {
      host,
      label: `history shots ${host.id}`,
      trust: false,
      timeoutMs: 300_000,
      keep,
      prepare: (dir) => {
        launchDir = dir;
        demo = createDemoWorkspace(path.join(dir, 'demo'));
        if (review) fs.writeFileSync(path.join(demo, 'src', 'greet.ts'), GREET);
        return { target: { folder: demo } };
      },
      editor: { extensionDevelopmentPath: REPO_ROOT },
      open: { viewport: { width: 1400, height: 820 } },
    },
    async ({ editor }) => {
      const { page } = editor;
      try {
        if (review) await takeReviewShot(page, picture, launchDir, demo);
        else if (agents) await takeAgentsShot(page, picture, launchDir, demo);
        else await takeShot(page, picture);
      } catch (error) {
        // A picture of where it stopped says more than a selector that timed out.
        await page.screenshot({ path: `${picture}.failed.png` }).catch(() => undefined);
        throw error;
      }
    },
  );
  return 0;
}

async function workbenchReady(page: Page): Promise<void> {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes' }).first().waitFor({ timeout: 60_000 });
}

/**
 * Room for the picture: no editors, notifications or chat side bar, the folder tree collapsed, the side bar widened
 * by `widen` pixels (dragging the sash between it and the editor) so the summaries fit; then the Activity view,
 * opened from the status bar.
 */
async function openActivity(page: Page, widen: number): Promise<Locator> {
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'Notifications: Clear All Notifications');
  if (await page.locator('.part.auxiliarybar').isVisible()) {
    await page.keyboard.press('Control+Alt+KeyB');
    await delay(500);
  }
  await page.locator('.explorer-viewlet .pane-header', { hasText: 'demo' }).first().click();
  const box = await page.locator('.part.sidebar').first().boundingBox();
  if (box) {
    await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + widen, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  }
  await page.locator('.statusbar-item', { hasText: 'Agent FS:' }).first().click();
  return page.locator('.pane', { hasText: 'Agent FS Activity' }).last();
}

async function saveShot(page: Page, out: string): Promise<void> {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  process.stdout.write(`screenshot saved to ${path.relative(process.cwd(), out)}\n`);
}

async function takeShot(page: Page, out: string): Promise<void> {
  await workbenchReady(page);

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
  const view = await openActivity(page, 140);
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
  await saveShot(page, out);
}

/** The editor's history folder under the launch's folder, once the editor has recorded something there. */
function historyFolder(launchDir: string): string | undefined {
  const visit = (dir: string, depth: number): string | undefined => {
    if (depth > 8) return undefined;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(dir, entry.name);
      if (entry.name === 'history' && (fs.existsSync(path.join(full, 'pack')) || fs.existsSync(path.join(full, 'operations')))) return full;
      const found = visit(full, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(launchDir, 0);
}

/** An MCP client with this name, over stdio to the built server on the demo folder and the editor's history. */
async function agent(name: string, version: string, demo: string, state: string): Promise<Client> {
  const client = new Client({ name, version });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(REPO_ROOT, 'dist', 'mcp.js'), '--root', demo, '--state', state],
    }),
  );
  return client;
}

async function change(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} was refused: ${JSON.stringify(result.structuredContent)}`);
}

/**
 * Claude Code and Codex connected to the window's history: a first change made in the window (a plan to "review what
 * `plan` did") makes the history, which the agents' servers then share.
 */
async function twoAgents(page: Page, launchDir: string, demo: string, plan: string): Promise<{ claude: Client; codex: Client }> {
  await workbenchReady(page);
  await runToolToResult(page, 'agentfs_write_file', { file_name: 'notes/plan.md', content: `# Plan\n\n- review what ${plan}\n` });
  let state: string | undefined;
  for (let tries = 0; tries < 100 && !(state = historyFolder(launchDir)); tries++) await delay(100);
  if (!state) throw new Error(`no history folder under ${launchDir}`);
  return { claude: await agent('claude-code', '2.1.0', demo, state), codex: await agent('codex', '0.9.1', demo, state) };
}

async function takeAgentsShot(page: Page, out: string, launchDir: string, demo: string): Promise<void> {
  const { claude, codex } = await twoAgents(page, launchDir, demo, 'each agent did');
  try {
    await change(claude, 'edit_file', {
      path: 'src/hello.ts',
      old_string: 'return `Hello, ${name}!`;',
      new_string: "const greeting = name.trim() || 'world';\n  return `Hello, ${greeting}!`;",
    });
    await change(codex, 'write_file', { file_name: 'docs/usage.md', content: '# Usage\n\nCall hello() with a name.\n' });
    await change(claude, 'write_file', {
      file_name: 'src/hello.test.ts',
      content: "import { hello } from './hello';\n\nconsole.assert(hello(' ') === 'Hello, world!');\n",
    });
    await change(codex, 'move_file', { source_path: 'drafts/letter.txt', destination_path: 'archive/letter.txt' });
    await change(claude, 'delete_file', { file_name: 'notes/ideas.txt' });
  } finally {
    await claude.close();
    await codex.close();
  }
  const view = await openActivity(page, 200);
  await view.locator('.monaco-list-row', { hasText: 'codex 0.9.1' }).first().waitFor({ timeout: STEP_TIMEOUT });
  const row = view.locator('.monaco-list-row', { hasText: 'edit_file src/hello.ts' }).first();
  await row.click();
  await page.locator('.editor-group-container.active .monaco-diff-editor').first().waitFor({ timeout: STEP_TIMEOUT });
  await delay(1_500);
  // Hovering a session shows its inline Undo (the command "Undo an Agent Session…").
  await view.locator('.monaco-list-row', { hasText: 'claude-code 2.1.0' }).first().hover();
  await delay(500);
  await saveShot(page, out);
}

const GREET = [
  '/** Greetings in a few languages. */',
  "export type Language = 'en' | 'fr' | 'de';",
  '',
  'const GREETINGS: Record<Language, string> = {',
  "  en: 'Hello',",
  "  fr: 'Bonjour',",
  "  de: 'Hallo',",
  '};',
  '',
  "export function greet(name: string, language: Language = 'en'): string {",
  '  return `${GREETINGS[language]}, ${name}!`;',
  '}',
  '',
  "export function greetAll(names: readonly string[], language: Language = 'en'): string[] {",
  '  return names.map((name) => greet(name, language));',
  '}',
  '',
].join('\n');

/** What the agent's three edits of greet.ts leave, and the same with the third (greet's body) reverted. */
const GREET_EDITS = [
  { old_string: "'en' | 'fr' | 'de';", new_string: "'en' | 'fr' | 'de' | 'es';" },
  { old_string: "  de: 'Hallo',\n", new_string: "  de: 'Hallo',\n  es: 'Hola',\n" },
  {
    old_string: '  return `${GREETINGS[language]}, ${name}!`;',
    new_string: "  const who = name.trim() || 'world';\n  return `${GREETINGS[language]}, ${who}!`;",
  },
];
const GREET_REVERTED = GREET_EDITS.slice(0, 2).reduce((text, edit) => text.replace(edit.old_string, edit.new_string), GREET);

async function takeReviewShot(page: Page, out: string, launchDir: string, demo: string): Promise<void> {
  const { claude, codex } = await twoAgents(page, launchDir, demo, 'the agents did');
  try {
    for (const edit of GREET_EDITS) await change(claude, 'edit_file', { path: 'src/greet.ts', ...edit });
    await change(codex, 'write_file', { file_name: 'docs/usage.md', content: '# Usage\n\nCall greet() with a name.\n' });
  } finally {
    await claude.close();
    await codex.close();
  }
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'Notifications: Clear All Notifications');
  if (await page.locator('.part.auxiliarybar').isVisible()) {
    await page.keyboard.press('Control+Alt+KeyB');
    await delay(500);
  }
  // The Source Control view lists the agents' files.
  await page.keyboard.press('Control+Shift+KeyG');
  const scm = page.locator('.part.sidebar');
  await scm.locator('.monaco-list-row', { hasText: 'greet.ts' }).first().waitFor({ timeout: STEP_TIMEOUT });
  await scm.locator('.monaco-list-row', { hasText: 'usage.md' }).first().waitFor({ timeout: STEP_TIMEOUT });
  // The file in the editor: the gutter marks the agent's three hunks.
  await page.keyboard.press('Control+P');
  await page.locator('.quick-input-widget input').first().fill('src/greet.ts');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'greet.ts' }).first().waitFor({ timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await editor.locator('.dirty-diff-modified').nth(1).waitFor({ timeout: STEP_TIMEOUT });
  await editor.locator('.dirty-diff-added').first().waitFor({ timeout: STEP_TIMEOUT });
  // The peek on greet's body: the cursor below the other two hunks, then the next change.
  await runCommand(page, 'Go to Line/Column');
  await page.locator('.quick-input-widget input').first().fill(':11');
  await page.keyboard.press('Enter');
  await runCommand(page, 'Show Next Change');
  const peek = page.locator('.dirty-diff').first();
  await peek.waitFor({ timeout: STEP_TIMEOUT });
  await delay(1_500);
  await saveShot(page, out);

  // The peek's Revert Change is Agent FS's: that hunk goes back on the disk, the other two stay.
  await peek.locator('.action-label[aria-label^="Revert Change"]').first().click();
  // The editor replaces the file through workspace.fs.rename, over which a read was seen to find none for a moment.
  const read = (): string => {
    try {
      return fs.readFileSync(path.join(demo, 'src', 'greet.ts'), 'utf8');
    } catch {
      return '';
    }
  };
  for (let tries = 0; tries < 300 && read() !== GREET_REVERTED; tries++) await delay(100);
  if (read() !== GREET_REVERTED) throw new Error(`the peek's Revert Change left src/greet.ts as:\n${read()}`);
  process.stdout.write("the peek's Revert Change put back greet's body alone: src/greet.ts is as expected on the disk\n");
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
