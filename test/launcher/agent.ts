/**
 * The agent-mode launches: Copilot Chat's real agent loop (built into VS Code 1.139's code-server) drives Agent
 * FS, with a scripted language model (test/agent/model/) in place of a real one. The specs (test/integration/agent/)
 * run in the extension host; what only the page shows — the confirmation card, the chat's tool rows, notifications
 * — they ask this side for through a small bridge: a spec logs `UI {...}`, the launcher does it with Playwright and
 * answers in a file the spec waits for.
 *
 * Offline this needs: the user setting chat.allowAnonymousAccess (else the first request asks to sign in to
 * GitHub), the chat's built-in enablement migration marked as done in the browser's storage before the workbench
 * loads (else a fresh profile starts with the chat disabled), HOME in the launch's folder (Copilot writes lock
 * files there) and the scripted model's extension installed beside Agent FS.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { BridgeRequest, CardText, QuestionText, ToolRow } from '../agent/protocol';
import { connectSnippets, serverCommand } from '../../src/core/catalog/connect';
import { stateToken } from '../../src/node/mcp/httpToken';
import { serveHttp } from '../shared/mcpHttp';
import { writeHarness } from './harness';
import { REPO_ROOT, type HostSpec } from './hosts';
import { delay } from './launch';
import { failedOutcome, finishedOutcome, type Outcome, type SuiteLaunch, type SuiteResult } from './outcome';
import { withLaunch } from './session';

/** The custom agent the tool set test picks ("Agent FS Set"): its tools name the set, as a person would write it. */
const TOOL_SET_AGENT = [
  '---',
  'name: Agent FS Set',
  'description: Only the agentfs tool set.',
  "tools: ['agentfs']",
  '---',
  'Work on files with Agent FS.',
  '',
].join('\n');

const MARKER = '[agentfs-it] ';
const COMPILED_SUITE = path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');
const MODEL_SOURCE = path.join(REPO_ROOT, 'test', 'agent', 'model');
const MODEL_OUT = path.join(REPO_ROOT, 'out', 'test', 'agent', 'model');
/** Where `--shots` puts the pictures the README shows. */
const README_SHOTS = path.join(REPO_ROOT, 'media', 'screenshots');

export const AGENT_SCENARIOS = ['agent', 'agent-untrusted', 'vscode-mcp', 'vscode-mcp-http'] as const;
/** Hosts that ship Copilot Chat as a built-in extension (1.100 has no agent mode to test). */
export const AGENT_HOSTS: readonly string[] = ['1.139'];
export type AgentScenario = (typeof AGENT_SCENARIOS)[number];

export function isAgentScenario(name: string): name is AgentScenario {
  return (AGENT_SCENARIOS as readonly string[]).includes(name);
}

export interface AgentOptions {
  readonly timeoutMs: number;
  readonly keep: boolean;
  readonly grep?: string;
  readonly extension: string;
  /** Copy the screenshots the specs mark for the README into media/screenshots/. */
  readonly readmeShots: boolean;
}

type Request = BridgeRequest & { readonly id: number };

const STEP_TIMEOUT = 30_000;

/**
 * The chat's pending confirmation card. VS Code 1.139 shows an extension tool's above the chat input (a "carousel"
 * of pending confirmations), with a collapsed copy in the response; an MCP server's tool asks in the response itself.
 * The input part comes after the responses in the page, so the last visible one is the carousel's where it shows.
 */
function pendingCard(page: Page): Locator {
  return page
    .locator(
      '.interactive-response .chat-tool-invocation-part.has-confirmation .chat-confirmation-widget2, .chat-tool-confirmation-carousel .chat-confirmation-widget2',
    )
    .filter({ visible: true })
    .last();
}

async function cardText(card: Locator): Promise<CardText> {
  const clean = (text: string): string => text.replace(/\u00a0/g, ' ').trim();
  const title = clean(await card.locator('.chat-confirmation-widget-title').first().innerText());
  const message = clean(await card.locator('.chat-confirmation-widget-message').first().innerText());
  const buttons = (await card.locator('.chat-confirmation-widget-buttons .monaco-button').allInnerTexts())
    .map(clean)
    .filter((label) => label !== '');
  return { title, message, buttons };
}

/**
 * Clicks a card's button by its label; labels only in the primary button's drop-down are picked from its menu.
 * Under load a click on a menu item can be lost, leaving the card pending: then it is tried again with the keyboard,
 * on the same card element only (never on a card that came after it), until that card is gone.
 */
async function clickCardButton(page: Page, label: string): Promise<void> {
  const card = pendingCard(page);
  await card.waitFor({ timeout: STEP_TIMEOUT });
  const pinned = await card.elementHandle();
  if (pinned === null) throw new Error(`no pending card to click ${label} on`);
  const exactly = new RegExp(`^\\s*${label}\\s*$`);
  for (let attempt = 1; ; attempt++) {
    const button = card.locator('.chat-confirmation-widget-buttons .monaco-button', { hasText: exactly }).first();
    if ((await button.count()) > 0) {
      await button.click();
    } else {
      await card
        .locator(
          '.chat-confirmation-widget-buttons .monaco-dropdown-button, .chat-confirmation-widget-buttons .monaco-button-dropdown > .monaco-button:last-child',
        )
        .first()
        .click();
      // Only the open menu's items: a menu opened earlier can stay in the page, hidden.
      const item = page
        .locator('.context-view .action-item, .monaco-menu .action-item')
        .filter({ visible: true, hasText: exactly })
        .first();
      await item.waitFor({ timeout: STEP_TIMEOUT });
      if (attempt === 1) await item.click();
      else {
        // A click the open menu did not take (seen under load, with the item highlighted): the keyboard instead,
        // the item focused by hovering it, then Enter.
        await item.hover();
        await page.keyboard.press('Enter');
      }
    }
    const gone = await pinned.waitForElementState('hidden', { timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (gone) return;
    if (attempt === 3) throw new Error(`the card stayed pending after clicking ${label} ${attempt} times`);
    // A menu left open would take the next click; Escape closes it (and is not sent when none is open, since in
    // the chat input it would cancel the request).
    if ((await page.locator('.context-view .monaco-menu').filter({ visible: true }).count()) > 0) await page.keyboard.press('Escape');
  }
}

/** The last response of the chat: each scenario runs in a session of its own, so that is the scenario's. */
function lastResponse(page: Page): Locator {
  return page.locator('.interactive-session .interactive-item-container.interactive-response').last();
}

/** Opens "Completed N steps" and the "Finished with N steps" boxes inside it, where the tool rows are. */
async function expandSteps(page: Page): Promise<void> {
  const response = lastResponse(page);
  await response.waitFor({ timeout: STEP_TIMEOUT });
  const closed = response
    .locator('summary.completed-response-summary[aria-expanded="false"], .chat-used-context-label > a[aria-expanded="false"]')
    .filter({ visible: true });
  // Opening the outer box shows the inner ones: rounds until none is closed (the boxes open as the page renders them).
  for (const deadline = Date.now() + STEP_TIMEOUT; (await closed.count()) > 0;) {
    if (Date.now() > deadline) throw new Error(`a steps box stayed closed for ${STEP_TIMEOUT} ms`);
    // A DOM click: the box's own label overlays the element Playwright would aim at.
    await closed.first().dispatchEvent('click');
    await delay(400);
  }
  await page.mouse.move(0, 0);
}

/** The tool rows of the last response, oldest first: their text and the codicons they show. */
async function toolRows(page: Page): Promise<ToolRow[]> {
  const out: ToolRow[] = [];
  for (const row of await lastResponse(page)
    .locator('.chat-tool-invocation-part .chat-confirmation-widget-title, .chat-tool-invocation-part .progress-container')
    .all()) {
    const text = ((await row.textContent()) ?? '')
      .replace(/\u00a0/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    const icons: string[] = [];
    const shownIcons: string[] = [];
    for (const icon of await row.locator('.codicon').all()) {
      const shown = await icon.isVisible();
      for (const name of ((await icon.getAttribute('class')) ?? '').split(/\s+/)) {
        if (!name.startsWith('codicon-')) continue;
        icons.push(name);
        if (shown) shownIcons.push(name);
      }
    }
    out.push({ text, icons, shownIcons });
  }
  return out;
}

/** The question an MCP server's elicitation put above the chat input, while it waits for an answer. */
function pendingQuestion(page: Page): Locator {
  return page.locator('.chat-question-carousel-container:not(.chat-question-carousel-used)').filter({ visible: true }).last();
}

async function questionText(question: Locator): Promise<QuestionText> {
  const clean = (text: string): string => text.replace(/\u00a0/g, ' ').trim();
  const message = clean(await question.locator('.chat-question-carousel-message').first().innerText());
  const title = clean(await question.locator('.chat-question-title').first().innerText());
  const options = (await question.locator('.chat-question-list-item .chat-question-list-label').allInnerTexts()).map(clean);
  const selected = await question
    .locator('.chat-question-list-item.selected .chat-question-list-label')
    .first()
    .innerText()
    .catch(() => undefined);
  return { message, title, options, selected: selected === undefined ? undefined : clean(selected) };
}

/** Picks `label` among the pending question's options, submits, and waits until the question is answered. */
async function answerQuestion(page: Page, label: string): Promise<void> {
  const question = pendingQuestion(page);
  await question.waitFor({ timeout: STEP_TIMEOUT });
  const pinned = await question.elementHandle();
  if (pinned === null) throw new Error(`no pending question to answer ${label}`);
  const exactly = new RegExp(`^\\s*${label}\\s*$`);
  // Once answered it turns into a summary (class chat-question-carousel-used) or goes away. (The element is typed
  // by hand: this file is compiled without the DOM's types.)
  const answered = async (timeout: number): Promise<boolean> => {
    for (const deadline = Date.now() + timeout; ; await delay(100)) {
      const done = await pinned.evaluate(
        (element: { readonly isConnected: boolean; readonly classList: { contains(name: string): boolean } }) =>
          !element.isConnected || element.classList.contains('chat-question-carousel-used'),
      );
      if (done) return true;
      if (Date.now() > deadline) return false;
    }
  };
  await question
    .locator('.chat-question-list-item', { has: page.locator('.chat-question-list-label', { hasText: exactly }) })
    .first()
    .click();
  // A question with one field is answered by the click itself; with more, the choice waits for Submit.
  if (await answered(2_000)) return;
  await question.locator('.chat-question-list-item.selected', { hasText: exactly }).waitFor({ timeout: STEP_TIMEOUT });
  await question.locator('.chat-question-submit-button').click();
  if (!(await answered(STEP_TIMEOUT))) throw new Error(`the question stayed pending after answering ${label}`);
}

async function handle(page: Page, request: Request, shotsDir: string, options: AgentOptions): Promise<unknown> {
  switch (request.action) {
    case 'card': {
      const card = pendingCard(page);
      await card.waitFor({ timeout: request.timeoutMs ?? STEP_TIMEOUT });
      await card.scrollIntoViewIfNeeded();
      return cardText(card);
    }
    case 'click':
      await clickCardButton(page, request.label);
      return true;
    case 'expand':
      await expandSteps(page);
      return true;
    case 'rows':
      return toolRows(page);
    case 'notifications': {
      // Toasts hide after a while; the notification center keeps them all.
      const texts = await page
        .locator('.notifications-toasts .notification-list-item-message, .notifications-center .notification-list-item-message')
        .allTextContents();
      return [...new Set(texts.map((text) => text.replace(/\u00a0/g, ' ').trim()))];
    }
    case 'html':
      return page.locator('.interactive-session').first().innerHTML();
    case 'question': {
      const question = pendingQuestion(page);
      await question.waitFor({ timeout: request.timeoutMs ?? STEP_TIMEOUT });
      await question.scrollIntoViewIfNeeded();
      return questionText(question);
    }
    case 'answer':
      await answerQuestion(page, request.label);
      return true;
    case 'mode': {
      const picker = page.locator('.interactive-session .chat-mode-picker-item').filter({ visible: true }).first();
      await picker.waitFor({ timeout: STEP_TIMEOUT });
      return (await picker.innerText()).replace(/\u00a0/g, ' ').trim();
    }
    case 'shot': {
      await page.mouse.move(0, 0);
      await delay(300);
      fs.mkdirSync(shotsDir, { recursive: true });
      const file = path.join(shotsDir, `${request.name}.png`);
      await page.screenshot({ path: file });
      if (request.readme === true && options.readmeShots) {
        fs.mkdirSync(README_SHOTS, { recursive: true });
        fs.copyFileSync(file, path.join(README_SHOTS, `${request.name}.png`));
      }
      return file;
    }
  }
}

/**
 * Installs the test model into the launch's extensions folder, as an extension of its own: its manifest beside its
 * compiled files. (The web workbench takes one extensionDevelopmentPath only; and being an extension of its own, not
 * a file under Agent FS's folder, is what lets it declare a model provider Agent FS never ships.) The server finds
 * it when it first initialises the profile's extensions from that folder.
 */
function installModel(dir: string): void {
  if (!fs.existsSync(path.join(MODEL_OUT, 'extension.js')))
    throw new Error(`${path.relative(REPO_ROOT, MODEL_OUT)}/extension.js is missing: run \`npm run build\` first.`);
  const manifest = JSON.parse(fs.readFileSync(path.join(MODEL_SOURCE, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const target = path.join(dir, 'state', 'extensions', `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  fs.mkdirSync(target, { recursive: true });
  fs.copyFileSync(path.join(MODEL_SOURCE, 'package.json'), path.join(target, 'package.json'));
  // Its modules (the model, the notebook kernel) require each other by relative path.
  for (const name of fs.readdirSync(MODEL_OUT).filter((file) => file.endsWith('.js')))
    fs.copyFileSync(path.join(MODEL_OUT, name), path.join(target, name));
}

function userSettings(dir: string): void {
  const settings = {
    // Without it the first request opens "Sign in to use GitHub Copilot" and the turn never starts offline.
    'chat.allowAnonymousAccess': true,
    // Copilot's side requests (titles, progress messages) go to the scripted model too, and no banner asks for one.
    'chat.byokUtilityModelDefault': 'mainAgent',
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
  };
  const file = path.join(dir, 'state', 'user-data', 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

/**
 * Marks the built-in chat's enablement migration as done, as in a profile that has used the chat before. Runs in
 * the page (as a string: this file is compiled without the DOM's types).
 */
const SEED_STORAGE = `new Promise((resolve, reject) => {
  const name = 'vscode-web-state-db-global';
  const put = (db) => {
    const tx = db.transaction('ItemTable', 'readwrite');
    tx.objectStore('ItemTable').put('true', 'builtinChatExtensionEnablementMigration');
    tx.oncomplete = () => { db.close(); resolve(true); };
    tx.onerror = () => reject(tx.error);
  };
  const open = indexedDB.open(name);
  open.onupgradeneeded = () => open.result.createObjectStore('ItemTable');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    if (db.objectStoreNames.contains('ItemTable')) return put(db);
    const version = db.version + 1;
    db.close();
    const upgrade = indexedDB.open(name, version);
    upgrade.onupgradeneeded = () => upgrade.result.createObjectStore('ItemTable');
    upgrade.onerror = () => reject(upgrade.error);
    upgrade.onsuccess = () => put(upgrade.result);
  };
})`;

async function seedStorage(page: Page): Promise<void> {
  await page.evaluate(SEED_STORAGE);
}

export async function runAgentChecks(host: HostSpec, scenario: AgentScenario, options: AgentOptions): Promise<Outcome> {
  const label = `it ${host.id} ${scenario}`;
  const started = Date.now();
  const say = (line: string): void => void process.stdout.write(`[${label}] ${line}\n`);
  say(`VS Code ${host.vscodeVersion}: Copilot agent mode with a scripted model`);
  const windowLog: string[] = [];
  const launch: SuiteLaunch = { label, vscode: host.vscodeVersion, started, windowLog, say };
  let result: SuiteResult | undefined;
  let onExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => {
    onExit = resolve;
  });
  let page: Page | undefined;
  let bridgeDir = '';
  let shotsDir = '';
  // Requests are answered one at a time, in the order the specs made them.
  let queue = Promise.resolve();
  const answer = (request: Request): void => {
    queue = queue.then(async () => {
      let reply: { ok: true; value: unknown } | { ok: false; error: string };
      try {
        if (!page) throw new Error('the page is not open yet');
        reply = { ok: true, value: await handle(page, request, shotsDir, options) };
      } catch (error) {
        reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
        // What the window showed when the page could not do it says more than the selector that timed out.
        await page?.screenshot({ path: path.join(shotsDir, `failed-${request.id}-${request.action}.png`) }).catch(() => undefined);
      }
      const file = path.join(bridgeDir, `${request.id}.json`);
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(reply));
      fs.renameSync(`${file}.tmp`, file);
    });
  };
  try {
    const exitCode = await withLaunch(
      {
        host,
        label,
        trust: scenario === 'agent-untrusted',
        timeoutMs: options.timeoutMs,
        keep: options.keep,
        prepare: async (dir) => {
          bridgeDir = path.join(dir, 'bridge');
          shotsDir = path.join(dir, 'shots');
          fs.mkdirSync(bridgeDir, { recursive: true });
          const home = path.join(dir, 'home');
          fs.mkdirSync(home, { recursive: true });
          const folder = path.join(dir, 'ws', 'project');
          fs.mkdirSync(folder, { recursive: true });
          // A workspace custom agent whose tools are the agentfs set alone, there before the window opens: VS Code
          // finds a workspace's agent files when it starts, and one written later may be noticed only much later.
          if (scenario === 'agent') {
            fs.mkdirSync(path.join(folder, '.github', 'agents'), { recursive: true });
            fs.writeFileSync(path.join(folder, '.github', 'agents', 'agentfs-set.agent.md'), TOOL_SET_AGENT);
          }
          userSettings(dir);
          installModel(dir);
          const env: Record<string, string> = { AGENTFS_IT_SCENARIO: scenario, AGENTFS_AGENT_BRIDGE: bridgeDir, HOME: home };
          if (options.grep !== undefined) env.AGENTFS_IT_GREP = options.grep;
          if (scenario !== 'vscode-mcp' && scenario !== 'vscode-mcp-http') return { target: { folder }, env };
          // VS Code's own MCP client, and Agent FS itself not loaded: an empty extension carries the tests. The
          // workspace's .vscode/mcp.json holds the entry "Connect Another Agent…" writes (and the README gives): over
          // stdio the server's command line; over HTTP its URL and token, the launch having started the server.
          const state = path.join(dir, 'mcp-state');
          const server = path.join(REPO_ROOT, 'dist', 'mcp.js');
          fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
          const prepared = {
            env: { ...env, AGENTFS_IT_REPO: REPO_ROOT },
            extensionDevelopmentPath: writeHarness(path.join(dir, 'harness')),
          };
          if (scenario === 'vscode-mcp') {
            const entry = connectSnippets(serverCommand(server, [folder], state), process.platform).find(
              (snippet) => snippet.id === 'vscode',
            );
            if (!entry) throw new Error('the Connect command has no VS Code entry');
            fs.writeFileSync(path.join(folder, '.vscode', 'mcp.json'), entry.text);
            return { target: { folder }, ...prepared };
          }
          // As the Connect command has it: the state folder's token, taken by the server started on that folder,
          // and VS Code's entry with the URL and the token; only the port is the server's own pick.
          const token = stateToken(state);
          if (typeof token === 'string') throw new Error(token);
          const logFile = path.join(dir, 'mcp-http.log');
          const served = await serveHttp(server, ['--http', '127.0.0.1:0', '--root', folder, '--state', state], { logFile });
          const entry = connectSnippets(serverCommand(server, [folder], state), process.platform, {
            port: served.port,
            token: token.token,
          }).find((snippet) => snippet.id === 'vscode-http');
          if (!entry) throw new Error('the Connect command has no VS Code entry over HTTP');
          fs.writeFileSync(path.join(folder, '.vscode', 'mcp.json'), entry.text);
          say(`MCP server over HTTP at ${served.url}`);
          return {
            target: { folder },
            ...prepared,
            // The test reads the server's log: it names each client once, with the protocol revision it spoke.
            env: { ...prepared.env, AGENTFS_IT_MCP_LOG: logFile },
            stop: () => served.stop(),
          };
        },
        editor: { extensionDevelopmentPath: options.extension, extensionTestsPath: COMPILED_SUITE },
        open: {
          viewport: { width: 1400, height: 900 },
          beforeLoad: (newPage) => seedStorage(newPage),
          onLog: (_level, message) => {
            if (!message.startsWith(MARKER)) {
              if (windowLog.push(message) > 200) windowLog.shift();
              return;
            }
            for (const line of message.split('\n')) {
              const text = line.startsWith(MARKER) ? line.slice(MARKER.length) : line;
              if (text.startsWith('RESULT ')) result = JSON.parse(text.slice('RESULT '.length)) as SuiteResult;
              else if (text.startsWith('UI ')) answer(JSON.parse(text.slice('UI '.length)) as Request);
              else process.stdout.write(`  ${text}\n`);
            }
          },
          onExit: (code) => onExit(code),
        },
      },
      async ({ editor }) => {
        page = editor.page;
        return exited;
      },
      (code) => code === 0 && result !== undefined && result.failed === 0,
    );
    return finishedOutcome(launch, exitCode, result);
  } catch (error) {
    return failedOutcome(launch, error, result);
  }
}
